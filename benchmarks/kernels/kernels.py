"""Numeric kernels in plain Python, written once and run unchanged by CPython, moshjit and Numba.

Each kernel builds its own data from scalar arguments (so no run pays for converting inputs) and returns a
number or a small list, which the benchmark compares across the three runs. ``CASES`` gives the arguments.
"""
import math


def nbody(steps, n):
    """Gravitational n-body simulation with flat per-coordinate lists; returns the final energy."""
    xs = [math.cos(i * 1.7) * (1.0 + i) for i in range(n)]
    ys = [math.sin(i * 1.3) * (1.0 + i) for i in range(n)]
    zs = [math.sin(i * 0.7) for i in range(n)]
    vxs = [0.0] * n
    vys = [0.0] * n
    vzs = [0.0] * n
    masses = [1.0 + (i % 3) for i in range(n)]
    dt = 0.001
    for _ in range(steps):
        for i in range(n):
            for j in range(i + 1, n):
                dx = xs[i] - xs[j]
                dy = ys[i] - ys[j]
                dz = zs[i] - zs[j]
                d2 = dx * dx + dy * dy + dz * dz + 0.01
                mag = dt / (d2 * math.sqrt(d2))
                mi = masses[i] * mag
                mj = masses[j] * mag
                vxs[i] -= dx * mj
                vys[i] -= dy * mj
                vzs[i] -= dz * mj
                vxs[j] += dx * mi
                vys[j] += dy * mi
                vzs[j] += dz * mi
        for i in range(n):
            xs[i] += dt * vxs[i]
            ys[i] += dt * vys[i]
            zs[i] += dt * vzs[i]
    energy = 0.0
    for i in range(n):
        energy += 0.5 * masses[i] * (vxs[i] * vxs[i] + vys[i] * vys[i] + vzs[i] * vzs[i])
        for j in range(i + 1, n):
            dx = xs[i] - xs[j]
            dy = ys[i] - ys[j]
            dz = zs[i] - zs[j]
            energy -= masses[i] * masses[j] / math.sqrt(dx * dx + dy * dy + dz * dz + 0.01)
    return energy


def eval_a(i, j):
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def spectral_norm(n):
    """The spectral norm of the infinite matrix A(i, j) = 1 / ((i+j)(i+j+1)/2 + i + 1), truncated to n x n."""
    u = [1.0] * n
    v = [0.0] * n
    tmp = [0.0] * n
    for _ in range(10):
        for i in range(n):
            total = 0.0
            for j in range(n):
                total += eval_a(i, j) * u[j]
            tmp[i] = total
        for i in range(n):
            total = 0.0
            for j in range(n):
                total += eval_a(j, i) * tmp[j]
            v[i] = total
        for i in range(n):
            total = 0.0
            for j in range(n):
                total += eval_a(i, j) * v[j]
            tmp[i] = total
        for i in range(n):
            total = 0.0
            for j in range(n):
                total += eval_a(j, i) * tmp[j]
            u[i] = total
    vbv = 0.0
    vv = 0.0
    for i in range(n):
        vbv += u[i] * v[i]
        vv += v[i] * v[i]
    return math.sqrt(vbv / vv)


def fannkuch(n):
    """Maximum number of pancake flips over all permutations of 0..n-1, and the checksum."""
    perm1 = list(range(n))
    count = [0] * n
    perm = [0] * n
    max_flips = 0
    checksum = 0
    permutation = 0
    r = n
    while True:
        while r != 1:
            count[r - 1] = r
            r -= 1
        for i in range(n):
            perm[i] = perm1[i]
        flips = 0
        k = perm[0]
        while k != 0:
            i = 0
            j = k
            while i < j:
                perm[i], perm[j] = perm[j], perm[i]
                i += 1
                j -= 1
            flips += 1
            k = perm[0]
        if flips > max_flips:
            max_flips = flips
        checksum += flips if permutation % 2 == 0 else -flips
        while True:
            if r == n:
                return max_flips, checksum
            first = perm1[0]
            for i in range(r):
                perm1[i] = perm1[i + 1]
            perm1[r] = first
            count[r] -= 1
            if count[r] > 0:
                break
            r += 1
        permutation += 1


def sieve(n):
    """Number of primes below n (sieve of Eratosthenes over a list of flags)."""
    flags = [True] * n
    flags[0] = False
    flags[1] = False
    i = 2
    while i * i < n:
        if flags[i]:
            for j in range(i * i, n, i):
                flags[j] = False
        i += 1
    count = 0
    for flag in flags:
        if flag:
            count += 1
    return count


def mandelbrot(size, max_iter):
    """Points of a size x size grid over [-2, 1] x [-1.5, 1.5] that stay bounded for max_iter steps."""
    inside = 0
    for row in range(size):
        ci = -1.5 + 3.0 * row / size
        for col in range(size):
            cr = -2.0 + 3.0 * col / size
            zr = 0.0
            zi = 0.0
            k = 0
            while k < max_iter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                k += 1
            if k == max_iter:
                inside += 1
    return inside


def collatz(limit):
    """The start below limit with the longest Collatz sequence, and that length."""
    best, best_start = 0, 1
    for start in range(1, limit):
        n = start
        steps = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        if steps > best:
            best, best_start = steps, start
    return best_start, best


def queens(n, row, columns, diagonals, anti_diagonals):
    if row == n:
        return 1
    total = 0
    free = ~(columns | diagonals | anti_diagonals) & ((1 << n) - 1)
    while free:
        bit = free & -free
        free -= bit
        total += queens(n, row + 1, columns | bit, (diagonals | bit) << 1, (anti_diagonals | bit) >> 1)
    return total


def nqueens(n):
    """Number of ways to place n queens on an n x n board (recursive, with bit masks)."""
    return queens(n, 0, 0, 0, 0)


def integrate(n):
    """Midpoint rule for the integral of exp(-x^2) * cos(3x) + log1p(x) * sin(x) over [0, 4]."""
    h = 4.0 / n
    total = 0.0
    for i in range(n):
        x = (i + 0.5) * h
        total += math.exp(-x * x) * math.cos(3.0 * x) + math.log1p(x) * math.sin(x)
    return total * h


CASES = [
    (nbody, (20, 60)),
    (spectral_norm, (120,)),
    (fannkuch, (8,)),
    (sieve, (300_000,)),
    (mandelbrot, (120, 60)),
    (collatz, (60_000,)),
    (nqueens, (9,)),
    (integrate, (300_000,)),
]


def factorial(n):
    """n! as a product loop: beyond 20! the ints leave 64 bits (benchmarks the deoptimisation, not a kernel)."""
    product = 1
    for i in range(2, n + 1):
        product *= i
    return product

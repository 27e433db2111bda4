"""Functions the LLVM backend compiles natively, grouped by construct; the tests run each one with
``backend="llvm"`` (so a function that stops being native fails loudly) against CPython."""
import math


# ---- ints -----------------------------------------------------------------------------------------------------
def i_add(a, b):
    return a + b


def i_sub(a, b):
    return a - b


def i_mul(a, b):
    return a * b


def i_floordiv(a, b):
    return a // b


def i_mod(a, b):
    return a % b


def i_truediv(a, b):
    return a / b


def i_divmod(a, b):
    return divmod(a, b)


def i_neg(a):
    return -a


def i_abs(a):
    return abs(a)


def i_pow(a, b):
    if b >= 0:
        return a ** b, 0.0
    return 0, a ** b          # a negative exponent gives a float


def i_lshift(a, b):
    return a << b


def i_rshift(a, b):
    return a >> b


def i_bits(a, b):
    return a & b, a | b, a ^ b, ~a


def i_compare(a, b):
    return a < b, a <= b, a == b, a != b, a > b, a >= b, a < b < 100


def i_mixed_bool(a, flag):
    return a + flag, flag * 3, -flag, flag & True, flag | False


def i_and_or(a, b):
    return (a and b) or 7, a or b, a and b, not a


# ---- floats ---------------------------------------------------------------------------------------------------
def f_arith(x, y):
    return x + y, x - y, x * y, -x, +x, abs(x)


def f_div(x, y):
    return x / y


def f_floordiv(x, y):
    return x // y


def f_mod(x, y):
    return x % y


def f_divmod(x, y):
    return divmod(x, y)


def f_pow_int(x, n):
    return x ** n


def f_pow_float(x, y):
    return abs(x) ** y, (x * x) ** y, math.sqrt(abs(y)) ** x, x ** 3.0


def f_square(x):
    return x ** 2.0, x ** 2, 2 ** -3, 10 ** -2


def f_compare(x, y):
    return x < y, x <= y, x == y, x != y, x > y, x >= y


def mixed_compare(a, x):
    return a < x, a <= x, a == x, a != x, a > x, a >= x


def mixed_arith(a, x):
    return a + x, a * x, x - a


def f_convert(x):
    return int(x), round(x), math.floor(x), math.ceil(x), math.trunc(x)


def f_truth(x):
    return bool(x), not x, 1 if x else 2


def i_to_float(a):
    return float(a), a / 3, float(a) == a


def m_sqrt(x):
    return math.sqrt(x)


def m_exp(x):
    return math.exp(x)


def m_log(x):
    return math.log(x)


def m_log_base(x, base):
    return math.log(x, base)


def m_log2_10_1p(x):
    return math.log2(x) if x > 1.0 else math.log10(x) if x > 0.5 else math.log1p(x)


def m_trig(x):
    return math.sin(x), math.cos(x), math.tan(x), math.atan(x), math.tanh(x)


def m_inverse_trig(x):
    return math.asin(x) + math.acos(x)


def m_hyperbolic(x):
    return math.sinh(x), math.cosh(x)


def m_two_args(x, y):
    return math.atan2(x, y), math.copysign(x, y), math.fmod(x, y)


def m_pow(x, y):
    return math.pow(x, y)


def m_tests(x):
    return math.isnan(x), math.isinf(x), math.isfinite(x), math.fabs(x), math.degrees(x), math.radians(x)


def m_constants(r):
    return math.pi * r * r, math.e, math.tau, math.inf > r


def m_gcd(a, b):
    return math.gcd(a, b)


def m_int_args(a):
    return math.sqrt(a), math.exp(a % 50), math.floor(a), math.ceil(a)


# ---- control flow -----------------------------------------------------------------------------------------------
def c_loops(n):
    total = 0
    for i in range(0, n, 3):
        total += i * 2
    for i in range(n, 0, -2):
        total -= i
    j = 0
    while j < n:
        j += 1
        if j % 5 == 0:
            continue
        if j > 40:
            break
        total += j
    else:
        total = -total
    for k in range(n):
        if k == 7:
            break
    else:
        total += 1000
    return total


def c_range(a, b, c):
    total = 0
    count = 0
    for i in range(a, b, c):
        total += i
        count += 1
    return total, count, len(range(a, b, c)), a in range(a, b, c), 3 in range(a, b, c)


def c_early_return(n):
    for i in range(n):
        if i * i > n:
            return i
    return -1


def c_nested(n):
    total = 0
    for i in range(n):
        for j in range(i):
            if (i + j) % 3 == 0:
                continue
            total += i * j
    return total


def c_while_else(n):
    i = 0
    while i < n:
        if i == 13:
            break
        i += 2
    else:
        return -i
    return i


def c_min_max(a, b, c):
    return min(a, b), max(a, b, c), min(c, a), max(b, 3)


def c_float_min_max(x, y):
    return min(x, y), max(x, y), min(y, x), max(y, x)


# ---- lists ------------------------------------------------------------------------------------------------------
def l_read(xs, i):
    return xs[i], xs[-1], len(xs), xs[0] + xs[len(xs) - 1]


def l_aggregates(xs):
    return sum(xs), min(xs), max(xs), len(xs), 3 in xs, 3 not in xs, xs.count(2)


def l_sum_only(xs):
    total = 0
    for x in xs:
        total += x
    return total, sum(xs)


def l_build(n):
    squares = [i * i for i in range(n)]
    odd = [x for x in squares if x % 2]
    zeros = [0] * n
    out = []
    for i in range(n):
        out.append(i * 3)
    return squares, odd, zeros, out, [n, n + 1, -n]


def l_slices(xs, i, j, k):
    return xs[i:j], xs[i:], xs[:j], xs[::-1], xs[i:j:k], xs[::k]


def l_mutate(xs, v):
    xs.append(v)
    xs[0] = v * 2
    last = xs.pop()
    xs.insert(1, last)
    xs.extend([v, v + 1])
    first = xs.pop(0)
    xs.reverse()
    return first, last, len(xs)


def l_sort_copy(xs):
    ys = xs.copy()
    ys.sort()
    zs = list(xs)
    zs.clear()
    return ys, zs, list(range(3))


def l_concat(xs, ys):
    zs = xs + ys
    ws = xs * 2
    vs = 3 * ys
    xs += ys
    return zs, ws, vs, xs == zs, xs != ys, xs < ys


def l_nested(n):
    grid = [[i * j for j in range(n)] for i in range(n)]
    rows = []
    for i in range(n):
        row = [0] * n
        row[i] = 1
        rows.append(row)
    total = 0
    for row in grid:
        for x in row:
            total += x
    return grid, rows, total, grid[n - 1][n - 1] if n else 0


def l_floats(xs):
    total = 0.0
    for x in xs:
        total += x * 0.5
    return total, sum(xs, 0.0), max(xs) if xs else 0.0, [x * 2.0 for x in xs]


def l_bools(flags):
    count = 0
    for f in flags:
        if f:
            count += 1
    return count, [not f for f in flags], True in flags


def l_unpack(xs):
    a, b = xs
    return b, a


def l_enumerate_zip(xs, ys):
    total = 0
    for i, x in enumerate(xs):
        total += i * x
    for i, x in enumerate(xs, 10):
        total -= i
    for a, b in zip(xs, ys):
        total += a * b
    pairs = [a - b for a, b in zip(xs, ys)]
    return total, pairs


def l_reversed(xs, n):
    out = []
    for x in reversed(xs):
        out.append(x)
    for i in reversed(range(n)):
        out.append(i)
    return out


def l_index_assign(n, i):
    out = [0] * n
    out[i] = 5
    out[-1] += 1
    return out


def l_list_of_lists_arg(rows):
    total = 0
    for row in rows:
        total += sum(row)
    return total, len(rows)


# ---- BERT numeric helpers: the pipeline's own functions --------------------------------------------------------
from benchmarks.bert.pipeline import build_attention_mask, build_token_type_ids, pad, truncate_pair  # noqa: E402,F401


# ---- tuples -----------------------------------------------------------------------------------------------------
def t_pack(a, b):
    t = (a, b, a * b)
    x, y, z = t
    u = t + (1.5,)
    return (y, x), z, t[1], t[-1], len(t), u


def t_arg(t):
    a, b = t
    total = 0
    for x in t:
        total += x
    return t[0] - t[1], total, len(t), t, b in t


def t_mixed_arg(t):
    n, x, flag = t
    return x * n if flag else -x


def t_swap(a, b):
    a, b = b, a
    return a, b


# ---- calls between jitted functions -----------------------------------------------------------------------------
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def parity(n):
    return is_even(n), is_odd(n)


def scaled(x, factor=2, offset=0):
    total = 0
    for i in range(x):
        total += i * factor + offset
        if total > 10 ** 6:
            break
    return total


def call_helpers(n):
    return scaled(n), scaled(n, 3), scaled(n, offset=1), scaled(x=n, factor=0)


def sum_list(xs):
    total = 0
    for x in xs:
        total += x
    return total


def call_with_list(n):
    xs = [i for i in range(n)]
    return sum_list(xs) + sum_list([1, 2, 3])


def recursive_sum(xs, i):
    if i >= len(xs):
        return 0
    return xs[i] + recursive_sum(xs, i + 1)


# ---- exceptions -------------------------------------------------------------------------------------------------
def e_raise(x):
    if x > 10:
        raise ValueError("too big")
    if x < -10:
        raise KeyError
    if x == 7:
        raise IndexError()
    assert x != 3, "three is not allowed"
    assert x != 4
    return x


def e_index(xs, i):
    return xs[i]


def e_assign_index(xs, i):
    xs[i] = 0
    return xs


def e_pop(xs):
    return xs.pop()


def e_empty_min(xs):
    return min(xs)


def e_overflow_line(a, divisor=1):
    b = a + 1
    c = b * a
    return c // divisor


def e_nested_call(n):
    return fib(n) // (n - 5)


def e_range_step(n, step):
    total = 0
    for i in range(0, n, step):
        total += i
    return total


def e_returns_none(xs):
    xs.append(1)


def e_none_compare(a):
    x = None
    return x is None, x == None, x != None, a == x  # noqa: E711


# ---- list expressions built in one allocation ------------------------------------------------------------------
def l_fused(xs, ys, n, v):
    early = xs[1:3]
    xs.append(v)                  # between the slice and its use: the slice must not be deferred past it
    built = [v] * n + xs + [v, n] + ys[:2] + [0] * (n - 1)
    return early + ys, built, [v] * n


def l_fused_rows(n):
    row = [0] * 3
    grid = [row] * n + [[1, 2]]
    row[0] = 7                    # every copy of the row is the same list
    return grid


# ---- lists that never leave the function (unboxed native lists) --------------------------------------------------
def n_local_ints(n, i, v):
    xs = [0] * n
    for k in range(n):
        xs[k] = k * v
    ys = xs + [v, v + 1]
    ys.append(-v)
    ys += [1, 2]
    ys.extend(xs[1:3])
    zs = ys[::2]
    first = ys.pop(0) if ys else 0
    last = ys.pop() if ys else 0
    ys.reverse()
    total = 0
    for j, y in enumerate(ys):
        total += j * y
    for a, b in zip(xs, reversed(ys)):
        total -= a * b
    picked = ys[i] if -len(ys) <= i < len(ys) else 0
    return (total, first, last, picked, len(zs), sum(zs), v in ys, ys.count(v), max(ys) if ys else 0,
            min(zs) if zs else 0)


def n_local_errors(n, i):
    xs = list(range(n))
    xs[i] = 5                     # IndexError when i is out of range
    return xs[-1] + sum(xs)


def n_local_floats(n, x):
    acc = [0.0] * n
    for k in range(n):
        acc[k] += x * k
    copy = acc.copy()
    copy.clear()
    return sum(acc, 0.0), max(acc) if acc else 0.0, len(copy), [1, n] == [1, n]


def n_local_bools(n):
    flags = [True] * n
    for k in range(0, n, 3):
        flags[k] = False
    count = 0
    for flag in flags:
        if flag:
            count += 1
    return count, True in flags, not flags


def n_pop_empty(n):
    xs = [1] * n
    return xs.pop()


# ---- module globals (read at call time, types assumed when compiling) --------------------------------------------
LIMIT = 10
SCALE = 2.5
ENABLED = True


def g_constants(n):
    total = 0.0
    for i in range(min(n, LIMIT)):
        total += i * SCALE
    return total if ENABLED else -1.0


def b_invert(flag):
    return ~flag                # native up to 3.11; 3.12 warns (cpython.BOOL_INVERT_WARNS)

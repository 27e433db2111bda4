"""Functions whose ints leave 64 bits at chosen points, with every kind of native state live there (iterators,
native lists, tuples, list arguments, arrays), for the deoptimisation tests. Each one is plain Python: CPython is
the oracle."""
import math


# ---- the cases of issue 11 ---------------------------------------------------------------------------------------
def fact(n):
    r = 1
    for i in range(1, n + 1):
        r *= i
    return r


def product(a, b):
    return a * b


def product_over(a, b):
    return (a * b) // b


def negate(a):
    return -a


def magnitude(a):
    return abs(a)


def shift(a, b):
    return a << b


def overflow_then_error(a, b):
    c = a * b
    d = c + 1
    return d // (b - b)


def overflow_then_index_error(xs, a):
    big = a * a
    return xs[len(xs) + big % 2 + 5]


# ---- values beyond 64 bits made by other operations ---------------------------------------------------------------
def power(a, b):
    return a ** (b % 100)


def floor_div(a, b):
    return a // b, divmod(a, b)


def from_float(x):
    return int(x), round(x), math.floor(x), math.ceil(x), math.trunc(x)


def total(xs):
    return sum(xs) + 1


def common_divisor(a, b):
    return math.gcd(a, b)


def counted(xs, start):
    out = []
    for i, x in enumerate(xs, start):
        out.append(x)
        if i > 0:
            out.append(i - 1)
    return out


# ---- live state at the failing point -----------------------------------------------------------------------------
def in_range_loop(n, step, scale):
    acc = 1
    seen = 0
    for i in range(1, n, step):
        acc = acc * scale + i
        seen += 1
    return acc, seen


def in_reversed_range(n, scale):
    acc = 0
    for i in reversed(range(n)):
        acc = acc * scale + i
    return acc


def over_list(xs, scale):
    acc = 0
    count = 0
    for x in xs:
        acc = acc * scale + x
        count += 1
    xs.append(count)
    return acc


def over_reversed_list(xs, scale):
    acc = 0
    for x in reversed(xs):
        acc = acc * scale + x
    return acc


def over_tuple(a, b, c, scale):
    acc = 0
    for x in (a, b, c):
        acc = acc * scale + x
    return acc


def with_native_list(n, scale):
    squares = []
    for i in range(n):
        squares.append(i * i)
    acc = 0
    for s in squares:
        acc = acc * scale + s
        squares[0] = squares[0] + 1
    return acc, len(squares), squares[0]


def growing_native_list(n, scale):
    a = [1, 2, 3]
    for i in range(n):
        a.append(i * scale)
    a.append(n)
    return a[len(a) - 2] * scale, len(a)


def enumerated_zip(xs, ys, scale):
    acc = 0
    for i, (x, y) in enumerate(zip(xs, ys)):
        acc = acc * scale + x * y + i
    return acc


def tuple_state(a, b):
    pair = (a, b)
    prod = a * b
    return pair, prod, pair[0] - pair[1]


def mutates_then_overflows(xs, a):
    xs.append(a)
    xs[0] = a + 1
    big = a * a * a
    xs.append(len(xs))
    return big


def fused_lists(ids, n, pad):
    return ids + [pad] * (n - len(ids)), n * pad


# ---- calls -------------------------------------------------------------------------------------------------------
def cube(x):
    return x * x * x


def cube_plus(x, k):
    return cube(x) + k


def squared_then_reduced(x):
    y = x * x
    return y % 1000003


def calls_reducer(x, k):
    return squared_then_reduced(x) + k


def appends_square(xs, v):
    xs.append(v * v)
    return len(xs)


def calls_appender(xs, v):
    n = appends_square(xs, v)
    return n + len(xs), xs[len(xs) - 1]


def fact_rec(n):
    if n <= 1:
        return 1
    return n * fact_rec(n - 1)


def depth(n):
    if n == 0:
        return 0
    return depth(n - 1) + 1


def depth_overflowing(n, scale):
    if n == 0:
        return scale
    return depth_overflowing(n - 1, scale) * 3 + 1


# ---- arrays ------------------------------------------------------------------------------------------------------
def array_rows(a, scale):
    acc = 1
    even = 0
    for row in a:
        for x in row:
            acc = acc * scale + 1
            if x % 2 == 0:
                even += 1
    return acc, even

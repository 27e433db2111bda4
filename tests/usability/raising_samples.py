"""Functions that raise at a known line, for comparing tracebacks through compiled code with CPython's."""
import math
import unicodedata

LIMIT = 3


def key_error(d, k):
    total = 0
    total += d[k]
    return total


def index_error(xs, i):
    return xs[i] + 1


def zero_division(a, b):
    c = a + 1
    return c // b


def float_zero_division(x, y):
    z = x * 2.0
    return z / y


def attribute_error(s):
    n = len(s)
    return s.no_such_method(n)


def type_error(a, b):
    text = str(a)
    return text + b


def unpack_error(pair):
    left, right = pair
    return left


def explicit_raise(word):
    if word == "bad":
        raise ValueError(f"bad word: {word}")
    return word.upper()


def failed_assert(n):
    assert n > LIMIT, "too small"
    return n


def unbound_local(flag):
    if flag:
        value = 1
    return value


def in_loop(words):
    out = []
    for w in words:
        out.append(w[0])
    return out


def from_library(x):
    y = x - 1.0
    return math.sqrt(y)


def from_unicodedata(text):
    names = []
    for ch in text:
        names.append(unicodedata.name(ch))
    return names


def reraised(d, k):
    try:
        return d[k]
    except KeyError:
        raise


def chained(d, k):
    try:
        return d[k]
    except KeyError as exc:
        raise LookupError(f"missing {k}") from exc


def int_overflow_to_python(n):
    total = 1
    for i in range(n):
        total *= 1000
    return total + [][0]


def first_letter(word):
    return word[0]


def calls_helper(words):
    out = []
    for w in words:
        out.append(first_letter(w))
    return out


def first_item(numbers):
    return numbers[0]


def sums_first_items(rows):
    total = 0
    for row in rows:
        total += first_item(row)
    return total


def down_to_three(n):
    """Calls itself twice (in place, on the Cython backend, once its global name is the jitted function) down to
    3, where it divides by zero."""
    if n == 3:
        return 1 // (n - 3)
    return n if n < 2 else down_to_three(n - 1) + down_to_three(n - 2)


CASES = [
    (key_error, ({"a": 1}, "b")),
    (index_error, ([1, 2], 5)),
    (zero_division, (3, 0)),
    (float_zero_division, (1.5, 0.0)),
    (attribute_error, ("abc",)),
    (type_error, (1, 2)),
    (unpack_error, ((1, 2, 3),)),
    (explicit_raise, ("bad",)),
    (failed_assert, (1,)),
    (unbound_local, (False,)),
    (in_loop, (["a", ""],)),
    (from_library, (0.0,)),
    (from_unicodedata, ("a\x00",)),
    (reraised, ({}, "k")),
    (chained, ({}, "k")),
    (int_overflow_to_python, (30,)),
]

"""Numbers in the Cython backend are CPython's, bit for bit: an int64 compared with a float exactly (never through a
rounded double), ``max``/``min`` of mixed kinds return the winning object itself, Python-object arithmetic does
not take Cython's fast paths (``0 + -0.0``, ``2.0 % inf``), constant expressions that raise in CPython raise at
run time (never folded to ``inf``), and a huge constant expression compiles quickly."""
from __future__ import annotations

import math
import struct

import pytest
from hypothesis import given, settings, strategies as hs

import moshjit

EDGE_FLOATS = [0.0, -0.0, 0.5, -0.5, 1.0, 2.0 ** 53, -(2.0 ** 53), 2.0 ** 53 + 2, 2.0 ** 63, -(2.0 ** 63),
               2.0 ** 64, 1e300, math.inf, -math.inf, math.nan, -math.nan, 9007199254740993.0, 1.5]
EDGE_INTS = [0, 1, -1, 2 ** 53, 2 ** 53 + 1, -(2 ** 53) - 1, 2 ** 53 - 1, 2 ** 62, 2 ** 63 - 1, -(2 ** 63), 10, 7]


def canonical(value):
    """A value with float bits spelled out (-0.0 vs 0.0, a NaN's sign) and its exact type."""
    if isinstance(value, float):
        return ("float", struct.pack("<d", value).hex() if value == value else ("nan", math.copysign(1, value)))
    if isinstance(value, tuple):
        return tuple(canonical(v) for v in value)
    return (type(value).__name__, value)


def outcome(fn, *args):
    try:
        return ("ok", canonical(fn(*args)))
    except Exception as exc:
        return (type(exc).__name__, str(exc))


def agree(jitted, *args):
    assert outcome(jitted, *args) == outcome(jitted.py_func, *args), args


def compare_all(a, b):
    return (a == b, a != b, a < b, a <= b, a > b, a >= b)


def extremes(a, b):
    return (max(a, b), min(a, b), max(b, a), min(b, a))


def arithmetic(a, b):
    return (a + b, b + a, a - b, b - a, a * b)


jit_compare = moshjit.jit(compare_all, backend="cython")
jit_extremes = moshjit.jit(extremes, backend="cython")
jit_arithmetic = moshjit.jit(arithmetic, backend="cython")


@pytest.mark.parametrize("fn", [jit_compare, jit_extremes, jit_arithmetic], ids=lambda f: f.py_func.__name__)
def test_int64_and_float_edges(fn):
    for i in EDGE_INTS:
        for f in EDGE_FLOATS:
            agree(fn, i, f)
            agree(fn, f, i)


@settings(max_examples=200, deadline=None)
@given(hs.integers(-(2 ** 63), 2 ** 63 - 1), hs.floats(allow_nan=True, allow_infinity=True))
def test_int64_and_float_compare_exactly(i, f):
    agree(jit_compare, i, f)
    agree(jit_compare, f, i)
    agree(jit_compare, i, float(i))                   # the rounded neighbour of the int itself
    agree(jit_extremes, i, float(i))


def rounded_plus(x, y):
    return round(x) + y


def constant_remainder():
    return round((2.0 % math.inf) * 2e16)


def remainder_by(x):
    return (2.0 % x, x % 2.0, -2.0 % x)


def int_zero_and_float(x):
    return (0 + x, x + 0, 0 - x, x - 0, 0 * x, x * 0)


def copysigns(x, y):
    return (math.copysign(x, y), math.copysign(1.0, x), -x, abs(x))


def huge_power():
    return 1e300 ** 3


def zero_to_negative():
    return 0.0 ** -2


def big_floordiv(x):
    return (2 ** 62 ** 4) // x > 0


@pytest.mark.parametrize("fn, inputs", [
    (rounded_plus, [(0.1, -0.0), (-0.4, -0.0), (0.6, -0.0), (0.1, 0.0)]),
    (constant_remainder, [()]),
    (remainder_by, [(math.inf,), (-math.inf,), (3.0,), (-0.0,), (math.nan,)]),
    (int_zero_and_float, [(-0.0,), (0.0,), (math.inf,), (math.nan,), (-1.5,)]),
    (copysigns, [(math.nan, -1.0), (-math.nan, 1.0), (math.nan, math.nan), (-0.0, -math.nan), (1.0, -0.0)]),
    (huge_power, [()]),
    (zero_to_negative, [()]),
    (big_floordiv, [(3,), (-1,)]),
], ids=lambda x: getattr(x, "__name__", ""))
def test_cases_from_the_issue(fn, inputs):
    jitted = moshjit.jit(fn, backend="cython")
    for args in inputs:
        agree(jitted, *args)


@pytest.mark.parametrize("op", ["/", "//", "%"])
def test_zero_division_messages_are_cpythons_per_operator(op):
    namespace = {}
    exec(f"def divide(a, b):\n    return a {op} b\n", namespace)
    jitted = moshjit.jit(namespace["divide"], backend="cython")
    for a, b in [(1, 0), (1.0, 0.0), (1, 0.0), (1.0, 0), (2 ** 70, 0), (-0.0, 0.0)]:
        agree(jitted, a, b)


def zero_divisor_then_loop(a, b):
    n = a + b
    if 3.25 // 1e308 == b % 0.0:
        pass
    else:
        while w < 3:  # noqa: F821 (never reached: the modulo raises first)
            w += 1
    return n


def test_an_operation_that_always_raises_does_not_break_the_build():
    """``b % 0.0`` always raises; Cython took the code after it for dead and refused to build the module
    ("local variable referenced before assignment"): the generated module must build and raise CPython's error."""
    jitted = moshjit.jit(zero_divisor_then_loop, backend="cython")
    for args in [(1, 2), (0, -1)]:
        agree(jitted, *args)


def invert_flag(flag, n):
    inverted = ~flag
    constant = True
    return inverted, ~n, ~(n > 0), ~constant


def warnings_of(fn, *args):
    """What ``fn(*args)`` returns and the warnings it issues (category and message), then what it does with every
    warning an error (``-W error``)."""
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            fn(*args)
            as_error = None
        except Warning as raised:
            as_error = (type(raised), str(raised))
    return canonical(result), [(w.category, str(w.message)) for w in caught], as_error


@pytest.mark.parametrize("backend", ["auto", "cython"])
@pytest.mark.parametrize("flag", [True, False])
def test_invert_of_a_bool_warns_as_cpython_does(backend, flag):
    """``~`` on a bool: the same int, and on CPython 3.12+ the same DeprecationWarning — an error under
    ``-W error`` — where the native ``~`` of an int64 (or ``~True`` folded when compiling) used to say nothing
    (cpython.BOOL_INVERT_WARNS)."""
    from moshjit.compiler import typed_ssa
    from moshjit.cpython import BOOL_INVERT_WARNS
    from moshjit.ir import ops
    from moshjit.ir.types import BOOL, OBJECT
    assert warnings_of(moshjit.jit(invert_flag, backend=backend), flag, 7) == warnings_of(invert_flag, flag, 7)
    typed = typed_ssa(invert_flag, [BOOL, moshjit.typeof.type_of_key("int64")])
    inverts = [op for block in typed.blocks for op in block.ops if isinstance(op, ops.UnaryOp)]
    assert [op.type == OBJECT for op in inverts] == [BOOL_INVERT_WARNS, False, BOOL_INVERT_WARNS] \
        + [True] * BOOL_INVERT_WARNS                    # ~True is folded where it does not warn

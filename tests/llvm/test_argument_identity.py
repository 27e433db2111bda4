"""A float or int argument that LLVM code returns — directly, through a branch or a loop (a φ), or as the result
of a native call of another compiled function that returns its own argument — is the very object the caller
passed, as in CPython (``f(x) is x``; ``x if x > y else y`` is ``x`` or ``y`` itself); a computed number is a
new object. The body returns which argument its result is (``lower.py``'s origins); the entry hands that object
back instead of boxing the native value again. (A continuation after a deoptimisation — an int past int64 —
rebuilds its numbers as new objects: the functions here do no arithmetic that could overflow on an argument.)"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

import moshjit


def same(x):
    return x


def larger(x, y):
    return x if x > y else y


def accumulated(x, n, step):
    s = x
    for _ in range(n):
        s = s + step
    return s


def swapped(x, y, n):
    for _ in range(n):
        x, y = y, x
    return x


def through_a_call(x, y):
    return larger(y, x) if x != y else larger(x, y) * 1


def descend(x, n):
    """A native call of itself (not inlined): the callee says which argument it returned."""
    if n <= 0:
        return x
    return descend(x, n - 1)


def scaled(x, k):
    return x * k


same_kind_pairs = (st.tuples(st.floats(allow_nan=True), st.floats(allow_nan=True))
                   | st.tuples(st.integers(-2 ** 63, 2 ** 63 - 1), st.integers(-2 ** 63, 2 ** 63 - 1)))
JITTED = {}


def jitted(fn):
    if fn not in JITTED:
        JITTED[fn] = moshjit.jit(fn, backend="llvm", strict=True)
    return JITTED[fn]


def which(result, args) -> list:
    return [result is a for a in args]


@settings(deadline=None)          # the first examples compile
@given(pair=same_kind_pairs, n=st.integers(0, 3))
def test_a_returned_number_argument_is_the_callers_object(pair, n):
    x, y = pair
    step = type(x)(1)
    for fn, args in [(same, (x,)), (larger, (x, y)), (accumulated, (x, n, step)), (swapped, (x, y, n)),
                     (through_a_call, (x, y)), (descend, (x, n)), (scaled, (x, step))]:
        expected = fn(*args)
        got = jitted(fn)(*args)
        assert repr(got) == repr(expected), fn.__name__
        assert which(got, args) == which(expected, args), fn.__name__


def test_the_functions_are_native():
    for fn, args in [(same, (1.5,)), (larger, (1.5, 2.5)), (accumulated, (1.5, 2, 1.0)), (through_a_call, (3, 2)),
                     (descend, (1.5, 3))]:
        jitted(fn)(*args)
        assert "define" in jitted(fn).inspect_code(), fn.__name__

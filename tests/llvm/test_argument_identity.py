"""A float or int argument that LLVM code returns or stores — directly, through a branch or a loop (a φ), or as
the result of a native call of another compiled function that returns its own argument — is the very object the
caller passed, as in CPython (``f(x) is x``; ``x if x > y else y`` is ``x`` or ``y`` itself; ``out.append(n)``
then ``out[0] is n``); a computed number is a new object. The body returns which argument its result is
(``lower.py``'s origins) and takes each number argument's object; the entry hands the object back, and stores
hand it on, instead of boxing the native value again; a continuation after a deoptimisation (an int past
int64) takes the arguments' objects too, and its result keeps the argument it is."""
from __future__ import annotations

from hypothesis import example, given, settings, strategies as st

import moshjit
from tests.number_identity import accumulated, larger, same_kind_pairs


def same(x):
    return x


def swapped(x, y, n):
    for _ in range(n):
        x, y = y, x
    return x


def through_a_call(x, y):
    return larger(y, x) if x != y else larger(x, y) * 1


def after_a_deoptimisation(x, y):
    """``y + 1`` overflows int64 for the largest ``y``: the interpreter goes on, with the caller's objects."""
    return larger(y, x) if x == y + 1 else larger(x, y)


def descend(x, n):
    """A native call of itself (not inlined): the callee says which argument it returned."""
    if n <= 0:
        return x
    return descend(x, n - 1)


def scaled(x, k):
    return x * k


JITTED = {}


def jitted(fn):
    if fn not in JITTED:
        JITTED[fn] = moshjit.jit(fn, backend="llvm", strict=True)
    return JITTED[fn]


def which(result, args) -> list:
    return [result is a for a in args]


@settings(deadline=None)          # the first examples compile
@given(pair=same_kind_pairs, n=st.integers(0, 3))
@example(pair=(0, 2 ** 63 - 1), n=0)                  # after_a_deoptimisation deoptimises
def test_a_returned_number_argument_is_the_callers_object(pair, n):
    x, y = pair
    step = type(x)(1)
    for fn, args in [(same, (x,)), (larger, (x, y)), (accumulated, (x, n, step)), (swapped, (x, y, n)),
                     (through_a_call, (x, y)), (descend, (x, n)), (scaled, (x, step)),
                     (after_a_deoptimisation, (x, y))]:
        expected = fn(*args)
        got = jitted(fn)(*args)
        assert repr(got) == repr(expected), fn.__name__
        assert which(got, args) == which(expected, args), fn.__name__


def test_the_functions_are_native():
    for fn, args in [(same, (1.5,)), (larger, (1.5, 2.5)), (accumulated, (1.5, 2, 1.0)), (through_a_call, (3, 2)),
                     (descend, (1.5, 3))]:
        jitted(fn)(*args)
        assert "define" in jitted(fn).inspect_code(), fn.__name__


def stored(x, y, n):
    """The caller's objects stored: appended, inserted, set, in a display and repeated; a computed number too."""
    out = [x, y * 2]
    out.append(x)
    out.insert(0, y)
    out[1] = y
    out += [x] * n
    for _ in range(n):
        out.append(x if x > y else y)
    return out


def stored_through_a_call(x, y):
    out = []
    keep(out, x)
    keep(out, y + y)
    return out


def keep(out, v):
    out.append(v)
    return v


def recursive_store(out, x, n):
    if n <= 0:
        out.append(x)
        return 0
    return recursive_store(out, x, n - 1)


@settings(deadline=None)
@given(pair=same_kind_pairs, n=st.integers(0, 3))
def test_a_stored_number_argument_is_the_callers_object(pair, n):
    x, y = pair
    if isinstance(x, int):            # y + y and y * 2 stay in int64: no deoptimisation
        y //= 4
    expected, got = stored(x, y, n), jitted(stored)(x, y, n)
    assert repr(got) == repr(expected)
    assert [[v is a for a in (x, y)] for v in got] == [[v is a for a in (x, y)] for v in expected]
    expected, got = stored_through_a_call(x, y), jitted(stored_through_a_call)(x, y)
    assert [[v is a for a in (x, y)] for v in got] == [[v is a for a in (x, y)] for v in expected]
    expected_out, got_out = [], []
    recursive_store(expected_out, x, n)
    jitted(recursive_store)(got_out, x, n)
    assert [v is x for v in got_out] == [v is x for v in expected_out] == [True]

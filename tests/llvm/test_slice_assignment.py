"""``lst[i:j] = other`` on a list of numbers in native code: CPython's own ``list_ass_slice`` on the bounds a
slice gives (negative bounds from the end, clamped, an empty range inserting), the list growing or shrinking;
with a step, or a right side of another kind, not native (``auto`` then runs it in Cython, exactly). Also
fannkuch, whose flips are such assignments and whose bound ``insert``/``pop`` are method calls now."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import moshjit
from tests.llvm.oracle import outcome, same


def replace(xs, i, j, k):
    out = list(xs)
    out[i:j] = out[k::-1]
    return out, len(out)


def open_ends(xs, i):
    out = list(xs)
    out[:i] = [0, 0]
    out[i:] = []
    out[:] = out + out
    return out


def stepped(xs):
    out = list(xs)
    out[::2] = out[1::2]
    return out


def _fannkuch_program():
    """pyperformance's fannkuch as ``benchmarks/general`` runs it: its flips are such assignments."""
    from benchmarks.general import run
    run.ensure_pyperf()
    return run.load("fannkuch", "test_slice_assignment")


fannkuch = _fannkuch_program().fannkuch


_jitted: dict = {}


def native(fn, backend="llvm"):
    if (fn, backend) not in _jitted:
        _jitted[fn, backend] = moshjit.jit(fn, backend=backend, strict=backend == "llvm")
    return _jitted[fn, backend]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-9, 9), max_size=7), st.integers(-9, 9), st.integers(-9, 9), st.integers(-9, 9))
def test_slice_assignment_agrees_with_cpython(xs, i, j, k):
    for fn, args in [(replace, (xs, i, j, k)), (open_ends, (xs, i))]:
        expected, got = outcome(fn, args), outcome(native(fn), args)
        assert got[0] == expected[0] and same(got[1], expected[1]), (fn.__name__, args, got, expected)


def test_fannkuch_is_native():
    for n in range(1, 8):
        assert native(fannkuch)(n) == fannkuch(n)
    assert native(fannkuch).stats[("int64",)]["backend"] == "llvm"


def test_a_step_is_not_native_and_auto_stays_exact():
    with pytest.raises(moshjit.UnsupportedError):
        native(stepped)([1, 2, 3, 4])
    for xs in ([1, 2, 3, 4], [1, 2, 3], []):
        assert outcome(native(stepped, "auto"), (xs,)) == outcome(stepped, (xs,))

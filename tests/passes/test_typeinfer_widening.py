"""Type inference reaches a sound fixed point when ints grow through a tuple or a container, not only through a φ.

Found while typing ``range()`` of unknown bounds: a value read from a dict, increased and written back (or carried
in a tuple around a loop) grew its bounds by one step per sweep, the sweeps stopped at their cap, and the types
left claimed ``int[0..113715890591105024]`` for a sum that passes 2**63 — the Cython backend then raised
OverflowError and the LLVM backend returned a wrong sum. ``widen`` now widens at any depth, container writes widen
like φs, and a type still growing after the cap (ever deeper: ``t = (t,)``) becomes ``object``.
"""
from __future__ import annotations

import pytest
import moshjit
from moshjit.compiler import typed_ssa
from moshjit.ir.types import (INT, INT64, NONE, DictType, IntType, ListType, OptionalType, TupleType, tuple_of,
                              widen)
from tests.cython.agree import outcome


def in_a_dict(n):
    seen = {}
    for _ in range(n):
        seen[0] = seen.get(0, 0) + (1 << 50)          # a constant step: 2**14 steps pass 2**63
    return seen[0] + 1


def in_a_tuple(n):
    pair = (0, "kept")
    for _ in range(n):
        pair = (pair[0] - (1 << 50), pair[1])
    return pair[0] - 1


def in_a_list(n):
    total = [0]
    for _ in range(n):
        total[0] = total[0] + (1 << 50)
    return total[0] + 1


def ever_deeper(n):
    t = ()
    for _ in range(n):
        t = (t,)
    return len(t), t


_JITTED = {}


def _jitted(fn, backend):
    return _JITTED.setdefault((fn, backend), moshjit.jit(fn, backend=backend))


@pytest.mark.parametrize("backend", ["cython", "auto"])
@pytest.mark.parametrize("fn", [in_a_dict, in_a_tuple, in_a_list])
def test_sums_past_64_bits_match_cpython(fn, backend):
    for n in (0, 3, 20_000):
        assert outcome(_jitted(fn, backend), n) == outcome(fn, n)


def test_the_grown_values_are_typed_without_bounds():
    typed = str(typed_ssa(in_a_dict, [INT64], assume_globals=False))
    assert "dict[int[0..0], int[1125899906842624..inf]]" in typed    # a step >= 0 keeps the lower bound
    typed = str(typed_ssa(in_a_tuple, [INT64], assume_globals=False))
    assert "tuple[int[-inf..0], str]" in typed


def test_a_type_growing_ever_deeper_becomes_object():
    assert outcome(_jitted(ever_deeper, "auto"), 4) == outcome(ever_deeper, 4)
    assert "tuple[object, ...]" in str(typed_ssa(ever_deeper, [INT64], assume_globals=False))


def test_widen_jumps_bounds_at_any_depth():
    small, larger = IntType(0, 5), IntType(0, 9)
    assert widen(small, larger) == IntType(0, None)
    assert widen(tuple_of([small, NONE]), tuple_of([larger, NONE])) == tuple_of([IntType(0, None), NONE])
    assert widen(ListType(small), ListType(larger)) == ListType(IntType(0, None))
    assert widen(DictType(small, larger), DictType(IntType(-1, 5), larger)) == DictType(IntType(None, 5), larger)
    assert widen(OptionalType(small), OptionalType(larger)) == OptionalType(IntType(0, None))
    assert widen(TupleType(None, small), TupleType(None, larger)) == TupleType(None, IntType(0, None))
    assert widen(small, IntType(1, 4)) == small                 # nothing grew: nothing widened
    assert widen(INT, small) == INT

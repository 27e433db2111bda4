"""Generator expressions with any consumer against CPython: the ones no consumer inlines become real generators;
results and exceptions match through the reference interpreter and the Cython backend."""
from __future__ import annotations

import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import moshjit
from moshjit.ir import ops
from tests.scopes import genexpr_samples as gs


def materialise(value):
    """Generators are compared by what they produce."""
    if isinstance(value, types.GeneratorType):
        return ("generator", list(value))
    if isinstance(value, tuple):
        return tuple(materialise(v) for v in value)
    return value


def outcome(fn, args):
    try:
        return ("ok", materialise(fn(*args)))
    except Exception as exc:                  # the exception is part of the behaviour under test
        return ("raise", type(exc), str(exc))


def compiled(fn, backend):
    return moshjit.to_ssa(fn).run if backend == "ssa" else moshjit.jit(fn, backend=backend)


@pytest.mark.parametrize("backend", ["ssa", "cython"])
@pytest.mark.parametrize("fn,calls", gs.CASES, ids=[fn.__name__ for fn, _ in gs.CASES])
def test_generator_expressions_match_cpython(fn, calls, backend):
    target = compiled(fn, backend)
    for args in calls:
        assert outcome(target, args) == outcome(fn, args)


def test_an_unknown_consumer_gets_a_real_generator_and_a_known_one_an_inlined_loop():
    def kinds(fn):
        ir = moshjit.to_ssa(fn)
        return {type(op) for block in ir.blocks for op in block.ops}
    assert ops.MakeClosure in kinds(gs.late_binding)
    assert ops.MakeFunction in kinds(gs.stored)
    assert not {ops.MakeFunction, ops.MakeClosure} & kinds(lambda xs, k: sum(x + k for x in xs))


_jitted: dict = {}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=6), st.integers(-3, 3))
def test_late_binding_and_user_consumers(xs, k):
    for fn in (gs.late_binding, gs.to_user_function):
        if fn not in _jitted:
            _jitted[fn] = moshjit.jit(fn, backend="cython")
        assert outcome(_jitted[fn], (xs, k)) == outcome(fn, (xs, k))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-3, 3), max_size=6))
def test_raising_items(xs):
    if gs.raising_item not in _jitted:
        _jitted[gs.raising_item] = moshjit.jit(gs.raising_item, backend="cython")
    assert outcome(_jitted[gs.raising_item], (xs,)) == outcome(gs.raising_item, (xs,))

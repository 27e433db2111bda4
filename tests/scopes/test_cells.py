"""Closures and ``nonlocal`` against CPython: nested functions capturing variables get real cells shared with the
compiled function; results, exceptions (type, message) and the state of closures match through the reference
interpreter and the Cython backend, and ``auto`` routes around the LLVM backend's refusal."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import moshjit
from tests.scopes import cell_samples as cs
from tests.scopes.driving import outcomes


def fresh(fn):
    """The sample with its closure state reset (the stateful ones are made by a factory)."""
    factory = cs.FACTORIES.get(fn.__name__)
    return fn if factory is None else factory()


def compiled(fn, backend):
    return moshjit.to_ssa(fn).run if backend == "ssa" else moshjit.jit(fn, backend=backend)


@pytest.mark.parametrize("backend", ["ssa", "cython", "auto"])
@pytest.mark.parametrize("fn,calls", cs.CASES, ids=[fn.__name__ for fn, _ in cs.CASES])
def test_closures_match_cpython(fn, calls, backend):
    expected = outcomes(fresh(fn), calls)
    assert outcomes(compiled(fresh(fn), backend), calls) == expected


def test_auto_uses_cython_and_llvm_refuses_cells():
    accumulate = moshjit.jit(cs.accumulate)
    assert accumulate(2, [1, 2]) == (6, 8)
    assert accumulate.stats[("int64", "list")]["backend"] == "cython"
    with pytest.raises(moshjit.UnsupportedError, match="no native form"):
        moshjit.jit(cs.recursive_inner, backend="llvm")(3)


def test_a_closure_cell_written_by_the_function_is_not_resolved():
    """``nonlocal helper`` rebinds a function-valued cell: it must be read at run time, not bound when compiling."""
    from moshjit.context import CompileContext
    from moshjit.ir import ops
    from moshjit.passes.resolve_globals import resolve_globals

    fn = fresh(cs.shared_rebinder)
    ctx = CompileContext(fn, ("int64",), "cython")
    ir = resolve_globals(moshjit.to_ssa(fn), ctx)
    assert any(isinstance(op, ops.LoadDeref) and op.name == "helper" for b in ir.blocks for op in b.ops)
    assert "<closure>.helper" not in ctx.resolved_globals


_jitted: dict = {}


def jitted(fn):
    if fn not in _jitted:
        _jitted[fn] = moshjit.jit(fn, backend="cython")
    return _jitted[fn]


@settings(max_examples=40, deadline=None)
@given(st.integers(-5, 5) | st.floats(-5, 5, allow_nan=False),
       st.lists(st.integers(-2 ** 65, 2 ** 65) | st.integers(-3, 3), max_size=6))
def test_accumulate_inputs(x, ys):
    assert outcomes(jitted(cs.accumulate), [(x, ys)]) == outcomes(cs.accumulate, [(x, ys)])


@settings(max_examples=40, deadline=None)
@given(st.integers(-3, 3) | st.text(max_size=2), st.lists(st.integers(-3, 3) | st.none(), max_size=4))
def test_counter_inputs(start, steps):
    assert outcomes(jitted(cs.use_counter), [(start, steps)]) == outcomes(cs.use_counter, [(start, steps)])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-50, 50), max_size=8), st.integers(-4, 4))
def test_sort_key_inputs(xs, k):
    assert outcomes(jitted(cs.sort_by_modulus), [(xs, k)]) == outcomes(cs.sort_by_modulus, [(xs, k)])

"""Generator functions against CPython: the compiled generator, driven by the same sequence of ``next``, ``send``,
``throw`` and ``close`` calls (which ``yield from`` passes on to the sub-iterator), yields, returns
(StopIteration's value) and raises exactly what CPython's does,
through the reference interpreter and the Cython backend (the LLVM backend refuses generators; ``auto`` routes
around it)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import moshjit
from tests.scopes import driving
from tests.scopes import generator_samples as gs

ACTIONS = st.lists(
    st.sampled_from([("next",), ("close",), ("throw", ValueError), ("throw", KeyError), ("throw", GeneratorExit)])
    | st.tuples(st.just("send"), st.integers(-3, 3) | st.none() | st.text(max_size=2)),
    max_size=8)


def describe(exc: BaseException):
    if isinstance(exc, StopIteration):
        return ("stop", exc.value)
    cause, context = exc.__cause__, exc.__context__
    return ("raise", type(exc), str(exc), type(cause) if cause is not None else None,
            type(context) if context is not None else None)


def drive(make, args, actions) -> list:
    """Make the generator, then apply each action; what each one gave. A fresh ``yield_log`` for each run."""
    gs.yield_log.clear()
    try:
        gen = make(*args)
    except Exception as exc:                   # calling a generator function never runs its body
        return [("call", describe(exc))]
    seen = driving.run(gen, [("next",)] + list(actions), ("next",), describe)
    return seen + [("log", list(gs.yield_log))]


def compiled(fn, backend):
    return moshjit.to_ssa(fn).run if backend == "ssa" else moshjit.jit(fn, backend=backend)


@pytest.mark.parametrize("backend", ["ssa", "cython", "auto"])
@pytest.mark.parametrize("fn,calls", gs.CASES, ids=[fn.__name__ for fn, _ in gs.CASES])
def test_iteration_matches_cpython(fn, calls, backend):
    target = compiled(fn, backend)
    for args in calls:
        assert drive(target, args, [("next",)] * 12) == drive(fn, args, [("next",)] * 12)


_jitted: dict = {}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(gs.CASES), ACTIONS)
def test_send_throw_close_match_cpython(case, actions):
    fn, calls = case
    if fn not in _jitted:
        _jitted[fn] = moshjit.jit(fn, backend="cython")
    for args in calls:
        assert drive(_jitted[fn], args, actions) == drive(fn, args, actions)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(gs.CASES), ACTIONS)
def test_interpreter_send_throw_close_match_cpython(case, actions):
    fn, calls = case
    ir = moshjit.to_ssa(fn)
    for args in calls:
        assert drive(ir.run, args, actions) == drive(fn, args, actions)


def test_a_call_returns_a_generator_and_auto_picks_cython():
    import collections.abc
    jitted = moshjit.jit(gs.count_to)
    gen = jitted(3)
    assert isinstance(gen, collections.abc.Generator) and list(gen) == [0, 1, 2]
    assert jitted.stats[("int64",)]["backend"] == "cython"
    with pytest.raises(moshjit.UnsupportedError, match="yield|generator"):
        moshjit.jit(gs.count_to, backend="llvm")(3)


def test_yield_from_compiles_strictly_on_cython_and_is_refused_by_llvm():
    jitted = moshjit.jit(gs.delegate_twice, strict=True)
    assert list(jitted(2)) == list(gs.delegate_twice(2))
    assert jitted.stats[("int64",)]["backend"] == "cython"
    with pytest.raises(moshjit.UnsupportedError, match="generator"):
        moshjit.jit(gs.delegate_twice, backend="llvm")(2)

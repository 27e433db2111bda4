"""``global`` writes and deletions against CPython: the same results, exceptions and module state after every call,
through the reference interpreter and the Cython backend; the LLVM backend refuses them and ``auto`` routes around."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import moshjit
from tests.scopes import global_samples as gs

TRACKED = ("COUNTER", "LIMIT", "SCALE", "LABEL", "STATE", "helper", "FRESH")
_MISSING = "<missing>"


def reset() -> None:
    vars(gs).pop("FRESH", None)
    vars(gs).update(gs.INITIAL())


def snapshot() -> dict:
    state = {name: vars(gs).get(name, _MISSING) for name in TRACKED}
    return {k: (v.__name__ if callable(v) else v) for k, v in state.items()}


def outcome(fn, calls) -> list:
    """Reset the module, make each call in turn; what each returns or raises, and the globals after it."""
    reset()
    seen = []
    for args in calls:
        try:
            result = ("ok", fn(*args))
        except Exception as exc:            # the exception is part of the behaviour under test
            result = ("raise", type(exc), str(exc), getattr(exc, "name", None))
        seen.append((result, snapshot()))
    return seen


_compiled: dict = {}


def compiled(fn, backend):
    key = (fn, backend)
    if key not in _compiled:
        if backend == "ssa":
            _compiled[key] = moshjit.to_ssa(fn).run
        else:
            _compiled[key] = moshjit.jit(fn, backend=backend)
    return _compiled[key]


@pytest.mark.parametrize("backend", ["ssa", "cython", "auto"])
@pytest.mark.parametrize("fn,calls", gs.CASES, ids=[fn.__name__ for fn, _ in gs.CASES])
def test_global_writes_match_cpython(fn, calls, backend):
    expected = outcome(fn, calls)
    assert outcome(compiled(fn, backend), calls) == expected
    reset()


@pytest.mark.parametrize("backend", ["ssa", "cython"])
def test_a_function_reads_the_names_after_its_globals_call_at_run_time(backend):
    """Through ``globals()`` the function may write any name during its own call: what it reads after the call."""
    from tests.scopes import namespace_samples as ns
    for fn, args in [(ns.through_the_namespace, ("LIMIT",)), (ns.through_the_namespace, ("missing",)),
                     (ns.rebind_then_call, ("abcd",))]:
        ns.reset()
        expected = fn(*args)
        ns.reset()
        assert compiled(fn, backend)(*args) == expected
    ns.reset()


def test_globals_calls_what_the_name_holds_when_it_runs():
    """``globals()`` is the function's namespace while ``globals`` is the builtin; a module global of that name
    defined later is called instead, as CPython would."""
    namespace = {"__name__": "shadowing_globals"}
    exec("def namespace_of():\n    return globals()\n", namespace)
    jitted = moshjit.jit(namespace["namespace_of"], backend="cython", strict=True)
    assert jitted() is namespace
    namespace["globals"] = lambda: "shadowed"
    assert jitted() == namespace["namespace_of"]() == "shadowed"


def test_auto_compiles_global_writes_with_cython_and_llvm_refuses_them():
    reset()
    auto = moshjit.jit(gs.bump, backend="auto")
    assert auto(1) == 1
    assert auto.stats[("int64",)]["backend"] == "cython"
    with pytest.raises(moshjit.UnsupportedError, match="no native form"):
        moshjit.jit(gs.bump, backend="llvm")(1)
    reset()


def test_a_written_global_is_neither_resolved_nor_type_assumed():
    from moshjit.passes.global_types import assume_global_types
    from moshjit.passes.resolve_globals import resolve_globals
    from moshjit.context import CompileContext
    from moshjit.ir import ops

    reset()
    ctx = CompileContext(gs.rebind_function, (), "cython")
    ir = resolve_globals(moshjit.to_ssa(gs.rebind_function), ctx)
    loads = {op.name for block in ir.blocks for op in block.ops if isinstance(op, ops.LoadGlobal)}
    assert loads == {"helper"} and "len" in ctx.resolved_globals and "helper" not in ctx.resolved_globals
    ctx = CompileContext(gs.retype, ("int64",), "cython")
    assume_global_types(moshjit.to_ssa(gs.retype), ctx)
    assert "LIMIT" not in ctx.global_assumptions


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-2 ** 65, 2 ** 65) | st.integers(-3, 3), max_size=5))
def test_counter_sequences(values):
    calls = [(v,) for v in values]
    assert outcome(compiled(gs.bump, "cython"), calls) == outcome(gs.bump, calls)
    reset()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(-10, 10) | st.floats(-10, 10, allow_nan=False), max_size=6), max_size=3))
def test_count_up_sequences(lists):
    calls = [(xs,) for xs in lists]
    assert outcome(compiled(gs.count_up, "auto"), calls) == outcome(gs.count_up, calls)
    reset()

"""Coroutines (``async def`` with ``await``) against CPython: the compiled coroutine, driven by the same sequence
of ``send``, ``throw`` and ``close`` calls (which ``await`` passes on to what it awaits), suspends with, returns
and raises exactly what CPython's does, through the reference interpreter and the Cython backend (the LLVM
backend refuses coroutines; ``auto`` routes around it); and it runs under asyncio."""
from __future__ import annotations

import asyncio
import sys
import collections.abc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import moshjit
from tests.scopes import coroutine_samples as cs
from tests.scopes import driving

ACTIONS = st.lists(
    st.sampled_from([("close",), ("throw", ValueError), ("throw", KeyError), ("throw", GeneratorExit)])
    | st.tuples(st.just("send"), st.integers(-3, 3) | st.none() | st.text(max_size=2)),
    max_size=8)


def describe(exc: BaseException):
    if isinstance(exc, StopIteration):
        return ("stop", exc.value)
    cause, context = exc.__cause__, exc.__context__
    return ("raise", type(exc), str(exc), type(cause) if cause is not None else None,
            type(context) if context is not None else None)


def drive(make, args, actions) -> list:
    """Make the coroutine, start it with send(None), then apply each action; what each one gave."""
    cs.await_log.clear()
    coroutine = make(*args)
    seen = driving.run(coroutine, [("send", None)] + list(actions), ("send", None), describe)
    return seen + [("log", list(cs.await_log))]


def runs(fn):
    """Every argument tuple ``fn`` is driven with (made afresh for each drive where they are used up)."""
    return [lambda args=args: args for args in dict(cs.CASES)[fn]] + cs.MADE_ARGUMENTS.get(fn, [])


def compiled(fn, backend):
    return moshjit.to_ssa(fn).run if backend == "ssa" else moshjit.jit(fn, backend=backend, strict=True)


@pytest.mark.parametrize("backend", ["ssa", "cython", "auto"])
@pytest.mark.parametrize("fn", [fn for fn, _ in cs.CASES], ids=[fn.__name__ for fn, _ in cs.CASES])
def test_suspensions_and_results_match_cpython(fn, backend):
    target = compiled(fn, backend)
    for make_args in runs(fn):
        sends = [("send", i) for i in range(10)]
        assert drive(target, make_args(), sends) == drive(fn, make_args(), sends)


_jitted: dict = {}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([fn for fn, _ in cs.CASES]), ACTIONS)
def test_send_throw_close_match_cpython(fn, actions):
    if fn not in _jitted:
        _jitted[fn] = moshjit.jit(fn, backend="cython", strict=True)
    for make_args in runs(fn):
        assert drive(_jitted[fn], make_args(), actions) == drive(fn, make_args(), actions)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([fn for fn, _ in cs.CASES]), ACTIONS)
def test_interpreter_send_throw_close_match_cpython(fn, actions):
    ir = moshjit.to_ssa(fn)
    for make_args in runs(fn):
        assert drive(ir.run, make_args(), actions) == drive(fn, make_args(), actions)


def test_a_coroutine_already_being_awaited_is_refused():
    """GET_AWAITABLE's check, which Cython's ``await`` lacks for a native coroutine: one suspended inside another
    coroutine's ``await`` cannot be awaited again."""
    jitted = moshjit.jit(cs.awaits_anything, strict=True)
    outcomes = []
    for target in (cs.awaits_anything, jitted):
        inner = cs._plain_inner(1)
        holder = cs.awaits_anything(inner)
        holder.send(None)                                      # inner is now suspended, awaited by holder
        outcomes.append(drive(target, (inner,), []))
        holder.close()
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0][:3] == ("raise", RuntimeError, "coroutine is being awaited already")


def test_a_call_returns_a_coroutine_that_asyncio_runs():
    jitted = moshjit.jit(cs.recursive, strict=True)
    coroutine = jitted(10)
    assert isinstance(coroutine, collections.abc.Coroutine) and asyncio.iscoroutine(coroutine)
    assert asyncio.run(coroutine) == 55
    assert jitted.stats[("int64",)]["backend"] == "cython"
    with pytest.raises(moshjit.UnsupportedError, match="coroutine"):
        moshjit.jit(cs.recursive, backend="llvm")(3)


async def _gathers(n):
    results = await asyncio.gather(*(_sleeps_then_doubles(i) for i in range(n)))
    return sum(results)


async def _sleeps_then_doubles(i):
    await asyncio.sleep(0)
    return 2 * i


def test_asyncio_gathers_jitted_coroutines():
    jitted = moshjit.jit(_sleeps_then_doubles, strict=True)
    gathered = moshjit.jit(_gathers, strict=True)
    assert asyncio.run(gathered(5)) == asyncio.run(_gathers(5)) == 20
    assert asyncio.run(jitted(4)) == 8


def test_the_jitted_function_says_it_is_a_coroutine_function():
    """asyncio's check on every version; inspect's where it has a marker for objects that are not functions
    (3.12+: ``markcoroutinefunction``)."""
    import inspect
    jitted = moshjit.jit(cs.recursive)
    assert asyncio.iscoroutinefunction(jitted)
    if hasattr(inspect, "markcoroutinefunction"):
        assert inspect.iscoroutinefunction(jitted)
    assert not asyncio.iscoroutinefunction(moshjit.jit(cs.Ticket.__await__))


async def _numbers(n):
    for i in range(n):
        yield i


async def comprehends_asynchronously(source):
    return [x * 2 async for x in source if x != 1]


def test_asynchronous_comprehensions_compile_where_cpython_inlines_them():
    """3.12 inlines comprehensions into their function (PEP 709), so an ``async for`` clause is the function's own
    ``async for`` and compiles; on 3.11 it is a coroutine of its own, refused by name at its line."""
    if sys.version_info < (3, 12):
        with pytest.raises(moshjit.UnsupportedError, match="asynchronous comprehension"):
            moshjit.jit(comprehends_asynchronously, backend="cython", strict=True, tier="eager")(_numbers(3))
        return
    for backend in ("ssa", "cython"):
        target = compiled(comprehends_asynchronously, backend)
        assert asyncio.run(target(_numbers(4))) == asyncio.run(comprehends_asynchronously(_numbers(4))) == [0, 4, 6]


ASYNC_ACTIONS = st.lists(
    st.sampled_from([("aclose",), ("athrow", ValueError), ("athrow", KeyError), ("athrow", GeneratorExit)])
    | st.tuples(st.just("asend"), st.integers(-3, 3) | st.none()), max_size=8)


def drive_async(make, args, actions) -> list:
    """Each asend/athrow/aclose awaited by hand: the items its awaitable suspended with, then what it gave (the
    async generator's next item, or what it raised); then asend(None) until it ends."""
    cs.await_log.clear()
    agen, seen = make(*args), []

    def step(action):
        method = {"asend": agen.asend, "athrow": agen.athrow, "aclose": agen.aclose}[action[0]]
        awaitable = method(action[1]("thrown")) if action[0] == "athrow" else method(*action[1:])
        suspended = []
        try:
            while True:
                suspended.append(awaitable.send(len(suspended) or None))
        except BaseException as exc:           # StopIteration carries the item; the rest is behaviour
            return (action[0], suspended, ("item", exc.value) if isinstance(exc, StopIteration) else describe(exc))

    seen = [step(action) for action in actions]
    for _ in range(12):
        seen.append(step(("asend", None)))
        if seen[-1][2][0] != "item":
            break
    return seen + [("log", list(cs.await_log))]


@pytest.mark.parametrize("backend", ["ssa", "cython", "auto"])
@pytest.mark.parametrize("fn", [fn for fn, _ in cs.ASYNC_GENERATOR_CASES],
                         ids=[fn.__name__ for fn, _ in cs.ASYNC_GENERATOR_CASES])
def test_async_generators_match_cpython(fn, backend):
    target = compiled(fn, backend)
    for args in dict(cs.ASYNC_GENERATOR_CASES)[fn]:
        plan = [("asend", None), ("asend", 5), ("athrow", KeyError), ("asend", None)]
        assert drive_async(target, args, plan) == drive_async(fn, args, plan)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([fn for fn, _ in cs.ASYNC_GENERATOR_CASES]), ASYNC_ACTIONS)
def test_asend_athrow_aclose_match_cpython(fn, actions):
    for backend in ("ssa", "cython"):
        key = (fn, backend)
        if key not in _jitted:
            _jitted[key] = compiled(fn, backend)
        for args in dict(cs.ASYNC_GENERATOR_CASES)[fn]:
            assert drive_async(_jitted[key], args, actions) == drive_async(fn, args, actions), backend


def test_an_async_generator_runs_under_asyncio():
    jitted = moshjit.jit(_numbers, strict=True)

    async def collect(source):
        return [x async for x in source]

    assert asyncio.run(collect(jitted(4))) == asyncio.run(collect(_numbers(4))) == [0, 1, 2, 3]
    assert jitted.stats[("int64",)]["backend"] == "cython"


def test_a_value_sent_before_the_start_leaves_the_async_generator_unstarted():
    """CPython refuses it (TypeError) before running the body; Cython raised it from the body's first line, which
    ended the async generator (found by the hypothesis test above; ``toolchain.py`` rewrites it)."""
    plan = [("asend", 3), ("asend", None), ("asend", None)]
    for backend in ("ssa", "cython"):
        assert drive_async(compiled(cs.pairs_up, backend), (2,), plan) == drive_async(cs.pairs_up, (2,), plan)
    assert drive_async(cs.pairs_up, (2,), plan)[1][2] == ("item", (0, (1,)))

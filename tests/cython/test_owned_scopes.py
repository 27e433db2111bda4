"""The locals of a compiled generator or coroutine live in a closure scope the generator owns; the scope is kept
out of the collector's lists and the generator's traverse walks its references (``toolchain.with_owned_scopes``).
These tests hold the collector to CPython's results: a cycle through a suspended generator's locals is collected,
and locals reachable only from a suspended generator survive collections. ``await`` of a native coroutine sends to
it directly (``toolchain.with_native_coroutines_sent``): what the awaiting coroutine sees is CPython's."""
from __future__ import annotations

import gc
import weakref

import pytest

import moshjit
from moshjit.errors import BuildError
from moshjit.runtime import toolchain


class Holder:
    """A plain object a cycle can run through (weak-referenceable, with a dict)."""


class Suspend:
    """An awaitable that suspends once, handing out ``label``."""

    def __init__(self, label):
        self.label = label

    def __await__(self):
        sent = yield self.label
        return sent


async def waits_holding(holder, gate):
    received = await gate
    return holder, received


def yields_holding(holder):
    yield 1
    yield holder


async def native_inner(n):
    got = await Suspend(("inner", n))
    return got * 2


async def awaits_native(make, n):
    """``make`` is an argument, so what it makes stays a native coroutine (a global would be compiled too)."""
    first = await make(n)
    second = await make(first)
    return first + second


def jitted(fn):
    return moshjit.jit(fn, backend="cython", strict=True, tier="eager")


@pytest.mark.parametrize("start", [
    lambda holder: jitted(waits_holding)(holder, Suspend("gate")),
    lambda holder: jitted(yields_holding)(holder),
], ids=["coroutine", "generator"])
def test_a_cycle_through_a_suspended_generators_locals_is_collected(start):
    holder = Holder()
    suspended = start(holder)
    suspended.send(None)
    holder.suspended = suspended                  # suspended → its scope → holder → suspended
    gone = weakref.ref(holder)
    del holder, suspended
    gc.collect()
    assert gone() is None


def test_the_collector_sees_a_suspended_coroutines_locals_as_its_references():
    holder = Holder()
    coroutine = jitted(waits_holding)(holder, Suspend("gate"))
    coroutine.send(None)
    assert any(referent is holder for referent in gc.get_referents(coroutine))
    coroutine.close()


def test_locals_reachable_only_from_a_suspended_coroutine_survive_collections():
    def cyclic():
        items = [Holder() for _ in range(3)]
        for item in items:
            item.ring = items                     # a cycle nothing outside the coroutine holds
        return items

    coroutine = jitted(waits_holding)(cyclic(), Suspend("gate"))
    assert coroutine.send(None) == "gate"
    for _ in range(3):
        gc.collect()
    with pytest.raises(StopIteration) as stop:
        coroutine.send("resumed")
    items, received = stop.value.value
    assert received == "resumed"
    assert [item.ring is items for item in items] == [True, True, True]


@pytest.mark.parametrize("n", [0, 3])
def test_awaiting_a_native_coroutine_suspends_and_returns_as_cpython(n):
    def drive(coroutine):
        seen = [coroutine.send(None)]
        seen.append(coroutine.send(5))
        await_target = coroutine.cr_await
        seen.append(type(await_target).__name__)
        try:
            coroutine.send(7)
        except StopIteration as stop:
            seen.append(stop.value)
        return seen

    assert drive(jitted(awaits_native)(native_inner, n)) == drive(awaits_native(native_inner, n))


def test_a_native_coroutine_awaited_from_compiled_code_gets_throw_and_close():
    for throw in (True, False):
        plain, compiled = awaits_native(native_inner, 1), jitted(awaits_native)(native_inner, 1)
        outcomes = []
        for coroutine in (plain, compiled):
            coroutine.send(None)
            try:
                coroutine.throw(KeyError("k")) if throw else coroutine.close()
                outcomes.append("closed")
            except KeyError as error:
                outcomes.append(("KeyError", error.args))
            outcomes.append(coroutine.cr_await)
        assert outcomes[:2] == outcomes[2:]


def test_the_rewrites_leave_nested_closures_tracked_and_refuse_changed_shapes():
    traverse = "static int __Pyx_Coroutine_traverse(__pyx_CoroutineObject *gen, visitproc visit, void *arg) {\n"
    creation = ("    __pyx_CoroutineObject *gen = __Pyx_Coroutine_New((__pyx_coroutine_body_t) body, NULL, "
                "(PyObject *) __pyx_cur_scope, n, q, m); if (unlikely(!gen)) __PYX_ERR(0, 1, L)\n"
                "    __Pyx_DECREF(__pyx_cur_scope);\n")
    text = traverse + "    Py_VISIT(gen->closure);\n}\n" + creation
    owned = toolchain.with_owned_scopes(text)
    assert "PyObject_GC_UnTrack(__pyx_cur_scope);\n    __Pyx_DECREF(__pyx_cur_scope);" in owned
    assert "tp_traverse(gen->closure, visit, arg)" in owned
    shared = toolchain.with_owned_scopes(text + "struct s { PyObject *__pyx_outer_scope; };\n")
    assert "PyObject_GC_UnTrack" not in shared and "tp_traverse(gen->closure" in shared
    with pytest.raises(BuildError):
        toolchain.with_owned_scopes(traverse + "    Py_VISIT(closure);\n}\n")
    with pytest.raises(BuildError):
        toolchain.with_private_abi("/* no ABI name */")
    with pytest.raises(BuildError):
        toolchain.with_native_coroutines_sent("__Pyx_Coroutine_Yield_From(gen, s, r);\n")

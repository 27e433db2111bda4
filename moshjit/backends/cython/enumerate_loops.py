"""``for i, x in enumerate(seq)`` as an index loop while ``seq`` is a list: a C counter, no iterator objects and no
``(i, x)`` tuple per item.

Exact as long as nothing can tell the difference, which holds when the ``enumerate`` call's only use is the loop's
``get_iter``, and the item tuple's only use is an unpacking into two names that opens the loop body (the tuple is
never seen). A list's iterator reads the list's length at every step (items appended during the loop are seen, a
shrinking list ends the loop) and ``enumerate`` counts from 0 beside it: the index loop does the same, reading
``len(seq)`` at every test. A ``seq`` that is not an exact list (a subclass may override ``__iter__``) takes
``iter(enumerate(seq))`` and ``next`` as the generic loop does.
"""
from __future__ import annotations

import builtins

from moshjit.ir import ops
from moshjit.ir.ops import Constant


def enumerate_plan(getiter, users: dict) -> dict | None:
    """``{"source", "unpack", "items"}`` when the loop of ``getiter`` is an enumerate loop described above."""
    call = getiter.obj
    if not (isinstance(call, ops.Call) and isinstance(call.func, Constant) and call.func.value is builtins.enumerate
            and len(call.args) == 1 and not call.kwnames and users.get(call) == [getiter]):
        return None
    loop_tests = users.get(getiter) or []
    if len(loop_tests) != 1:
        return None
    term = loop_tests[0]
    unpack = (users.get(term) or [None])[0]
    if users.get(term) != [unpack] or not isinstance(unpack, ops.UnpackSequence) or unpack.count != 2:
        return None
    body = term.body.ops
    items = users.get(unpack) or []
    opening = body[1:1 + len(items)]
    if (term.body.phis or not body or body[0] is not unpack or len(items) > 2
            or not all(isinstance(item, ops.ExtractItem) for item in items)
            or {id(item) for item in items} != {id(op) for op in opening}):
        return None
    return {"source": call.args[0], "unpack": unpack, "items": items}


def folded_ops(plan) -> set:
    """The ops the index loop emits itself: the ``enumerate`` call, the unpacking and its items."""
    return {plan.getiter.obj, plan.extra["unpack"], *plan.extra["items"]}


def _is_list(emitter, plan) -> bool:
    return emitter.ctype(plan.extra["source"]) == "list"


def emit_start(emitter, plan, depth: int) -> None:
    """Before the loop: the counter at 0 for a list, else the generic iterator."""
    source = f"(<object>{emitter.ref(plan.extra['source'])})"
    if _is_list(emitter, plan):
        emitter.emit(f"{plan.index} = 0", depth)
        return
    emitter.decls[f"{plan.index}_list"] = "bint"
    emitter.decls[f"{plan.index}_it"] = "object"
    emitter.emit(f"{plan.index}_list = type({source}) is list", depth)
    emitter.emit(f"if {plan.index}_list:", depth)
    emitter.emit(f"{plan.index} = 0", depth + 1)
    emitter.emit("else:", depth)
    emitter.emit(f"{plan.index}_it = iter({emitter.callee(plan.getiter.obj.func)}({source}))", depth + 1)


def emit_test(emitter, plan, name: str, depth: int) -> None:
    """The loop test into ``name``: the counter below the list's current length, or ``next`` of the iterator."""
    length_test = f"{name} = {plan.index} < len(<list>{emitter.ref(plan.extra['source'])})"
    if _is_list(emitter, plan):
        emitter.emit(length_test, depth)
        return
    emitter.decls[name + "_next"] = "object"
    emitter.emit(f"if {plan.index}_list:", depth)
    emitter.emit(length_test, depth + 1)
    emitter.emit("else:", depth)
    emitter.emit(f"{name}_next = next({plan.index}_it, _MJ_STOP)", depth + 1)
    emitter.emit(f"{name} = {name}_next is not _MJ_STOP", depth + 1)


def emit_fetch(emitter, plan, name: str, depth: int) -> None:
    """The unpacked names: the counter and the list's item, or the items of the generic iterator's tuple."""
    # the item before the counter: should the counter share the list's variable, the list is read first
    read = sorted((item for item in plan.extra["items"] if emitter.users.get(item)), key=lambda item: -item.index)
    source = emitter.ref(plan.extra["source"])
    inner = depth
    if not _is_list(emitter, plan):
        emitter.emit(f"if {plan.index}_list:", depth)
        inner = depth + 1
    for item in read:
        if item.index == 0:
            emitter.assign(item, plan.index, inner)
        else:
            emitter.emit("with cython.boundscheck(False), cython.wraparound(False):", inner)
            emitter.assign(item, f"(<list>{source})[{plan.index}]", inner + 1)
    emitter.emit(f"{plan.index} += 1", inner)
    if not _is_list(emitter, plan):
        emitter.emit("else:", depth)
        for item in read:
            emitter.assign(item, f"(<tuple>{name}_next)[{item.index}]", depth + 1)
        if not read:
            emitter.emit("pass", depth + 1)

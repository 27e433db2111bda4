"""Lists that never leave their function, kept as buffers of unboxed ints, floats or bools.

A list that is built in the function and only ever indexed, assigned, iterated, appended to, measured or
combined with other such lists is invisible to Python, so nothing requires it to hold objects: storing an item
is a machine store instead of boxing it and releasing the old object. ``native_list_reprs`` finds these lists:
the list values connected by φs and by the operations that make one list from another (slicing, ``+``, ``*``,
``list(...)``, ``copy``, ``extend``) form a family, and a family is native when none of its members is an
argument or escapes (returned, stored, passed to a call, compared, ...). The rest of this module is the buffer,
``{i64 references, i64 length, i64 capacity, ptr items}``: its fields, items, copies and references. It imports
only ``reprs``; ``native_list_ops`` lowers the ops on native lists, ``iterators`` and ``truth`` read them.
"""
from __future__ import annotations

import builtins

import llvmlite.ir as ir

from moshjit.backends.llvm.reprs import I1, I8, I64, PTR, BoolR, FloatR, IntR, ListR, NListR
from moshjit.ir import ops
from moshjit.ir.ops import UNDEFINED, Argument, Constant, Phi

LENGTH, CAPACITY, ITEMS = 8, 16, 24
SCALAR_ITEMS = (IntR, FloatR, BoolR)
READING_CALLS = {builtins.len, builtins.sum, builtins.enumerate, builtins.zip, builtins.reversed, builtins.iter,
                 builtins.bool}
IN_PLACE_METHODS = {"append", "pop", "clear", "reverse"}


# ---- which lists are native ---------------------------------------------------------------------------------------
def native_list_reprs(fn, reprs: dict, cold: frozenset = frozenset()) -> dict:
    """Native representations for the list values of ``fn`` whose whole family stays inside the function. A use
    in a ``cold`` block is no use: the interpreter that runs it gets the list handed over (``deopt``)."""
    candidates = {v for v, r in reprs.items() if isinstance(r, ListR) and (r.item is None or
                                                                           isinstance(r.item, SCALAR_ITEMS))}
    parent = {v: v for v in candidates}

    def find(v):
        while parent[v] is not v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    escaped = set()

    def join(a, b):
        if a in candidates and b in candidates:
            parent[find(a)] = find(b)
        else:
            escaped.update(x for x in (a, b) if x in candidates)

    for value in candidates:
        if not _native_producer(value, candidates, join):
            escaped.add(value)
    for user_value, users in fn.users().items():
        if user_value not in candidates:
            continue
        for user in users:
            if getattr(user, "block", None) not in cold and not _native_use(user, user_value, candidates, join,
                                                                            reprs):
                escaped.add(user_value)
    bad_roots = {find(v) for v in escaped}
    families: dict = {}
    for value in candidates:
        families.setdefault(find(value), []).append(value)
    result = {}
    for root, members in families.items():
        if root in bad_roots:
            continue
        items = {reprs[m].item for m in members if reprs[m].item is not None}
        if len(items) > 1:
            continue
        item = items.pop() if items else IntR()
        for member in members:
            result[member] = NListR(item)
    return result


def _native_producer(value, candidates, join) -> bool:
    if isinstance(value, Argument):
        return False
    if isinstance(value, Phi):
        for incoming in value.incoming.values():
            if incoming is not UNDEFINED:
                join(value, incoming)
        return True
    if isinstance(value, ops.BuildList):
        return True
    if isinstance(value, ops.BinaryOp) and value.op in ("*", "+"):
        for operand in (value.left, value.right):
            if operand in candidates or not isinstance(operand, Constant) and value.op == "+":
                join(value, operand)
        return not (value.inplace and value.op == "*")
    if isinstance(value, ops.GetItem):
        join(value, value.obj)
        return isinstance(value.key, ops.BuildSlice) or isinstance(value.key, Constant) \
            and isinstance(value.key.value, slice)
    if isinstance(value, ops.CheckBound):
        join(value, value.value)
        return True
    if isinstance(value, ops.Call) and isinstance(value.func, Constant) and value.func.value is builtins.list:
        if not value.args:
            return True
        source = value.args[0]
        if source in candidates:
            join(value, source)
            return True
        return _is_range_call(source)
    if isinstance(value, ops.CallMethod) and value.name == "copy" and value.obj in candidates:
        join(value, value.obj)
        return True
    return False


def _is_range_call(value) -> bool:
    return isinstance(value, ops.Call) and isinstance(value.func, Constant) and value.func.value is builtins.range


def _native_use(user, value, candidates, join, reprs) -> bool:
    """Whether ``user`` reads or changes list ``value`` only in ways native code keeps inside the function
    (a user making another list from it must itself be a candidate: the two share a family)."""
    if isinstance(user, (Phi, ops.CheckBound)):
        return user in candidates
    if isinstance(user, (ops.GetIter, ops.Branch, ops.Release)):
        return True
    if isinstance(user, ops.UnaryOp):
        return user.op == "not"
    if isinstance(user, ops.GetItem):
        return user.obj is value and (user in candidates or not isinstance(reprs.get(user), ListR))
    if isinstance(user, ops.SetItem):
        return user.obj is value and user.value is not value
    if isinstance(user, ops.ListAppend):
        return user.target is value and user.item is not value
    if isinstance(user, ops.ListExtend):
        join(user.target, user.iterable)
        return True
    if isinstance(user, ops.BinaryOp):
        return user.op in ("*", "+") and user in candidates      # joined as a producer
    if isinstance(user, ops.Compare):
        item = reprs[value].item
        return user.op in ("in", "not in") and user.right is value and user.left is not value \
            and (item is None or isinstance(item, (IntR, BoolR)))
    if isinstance(user, ops.Call):
        function = user.func.value if isinstance(user.func, Constant) else None
        if function is builtins.list:
            return user in candidates             # joined as a producer
        if function in (builtins.min, builtins.max):
            return len(user.args) == 1 and not user.kwnames
        try:
            return function in READING_CALLS and not user.kwnames
        except TypeError:
            return False
    if isinstance(user, ops.CallMethod):
        if user.obj is not value:
            if user.name == "extend" and user.obj in candidates:
                join(user.obj, value)
                return True
            return False
        if value in user.args:
            return False
        if user.name == "extend":
            if user.args and (user.args[0] in candidates):
                join(value, user.args[0])
                return True
            return False
        if user.name == "count":
            return isinstance(reprs[value].item, (IntR, BoolR, type(None)))
        return user.name in IN_PLACE_METHODS or user.name == "copy" and user in candidates
    return False


# ---- the buffer -----------------------------------------------------------------------------------------------------
def _field(low, lst, offset, kind):
    return low.b.gep(lst, [ir.Constant(I64, offset)], source_etype=I8), kind


def _tagged(low, instruction, what: str):
    """Type-based alias metadata: the header fields and the items of native lists (by item type) never
    overlap, so LLVM may keep a list's length and item pointer in registers across item stores."""
    instruction.set_metadata("tbaa", low.rt.alias_tag(what))
    return instruction


def length(low, lst) -> ir.Value:
    pointer, kind = _field(low, lst, LENGTH, I64)
    return _tagged(low, low.b.load(pointer, typ=kind), "native list length")


def set_length(low, lst, value) -> None:
    _tagged(low, low.b.store(value, _field(low, lst, LENGTH, I64)[0]), "native list length")


def items(low, lst) -> ir.Value:
    pointer, kind = _field(low, lst, ITEMS, PTR)
    return _tagged(low, low.b.load(pointer, typ=kind), "native list items pointer")


def new(low, count, representation: NListR, temporaries=()) -> ir.Value:
    """A native list of ``count`` (uninitialised) items."""
    return low.guard_null(low.rt.call(low.b, "mj_nlist_new", count, ir.Constant(I64, representation.item_size)),
                          temporaries)


def load(low, lst, index, representation: NListR) -> ir.Value:
    b = low.b
    value = b.load(b.gep(items(low, lst), [index], source_etype=representation.item_llvm),
                   typ=representation.item_llvm)
    _tagged(low, value, f"native list item {representation.item_llvm}")
    return b.trunc(value, I1) if isinstance(representation.item, BoolR) else value


def store(low, lst, index, value, representation: NListR, base=None) -> None:
    b = low.b
    if isinstance(representation.item, BoolR):
        value = b.zext(value, I8)
    address = b.gep(base if base is not None else items(low, lst), [index], source_etype=representation.item_llvm)
    _tagged(low, b.store(value, address), f"native list item {representation.item_llvm}")


def copy_items(low, target, target_index, source, source_index, count, representation: NListR) -> None:
    """Copy ``count`` items from ``source`` at ``source_index`` to ``target`` at ``target_index`` (may overlap)."""
    b = low.b
    size = ir.Constant(I64, representation.item_size)
    destination = b.gep(items(low, target), [b.mul(target_index, size)], source_etype=I8)
    origin = b.gep(items(low, source), [b.mul(source_index, size)], source_etype=I8)
    memmove = low.rt.intrinsic("llvm.memmove", [PTR, PTR, I64])
    b.call(memmove, [destination, origin, b.mul(count, size), ir.Constant(I1, 0)])


def release(low, lst) -> None:
    low.rt.call(low.b, "mj_nlist_decref_cold" if getattr(low, "cold", False) else "mj_nlist_decref", lst)


def retain(low, lst, times: int = 1) -> None:
    for _ in range(times):
        low.rt.call(low.b, "mj_incref", lst)          # the reference count is the first field, as in objects

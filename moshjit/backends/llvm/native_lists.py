"""Lists that never leave their function, kept as buffers of unboxed ints, floats or bools.

A list that is built in the function and only ever indexed, assigned, iterated, appended to, measured or
combined with other such lists is invisible to Python, so nothing requires it to hold objects: storing an item
is a machine store instead of boxing it and releasing the old object. ``native_list_reprs`` finds these lists:
the list values connected by φs and by the operations that make one list from another (slicing, ``+``, ``*``,
``list(...)``, ``copy``, ``extend``) form a family, and a family is native when none of its members is an
argument or escapes (returned, stored, passed to a call, compared, ...). The rest of this module emits the
operations on them; a native list is ``{i64 references, i64 length, i64 capacity, ptr items}``.
"""
from __future__ import annotations

import builtins

import llvmlite.ir as ir

from moshjit.backends.llvm.comparisons import compare_values
from moshjit.backends.llvm.containers import (adjust_slice, check_item_kind, counted_loop, is_slice, known_nonnegative,
                                              normalize_index, slice_bound, slice_parts)
from moshjit.backends.llvm.conversions import coerce, operand_int
from moshjit.backends.llvm.reprs import I1, I8, I64, PTR, BoolR, FloatR, IntR, ListR, NListR
from moshjit.ir import ops
from moshjit.ir.ops import UNDEFINED, Argument, Constant, Phi

LENGTH, CAPACITY, ITEMS = 8, 16, 24
SCALAR_ITEMS = (IntR, FloatR, BoolR)
READING_CALLS = {builtins.len, builtins.sum, builtins.enumerate, builtins.zip, builtins.reversed, builtins.iter,
                 builtins.bool}
IN_PLACE_METHODS = {"append", "pop", "clear", "reverse"}


# ---- which lists are native ---------------------------------------------------------------------------------------
def native_list_reprs(fn, reprs: dict) -> dict:
    """Native representations for the list values of ``fn`` whose whole family stays inside the function."""
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
            if not _native_use(user, user_value, candidates, join, reprs):
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
    if isinstance(user, (ops.GetIter, ops.Branch)):
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


def _copy(low, target, target_index, source, source_index, count, representation: NListR) -> None:
    b = low.b
    size = ir.Constant(I64, representation.item_size)
    destination = b.gep(items(low, target), [b.mul(target_index, size)], source_etype=I8)
    origin = b.gep(items(low, source), [b.mul(source_index, size)], source_etype=I8)
    memmove = low.rt.intrinsic("llvm.memmove", [PTR, PTR, I64])
    b.call(memmove, [destination, origin, b.mul(count, size), ir.Constant(I1, 0)])


def _item_of(low, value, representation: NListR) -> ir.Value:
    item_repr = low.repr(value)
    check_item_kind(low, ListR(representation.item), item_repr)
    return coerce(low, low.get(value), item_repr, representation.item)


# ---- operations -----------------------------------------------------------------------------------------------------
def build(low, op: ops.BuildList) -> ir.Value:
    representation = low.reprs[op]
    result = new(low, ir.Constant(I64, len(op.items)), representation)
    for i, item in enumerate(op.items):
        store(low, result, ir.Constant(I64, i), _item_of(low, item, representation), representation)
    return result


def repeat(low, source, count, representation: NListR) -> ir.Value:
    """``source * count``: the items of ``source`` repeated (nothing for a count below 1)."""
    b = low.b
    size = length(low, source)
    times = b.select(b.icmp_signed("<", count, ir.Constant(I64, 0)), ir.Constant(I64, 0), count)
    product = b.smul_with_overflow(size, times)
    too_big = low.new_block("repeat.too_big")
    low.branch_unless(b.extract_value(product, 1), too_big)
    saved = b.block
    b.position_at_end(too_big)
    low.rt.call(b, "PyErr_NoMemory")
    b.branch(low.fail_block())
    b.position_at_end(saved)
    result = new(low, b.extract_value(product, 0), representation)
    single, general, done = low.new_block("repeat.one"), low.new_block("repeat.many"), low.new_block("repeat.done")
    b.cbranch(b.icmp_signed("==", size, ir.Constant(I64, 1)), single, general)
    b.position_at_end(single)
    first = b.load(items(low, source), typ=representation.item_llvm)
    base = items(low, result)
    with counted_loop(low, times) as i:
        b.store(first, b.gep(base, [i], source_etype=representation.item_llvm))
    b.branch(done)
    b.position_at_end(general)
    with counted_loop(low, times) as i:
        _copy(low, result, b.mul(i, size), source, ir.Constant(I64, 0), size, representation)
    b.branch(done)
    b.position_at_end(done)
    return result


def concat(low, left, right, representation: NListR) -> ir.Value:
    b = low.b
    left_size, right_size = length(low, left), length(low, right)
    result = new(low, b.add(left_size, right_size), representation)
    _copy(low, result, ir.Constant(I64, 0), left, ir.Constant(I64, 0), left_size, representation)
    _copy(low, result, left_size, right, ir.Constant(I64, 0), right_size, representation)
    return result


def extend(low, target, source, representation: NListR) -> None:
    b = low.b
    size, extra = length(low, target), length(low, source)
    total = b.add(size, extra)
    low.guard_status(low.rt.call(b, "mj_nlist_reserve", target, total, ir.Constant(I64, representation.item_size)))
    _copy(low, target, size, source, ir.Constant(I64, 0), extra, representation)
    set_length(low, target, total)


def append(low, target, value, representation: NListR) -> None:
    b = low.b
    item = _item_of(low, value, representation)
    size = length(low, target)
    grown = b.add(size, ir.Constant(I64, 1))
    low.guard_status(low.rt.call(b, "mj_nlist_reserve", target, grown, ir.Constant(I64, representation.item_size)))
    store(low, target, size, item, representation)
    set_length(low, target, grown)


def get_item(low, op) -> ir.Value:
    representation = low.repr(op.obj)
    lst = low.get(op.obj)
    if is_slice(op.key):
        return get_slice(low, op, lst, representation)
    index = normalize_index(low, operand_int(low, op.key), length(low, lst),
                                      "list index out of range", nonnegative=known_nonnegative(op.key))
    return load(low, lst, index, representation)


def get_slice(low, op, lst, representation: NListR) -> ir.Value:
    b = low.b
    start_v, stop_v, step_v = (slice_bound(low, v) for v in slice_parts(op.key))
    first, step, count = adjust_slice(low, start_v, stop_v, step_v, length(low, lst))
    result = new(low, count, representation)
    if step_v is None:
        _copy(low, result, ir.Constant(I64, 0), lst, first, count, representation)
        return result
    with counted_loop(low, count) as i:
        store(low, result, i, load(low, lst, b.add(first, b.mul(i, step)), representation), representation)
    return result


def set_item(low, op) -> None:
    representation = low.repr(op.obj)
    lst = low.get(op.obj)
    if is_slice(op.key):
        low.not_native("slice assignment")
    value = _item_of(low, op.value, representation)
    index = normalize_index(low, operand_int(low, op.key), length(low, lst),
                                      "list assignment index out of range", nonnegative=known_nonnegative(op.key))
    store(low, lst, index, value, representation)


def binary(low, op) -> ir.Value:
    representation = low.reprs[op]
    if op.op == "+":
        if op.inplace:
            extend(low, low.get(op.left), low.get(op.right), representation)
            low.incref(low.get(op.left), representation)
            return low.get(op.left)
        return concat(low, low.get(op.left), low.get(op.right), representation)
    source, count = (op.left, op.right) if isinstance(low.repr(op.left), NListR) else (op.right, op.left)
    return repeat(low, low.get(source), operand_int(low, count), representation)


def from_call(low, op) -> ir.Value:
    """list(), list(range(...)), list(native list)."""
    from moshjit.backends.llvm import iterators
    representation = low.reprs[op]
    if not op.args:
        return new(low, ir.Constant(I64, 0), representation)
    if isinstance(low.repr(op.args[0]), NListR):
        return copy(low, low.get(op.args[0]), representation)
    b = low.b
    result = new(low, ir.Constant(I64, 0), representation)
    iterator = iterators.iterator_over(low, op.args[0], representation.item)
    loop, done = low.new_block("list.loop"), low.new_block("list.done")
    b.branch(loop)
    b.position_at_end(loop)
    item = iterator.next(low, done)
    size = length(low, result)
    grown = b.add(size, ir.Constant(I64, 1))
    status = low.rt.call(b, "mj_nlist_reserve", result, grown, ir.Constant(I64, representation.item_size))
    low.guard_status(status, [(result, representation)])
    store(low, result, size, item, representation)
    set_length(low, result, grown)
    b.branch(loop)
    b.position_at_end(done)
    iterator.release(low)
    return result


def copy(low, lst, representation: NListR) -> ir.Value:
    size = length(low, lst)
    result = new(low, size, representation)
    _copy(low, result, ir.Constant(I64, 0), lst, ir.Constant(I64, 0), size, representation)
    return result


def method(low, op, lst, representation: NListR):
    b = low.b
    if op.name == "append":
        return append(low, lst, op.args[0], representation)
    if op.name == "extend":
        return extend(low, lst, low.get(op.args[0]), representation)
    if op.name == "copy":
        return copy(low, lst, representation)
    if op.name == "clear":
        return set_length(low, lst, ir.Constant(I64, 0))
    if op.name == "pop":
        size = length(low, lst)
        low.guard(b.icmp_signed("==", size, ir.Constant(I64, 0)), IndexError, "pop from empty list")
        if not op.args:
            index = b.sub(size, ir.Constant(I64, 1))
        else:
            index = normalize_index(low, operand_int(low, op.args[0]), size, "pop index out of range")
        value = load(low, lst, index, representation)
        after = b.add(index, ir.Constant(I64, 1))
        _copy(low, lst, index, lst, after, b.sub(size, after), representation)
        set_length(low, lst, b.sub(size, ir.Constant(I64, 1)))
        return value
    if op.name == "reverse":
        size = length(low, lst)
        half = b.sdiv(size, ir.Constant(I64, 2))
        with counted_loop(low, half) as i:
            j = b.sub(b.sub(size, ir.Constant(I64, 1)), i)
            a, c = load(low, lst, i, representation), load(low, lst, j, representation)
            store(low, lst, i, c, representation)
            store(low, lst, j, a, representation)
        return None
    if op.name == "count":
        return count(low, lst, op.args[0], representation)
    low.not_native(f"list.{op.name}() on a native list")


def count(low, lst, value, representation: NListR) -> ir.Value:
    b = low.b
    item, item_repr = low.get(value), low.repr(value)
    total = low.alloca(I64)
    b.store(ir.Constant(I64, 0), total)
    with counted_loop(low, length(low, lst)) as i:
        hit = compare_values(low, "==", load(low, lst, i, representation), representation.item, item, item_repr)
        b.store(b.add(b.load(total), b.zext(hit, I64)), total)
    return b.load(total)


def contains(low, value, lst, representation: NListR) -> ir.Value:
    return low.b.icmp_signed("!=", count(low, lst, value, representation), ir.Constant(I64, 0))


def release(low, lst) -> None:
    low.rt.call(low.b, "mj_nlist_decref_cold" if getattr(low, "cold", False) else "mj_nlist_decref", lst)


def retain(low, lst, times: int = 1) -> None:
    for _ in range(times):
        low.rt.call(low.b, "mj_incref", lst)          # the reference count is the first field, as in objects

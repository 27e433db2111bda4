"""The ops on native lists (see ``native_lists``): building, indexing, slicing, ``+``, ``*``, methods, ``in``.

An op module like ``sequences``, which lowers the same ops for list objects; ``lower`` sends an op here when the
lists it works on are native. Above ``native_lists`` (the buffer), ``containers``, ``comparisons`` and
``conversions``.
"""
from __future__ import annotations

import llvmlite.ir as ir

from moshjit.backends.llvm.comparisons import compare_values
from moshjit.backends.llvm.containers import (adjust_slice, check_item_kind, counted_loop, is_slice, known_nonnegative,
                                              normalize_index, slice_bound, slice_parts)
from moshjit.backends.llvm.conversions import coerce, operand_int
from moshjit.backends.llvm.native_lists import copy_items, items, length, load, new, set_length, store
from moshjit.backends.llvm.reprs import I1, I64, ListR, NListR
from moshjit.ir import ops


def _item_of(low, value, representation: NListR) -> ir.Value:
    item_repr = low.repr(value)
    check_item_kind(low, ListR(representation.item), item_repr)
    return coerce(low, low.get(value), item_repr, representation.item)


def lower_build_list(low, op: ops.BuildList) -> ir.Value:
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
        copy_items(low, result, b.mul(i, size), source, ir.Constant(I64, 0), size, representation)
    b.branch(done)
    b.position_at_end(done)
    return result


def concat(low, left, right, representation: NListR) -> ir.Value:
    b = low.b
    left_size, right_size = length(low, left), length(low, right)
    result = new(low, b.add(left_size, right_size), representation)
    copy_items(low, result, ir.Constant(I64, 0), left, ir.Constant(I64, 0), left_size, representation)
    copy_items(low, result, left_size, right, ir.Constant(I64, 0), right_size, representation)
    return result


def extend(low, target, source, representation: NListR) -> None:
    b = low.b
    size, extra = length(low, target), length(low, source)
    total = b.add(size, extra)
    low.guard_status(low.rt.call(b, "mj_nlist_reserve", target, total, ir.Constant(I64, representation.item_size)))
    copy_items(low, target, size, source, ir.Constant(I64, 0), extra, representation)
    set_length(low, target, total)


def append(low, target, value, representation: NListR) -> None:
    b = low.b
    item = _item_of(low, value, representation)
    size = length(low, target)
    grown = b.add(size, ir.Constant(I64, 1))
    low.guard_status(low.rt.call(b, "mj_nlist_reserve", target, grown, ir.Constant(I64, representation.item_size)))
    store(low, target, size, item, representation)
    set_length(low, target, grown)


def lower_get_item(low, op: ops.GetItem) -> ir.Value:
    representation = low.repr(op.obj)
    lst = low.get(op.obj)
    if is_slice(op.key):
        return get_slice(low, op, lst, representation)
    index = normalize_index(low, operand_int(low, op.key), length(low, lst), "list index out of range",
                            nonnegative=known_nonnegative(op.key))
    return load(low, lst, index, representation)


def get_slice(low, op, lst, representation: NListR) -> ir.Value:
    b = low.b
    start_v, stop_v, step_v = (slice_bound(low, v) for v in slice_parts(op.key))
    first, step, count = adjust_slice(low, start_v, stop_v, step_v, length(low, lst))
    result = new(low, count, representation)
    if step_v is None:
        copy_items(low, result, ir.Constant(I64, 0), lst, first, count, representation)
        return result
    with counted_loop(low, count) as i:
        store(low, result, i, load(low, lst, b.add(first, b.mul(i, step)), representation), representation)
    return result


def lower_set_item(low, op: ops.SetItem) -> None:
    representation = low.repr(op.obj)
    lst = low.get(op.obj)
    if is_slice(op.key):
        low.not_native("slice assignment")
    value = _item_of(low, op.value, representation)
    index = normalize_index(low, operand_int(low, op.key), length(low, lst), "list assignment index out of range",
                            nonnegative=known_nonnegative(op.key))
    store(low, lst, index, value, representation)


def lower_binary(low, op: ops.BinaryOp) -> ir.Value:
    representation = low.reprs[op]
    if op.op == "+":
        if op.inplace:
            extend(low, low.get(op.left), low.get(op.right), representation)
            low.incref(low.get(op.left), representation)
            return low.get(op.left)
        return concat(low, low.get(op.left), low.get(op.right), representation)
    source, count = (op.left, op.right) if isinstance(low.repr(op.left), NListR) else (op.right, op.left)
    return repeat(low, low.get(source), operand_int(low, count), representation)


def copy(low, lst, representation: NListR) -> ir.Value:
    size = length(low, lst)
    result = new(low, size, representation)
    copy_items(low, result, ir.Constant(I64, 0), lst, ir.Constant(I64, 0), size, representation)
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
        copy_items(low, lst, index, lst, after, b.sub(size, after), representation)
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


def lower_contains(low, op: ops.Compare) -> ir.Value:
    """``in`` and ``not in`` a native list."""
    found = low.b.icmp_signed("!=", count(low, low.get(op.right), op.left, low.repr(op.right)), ir.Constant(I64, 0))
    return found if op.op == "in" else low.b.xor(found, ir.Constant(I1, 1))


def lower_list_append(low, op: ops.ListAppend) -> None:
    append(low, low.get(op.target), op.item, low.repr(op.target))


def lower_list_extend(low, op: ops.ListExtend) -> None:
    extend(low, low.get(op.target), low.get(op.iterable), low.repr(op.target))


OPS = {
    ops.GetItem: lower_get_item,
    ops.SetItem: lower_set_item,
    ops.BuildList: lower_build_list,
    ops.ListAppend: lower_list_append,
    ops.ListExtend: lower_list_extend,
    ops.BinaryOp: lower_binary,
    ops.Compare: lower_contains,
}

"""Lists, tuples, ranges and NumPy arrays in native code.

Lists (and tuple arguments) stay CPython objects: an item is unboxed when read and boxed when written, and
whole-list operations (concatenation, repetition, slicing with step 1) call the same C functions CPython uses,
so the result is a real ``list`` that needs no conversion at the boundary. Tuples of known length are structs.
Arrays are buffers: a data pointer and a shape, read and written in place. Lists that never leave their function
are lowered by ``native_list_ops`` instead (``lower`` chooses by the lists' representation).
"""
from __future__ import annotations

import llvmlite.ir as ir

from moshjit.backends.llvm.comparisons import compare_values
from moshjit.backends.llvm.containers import (adjust_slice, array_row, box, box_value, check_item_kind, counted_loop,
                                              is_slice, items_pointer, known_nonnegative, load_array_item,
                                              normalize_index, object_size, range_length, slice_bound, slice_parts,
                                              unbox_item)
from moshjit.backends.llvm.conversions import coerce, operand_int, to_float, to_int
from moshjit.backends.llvm.reprs import (F32, I1, I32, I64, I8, PTR, ArrayR, BoolR, BoxedTupleR, FloatR, IntR, ListR,
                                         RangeR, Repr, TupleR, UnitR)
from moshjit.backends.llvm.layout import LIST_ITEMS
from moshjit.ir import ops
from moshjit.ir.ops import Constant


# ---- reading and writing items -------------------------------------------------------------------------------
def lower_get_item(low, op: ops.GetItem) -> ir.Value:
    container = low.repr(op.obj)
    key_repr = low.repr(op.key)
    obj = low.get(op.obj)
    if is_slice(op.key):
        return get_slice(low, op, container, obj)
    if isinstance(container, ArrayR):
        return array_get(low, op, container, obj)
    if not isinstance(key_repr, (IntR, BoolR)):
        low.not_native(f"indexing {container.describe()} with {key_repr.describe()}")
    if isinstance(container, TupleR):
        return tuple_get(low, op, container, obj)
    if isinstance(container, (ListR, BoxedTupleR)):
        if container.item is None:
            low.not_native("reading an item of a list whose items are never written")
        index = normalize_index(low, operand_int(low, op.key), object_size(low, obj),
                                "list index out of range" if isinstance(container, ListR)
                                else "tuple index out of range", nonnegative=known_nonnegative(op.key))
        item = (low.rt.call(low.b, "mj_list_item", obj, index) if isinstance(container, ListR)
                else low.rt.call(low.b, "mj_tuple_item", obj, index))
        return unbox_item(low, item, container.item)
    low.not_native(f"indexing {container.describe()}")


def tuple_get(low, op, container: TupleR, obj) -> ir.Value:
    b = low.b
    items = container.items
    if isinstance(op.key, Constant):
        index = int(op.key.value)
        if not -len(items) <= index < len(items):
            low.guard(ir.Constant(I1, 1), IndexError, "tuple index out of range")
            return ir.Constant(low.reprs[op].llvm, ir.Undefined)
        index %= len(items)
        value = b.extract_value(obj, index)
        low.incref(value, items[index])
        return coerce(low, value, items[index], low.reprs[op])
    if len(set(items)) != 1 or isinstance(items[0], UnitR):
        low.not_native("indexing a tuple of mixed item kinds with a run-time index")
    slots = low.alloca(ir.ArrayType(items[0].llvm, len(items)))
    for i in range(len(items)):
        b.store(b.extract_value(obj, i), b.gep(slots, [ir.Constant(I64, 0), ir.Constant(I64, i)]))
    index = normalize_index(low, operand_int(low, op.key), ir.Constant(I64, len(items)),
                            "tuple index out of range", nonnegative=known_nonnegative(op.key))
    value = b.load(b.gep(slots, [ir.Constant(I64, 0), index]), typ=items[0].llvm)
    low.incref(value, items[0])
    return value


def lower_set_item(low, op: ops.SetItem):
    container = low.repr(op.obj)
    obj = low.get(op.obj)
    if isinstance(container, ArrayR):
        return array_set(low, op, container, obj)
    if not isinstance(container, ListR):
        low.not_native(f"item assignment on {container.describe()}")
    if is_slice(op.key):
        return set_slice(low, op, container, obj)
    value_repr = low.repr(op.value)
    check_item_kind(low, container, value_repr)
    index = normalize_index(low, operand_int(low, op.key), object_size(low, obj),
                            "list assignment index out of range", nonnegative=known_nonnegative(op.key))
    boxed = box_value(low, op.value, value_repr)
    low.rt.call(low.b, "mj_list_set_item", obj, index, boxed)


# ---- slices --------------------------------------------------------------------------------------------------


def get_slice(low, op, container: Repr, obj) -> ir.Value:
    if not isinstance(container, (ListR, BoxedTupleR)):
        low.not_native(f"slicing {container.describe()}")
    b, rt = low.b, low.rt
    start_v, stop_v, step_v = (slice_bound(low, v) for v in slice_parts(op.key))
    length = object_size(low, obj)
    start, step, count = adjust_slice(low, start_v, stop_v, step_v, length)
    if step_v is None and isinstance(container, ListR):
        return low.guard_null(rt.call(b, "PyList_GetSlice", obj, start, b.add(start, count)))
    new = "PyList_New" if isinstance(container, ListR) else "PyTuple_New"
    result = low.guard_null(rt.call(b, new, count))
    source_items = items_pointer(low, obj, container)
    target_items = items_pointer(low, result, container)
    with counted_loop(low, count) as i:
        source = b.load(b.gep(source_items, [b.add(start, b.mul(i, step))], source_etype=PTR), typ=PTR)
        rt.call(b, "mj_incref", source)
        b.store(source, b.gep(target_items, [i], source_etype=PTR))
    return result


# ---- building ------------------------------------------------------------------------------------------------
def lower_build_list(low, op: ops.BuildList) -> ir.Value:
    b, rt = low.b, low.rt
    result = low.guard_null(rt.call(b, "PyList_New", ir.Constant(I64, len(op.items))))
    target = low.reprs[op]
    if op.items:
        items = b.load(b.gep(result, [ir.Constant(I64, LIST_ITEMS)], source_etype=I8), typ=PTR)
        for i, item in enumerate(op.items):
            check_item_kind(low, target, low.repr(item))
            boxed = box_value(low, item, low.repr(item), [(result, None)])
            b.store(boxed, b.gep(items, [ir.Constant(I64, i)], source_etype=PTR))
    return result


def lower_build_tuple(low, op: ops.BuildTuple) -> ir.Value:
    target = low.reprs[op]
    result = ir.Constant(target.llvm, ir.Undefined)
    for i, (item, item_repr) in enumerate(zip(op.items, target.items)):
        value = coerce(low, low.get(item), low.repr(item), item_repr)
        low.incref(value, item_repr)
        result = low.b.insert_value(result, value, i)
    return result


def lower_list_append(low, op) -> None:
    target = low.repr(op.target)
    if not isinstance(target, ListR):
        low.not_native(f"append to {target.describe()}")
    item_repr = low.repr(op.item)
    check_item_kind(low, target, item_repr)
    boxed = box_value(low, op.item, item_repr)
    low.guard_status(low.rt.call(low.b, "mj_list_append", low.get(op.target), boxed))


def lower_list_extend(low, op) -> None:
    extend(low, op.target, op.iterable)


def extend(low, target_value, iterable_value) -> None:
    """list.extend / ``[*a]`` with a list or tuple of the same item kind."""
    b, rt = low.b, low.rt
    target, source = low.repr(target_value), low.repr(iterable_value)
    if not isinstance(target, ListR):
        low.not_native(f"extending {target.describe()}")
    source_item = _item_repr(source)
    if source_item is not None or (isinstance(source, ListR) and source.item is None):
        if source_item is not None:
            check_item_kind(low, target, source_item)
    else:
        low.not_native(f"extending a list with {source.describe()}")
    iterable = low.get(iterable_value)
    boxed = box(low, iterable, source)
    result = low.guard_null(rt.call(b, "PySequence_InPlaceConcat", low.get(target_value), boxed), [(boxed, None)])
    rt.call(b, "mj_decref", boxed)
    rt.call(b, "mj_decref", result)


def _item_repr(source: Repr) -> Repr | None:
    if isinstance(source, (ListR, BoxedTupleR)):
        return source.item
    if isinstance(source, TupleR) and source.items and len(set(source.items)) == 1:
        return source.items[0]
    return None


def lower_unpack(low, op: ops.UnpackSequence) -> ir.Value:
    source = low.repr(op.source)
    value = low.get(op.source)
    if isinstance(source, TupleR):
        if len(source.items) != op.count:
            low.not_native(f"unpacking {len(source.items)} values into {op.count} names")
        low.incref(value, source)
        return value
    if isinstance(source, (ListR, BoxedTupleR)):
        b, rt = low.b, low.rt
        n = object_size(low, value)
        count = ir.Constant(I64, op.count)
        too_many, too_few = low.new_block("unpack.too_many"), low.new_block("unpack.too_few")
        wrong, fine = low.new_block("unpack.wrong"), low.new_block("unpack.ok")
        b.cbranch(b.icmp_signed("==", n, count), fine, wrong)
        b.position_at_end(wrong)
        b.cbranch(b.icmp_signed(">", n, count), too_many, too_few)
        b.position_at_end(too_few)
        rt.call(b, "PyErr_Format", rt.exception_type(b, ValueError),
                rt.cstring(f"not enough values to unpack (expected {op.count}, got %zd)"), n)
        b.branch(low.fail_block())
        b.position_at_end(too_many)
        rt.call(b, "mj_raise", rt.exception_type(b, ValueError),
                rt.cstring(f"too many values to unpack (expected {op.count})"))
        b.branch(low.fail_block())
        b.position_at_end(fine)
        rt.call(b, "mj_incref", value)
        return value
    low.not_native(f"unpacking {source.describe()}")


def lower_extract_item(low, op: ops.ExtractItem) -> ir.Value:
    source = low.repr(op.source)
    value = low.get(op.source)
    b = low.b
    if isinstance(source, TupleR):
        item = b.extract_value(value, op.index)
        low.incref(item, source.items[op.index])
        return coerce(low, item, source.items[op.index], low.reprs[op])
    if isinstance(source, (ListR, BoxedTupleR)):
        getter = "mj_list_item" if isinstance(source, ListR) else "mj_tuple_item"
        item = low.rt.call(b, getter, value, ir.Constant(I64, op.index))
        return unbox_item(low, item, source.item)
    low.not_native(f"unpacking {source.describe()}")


# ---- operators -------------------------------------------------------------------------------------------------
def set_slice(low, op, container: ListR, obj) -> None:
    """``lst[i:j] = other``: the list's own ``list_ass_slice`` (``PyList_SetSlice``) on the bounds CPython's
    slice gives (negative bounds count from the end, then clamped); ``other`` a list of the same item kind (so the
    list still only holds items of its kind). With a step, or another right side, not native."""
    start_v, stop_v, step_v = (slice_bound(low, v) for v in slice_parts(op.key))
    if step_v is not None:
        low.not_native("slice assignment with a step")
    value_repr = low.repr(op.value)
    if not (isinstance(value_repr, ListR) and value_repr.item in (None, container.item)):
        low.not_native(f"assigning {value_repr.describe()} to a slice of {container.describe()}")
    b = low.b
    first, _, count = adjust_slice(low, start_v, stop_v, None, object_size(low, obj))
    low.guard_status(low.rt.call(b, "PyList_SetSlice", obj, first, b.add(first, count), low.get(op.value)))


def lower_binary(low, op: ops.BinaryOp) -> ir.Value:
    b, rt = low.b, low.rt
    left, right = low.repr(op.left), low.repr(op.right)
    result = low.reprs[op]
    if isinstance(left, TupleR) and isinstance(right, TupleR) and op.op == "+":
        value = ir.Constant(result.llvm, ir.Undefined)
        parts = [(low.get(op.left), left, i) for i in range(len(left.items))] + \
                [(low.get(op.right), right, i) for i in range(len(right.items))]
        for position, (source, source_repr, i) in enumerate(parts):
            item = b.extract_value(source, i)
            low.incref(item, source_repr.items[i])
            value = b.insert_value(value, item, position)
        return value
    if op.op == "+" and isinstance(left, (ListR, BoxedTupleR)) and type(left) is type(right):
        name = "PySequence_InPlaceConcat" if op.inplace and isinstance(left, ListR) else "PySequence_Concat"
        return low.guard_null(rt.call(b, name, low.get(op.left), low.get(op.right)))
    if op.op == "*":
        sequence, count = (op.left, op.right) if isinstance(left, (ListR, BoxedTupleR)) else (op.right, op.left)
        sequence_repr = low.repr(sequence)
        if isinstance(sequence_repr, (ListR, BoxedTupleR)) and isinstance(low.repr(count), (IntR, BoolR)):
            name = "PySequence_InPlaceRepeat" if op.inplace and sequence is op.left and \
                isinstance(sequence_repr, ListR) else "PySequence_Repeat"
            return low.guard_null(rt.call(b, name, low.get(sequence), operand_int(low, count)))
    low.not_native(f"'{op.op}' between {left.describe()} and {right.describe()}")


def lower_contains(low, op: ops.Compare) -> ir.Value:
    """``in`` and ``not in`` (the other comparisons are in ``comparisons``)."""
    found = contains(low, op.left, op.right)
    return found if op.op == "in" else low.b.xor(found, ir.Constant(I1, 1))


def contains(low, item_value, container_value) -> ir.Value:
    """``item in container`` for lists/tuples of ints and bools, tuples of numbers, and ranges."""
    b = low.b
    container = low.repr(container_value)
    item_repr = low.repr(item_value)
    item = low.get(item_value)
    if isinstance(container, TupleR):
        found = ir.Constant(I1, 0)
        tuple_value = low.get(container_value)
        for i, kind in enumerate(container.items):
            found = b.or_(found, compare_values(low, "==", item, item_repr, b.extract_value(tuple_value, i), kind))
        return found
    if isinstance(container, RangeR):
        if not isinstance(item_repr, (IntR, BoolR)):
            low.not_native(f"'in' of {item_repr.describe()} in a range")
        value = to_int(low, item, item_repr)
        r = low.get(container_value)
        start, step = b.extract_value(r, 0), b.extract_value(r, 2)
        offset = b.sub(value, start)
        index = b.sdiv(offset, step)
        aligned = b.icmp_signed("==", b.srem(offset, step), ir.Constant(I64, 0))
        inside = b.and_(b.icmp_signed(">=", index, ir.Constant(I64, 0)),
                        b.icmp_signed("<", index, range_length(low, r)))
        return b.and_(aligned, inside)
    if isinstance(container, (ListR, BoxedTupleR)) and isinstance(container.item, (IntR, BoolR)) \
            and isinstance(item_repr, (IntR, BoolR)):
        sequence = low.get(container_value)
        getter = "mj_list_item" if isinstance(container, ListR) else "mj_tuple_item"
        result = low.alloca(I1)
        b.store(ir.Constant(I1, 0), result)
        found_block = low.new_block("in.found")
        done = low.new_block("in.done")
        with counted_loop(low, object_size(low, sequence)) as i:
            candidate = unbox_item(low, low.rt.call(b, getter, sequence, i), container.item)
            hit = compare_values(low, "==", item, item_repr, candidate, container.item)
            next_block = low.new_block("in.next")
            b.cbranch(hit, found_block, next_block)
            b.position_at_end(next_block)
        b.branch(done)
        b.position_at_end(found_block)
        b.store(ir.Constant(I1, 1), result)
        b.branch(done)
        b.position_at_end(done)
        return b.load(result)
    low.not_native(f"'in' of {item_repr.describe()} in {container.describe()}")


# ---- arrays ----------------------------------------------------------------------------------------------------
def _axis_index(low, index: ir.Value, size: ir.Value, axis: int, array: ArrayR, storing: bool = False) \
        -> ir.Value:
    """A checked index along one axis (negative counts from the end), with the IndexError message of the array's
    own type (NumPy's, or ``array.array``'s for reading and for assignment)."""
    b = low.b
    adjusted = b.select(b.icmp_signed("<", index, ir.Constant(I64, 0)), b.add(index, size), index)
    fail = low.new_block("index.error")
    low.branch_unless(b.icmp_unsigned(">=", adjusted, size), fail)
    saved = b.block
    b.position_at_end(fail)
    if array.container == "array":
        low.rt.call(b, "PyErr_SetString", low.rt.exception_type(b, IndexError),
                    low.rt.cstring("array assignment index out of range" if storing else "array index out of range"))
    else:
        low.rt.call(b, "PyErr_Format", low.rt.exception_type(b, IndexError),
                    low.rt.cstring(f"index %lld is out of bounds for axis {axis} with size %lld"), index, size)
    b.branch(low.fail_block())
    b.position_at_end(saved)
    return adjusted


def _array_address(low, array: ArrayR, value, indices: list, storing: bool = False) -> ir.Value:
    """Address of the item at ``indices`` (checked against the shape)."""
    b = low.b
    offset = None
    for axis, index in enumerate(indices):
        size = b.extract_value(value, axis + 1)
        adjusted = _axis_index(low, index, size, axis, array, storing)
        offset = adjusted if offset is None else b.add(b.mul(offset, size), adjusted)
    return b.gep(b.extract_value(value, 0), [offset], source_etype=array.item_llvm)


def _array_indices(low, key) -> list:
    key_repr = low.repr(key)
    if isinstance(key_repr, TupleR):
        value = low.get(key)
        return [to_int(low, low.b.extract_value(value, i), r) for i, r in enumerate(key_repr.items)]
    return [operand_int(low, key)]


def array_get(low, op, array: ArrayR, value) -> ir.Value:
    b = low.b
    indices = _array_indices(low, op.key)
    if len(indices) == array.ndim:
        return load_array_item(low, array, _array_address(low, array, value, indices))
    if array.ndim == 2 and len(indices) == 1:
        return array_row(low, array, value, _axis_index(low, indices[0], b.extract_value(value, 1), 0, array))
    low.not_native(f"indexing a {array.ndim}-d array with {len(indices)} indices")


def array_set(low, op, array: ArrayR, value) -> None:
    b = low.b
    indices = _array_indices(low, op.key)
    if len(indices) != array.ndim:
        low.not_native("assigning to a slice of an array")
    item_repr = low.repr(op.value)
    item = low.get(op.value)
    if array.container == "array" and not array.is_float and not isinstance(item_repr, (IntR, BoolR)):
        low.not_native(f"storing {item_repr.describe()} into an int array.array")   # a TypeError there
    address = _array_address(low, array, value, indices, storing=True)
    if array.is_float:
        if not isinstance(item_repr, (FloatR, IntR, BoolR)):
            low.not_native(f"storing {item_repr.describe()} into a float array")
        stored = to_float(low, item, item_repr)
        if array.dtype == "float32":
            stored = b.fptrunc(stored, F32)
    else:
        if not isinstance(item_repr, (IntR, BoolR)):
            low.not_native(f"storing {item_repr.describe()} into an int array")
        stored = to_int(low, item, item_repr)
        if array.dtype == "int32":
            fits = b.icmp_signed("==", b.sext(b.trunc(stored, I32), I64), stored)
            fail = low.new_block("int32.overflow")
            low.branch_unless(b.xor(fits, ir.Constant(I1, 1)), fail)
            saved = b.block
            b.position_at_end(fail)
            low.rt.call(b, "PyErr_Format", low.rt.exception_type(b, OverflowError),
                        low.rt.cstring("Python integer %lld out of bounds for int32"), stored)
            b.branch(low.fail_block())
            b.position_at_end(saved)
            stored = b.trunc(stored, I32)
    b.store(stored, address)


OPS = {
    ops.GetItem: lower_get_item,
    ops.SetItem: lower_set_item,
    ops.BuildList: lower_build_list,
    ops.BuildTuple: lower_build_tuple,
    ops.ListAppend: lower_list_append,
    ops.ListExtend: lower_list_extend,
    ops.UnpackSequence: lower_unpack,
    ops.ExtractItem: lower_extract_item,
    ops.BinaryOp: lower_binary,
    ops.Compare: lower_contains,
    ops.BuildSlice: lambda low, op: ir.Constant(I8, 0),
}

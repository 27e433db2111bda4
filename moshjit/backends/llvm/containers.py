"""What the op modules share about lists, tuples, ranges and arrays: boxing, sizes, items, indices and slices.

Above ``conversions`` and below the modules that lower ops (``sequences``, ``native_list_ops``, ``iterators``,
``fusion``, ``calls``): a native value boxed into a CPython object and list or tuple items unboxed, the size of
an object or a range, where an object's items are and which item kind a list may hold, a counted loop, Python's
index and slice arithmetic, and the items and rows of arrays.
"""
from __future__ import annotations

import llvmlite.ir as ir

from moshjit.backends.llvm.conversions import operand_int
from moshjit.backends.llvm.layout import LIST_ITEMS, OB_SIZE, TUPLE_ITEMS
from moshjit.backends.llvm.reprs import (F64, I64, I8, PTR, ArrayR, BoolR, BoxedTupleR, FloatR, IntR, ListR, Repr,
                                         TupleR, UnitR)
from moshjit.ir import ops
from moshjit.ir.ops import Constant
from moshjit.ir.types import INT64_MAX, INT64_MIN, IntType


# ---- boxing and unboxing ---------------------------------------------------------------------------------------------
def box(low, value: ir.Value, representation: Repr, temporaries=()) -> ir.Value:
    """A new reference to the CPython object for ``value`` (failure releases ``temporaries`` and unwinds)."""
    b, rt = low.b, low.rt
    if isinstance(representation, IntR):
        return low.guard_null(rt.call(b, "mj_box_int", value), temporaries)
    if isinstance(representation, FloatR):
        return low.guard_null(rt.call(b, "PyFloat_FromDouble", value), temporaries)
    if isinstance(representation, BoolR):
        return rt.call(b, "mj_box_bool", value)
    if isinstance(representation, (ListR, BoxedTupleR)):
        rt.call(b, "mj_incref", value)
        return value
    if isinstance(representation, UnitR) and representation.what == "None":
        none = rt.data("_Py_NoneStruct")
        rt.call(b, "mj_incref", none)
        return none
    if isinstance(representation, TupleR):
        result = low.guard_null(rt.call(b, "PyTuple_New", ir.Constant(I64, len(representation.items))), temporaries)
        for i, item in enumerate(representation.items):
            boxed = box(low, b.extract_value(value, i), item, [*temporaries, (result, None)])
            slot = b.gep(result, [ir.Constant(I64, TUPLE_ITEMS + 8 * i)], source_etype=I8)
            b.store(boxed, slot)
        return result
    low.not_native(f"converting {representation.describe()} to a Python object")


def box_value(low, value, representation: Repr, temporaries=()) -> ir.Value:
    """A new reference to the object for SSA ``value`` stored as ``representation``: the caller's own object where
    the number is an argument (CPython stores that object: ``out.append(n)`` then ``out[0] is n``), else ``box``."""
    obj = low.object_of(value, representation) if isinstance(representation, (IntR, FloatR)) else None
    if obj is None:
        return box(low, low.get(value), representation, temporaries)
    b = low.b
    with b.if_else(b.icmp_unsigned("!=", obj, ir.Constant(PTR, None))) as (passed, computed):
        with passed:
            low.rt.call(b, "mj_incref", obj)
            passed_block = b.block
        with computed:
            boxed = box(low, low.get(value), representation, temporaries)
            computed_block = b.block
    result = b.phi(PTR)
    result.add_incoming(obj, passed_block)
    result.add_incoming(boxed, computed_block)
    return result


def unbox_item(low, obj: ir.Value, representation: Repr) -> ir.Value:
    """The native value of a borrowed item already known to have the right type (lists own a new reference)."""
    b, rt = low.b, low.rt
    if isinstance(representation, IntR):
        return rt.call(b, "mj_unbox_int", obj)
    if isinstance(representation, FloatR):
        return rt.call(b, "mj_unbox_float", obj)
    if isinstance(representation, BoolR):
        return b.icmp_unsigned("==", obj, rt.data("_Py_TrueStruct"))
    if isinstance(representation, (ListR, BoxedTupleR)):
        rt.call(b, "mj_incref", obj)
        return obj
    if isinstance(representation, TupleR):             # a tuple of known length: its fields, unboxed
        value = ir.Constant(representation.llvm, ir.Undefined)
        for i, field in enumerate(representation.items):
            if isinstance(field, UnitR):
                continue
            item = unbox_item(low, rt.call(b, "mj_tuple_item", obj, ir.Constant(I64, i)), field)
            value = b.insert_value(value, item, i)
        return value
    low.not_native(f"reading items of kind {representation.describe() if representation else 'unknown'}")


# ---- sizes and items -------------------------------------------------------------------------------------------------
def object_size(low, obj: ir.Value) -> ir.Value:
    return low.b.load(low.b.gep(obj, [ir.Constant(I64, OB_SIZE)], source_etype=I8), typ=I64)


def range_length(low, value: ir.Value) -> ir.Value:
    """len(range(start, stop, step)) without overflow (the distance is taken as unsigned)."""
    b = low.b
    start, stop, step = (b.extract_value(value, i) for i in range(3))
    zero, one = ir.Constant(I64, 0), ir.Constant(I64, 1)
    up = b.icmp_signed(">", step, zero)
    low_end = b.select(up, start, stop)
    high_end = b.select(up, stop, start)
    magnitude = b.select(up, step, b.sub(zero, step))
    nonempty = b.icmp_signed("<", low_end, high_end)
    distance = b.sub(b.sub(high_end, low_end), one)
    count = b.add(b.udiv(distance, magnitude), one)
    return b.select(nonempty, count, zero)


def items_pointer(low, obj, container: Repr) -> ir.Value:
    """Address of the first item pointer of a list or tuple object."""
    b = low.b
    if isinstance(container, ListR):
        return b.load(b.gep(obj, [ir.Constant(I64, LIST_ITEMS)], source_etype=I8), typ=PTR)
    return b.gep(obj, [ir.Constant(I64, TUPLE_ITEMS)], source_etype=I8)


def check_item_kind(low, container: ListR, value_repr: Repr) -> None:
    """A list only ever holds items of its own kind (so reads can unbox without checking)."""
    if container.item is None or container.item != value_repr:
        if isinstance(container.item, ListR) and isinstance(value_repr, ListR) and value_repr.item is None:
            return
        low.not_native(f"storing {value_repr.describe()} into a list of "
                       f"{container.item.describe() if container.item else 'unknown items'}")


class counted_loop:
    """``with counted_loop(low, n) as i:`` emits a loop body for i in range(n) (n >= 0)."""

    def __init__(self, low, count):
        self.low, self.count = low, count

    def __enter__(self):
        b = self.low.b
        self.before = b.block
        self.header = self.low.new_block("loop")
        self.body = self.low.new_block("loop.body")
        self.after = self.low.new_block("loop.end")
        b.branch(self.header)
        b.position_at_end(self.header)
        self.i = b.phi(I64)
        self.i.add_incoming(ir.Constant(I64, 0), self.before)
        b.cbranch(b.icmp_signed("<", self.i, self.count), self.body, self.after)
        b.position_at_end(self.body)
        return self.i

    def __exit__(self, *exc):
        if exc[0] is None:
            b = self.low.b
            self.i.add_incoming(b.add(self.i, ir.Constant(I64, 1)), b.block)
            b.branch(self.header)
            b.position_at_end(self.after)
        return False


# ---- indices and slices ----------------------------------------------------------------------------------------------
def normalize_index(low, index: ir.Value, length: ir.Value, message: str, exception=IndexError,
                    nonnegative: bool = False) -> ir.Value:
    """Python indexing: a negative index counts from the end; outside [0, length) raises."""
    b = low.b
    if not nonnegative:
        index = b.select(b.icmp_signed("<", index, ir.Constant(I64, 0)), b.add(index, length), index)
    low.guard(b.icmp_unsigned(">=", index, length), exception, message)
    return index


def known_nonnegative(value) -> bool:
    """Whether an index is known not to be negative (a constant, or by its type's range): no wrap-around."""
    t = value.value if isinstance(value, Constant) else None
    if isinstance(t, int):
        return t >= 0
    kind = getattr(value, "type", None)
    return isinstance(kind, IntType) and kind.lo is not None and kind.lo >= 0


def is_slice(value) -> bool:
    """Whether an index is a slice (built by the function, or a constant)."""
    return isinstance(value, ops.BuildSlice) or isinstance(value, Constant) and isinstance(value.value, slice)


def slice_parts(op_key):
    """The (start, stop, step) values of a slice index, each read with ``slice_bound``."""
    if isinstance(op_key, Constant):
        return tuple(Constant(v) for v in (op_key.value.start, op_key.value.stop, op_key.value.step))
    return op_key.start, op_key.stop, op_key.step


def slice_bound(low, value):
    """The i64 value of one slice bound, or None when it is not given (absent, or the constant None)."""
    if value is None or isinstance(value, Constant) and value.value is None:
        return None
    return operand_int(low, value)


def adjust_slice(low, start_v, stop_v, step_v, length):
    """PySlice_Unpack + PySlice_AdjustIndices: (start, step, slice length)."""
    b = low.b
    zero, one = ir.Constant(I64, 0), ir.Constant(I64, 1)
    if step_v is None:
        step = one
    else:
        step = step_v
        low.guard(b.icmp_signed("==", step, zero), ValueError, "slice step cannot be zero")
        step = b.select(b.icmp_signed("==", step, ir.Constant(I64, INT64_MIN)), ir.Constant(I64, -INT64_MAX), step)
    negative = b.icmp_signed("<", step, zero)
    minus_one = ir.Constant(I64, -1)

    def clamp(value, default_negative, default_positive):
        if value is None:
            return b.select(negative, default_negative, default_positive)
        shifted = b.select(b.icmp_signed("<", value, zero), b.add(value, length), value)
        below = b.icmp_signed("<", shifted, zero)
        above = b.icmp_signed(">=", shifted, length)
        lower = b.select(negative, minus_one, zero)
        upper = b.select(negative, b.sub(length, one), length)
        return b.select(below, lower, b.select(above, upper, shifted))

    start = clamp(start_v, b.sub(length, one), zero)
    stop = clamp(stop_v, minus_one, length)
    up_count = b.add(b.sdiv(b.sub(b.sub(stop, start), one), step), one)
    down_count = b.add(b.sdiv(b.sub(b.sub(start, stop), one), b.sub(zero, step)), one)
    count = b.select(negative, b.select(b.icmp_signed("<", stop, start), down_count, zero),
                     b.select(b.icmp_signed("<", start, stop), up_count, zero))
    return start, step, count


# ---- arrays ----------------------------------------------------------------------------------------------------------
def array_item(low, array: ArrayR, value, index: ir.Value) -> ir.Value:
    """Item (1-d) or row view (2-d) ``index`` of an array, for an index already known to be in range."""
    if array.ndim == 2:
        return array_row(low, array, value, index)
    return load_array_item(low, array, low.b.gep(low.b.extract_value(value, 0), [index], source_etype=array.item_llvm))


def load_array_item(low, array: ArrayR, address) -> ir.Value:
    """The item at ``address`` as a Python number would hold it (int32 and float32 widened)."""
    b = low.b
    item = b.load(address, typ=array.item_llvm)
    if array.dtype == "int32":
        return b.sext(item, I64)
    if array.dtype == "float32":
        return b.fpext(item, F64)
    return item


def array_row(low, array: ArrayR, value, row: ir.Value) -> ir.Value:
    """Row ``row`` of a 2-d array as a 1-d array view."""
    b = low.b
    size1 = b.extract_value(value, 2)
    start = b.gep(b.extract_value(value, 0), [b.mul(row, size1)], source_etype=array.item_llvm)
    view = ir.Constant(ArrayR(array.dtype, 1, array.container).llvm, ir.Undefined)
    view = b.insert_value(b.insert_value(view, start, 0), size1, 1)
    view = b.insert_value(view, ir.Constant(I64, 0), 2)
    return b.insert_value(view, b.extract_value(value, 3), 3)

"""List expressions built in one allocation: ``ids + [pad] * (n - len(ids))``, ``[1] * a + [0] * b``.

CPython evaluates such an expression one operator at a time: each ``[x] * n`` and each ``+`` allocates a list
and increments the reference count of every item it copies. Here a concatenation tree whose inner operands are
used nowhere else — item displays, ``[x] * n``, step-1 slices and existing lists — is emitted as one
``PyList_New`` of the total length followed by a fill per segment; the ``n`` copies of ``x`` take their ``n``
references in one addition. An inner operand is deferred to its consumer only when nothing between them in the
block can change a list (``PURE_BETWEEN``), so reading the sources later gives the same items.
"""
from __future__ import annotations

import builtins

import llvmlite.ir as ir

from moshjit.backends.llvm.containers import (adjust_slice, box_value, check_item_kind, counted_loop, items_pointer,
                                              object_size, slice_bound, slice_parts)
from moshjit.backends.llvm.conversions import operand_int
from moshjit.backends.llvm.reprs import I1, I8, I64, PTR, ListR
from moshjit.backends.llvm.layout import LIST_ITEMS
from moshjit.ir import ops
from moshjit.ir.ops import Constant

PURE_CALLS = {builtins.len, builtins.abs, builtins.min, builtins.max, builtins.int, builtins.float, builtins.bool}


def _pure_between(op, reprs) -> bool:
    """Ops that cannot change any list (so a deferred list operand may be read after them)."""
    if isinstance(op, (ops.BinaryOp, ops.UnaryOp, ops.Compare)):
        return not op.inplace if isinstance(op, ops.BinaryOp) else True
    if isinstance(op, (ops.BuildTuple, ops.BuildList, ops.ExtractItem, ops.BuildSlice, ops.CheckBound)):
        return True
    if isinstance(op, ops.GetItem):
        return True
    if isinstance(op, ops.Call) and isinstance(op.func, Constant):
        try:
            return op.func.value in PURE_CALLS
        except TypeError:
            return False
    return False


def _is_list(value, reprs) -> bool:
    return isinstance(reprs.get(value), ListR)


def _single_item_repeat(op, reprs) -> bool:
    """``[x] * n`` (either order)."""
    if not (isinstance(op, ops.BinaryOp) and op.op == "*" and not op.inplace and _is_list(op, reprs)):
        return False
    display = op.left if isinstance(op.left, ops.BuildList) else op.right
    return isinstance(display, ops.BuildList) and len(display.items) == 1


def _is_concat(op, reprs) -> bool:
    return isinstance(op, ops.BinaryOp) and op.op == "+" and not op.inplace and _is_list(op, reprs) \
        and _is_list(op.left, reprs) and _is_list(op.right, reprs)


def _is_plain_slice(op, reprs) -> bool:
    if not (isinstance(op, ops.GetItem) and _is_list(op, reprs) and _is_list(op.obj, reprs)):
        return False
    key = op.key
    if isinstance(key, Constant):
        return isinstance(key.value, slice) and key.value.step is None
    return isinstance(key, ops.BuildSlice) and (key.step is None or isinstance(key.step, Constant)
                                                and key.step.value is None)


def deferred_ops(fn, reprs, cold: frozenset = frozenset()) -> dict:
    """Map each deferred list op to the op that emits it (the root of its concatenation tree); none in the
    ``cold`` blocks, which are not compiled."""
    users = fn.users()
    parent: dict = {}
    for block in fn.blocks:
        if block in cold:
            continue
        position = {op: i for i, op in enumerate(block.ops)}
        for op in block.ops:
            consumers = users.get(op, [])
            if len(consumers) != 1 or not _fusible(op, reprs) or consumers[0] not in position:
                continue
            consumer = consumers[0]
            if not (_is_concat(consumer, reprs) or _single_item_repeat(consumer, reprs) and op.NAME == "build_list"):
                continue
            between = block.ops[position[op] + 1:position[consumer]]
            if position[consumer] > position[op] and all(_pure_between(o, reprs) for o in between):
                parent[op] = consumer
    roots = {}
    for op in parent:
        root = op
        while root in parent:
            root = parent[root]
        roots[op] = root
    return roots


def _fusible(op, reprs) -> bool:
    return isinstance(op, ops.BuildList) or _single_item_repeat(op, reprs) or _is_concat(op, reprs) \
        or _is_plain_slice(op, reprs)


def is_root(op, reprs) -> bool:
    """Ops emitted as one fused allocation when they are not themselves deferred."""
    return _is_concat(op, reprs) or _single_item_repeat(op, reprs)


# ---- emission ------------------------------------------------------------------------------------------------
def lower_fused(low, op) -> ir.Value:
    """One list for the concatenation tree rooted at ``op``: lengths, one allocation, one fill per segment."""
    b = low.b
    target = low.reprs[op]
    segments = []
    _collect(low, op, segments, target, op)
    lengths = [segment.length(low) for segment in segments]
    total = ir.Constant(I64, 0)
    too_big = ir.Constant(I1, 0)
    for length in lengths:
        summed = b.sadd_with_overflow(total, length)
        total, too_big = b.extract_value(summed, 0), b.or_(too_big, b.extract_value(summed, 1))
    no_memory = low.new_block("fused.too_big")
    low.branch_unless(too_big, no_memory)
    saved = b.block
    b.position_at_end(no_memory)
    low.rt.call(b, "PyErr_NoMemory")
    b.branch(low.fail_block())
    b.position_at_end(saved)
    result = low.guard_null(low.rt.call(b, "PyList_New", total))
    items = b.load(b.gep(result, [ir.Constant(I64, LIST_ITEMS)], source_etype=I8), typ=PTR)
    offset = ir.Constant(I64, 0)
    for segment, length in zip(segments, lengths):
        segment.fill(low, b.gep(items, [offset], source_etype=PTR), length, result)
        offset = b.add(offset, length)
    return result


def _collect(low, value, segments, target, root) -> None:
    """The segments of ``value`` inside the tree of ``root``; a list computed outside the tree is copied."""
    reprs = low.reprs
    if value is root or low.deferred.get(value) is root:
        if _is_concat(value, reprs):
            _collect(low, value.left, segments, target, root)
            _collect(low, value.right, segments, target, root)
            return
        if _single_item_repeat(value, reprs):
            display, count = (value.left, value.right) if isinstance(value.left, ops.BuildList) \
                else (value.right, value.left)
            check_item_kind(low, target, low.repr(display.items[0]))
            segments.append(Fill(display.items[0], count))
            return
        if isinstance(value, ops.BuildList):
            for item in value.items:
                check_item_kind(low, target, low.repr(item))
            segments.append(Items(value.items))
            return
        segments.append(Copy(value.obj, value.key))
        return
    segments.append(Copy(value, None))


class Fill:
    """``[item] * count``: the boxed item stored ``count`` times (at least 0), its references added at once."""

    def __init__(self, item, count):
        self.item, self.count = item, count

    def length(self, low):
        count = operand_int(low, self.count)
        return low.b.select(low.b.icmp_signed("<", count, ir.Constant(I64, 0)), ir.Constant(I64, 0), count)

    def fill(self, low, start, length, result):
        b = low.b
        boxed = box_value(low, self.item, low.repr(self.item), [(result, None)])
        with counted_loop(low, length) as i:
            b.store(boxed, b.gep(start, [i], source_etype=PTR))
        low.rt.call(b, "mj_add_references", boxed, b.sub(length, ir.Constant(I64, 1)))


class Items:
    """An item display: each item boxed into its slot."""

    def __init__(self, items):
        self.items = items

    def length(self, low):
        return ir.Constant(I64, len(self.items))

    def fill(self, low, start, length, result):
        b = low.b
        for i, item in enumerate(self.items):
            boxed = box_value(low, item, low.repr(item), [(result, None)])
            b.store(boxed, b.gep(start, [ir.Constant(I64, i)], source_etype=PTR))


class Copy:
    """The items of an existing list (all of them, or a step-1 slice), each with a new reference."""

    def __init__(self, source, key):
        self.source, self.key = source, key
        self.first = None

    def length(self, low):
        obj = low.get(self.source)
        size = object_size(low, obj)
        if self.key is None:
            self.first = ir.Constant(I64, 0)
            return size
        start, stop, _ = (slice_bound(low, v) for v in slice_parts(self.key))
        self.first, _, count = adjust_slice(low, start, stop, None, size)
        return count

    def fill(self, low, start, length, result):
        b = low.b
        source = items_pointer(low, low.get(self.source), low.repr(self.source))
        with counted_loop(low, length) as i:
            item = b.load(b.gep(source, [b.add(self.first, i)], source_etype=PTR), typ=PTR)
            low.rt.call(b, "mj_incref", item)
            b.store(item, b.gep(start, [i], source_etype=PTR))

"""for loops: iterators over ranges, lists, tuples and arrays, and enumerate / zip / reversed of them.

An iterator is never a first-class value in native code: it is made by ``get_iter`` (or an ``enumerate``/
``zip``/``reversed`` call) and consumed by ``for_iter``, so its state lives in stack slots of the function
(which the optimiser turns into registers) and the object it walks over is kept alive by one reference the
iterator owns. Each kind emits ``next``: branch to the exhausted block, or continue with the next item, which
is a new reference when the items are lists.
"""
from __future__ import annotations

import builtins

import llvmlite.ir as ir

from moshjit.backends.llvm import native_lists
from moshjit.backends.llvm.containers import array_item, object_size, range_length, unbox_item
from moshjit.backends.llvm.conversions import to_int
from moshjit.backends.llvm.reprs import (I64, ArrayR, BoxedTupleR, IterR, ListR, NListR, RangeR, Repr, TupleR,
                                         UnitR, repr_of)
from moshjit.ir import ops
from moshjit.ir.ops import Constant

ITERATOR_FUNCTIONS = (builtins.enumerate, builtins.zip, builtins.reversed, builtins.iter)
ENUMERATE_START_LIMIT = 2 ** 62          # a larger start continues in the interpreter (CPython's counter grows)


def only_looped_over(fn, value) -> bool:
    """Iterators may only feed ``get_iter``, ``for_iter`` and enumerate/zip (no φ, no other use)."""
    for block in fn.blocks:
        for inst in [*block.phis, *block.instructions()]:
            if value in list(inst.operands()):
                if not (isinstance(inst, ops.GetIter) and inst.obj is value
                        or isinstance(inst, ops.ForIter) and inst.iterator is value
                        or isinstance(inst, ops.Call) and inst.func is not value and isinstance(inst.func, Constant)
                        and inst.func.value in (builtins.enumerate, builtins.zip, builtins.iter)):
                    return False
    return True


def _sources(op) -> list:
    if isinstance(op, ops.GetIter):
        return [op.obj]
    if isinstance(op, ops.Call):
        return list(op.args)
    return []


def holds_references(low, value) -> bool:
    """Whether the iterator made by ``value`` keeps references (it walks over lists or tuples of them)."""
    for source in _sources(value):
        if isinstance(source, Constant):
            continue
        representation = low.reprs.get(source)
        if isinstance(representation, IterR):
            if holds_references(low, source):
                return True
        elif representation is not None and representation.refcounted:
            return True
    return False


class Iterator:
    """State and ``next`` of one iterator kind; ``objects`` are the LLVM pointers it holds references to.

    ``last`` is the position ``next`` just read (an item index, or a range's item), and ``landed`` is the
    ``for_iter`` body block it was read for: a deoptimisation in a block that body dominates describes the state
    relative to it (``state``), so the loop need not keep its next position alive besides the current one."""

    objects: tuple = ()
    last = None
    landed = None

    def land(self, body) -> None:
        """``next`` was just emitted for the ``for_iter`` whose body block is ``body``."""
        self.landed = body if self.last is not None else None

    def next(self, low, exhausted: ir.Block) -> ir.Value:
        """Emit the read of the next item (branching to ``exhausted`` at the end); every iterator kind defines it."""
        raise NotImplementedError

    def retain(self, low, times: int = 1) -> None:
        for obj in self.objects:
            for _ in range(times):
                low.rt.call(low.b, "mj_incref", obj)

    def release(self, low) -> None:
        for obj in self.objects:
            low.decref(obj, None)

    def state(self, low, words) -> list:
        """Describe the iterator's current state for a deoptimisation (``deopt.Words``): a JSON descriptor whose
        numbers are word indices, from which ``resume`` makes an equivalent Python iterator."""
        raise NotImplementedError


class RangeIterator(Iterator):
    def __init__(self, low, value: ir.Value, step_constant: int | None):
        b = low.b
        self.step_constant = step_constant
        self.stop = b.extract_value(value, 1)
        self.step = b.extract_value(value, 2)
        self.current = low.alloca(I64, "range.i")
        b.store(b.extract_value(value, 0), self.current)
        if step_constant not in (1, -1):
            self.remaining = low.alloca(I64, "range.left")
            b.store(range_length(low, value), self.remaining)

    def next(self, low, exhausted):
        b = low.b
        current = b.load(self.current)
        more = low.new_block("range.item")
        self.landed = None
        if self.step_constant in (1, -1):
            done = b.icmp_signed(">=" if self.step_constant == 1 else "<=", current, self.stop)
            b.cbranch(done, exhausted, more)
            b.position_at_end(more)
            b.store(b.add(current, ir.Constant(I64, self.step_constant), flags=["nsw"]), self.current)
            self.last = current
            return current
        left = b.load(self.remaining)
        b.cbranch(b.icmp_signed("==", left, ir.Constant(I64, 0)), exhausted, more)
        b.position_at_end(more)
        b.store(b.sub(left, ir.Constant(I64, 1)), self.remaining)
        b.store(b.add(current, self.step), self.current)
        return current

    def state(self, low, words) -> list:
        if self.step_constant in (1, -1):
            if words.after(self):                   # the item just produced, one step back
                return ["range_iter_after", words.add(self.last, "i64"), words.add(self.stop, "i64"),
                        self.step_constant]
            return ["range_iter", words.add(low.b.load(self.current), "i64"), words.add(self.stop, "i64"),
                    words.add(self.step, "i64")]
        current = words.add(low.b.load(self.current), "i64")
        return ["range_iter_left", current, words.add(self.step, "i64"),
                words.add(low.b.load(self.remaining), "i64")]


class SequenceIterator(Iterator):
    """Over a list or tuple object: the size is read at every step, as CPython's list iterator does."""

    def __init__(self, low, obj: ir.Value, representation: Repr, reverse: bool = False):
        self.obj, self.representation, self.reverse = obj, representation, reverse
        self.objects = (obj,)
        low.rt.call(low.b, "mj_incref", obj)
        self.index = low.alloca(I64, "seq.i")
        start = low.b.sub(object_size(low, obj), ir.Constant(I64, 1)) if reverse else ir.Constant(I64, 0)
        low.b.store(start, self.index)

    def next(self, low, exhausted):
        b = low.b
        index = b.load(self.index)
        self.last, self.landed = index, None
        size = object_size(low, self.obj)
        more = low.new_block("seq.item")
        done = b.icmp_unsigned(">=", index, size)       # also catches index -1 when reversed
        b.cbranch(done, exhausted, more)
        b.position_at_end(more)
        b.store(b.add(index, ir.Constant(I64, -1 if self.reverse else 1)), self.index)
        getter = "mj_list_item" if isinstance(self.representation, ListR) else "mj_tuple_item"
        return unbox_item(low, low.rt.call(b, getter, self.obj, index), self.representation.item)

    def state(self, low, words) -> list:
        return ["sequence_iter", ["object", words.add(self.obj, "object")], *words.position(self, self.index),
                self.reverse]


class NativeListIterator(Iterator):
    """Over a native list (``native_lists``): the length is read at every step, as for lists."""

    def __init__(self, low, lst: ir.Value, representation: NListR, reverse: bool = False):
        self.lst, self.representation, self.reverse = lst, representation, reverse
        low.rt.call(low.b, "mj_incref", lst)
        self.index = low.alloca(I64, "nlist.i")
        start = low.b.sub(native_lists.length(low, lst), ir.Constant(I64, 1)) if reverse else ir.Constant(I64, 0)
        low.b.store(start, self.index)

    def retain(self, low, times: int = 1) -> None:
        native_lists.retain(low, self.lst, times)

    def release(self, low) -> None:
        native_lists.release(low, self.lst)

    def next(self, low, exhausted):
        b = low.b
        index = b.load(self.index)
        self.last, self.landed = index, None
        more = low.new_block("nlist.item")
        b.cbranch(b.icmp_unsigned(">=", index, native_lists.length(low, self.lst)), exhausted, more)
        b.position_at_end(more)
        b.store(b.add(index, ir.Constant(I64, -1 if self.reverse else 1)), self.index)
        return native_lists.load(low, self.lst, index, self.representation)

    def state(self, low, words) -> list:
        return ["sequence_iter", words.describe(self.lst, self.representation), *words.position(self, self.index),
                self.reverse]


class StructTupleIterator(Iterator):
    """Over a tuple of known length whose items all have the same representation."""

    def __init__(self, low, value: ir.Value, representation: TupleR):
        b = low.b
        self.item = representation.items[0]
        self.count = len(representation.items)
        self.slots = low.alloca(ir.ArrayType(self.item.llvm, self.count), "tuple.items")
        for i in range(self.count):
            item = b.extract_value(value, i)
            low.incref(item, self.item)
            b.store(item, b.gep(self.slots, [ir.Constant(I64, 0), ir.Constant(I64, i)]))
        self.index = low.alloca(I64, "tuple.i")
        b.store(ir.Constant(I64, 0), self.index)
        self.owns_items = self.item.refcounted

    def next(self, low, exhausted):
        b = low.b
        index = b.load(self.index)
        more = low.new_block("tuple.item")
        b.cbranch(b.icmp_signed(">=", index, ir.Constant(I64, self.count)), exhausted, more)
        b.position_at_end(more)
        b.store(b.add(index, ir.Constant(I64, 1)), self.index)
        item = b.load(b.gep(self.slots, [ir.Constant(I64, 0), index]))
        low.incref(item, self.item)
        return item

    def _each(self, low, action):
        b = low.b
        for i in range(self.count):
            action(b.load(b.gep(self.slots, [ir.Constant(I64, 0), ir.Constant(I64, i)])), self.item)

    def retain(self, low, times: int = 1) -> None:
        if self.owns_items:
            self._each(low, lambda v, r: low.incref(v, r, times))

    def release(self, low) -> None:
        if self.owns_items:
            self._each(low, low.decref)

    def state(self, low, words) -> list:
        b = low.b
        items = [words.describe(b.load(b.gep(self.slots, [ir.Constant(I64, 0), ir.Constant(I64, i)])), self.item)
                 for i in range(self.count)]
        return ["sequence_iter", ["tuple", items], words.add(b.load(self.index), "i64"), 0, False]


class ArrayIterator(Iterator):
    def __init__(self, low, value: ir.Value, representation: ArrayR, item_repr: Repr):
        self.value, self.representation, self.item_repr = value, representation, item_repr
        self.index = low.alloca(I64, "array.i")
        low.b.store(ir.Constant(I64, 0), self.index)

    def next(self, low, exhausted):
        b = low.b
        index = b.load(self.index)
        self.last, self.landed = index, None
        more = low.new_block("array.item")
        b.cbranch(b.icmp_signed(">=", index, b.extract_value(self.value, 1)), exhausted, more)
        b.position_at_end(more)
        b.store(b.add(index, ir.Constant(I64, 1)), self.index)
        return array_item(low, self.representation, self.value, index)

    def state(self, low, words) -> list:
        return ["sequence_iter", words.describe(self.value, self.representation), *words.position(self, self.index),
                False]


class EnumerateIterator(Iterator):
    """The counter starts at most at ENUMERATE_START_LIMIT (``lower_iterator_call`` deoptimises before a larger
    start), so it cannot pass 2**63 - 1: that would take more items than a list can hold or centuries of a range."""

    def __init__(self, low, inner: Iterator, start: ir.Value):
        self.inner = inner
        self.objects = inner.objects
        self.count = low.alloca(I64, "enumerate.i")
        low.b.store(start, self.count)

    def retain(self, low, times=1):
        self.inner.retain(low, times)

    def release(self, low):
        self.inner.release(low)

    def land(self, body) -> None:
        self.inner.land(body)

    def next(self, low, exhausted):
        b = low.b
        item = self.inner.next(low, exhausted)
        count = b.load(self.count)
        b.store(b.add(count, ir.Constant(I64, 1), flags=["nsw"]), self.count)
        return (count, item)

    def state(self, low, words) -> list:
        return ["enumerate", words.iterator(self.inner), words.add(low.b.load(self.count), "i64")]


class ZipIterator(Iterator):
    def __init__(self, inners: list, item_reprs: list):
        self.inners, self.item_reprs = inners, item_reprs
        self.objects = tuple(obj for inner in inners for obj in inner.objects)

    def retain(self, low, times=1):
        for inner in self.inners:
            inner.retain(low, times)

    def release(self, low):
        for inner in self.inners:
            inner.release(low)

    def land(self, body) -> None:
        for inner in self.inners:
            inner.land(body)

    def next(self, low, exhausted):
        b = low.b
        items = []
        for inner in self.inners:
            if any(r.refcounted for r in self.item_reprs[:len(items)]):
                drop = low.new_block("zip.drop")
                saved = b.block
                b.position_at_end(drop)
                for item, representation in zip(items, self.item_reprs):
                    low.decref(item, representation)
                b.branch(exhausted)
                b.position_at_end(saved)
                items.append(inner.next(low, drop))
            else:
                items.append(inner.next(low, exhausted))
        return tuple(items)

    def state(self, low, words) -> list:
        return ["zip", [words.iterator(inner) for inner in self.inners]]


# ---- creation ----------------------------------------------------------------------------------------------------
def iterator_over(low, value, item_repr: Repr | None) -> Iterator:
    """A new iterator over SSA value ``value`` (a range, list, tuple, array or an existing iterator)."""
    representation = low.repr(value)
    llvm_value = low.get(value)
    if isinstance(representation, IterR):
        existing = low.iterators[value]
        existing.retain(low)
        return existing
    if isinstance(representation, RangeR):
        return RangeIterator(low, llvm_value, _constant_step(value))
    if isinstance(representation, NListR):
        return NativeListIterator(low, llvm_value, representation)
    if isinstance(representation, (ListR, BoxedTupleR)):
        if representation.item is None:
            low.not_native("iterating over a list whose items are never written")
        return SequenceIterator(low, llvm_value, representation)
    if isinstance(representation, TupleR):
        kinds = set(representation.items)
        if len(kinds) != 1 or isinstance(representation.items[0], UnitR):
            low.not_native("iterating over a tuple of mixed item kinds")
        return StructTupleIterator(low, llvm_value, representation)
    if isinstance(representation, ArrayR):
        return ArrayIterator(low, llvm_value, representation, item_repr)
    low.not_native(f"iterating over {representation.describe()}")


def _constant_step(value) -> int | None:
    if isinstance(value, ops.Call) and isinstance(value.func, Constant) and value.func.value is builtins.range:
        if len(value.args) < 3:
            return 1
        step = value.args[2]
        if isinstance(step, Constant) and isinstance(step.value, int):
            return step.value
    return None


def _item_reprs(low, op) -> list:
    """Item representations of the tuples an enumerate/zip iterator yields (from the op's iterator type)."""
    item = repr_of(op.type.item)
    return list(item.items) if isinstance(item, TupleR) else []


def lower_get_iter(low, op: ops.GetIter):
    low.iterators[op] = iterator_over(low, op.obj, repr_of(op.type.item))
    return ir.Constant(ir.IntType(8), 0)


def lower_iterator_call(low, op: ops.Call, function):
    """enumerate(x[, start]), zip(a, b, ...), reversed(list or range), iter(x)."""
    if op.kwnames:
        low.not_native(f"{function.__name__}() with keyword arguments")
    item_reprs = _item_reprs(low, op)
    if function is builtins.iter and len(op.args) == 1:
        iterator = iterator_over(low, op.args[0], repr_of(op.type.item))
    elif function is builtins.enumerate and len(op.args) in (1, 2):
        start = ir.Constant(I64, 0)
        if len(op.args) == 2:
            start = to_int(low, low.get(op.args[1]), low.repr(op.args[1]))
            low.deoptimize_if(low.b.icmp_signed(">", start, ir.Constant(I64, ENUMERATE_START_LIMIT)))
        inner = iterator_over(low, op.args[0], item_reprs[1])
        iterator = EnumerateIterator(low, inner, start)
    elif function is builtins.zip and op.args:
        iterator = ZipIterator([iterator_over(low, arg, r) for arg, r in zip(op.args, item_reprs)], item_reprs)
    elif function is builtins.reversed and len(op.args) == 1:
        iterator = _reversed(low, op.args[0])
    else:
        low.not_native(f"{function.__name__}() with these arguments")
    low.iterators[op] = iterator
    return ir.Constant(ir.IntType(8), 0)


def _reversed(low, value) -> Iterator:
    representation = low.repr(value)
    b = low.b
    if isinstance(representation, ListR) and representation.item is not None:
        return SequenceIterator(low, low.get(value), representation, reverse=True)
    if isinstance(representation, NListR):
        return NativeListIterator(low, low.get(value), representation, reverse=True)
    if isinstance(representation, RangeR):
        r = low.get(value)
        start, step = b.extract_value(r, 0), b.extract_value(r, 2)
        length = range_length(low, r)
        last = b.add(start, b.mul(b.sub(length, ir.Constant(I64, 1)), step))
        backwards = ir.Constant(RangeR().llvm, ir.Undefined)
        backwards = b.insert_value(backwards, last, 0)
        backwards = b.insert_value(backwards, b.sub(last, b.mul(length, step)), 1)
        backwards = b.insert_value(backwards, b.sub(ir.Constant(I64, 0), step), 2)
        iterator = RangeIterator(low, backwards, None)
        b.store(length, iterator.remaining)
        return iterator
    low.not_native(f"reversed() of {representation.describe()}")


def lower_for_iter(low, block, term: ops.ForIter) -> None:
    """The loop header's test: the exit edge when exhausted, else the body edge with the item."""
    b = low.b
    iterator = low.iterators.get(term.iterator)
    if iterator is None:
        low.not_native("a for loop over something that is not a native iterator")
    exhausted = low.new_block(f"B{block.label}.exhausted")
    item = iterator.next(low, exhausted)
    iterator.land(term.body)
    item_repr = low.reprs[term]
    if isinstance(item, tuple):
        item = _pack(low, item, item_repr)
    low.set(term, item)
    body = low.edge(block, term.body, extra_owned=[term] if low.counted(term) else [])
    b.branch(body)
    b.position_at_end(exhausted)
    b.branch(low.edge(block, term.exit))


def _pack(low, parts: tuple, representation: Repr) -> ir.Value:
    b = low.b
    if not isinstance(representation, TupleR) or len(representation.items) != len(parts):
        low.not_native("unpacking enumerate()/zip() items")
    result = ir.Constant(representation.llvm, ir.Undefined)
    for i, part in enumerate(parts):
        if isinstance(part, tuple):
            part = _pack(low, part, representation.items[i])
        result = b.insert_value(result, part, i)
    return result


OPS = {ops.GetIter: lower_get_iter}

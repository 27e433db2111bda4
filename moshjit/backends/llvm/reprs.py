"""Machine representations of typed SSA values: which LLVM type holds a value and whether it owns references.

Scalars are unboxed (``int`` → i64 with overflow checks, ``float`` → double, ``bool`` → i1). Lists and tuples
of unknown length stay CPython objects (a ``PyObject*`` owning one reference) so that they cross the
Python boundary without conversion; tuples of known length are LLVM structs. Values that exist only at compile
time (functions, modules, exception constructors, slices, ``None``) take no space at run time.
"""
from __future__ import annotations

import llvmlite.ir as ir

from moshjit.ir.types import (BOOL, BOTTOM, FLOAT, NONE, ArrayType, ConstType, IntType, IteratorType, ListType,
                              MType, RangeType, TupleType)

I1, I8, I32, I64 = ir.IntType(1), ir.IntType(8), ir.IntType(32), ir.IntType(64)
F32, F64 = ir.FloatType(), ir.DoubleType()
PTR = ir.PointerType()


class Repr:
    """How one kind of value lives in native code: an immutable value, equal to another of the same class with
    the same ``FIELDS`` (plain classes rather than dataclasses, which are slow to create at import)."""

    FIELDS: tuple = ()
    refcounted = False           # holds references to CPython objects that must be released

    def __init__(self, *values):
        if len(values) != len(self.FIELDS):
            raise TypeError(f"{type(self).__name__} takes {self.FIELDS}")
        for name, value in zip(self.FIELDS, values):
            object.__setattr__(self, name, value)

    def _key(self) -> tuple:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((type(self), self._key()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.FIELDS) + ")"

    @property
    def llvm(self) -> ir.Type:
        raise NotImplementedError(type(self).__name__)

    def describe(self) -> str:
        return type(self).__name__


class IntR(Repr):
    llvm = I64


class FloatR(Repr):
    llvm = F64


class BoolR(Repr):
    llvm = I1


class UnitR(Repr):
    """A value known at compile time (None, a function, a module, an exception constructor, a slice)."""
    FIELDS = ("what",)
    llvm = I8

    def __init__(self, what: str = "None"):
        super().__init__(what)


class ListR(Repr):
    """A CPython list whose items all have representation ``item`` (None: never read, e.g. ``[]`` returned)."""
    FIELDS = ("item",)
    refcounted = True
    llvm = PTR


class NListR(Repr):
    """A list that never leaves the function (see ``native_lists``): a reference-counted buffer of unboxed
    items, ``{i64 references, i64 length, i64 capacity, ptr items}``; bools are stored as bytes."""
    FIELDS = ("item",)
    refcounted = True
    llvm = PTR

    @property
    def item_llvm(self) -> ir.Type:
        return I8 if isinstance(self.item, BoolR) else self.item.llvm

    @property
    def item_size(self) -> int:
        return 1 if isinstance(self.item, BoolR) else 8


class BoxedTupleR(Repr):
    """A CPython tuple of any length whose items all have representation ``item`` (tuple arguments)."""
    FIELDS = ("item",)
    refcounted = True
    llvm = PTR


class TupleR(Repr):
    """A tuple of known length: an LLVM struct owning the references of its items."""
    FIELDS = ("items",)

    @property
    def refcounted(self) -> bool:
        return any(r.refcounted for r in self.items)

    @property
    def llvm(self) -> ir.Type:
        return ir.LiteralStructType([r.llvm for r in self.items])


class RangeR(Repr):
    """range(start, stop, step) as three i64s (step is never 0)."""
    llvm = ir.LiteralStructType([I64, I64, I64])


class ArrayR(Repr):
    """A C-contiguous NumPy array (or, with ``container`` "array", an ``array.array``) borrowed through the
    buffer protocol: data pointer, shape, and the array argument it views (itself, or the 2-d array a row comes
    from: what a deoptimisation hands over)."""
    FIELDS = ("dtype", "ndim", "container")

    @property
    def llvm(self) -> ir.Type:
        return ir.LiteralStructType([PTR, I64, I64, PTR])

    @property
    def item_llvm(self) -> ir.Type:
        return {"int32": I32, "int64": I64, "float32": F32, "float64": F64}[self.dtype]

    @property
    def is_float(self) -> bool:
        return self.dtype.startswith("float")


class IterR(Repr):
    """An iterator; its state lives in stack slots owned by the op that created it (see ``iterators.py``)."""
    llvm = I8


LIST_ITEM_REPRS = (IntR, FloatR, BoolR, ListR, TupleR)
UNIT = UnitR()


def number_positions(arg_types) -> list[int]:
    """The positions of the float and int arguments: their callers also pass the objects (the caller's own object
    is what CPython returns or stores for such an argument)."""
    return [i for i, t in enumerate(arg_types) if isinstance(repr_of(t), (IntR, FloatR))]


def repr_of(t: MType) -> Repr | None:
    """The representation of values of type ``t``, or None when ``t`` has no native form."""
    from moshjit.backends.llvm.native_types import ExceptionType, SliceType
    if isinstance(t, IntType):
        return IntR()
    if t == FLOAT:
        return FloatR()
    if t == BOOL:
        return BoolR()
    if t == NONE:
        return UNIT
    if isinstance(t, ConstType):
        return UnitR("constant")
    if isinstance(t, (ExceptionType, SliceType)):
        return UnitR(t.describe())
    if isinstance(t, ListType):
        if t.item == BOTTOM:
            return ListR(None)
        item = repr_of(t.item)
        return ListR(item) if isinstance(item, LIST_ITEM_REPRS) else None
    if isinstance(t, TupleType):
        if t.items is None:
            item = repr_of(t.item)
            return BoxedTupleR(item) if isinstance(item, (IntR, FloatR, BoolR)) else None
        items = tuple(repr_of(i) for i in t.items)
        return TupleR(items) if all(isinstance(i, (IntR, FloatR, BoolR, UnitR, ListR, TupleR, BoxedTupleR))
                                    for i in items) else None
    if isinstance(t, RangeType):
        return RangeR()
    if isinstance(t, IteratorType):
        return IterR()
    if isinstance(t, ArrayType):
        return ArrayR(t.dtype, t.ndim, t.container)
    return None

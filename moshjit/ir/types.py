"""The type lattice of typed SSA: what inference knows about each value, from BOTTOM (no value yet) to OBJECT.

Types are immutable and compared by value. ``join`` is the least upper bound used at φs; ints carry an
interval (None = unbounded on that side) so backends can keep proven-small ints in machine registers.
"""
from __future__ import annotations

from dataclasses import dataclass

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
SSIZE_MAX = INT64_MAX              # Py_ssize_t on the 64-bit platforms we build for


class MType:
    """Base of all types."""

    __slots__ = ()

    def __str__(self) -> str:
        return self.describe()

    def describe(self) -> str:
        return type(self).__name__


@dataclass(frozen=True, slots=True)
class Simple(MType):
    """A type with no parameters: object, bottom, float, bool, None, str, char, bytes, range."""
    name: str

    def describe(self) -> str:
        return self.name


OBJECT = Simple("object")
BOTTOM = Simple("bottom")
FLOAT = Simple("float")
BOOL = Simple("bool")
NONE = Simple("None")
STR = Simple("str")
CHAR = Simple("char")              # a str of length 1 (Py_UCS4 in the Cython backend)
BYTES = Simple("bytes")


@dataclass(frozen=True, slots=True)
class IntType(MType):
    """A Python int known to lie in [lo, hi] (None: unbounded on that side)."""
    lo: int | None = None
    hi: int | None = None

    def describe(self) -> str:
        if self.lo is None and self.hi is None:
            return "int"
        return f"int[{'-inf' if self.lo is None else self.lo}..{'inf' if self.hi is None else self.hi}]"

    @property
    def fits_int64(self) -> bool:
        return self.lo is not None and self.hi is not None and INT64_MIN <= self.lo and self.hi <= INT64_MAX


@dataclass(frozen=True, slots=True)
class RangeType(MType):
    """A range object whose items lie in ``item``."""
    item: "IntType"

    def describe(self) -> str:
        return f"range[{self.item}]"


INT = IntType()
INT64 = IntType(INT64_MIN, INT64_MAX)
NONNEG_SSIZE = IntType(0, SSIZE_MAX)
# The length of a built-in str, bytes, list, tuple, dict or set: CPython refuses to allocate one whose header and
# items (at least a byte each) would pass PY_SSIZE_T_MAX bytes, so its length stays below this; ``len(s) + 1``
# and a counter that stops below a length, plus one, then fit in int64 without an overflow check.
CONTAINER_LENGTH = IntType(0, SSIZE_MAX - 32)


@dataclass(frozen=True, slots=True)
class ListType(MType):
    item: MType

    def describe(self) -> str:
        return f"list[{self.item}]"


@dataclass(frozen=True, slots=True)
class SetType(MType):
    item: MType

    def describe(self) -> str:
        return f"set[{self.item}]"


@dataclass(frozen=True, slots=True)
class DictType(MType):
    key: MType
    value: MType

    def describe(self) -> str:
        return f"dict[{self.key}, {self.value}]"


@dataclass(frozen=True, slots=True)
class TupleType(MType):
    """A tuple; ``items`` when the length is known, else every item has type ``item``."""
    items: tuple | None
    item: MType

    def describe(self) -> str:
        if self.items is None:
            return f"tuple[{self.item}, ...]"
        return "tuple[" + ", ".join(str(t) for t in self.items) + "]"


def tuple_of(items) -> TupleType:
    items = tuple(items)
    common = BOTTOM
    for t in items:
        common = join(common, t)
    return TupleType(items, common)


@dataclass(frozen=True, slots=True)
class IteratorType(MType):
    """An iterator over ``source`` (str, list, tuple, range, dict keys, …) yielding ``item``."""
    source: MType
    item: MType

    def describe(self) -> str:
        return f"iter[{self.item}]"


@dataclass(frozen=True, slots=True)
class ArrayType(MType):
    """A C-contiguous NumPy array of ``ndim`` (1 or 2) dimensions and items of ``dtype`` ('int32', 'int64',
    'float32' or 'float64'), reached through the buffer protocol; with ``container`` "array", the standard
    library's ``array.array`` of C doubles or 64-bit ints (one dimension; its items are Python floats and ints,
    and its errors its own)."""
    dtype: str
    ndim: int
    container: str = "ndarray"

    def describe(self) -> str:
        if self.container == "array":
            return f"array[{self.dtype}]"
        return f"ndarray[{self.dtype}, {self.ndim}d]"


@dataclass(frozen=True, slots=True)
class OptionalType(MType):
    """None or a value of ``inner``."""
    inner: MType

    def describe(self) -> str:
        return f"{self.inner}?"


@dataclass(frozen=True, slots=True)
class ConstType(MType):
    """A compile-time-known object (a module, a builtin or jitted function, a class): calls can be resolved."""
    value: object

    def __eq__(self, other):
        return isinstance(other, ConstType) and self.value is other.value

    def __hash__(self):
        return id(self.value)

    def describe(self) -> str:
        name = getattr(self.value, "__qualname__", None) or getattr(self.value, "__name__", None)
        return f"const<{name or type(self.value).__name__}>"


_NATIVE = {FLOAT, BOOL, NONE}


def is_native_scalar(t: MType) -> bool:
    """Types a backend may keep unboxed: proven int64 ints, floats, bools, None."""
    return t in _NATIVE or (isinstance(t, IntType) and t.fits_int64)


def join(a: MType, b: MType) -> MType:
    """Least upper bound."""
    if a == b:
        return a
    if a is BOTTOM or a == BOTTOM:
        return b
    if b is BOTTOM or b == BOTTOM:
        return a
    if a == OBJECT or b == OBJECT:
        return OBJECT
    if a == NONE:
        return b if isinstance(b, OptionalType) else OptionalType(b)
    if b == NONE:
        return a if isinstance(a, OptionalType) else OptionalType(a)
    if isinstance(a, OptionalType) or isinstance(b, OptionalType):
        inner = join(a.inner if isinstance(a, OptionalType) else a, b.inner if isinstance(b, OptionalType) else b)
        return OBJECT if inner == OBJECT else OptionalType(inner)
    if isinstance(a, IntType) and isinstance(b, IntType):
        lo = None if a.lo is None or b.lo is None else min(a.lo, b.lo)
        hi = None if a.hi is None or b.hi is None else max(a.hi, b.hi)
        return IntType(lo, hi)
    if {a, b} == {STR, CHAR}:
        return STR
    combined = _componentwise(join, a, b)
    return OBJECT if combined is None else combined


def _componentwise(combine, a: MType, b: MType) -> MType | None:
    """Two containers (or ranges, iterators) of one kind made into one whose element types are ``combine`` of
    theirs (a tuple's items pairwise when both lengths are known and equal); None for anything else."""
    if type(a) is not type(b):
        return None
    if isinstance(a, ListType):
        return ListType(combine(a.item, b.item))
    if isinstance(a, SetType):
        return SetType(combine(a.item, b.item))
    if isinstance(a, DictType):
        return DictType(combine(a.key, b.key), combine(a.value, b.value))
    if isinstance(a, TupleType):
        if a.items is not None and b.items is not None and len(a.items) == len(b.items):
            return tuple_of(combine(x, y) for x, y in zip(a.items, b.items))
        return TupleType(None, combine(a.item, b.item))
    if isinstance(a, RangeType):
        return RangeType(combine(a.item, b.item))
    if isinstance(a, IteratorType):
        return IteratorType(combine(a.source, b.source), combine(a.item, b.item))
    return None


def widen(old: MType, new: MType) -> MType:
    """Join that jumps growing int bounds to infinity, at any depth (a tuple's items, a list's or dict's elements),
    so loops reach a fixed point."""
    return _widened(old, join(old, new))


def _widened(old: MType, result: MType) -> MType:
    """``result`` (a join with ``old``) with every int bound that moved past ``old``'s made unbounded."""
    if isinstance(old, IntType) and isinstance(result, IntType):
        lo = result.lo if old.lo is not None and result.lo is not None and result.lo >= old.lo else None
        hi = result.hi if old.hi is not None and result.hi is not None and result.hi <= old.hi else None
        return IntType(lo, hi)
    if isinstance(old, OptionalType) and isinstance(result, OptionalType):
        return OptionalType(_widened(old.inner, result.inner))
    widened = _componentwise(_widened, old, result)
    return result if widened is None else widened


def type_of_value(value) -> MType:
    """The most precise type of a Python object (used for constants and call arguments)."""
    kind = type(value)
    if kind is bool:
        return BOOL
    if kind is int:
        return IntType(value, value)
    if kind is float:
        return FLOAT
    if value is None:
        return NONE
    if kind is str:
        return CHAR if len(value) == 1 else STR
    if kind is bytes:
        return BYTES
    if kind is tuple:
        return tuple_of(type_of_value(v) for v in value)
    if kind is range:
        lo, hi = (min(value[0], value[-1]), max(value[0], value[-1])) if len(value) else (0, 0)
        return RangeType(IntType(lo, hi))
    return ConstType(value) if callable(value) or kind.__name__ == "module" else OBJECT

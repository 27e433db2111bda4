"""Result types of builtins, module functions and methods of builtin types: one row per operation.

Rows take the argument types (after the receiver, for methods) and return the result type, or None when the
row does not apply (inference then falls back to ``object``). Adding a fast path starts with a row here; each
backend has its own table saying how to emit the operation.
"""
from __future__ import annotations

import builtins
import math
import unicodedata

from moshjit.primitives.unicode_categories import CATEGORY_NAMES, category_code
from moshjit.ir.types import (BOOL, BOTTOM, BYTES, CHAR, CONTAINER_LENGTH, FLOAT, INT, NONE, NONNEG_SSIZE, OBJECT,
                              SSIZE_MAX, STR, DictType, IntType, IteratorType, ListType, MType, OptionalType, RangeType,
                              SetType, TupleType, join, tuple_of)

CODEPOINT = IntType(0, 0x10FFFF)
FIND_RESULT = IntType(-1, SSIZE_MAX)


def item_type(t: MType) -> MType:
    """The type of the items produced by iterating over a value of type ``t`` (bottom while ``t`` is)."""
    if t == BOTTOM:
        return BOTTOM
    if t in (STR, CHAR):
        return CHAR
    if isinstance(t, (ListType, SetType)):
        return t.item
    if isinstance(t, TupleType):
        return t.item
    if isinstance(t, DictType):
        return t.key
    if isinstance(t, RangeType):
        return t.item
    if isinstance(t, IteratorType):
        return t.item
    if t == BYTES:
        return IntType(0, 255)
    return OBJECT


def _is_int(t) -> bool:
    return isinstance(t, IntType)


def _number(t) -> bool:
    return isinstance(t, IntType) or t in (FLOAT, BOOL)


def _abs(args):
    if len(args) != 1:
        return None
    t = args[0]
    if _is_int(t):
        if t.lo is not None and t.lo >= 0:
            return t
        bound = None if t.lo is None or t.hi is None else max(abs(t.lo), abs(t.hi))
        return IntType(0, bound)
    return FLOAT if t == FLOAT else None


def _min_max(args):
    if not args:
        return None
    items = [item_type(args[0])] if len(args) == 1 else list(args)
    result = BOTTOM
    for t in items:
        result = join(result, t)
    return None if result == BOTTOM else result


def _sum(args):
    if len(args) != 1:
        return None
    item = item_type(args[0])
    if _is_int(item) or item == BOOL:
        return INT
    return FLOAT if item == FLOAT else None


def _int(args):
    if len(args) == 1 and _is_int(args[0]):
        return args[0]
    if len(args) == 1 and args[0] == BOOL:
        return IntType(0, 1)
    return INT if args else IntType(0, 0)


def _range(args):
    """range(args), its items bounded by the start/stop bounds when the step sign is known. An argument of unknown
    type is an int of unknown bounds: range() takes only what ``operator.index`` takes, and its items are exact
    ints whatever the argument was (an int subclass, an ``__index__`` object); anything else raises."""
    args = [IntType(0, 1) if a == BOOL else INT if a == OBJECT else a for a in args]
    if not args or len(args) > 3 or not all(_is_int(a) for a in args):
        return None
    if len(args) == 1:
        start, stop, step = IntType(0, 0), args[0], IntType(1, 1)
    else:
        start, stop = args[0], args[1]
        step = args[2] if len(args) == 3 else IntType(1, 1)
    if step.lo is not None and step.lo > 0:
        lo, hi = start.lo, None if stop.hi is None else stop.hi - 1
    elif step.hi is not None and step.hi < 0:
        lo, hi = None if stop.lo is None else stop.lo + 1, start.hi
    else:
        lo = None if start.lo is None or stop.lo is None else min(start.lo, stop.lo)
        hi = None if start.hi is None or stop.hi is None else max(start.hi, stop.hi)
    return RangeType(IntType(lo, hi))


def _iterator(args):
    return IteratorType(args[0], item_type(args[0])) if len(args) == 1 else None


def _enumerate(args):
    if len(args) not in (1, 2):
        return None
    return IteratorType(OBJECT, tuple_of([NONNEG_SSIZE if len(args) == 1 else INT, item_type(args[0])]))


def _zip(args):
    return IteratorType(OBJECT, tuple_of(item_type(a) for a in args))


def _list(args):
    return ListType(item_type(args[0]) if args else BOTTOM) if len(args) <= 1 else None


def _set(args):
    return SetType(item_type(args[0]) if args else BOTTOM) if len(args) <= 1 else None


def _dict(args):
    if not args:
        return DictType(BOTTOM, BOTTOM)
    if len(args) == 1 and isinstance(args[0], DictType):
        return args[0]
    return DictType(OBJECT, OBJECT)


def _tuple(args):
    return TupleType(None, item_type(args[0]) if args else BOTTOM) if len(args) <= 1 else None


def exact_text(value: MType) -> bool:
    """Do ``str``, ``repr``, ``ascii`` and ``format`` of a value of this type give an exact ``str``? They return
    whatever ``__str__``/``__repr__``/``__format__`` return, which may be a str subclass; the builtin scalars'
    and containers' own methods build a new exact str (a container's repr joins its items' reprs into one)."""
    if isinstance(value, OptionalType):
        return exact_text(value.inner)
    return value in (FLOAT, BOOL, NONE, STR, CHAR, BYTES) or isinstance(
        value, (IntType, RangeType, ListType, SetType, DictType, TupleType))


def text_of(value: MType) -> MType:
    """The type of ``str(value)`` (``repr``, ``ascii``, an f-string's lone field): ``str`` when exact, else an
    object, so that no fast path for exact strs is taken on what may be a subclass with its own methods."""
    return STR if exact_text(value) else OBJECT


def _const(result):
    return lambda args: result


def _built_in_container(t) -> bool:
    """Whether values of type ``t`` are exact built-in containers, whose ``len`` CPython computes itself."""
    return t in (STR, CHAR, BYTES) or isinstance(t, (ListType, TupleType, DictType, SetType))


# Builtin and module functions, keyed by the function object itself (resolved when compiling).
FUNCTIONS = {
    builtins.len: lambda args: CONTAINER_LENGTH if len(args) == 1 and _built_in_container(args[0]) else NONNEG_SSIZE,
    builtins.ord: _const(CODEPOINT),
    builtins.chr: _const(CHAR),
    builtins.str: lambda args: text_of(args[0]) if len(args) == 1 else STR if not args else None,
    builtins.repr: lambda args: text_of(args[0]) if len(args) == 1 else None,
    builtins.ascii: lambda args: text_of(args[0]) if len(args) == 1 else None,
    builtins.int: _int,
    builtins.float: _const(FLOAT),
    builtins.bool: _const(BOOL),
    builtins.abs: _abs,
    builtins.min: _min_max,
    builtins.max: _min_max,
    builtins.sum: _sum,
    builtins.isinstance: _const(BOOL),
    builtins.hasattr: _const(BOOL),
    builtins.callable: _const(BOOL),
    builtins.any: _const(BOOL),
    builtins.all: _const(BOOL),
    builtins.range: _range,
    builtins.list: _list,
    builtins.set: _set,
    builtins.frozenset: _const(OBJECT),
    builtins.dict: _dict,
    builtins.tuple: _tuple,
    builtins.sorted: lambda args: ListType(item_type(args[0])) if args else None,
    builtins.reversed: _iterator,
    builtins.iter: _iterator,
    builtins.enumerate: _enumerate,
    builtins.zip: _zip,
    builtins.divmod: lambda args: tuple_of([INT, INT]) if all(_is_int(a) for a in args) else None,
    builtins.round: lambda args: INT if len(args) == 1 and args[0] == FLOAT else None,
    builtins.hash: _const(IntType(-(1 << 63), (1 << 63) - 1)),
    builtins.id: _const(INT),
    builtins.print: _const(NONE),
    unicodedata.category: _const(STR),
    category_code: _const(IntType(0, len(CATEGORY_NAMES) - 1)),
    unicodedata.normalize: _const(STR),
    unicodedata.combining: _const(IntType(0, 255)),
    unicodedata.east_asian_width: _const(STR),
    unicodedata.bidirectional: _const(STR),
    unicodedata.mirrored: _const(IntType(0, 1)),
    unicodedata.decomposition: _const(STR),
    unicodedata.is_normalized: _const(BOOL),
}
for _name in ("sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
              "sinh", "cosh", "tanh", "fabs", "hypot", "pow", "copysign", "fmod", "erf", "erfc", "gamma", "lgamma",
              "expm1", "log1p", "degrees", "radians", "ldexp"):
    FUNCTIONS[getattr(math, _name)] = _const(FLOAT)
for _name in ("floor", "ceil", "trunc", "gcd", "factorial", "isqrt", "comb", "perm"):
    FUNCTIONS[getattr(math, _name)] = _const(INT)
for _name in ("isnan", "isinf", "isfinite", "isclose"):
    FUNCTIONS[getattr(math, _name)] = _const(BOOL)

_STR_TO_STR = ("lower", "upper", "casefold", "capitalize", "title", "swapcase", "strip", "lstrip", "rstrip",
               "replace", "center", "ljust", "rjust", "zfill", "expandtabs", "translate", "format",
               "removeprefix", "removesuffix")
_STR_TO_BOOL = ("startswith", "endswith", "isalpha", "isdigit", "isdecimal", "isnumeric", "isalnum", "isspace",
                "isupper", "islower", "istitle", "isidentifier", "isprintable", "isascii")

# Methods of builtin types, keyed by (receiver kind, method name); rows get (receiver type, argument types).
METHODS = {("str", name): (lambda recv, args: STR) for name in _STR_TO_STR}
METHODS.update({("str", name): (lambda recv, args: BOOL) for name in _STR_TO_BOOL})
METHODS.update({
    ("str", "split"): lambda recv, args: ListType(STR),
    ("str", "rsplit"): lambda recv, args: ListType(STR),
    ("str", "splitlines"): lambda recv, args: ListType(STR),
    ("str", "partition"): lambda recv, args: tuple_of([STR, STR, STR]),
    ("str", "rpartition"): lambda recv, args: tuple_of([STR, STR, STR]),
    ("str", "join"): lambda recv, args: STR,
    ("str", "find"): lambda recv, args: FIND_RESULT,
    ("str", "rfind"): lambda recv, args: FIND_RESULT,
    ("str", "index"): lambda recv, args: NONNEG_SSIZE,
    ("str", "rindex"): lambda recv, args: NONNEG_SSIZE,
    ("str", "count"): lambda recv, args: NONNEG_SSIZE,
    ("str", "encode"): lambda recv, args: BYTES,
    ("list", "append"): lambda recv, args: NONE,
    ("list", "extend"): lambda recv, args: NONE,
    ("list", "insert"): lambda recv, args: NONE,
    ("list", "clear"): lambda recv, args: NONE,
    ("list", "reverse"): lambda recv, args: NONE,
    ("list", "sort"): lambda recv, args: NONE,
    ("list", "remove"): lambda recv, args: NONE,
    ("list", "pop"): lambda recv, args: recv.item,
    ("list", "copy"): lambda recv, args: recv,
    ("list", "index"): lambda recv, args: NONNEG_SSIZE,
    ("list", "count"): lambda recv, args: NONNEG_SSIZE,
    ("dict", "get"): lambda recv, args: (OptionalType(recv.value) if len(args) == 1
                                         else join(recv.value, args[1]) if len(args) == 2 else None),
    ("dict", "keys"): lambda recv, args: IteratorType(recv, recv.key),
    ("dict", "values"): lambda recv, args: IteratorType(recv, recv.value),
    ("dict", "items"): lambda recv, args: IteratorType(recv, tuple_of([recv.key, recv.value])),
    ("dict", "copy"): lambda recv, args: recv,
    ("dict", "pop"): lambda recv, args: recv.value if len(args) == 1 else join(recv.value, args[1]),
    ("dict", "setdefault"): lambda recv, args: join(recv.value, args[1]) if len(args) == 2 else None,
    ("dict", "clear"): lambda recv, args: NONE,
    ("dict", "update"): lambda recv, args: NONE,
    ("set", "add"): lambda recv, args: NONE,
    ("set", "discard"): lambda recv, args: NONE,
    ("set", "update"): lambda recv, args: NONE,
    ("set", "copy"): lambda recv, args: recv,
})

# Methods that only read their receiver (so a local container passed to them keeps its element type).
NON_MUTATING_METHODS = {name for kind, name in METHODS if kind == "str"} | {
    "copy", "index", "count", "get", "keys", "values", "items"}
# Functions that read but never mutate or keep their arguments.
PURE_FUNCTIONS = {builtins.len, builtins.sorted, builtins.list, builtins.tuple, builtins.set, builtins.sum,
                  builtins.min, builtins.max, builtins.any, builtins.all, builtins.isinstance, builtins.str,
                  builtins.repr, builtins.bool, builtins.abs, builtins.frozenset, builtins.dict}


def receiver_kind(t: MType) -> str | None:
    if t in (STR, CHAR):
        return "str"
    if isinstance(t, ListType):
        return "list"
    if isinstance(t, DictType):
        return "dict"
    if isinstance(t, SetType):
        return "set"
    return None


def function_result(function, args: list[MType], has_keywords: bool) -> MType | None:
    """Result type of calling a known function, or None when unknown."""
    try:
        row = FUNCTIONS.get(function)
    except TypeError:                 # unhashable callable
        return None
    if row is None:
        return None
    if has_keywords and function not in (builtins.sorted, builtins.min, builtins.max, builtins.print):
        return None
    return row(args)


def method_result(receiver: MType, name: str, args: list[MType]) -> MType | None:
    kind = receiver_kind(receiver)
    row = METHODS.get((kind, name)) if kind else None
    return row(receiver, args) if row else None


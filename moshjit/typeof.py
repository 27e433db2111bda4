"""The dispatch signature: how an argument value is classified for specialisation, and what each class means.

One home for it (Numba keeps the same in ``typeof``): the dispatcher keys its entries with ``key_of``, the
driver starts type inference from ``type_of_key``, ``direct_calls`` predicts a callee's key from inferred types
with ``static_key``, the LLVM backend and its cache index name keys with ``describe_key``, and ``annotate``
reads parameter annotations with ``annotation_type``. ``moshjit_dispatch.kind_of`` (``runtime/``) is the same
classification in C and takes ``MAX_TYPED_TUPLE`` and ``array_key`` from here.
"""
from __future__ import annotations

import array
import typing

from moshjit.ir.types import (BOOL, BYTES, CHAR, FLOAT, INT, INT64, INT64_MAX, INT64_MIN, NONE, OBJECT, STR,
                              ArrayType, DictType, IntType, ListType, MType, SetType, TupleType, tuple_of)

MAX_TYPED_TUPLE = 8     # tuples up to this length are dispatched on the kinds of their items
ANY = "any"             # the kind of every value at a parameter the dispatcher no longer specialises (megamorphic)
HEAP_TYPE = 1 << 9      # Py_TPFLAGS_HEAPTYPE: a class the program defined
ARRAY_DTYPES = ("int32", "int64", "float32", "float64")
STDLIB_ARRAY = array.array
# ``array.array`` type codes native code reads: C doubles and 64-bit C ints (stores CPython converts the same way:
# a double slot takes any float or int native code holds, a 64-bit slot any int)
STDLIB_ARRAY_DTYPES = {"d": "float64", "q": "int64", **({"l": "int64"} if array.array("l").itemsize == 8 else {})}


def key_of(value):
    """The dispatch kind of one argument: its exact type, with ints split by "fits in int64" and strs by
    "is one character" (those become machine integers and Py_UCS4 in compiled code), and small tuples by the
    kinds of their items."""
    kind = type(value)
    if kind is int:
        return "int64" if INT64_MIN <= value <= INT64_MAX else int
    if kind is str:
        return "char" if len(value) == 1 else str
    if kind is tuple and len(value) <= MAX_TYPED_TUPLE:
        return ("tuple",) + tuple(map(key_of, value))
    if kind.__name__ == "ndarray" or kind is array.array:
        return array_key(value, kind)
    return kind


def array_key(array, kind):
    """NumPy arrays the LLVM backend reads through the buffer protocol are keyed by item type and dimensions,
    e.g. "ndarray[float64,2]" (C-contiguous, aligned, native byte order, 1 or 2 dimensions), ``array.array``s
    of C doubles or 64-bit ints by item type ("array[float64]"); others by type."""
    if kind is STDLIB_ARRAY:
        dtype = STDLIB_ARRAY_DTYPES.get(array.typecode)
        return kind if dtype is None else f"array[{dtype}]"
    if kind.__module__ != "numpy" or array.ndim not in (1, 2) or not array.flags.c_contiguous \
            or not array.flags.aligned or not array.dtype.isnative or array.dtype.name not in ARRAY_DTYPES:
        return kind
    return f"ndarray[{array.dtype.name},{array.ndim}]"


def is_class_kind(kind) -> bool:
    """Whether a dispatch kind names a class the program defined (a heap type): what a megamorphic parameter
    is counted by; built-in kinds are few and each gives native code of its own."""
    return isinstance(kind, type) and bool(kind.__flags__ & HEAP_TYPE)


def describe_key(key) -> str:
    """A dispatch kind as users read it in ``signatures`` and ``stats``: "int64", "str", "tuple[int64, char]"."""
    if isinstance(key, tuple):
        return "tuple[" + ", ".join(describe_key(k) for k in key[1:]) + "]"
    return key if isinstance(key, str) else key.__qualname__


def describe_signature(key: tuple) -> tuple:
    """Every kind of a dispatch key, described."""
    return tuple(describe_key(k) for k in key)


# Dispatch kinds → the type inference starts from; anything unlisted is a plain object.
_KEY_TYPES = {"int64": INT64, "char": CHAR, int: INT, str: STR, float: FLOAT,
              bool: BOOL, type(None): NONE, list: ListType(OBJECT), dict: DictType(OBJECT, OBJECT),
              set: SetType(OBJECT), tuple: TupleType(None, OBJECT), bytes: BYTES}
_KEY_TYPES.update({f"ndarray[{dtype},{ndim}]": ArrayType(dtype, ndim) for dtype in ARRAY_DTYPES for ndim in (1, 2)})
_KEY_TYPES.update({f"array[{dtype}]": ArrayType(dtype, 1, "array") for dtype in set(STDLIB_ARRAY_DTYPES.values())})


def type_of_key(key) -> MType:
    """The inference type of one dispatch key element."""
    if isinstance(key, tuple) and key and key[0] == "tuple":
        return tuple_of(type_of_key(k) for k in key[1:])
    return _KEY_TYPES.get(key, OBJECT)


def is_plain_array_key(kind) -> bool:
    """A NumPy array keyed by its type alone (its item type and layout are decided when it is called)."""
    return isinstance(kind, type) and kind.__name__ == "ndarray" and kind.__module__ == "numpy"


def static_key(t: MType):
    """The dispatch kind every value of type ``t`` has at run time, or None when it depends on the value."""
    if isinstance(t, IntType):
        return "int64" if t.fits_int64 else None
    if t == CHAR:
        return "char"
    if t == STR:
        return str                      # the 'str' entry also takes one-character strings
    simple = {FLOAT: float, BOOL: bool, NONE: type(None)}
    if t in simple:
        return simple[t]
    if isinstance(t, ListType):
        return list
    if isinstance(t, DictType):
        return dict
    if isinstance(t, SetType):
        return set
    if isinstance(t, TupleType) and t.items is not None and len(t.items) <= MAX_TYPED_TUPLE:
        items = [static_key(item) for item in t.items]
        return None if None in items or str in items else ("tuple",) + tuple(items)
    return None


# An ``int`` parameter is annotated as the dispatcher keys every int that fits in 64 bits (the usual case).
_ANNOTATION_TYPES = {str: STR, int: INT64, float: FLOAT, bool: BOOL, list: ListType(OBJECT),
                     dict: DictType(OBJECT, OBJECT), set: SetType(OBJECT), tuple: TupleType(None, OBJECT)}


def annotation_type(annotation, globals_: dict) -> MType:
    """``str`` → str, ``list[str]`` → list of objects; anything else is an object. Annotations kept as text
    (``from __future__ import annotations``) are evaluated as ``inspect.signature(eval_str=True)`` would."""
    if isinstance(annotation, str):
        try:
            annotation = eval(annotation, globals_)
        except Exception:        # a name imported only for type checkers, say
            return OBJECT
    origin = typing.get_origin(annotation) or annotation
    return _ANNOTATION_TYPES.get(origin, OBJECT) if isinstance(origin, type) else OBJECT


# Kind names as users write them (``jit(signatures=...)``, ``moshjit annotate --args``); ``describe_key`` is the
# inverse. A container's item type (``list[float]``) is not part of its kind: it is checked when called.
KIND_NAMES = {"str": str, "char": "char", "int": int, "int64": "int64", "float": float, "bool": bool,
              "bytes": bytes, "list": list, "dict": dict, "set": set, "tuple": tuple, "None": type(None),
              "NoneType": type(None), "object": object}


def _split_top_level(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return parts + [current] if current.strip() or parts else parts


def parse_kind(text: str):
    """One dispatch kind from its name: "str", "int64", "tuple[int64, char]", "list[float]" (→ list),
    "ndarray[float64,2]". ValueError names what is accepted."""
    text = text.strip()
    name, _, rest = text.partition("[")
    if rest:
        if not rest.endswith("]"):
            raise ValueError(f"unbalanced brackets in argument kind {text!r}")
        inner = _split_top_level(rest[:-1])
        if name == "tuple" and len(inner) <= MAX_TYPED_TUPLE:
            return ("tuple",) + tuple(parse_kind(part) for part in inner)
        if name in ("ndarray", "array") and text.replace(" ", "") in _KEY_TYPES:
            return text.replace(" ", "")
        if name in ("list", "set", "dict", "tuple"):
            for part in inner:
                parse_kind(part)                 # item kinds must be names too, even though only checked later
            return KIND_NAMES[name]
    if text in KIND_NAMES:
        return KIND_NAMES[text]
    raise ValueError(f"unknown argument kind {text!r}; use one of {', '.join(KIND_NAMES)}, tuple[...], "
                     f"list[...], ndarray[float64,1], array[float64]")


def key_of_kinds(kinds) -> tuple:
    """A dispatch key from kinds given as text ("str, list[float]") or a sequence of types, names and keys."""
    if isinstance(kinds, str):
        kinds = _split_top_level(kinds)
    elif not isinstance(kinds, (tuple, list)):
        kinds = (kinds,)
    key = []
    for kind in kinds:
        if isinstance(kind, str):
            key.append(parse_kind(kind))
        elif kind is int:
            key.append("int64")                  # the usual int: machine-sized (as annotations are read)
        elif kind is None:
            key.append(type(None))
        else:
            key.append(kind)
    return tuple(key)


def recordable_key(key: tuple) -> list | None:
    """The key as JSON-able text (for the cache's record of compiled signatures), or None when a kind names a
    class that text cannot bring back."""
    described = [describe_key(k) for k in key]
    try:
        return described if key_of_kinds(described) == tuple(key) else None
    except ValueError:
        return None


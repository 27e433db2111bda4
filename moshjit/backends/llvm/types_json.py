"""Native argument types as JSON values, for the cache index (which never holds pickles)."""
from __future__ import annotations

from moshjit.ir.types import BOOL, FLOAT, INT64, NONE, ArrayType, ListType, MType, TupleType, tuple_of

_SCALARS = {"int64": INT64, "float": FLOAT, "bool": BOOL, "None": NONE}


def encode_type(t: MType):
    for name, scalar in _SCALARS.items():
        if t == scalar:
            return name
    if isinstance(t, ListType):
        return ["list", encode_type(t.item)]
    if isinstance(t, TupleType) and t.items is not None:
        return ["tuple", [encode_type(i) for i in t.items]]
    if isinstance(t, ArrayType):
        return ["array", t.dtype, t.ndim, t.container]
    raise ValueError(f"no JSON form for the native type {t}")


def decode_type(value) -> MType:
    if isinstance(value, str):
        return _SCALARS[value]
    kind = value[0]
    if kind == "list":
        return ListType(decode_type(value[1]))
    if kind == "tuple":
        return tuple_of(decode_type(i) for i in value[1])
    return ArrayType(value[1], value[2], value[3])

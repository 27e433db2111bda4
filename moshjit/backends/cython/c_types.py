"""The C type a value of each inference type is declared with in generated Cython code."""
from __future__ import annotations

from moshjit.ir.types import BOOL, CHAR, FLOAT, STR, DictType, IntType, ListType, MType, SetType, TupleType


C_SCALARS = frozenset({"Py_ssize_t", "bint", "double", "Py_UCS4"})     # declared types that hold no object


def cython_type(t: MType | None) -> str:
    """``Py_ssize_t`` for proven int64 ints, ``Py_UCS4`` chars, ``double``, ``bint``, the exact builtin
    containers, else ``object``."""
    if isinstance(t, IntType) and t.fits_int64:
        return "Py_ssize_t"
    if t == BOOL:
        return "bint"
    if t == FLOAT:
        return "double"
    if t == CHAR:
        return "Py_UCS4"
    if t == STR:
        return "str"
    if isinstance(t, ListType):
        return "list"
    if isinstance(t, DictType):
        return "dict"
    if isinstance(t, SetType):
        return "set"
    if isinstance(t, TupleType):
        return "tuple"
    return "object"

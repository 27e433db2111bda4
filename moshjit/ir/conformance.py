"""Whether a run-time value has a type of the lattice, for results typed from an assumption that compiled code
checks at its entry (a jitted method's return type, ``passes/typeinfer.py``): where the assumption stops holding
during a call, the value the generic path produced is checked before typed code uses it."""
from __future__ import annotations

from moshjit.ir.types import (BOOL, BOTTOM, CHAR, FLOAT, NONE, OBJECT, STR, DictType, IntType, ListType, MType,
                              OptionalType, SetType, TupleType)

_EXACT = {STR: str, FLOAT: float, BOOL: bool}


def checkable(t: MType) -> bool:
    """Whether ``conforms`` can decide ``t`` for any value (types of callables, iterators, ranges and arrays are
    not decided: results of those types are left untyped)."""
    if t in _EXACT or t in (CHAR, NONE, OBJECT) or isinstance(t, IntType):
        return True
    if isinstance(t, (ListType, SetType)):
        return t.item == BOTTOM or checkable(t.item)
    if isinstance(t, DictType):
        return all(part == BOTTOM or checkable(part) for part in (t.key, t.value))
    if isinstance(t, TupleType):
        return all(checkable(item) for item in (t.items if t.items is not None else (t.item,)))
    if isinstance(t, OptionalType):
        return checkable(t.inner)
    return False


def conforms(value, t: MType) -> bool:
    """Whether ``value`` is a value of type ``t`` (``t`` checkable): exact types, int bounds, container items."""
    if t == OBJECT:
        return True
    exact = _EXACT.get(t)
    if exact is not None:
        return type(value) is exact
    if t == CHAR:
        return type(value) is str and len(value) == 1
    if t == NONE:
        return value is None
    if isinstance(t, IntType):
        return (type(value) is int and (t.lo is None or value >= t.lo) and (t.hi is None or value <= t.hi))
    if isinstance(t, OptionalType):
        return value is None or conforms(value, t.inner)
    if isinstance(t, (ListType, SetType)):
        return (type(value) is (list if isinstance(t, ListType) else set)
                and all(conforms(item, t.item) for item in value))
    if isinstance(t, DictType):
        return type(value) is dict and all(conforms(k, t.key) and conforms(v, t.value) for k, v in value.items())
    if isinstance(t, TupleType):
        if type(value) is not tuple:
            return False
        if t.items is not None:
            return len(value) == len(t.items) and all(conforms(v, i) for v, i in zip(value, t.items))
        return all(conforms(v, t.item) for v in value)
    return False


def checked_result(value, t: MType, label: str):
    """``value`` if it has type ``t``; else a TypeError naming what changed (``label``: the method)."""
    if conforms(value, t):
        return value
    raise TypeError(f"moshjit: {label} was replaced during a call of compiled code that assumed it returns {t}, "
                    f"and returned {type(value).__name__}; the call cannot continue in that compiled code "
                    f"(replace methods between calls, or let the caller run as plain Python)")

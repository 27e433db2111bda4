"""Calls from compiled code to other jitted functions go straight to the callee's compiled entry.

After type inference, a call to a ``@jit`` dispatcher whose argument types pin down one dispatch signature is bound
to that signature's entry (compiled now if needed): the call then skips the dispatcher's signature lookup. When a
type does not determine the signature (an ``int`` that may not fit 64 bits, an ``object``), the call keeps going
through the dispatcher. Recursion (a callee being compiled further up the stack) is left to the dispatcher too.
"""
from __future__ import annotations

import logging
import threading

from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Constant
from moshjit.ir.types import (BOOL, CHAR, FLOAT, NONE, STR, DictType, IntType, ListType, MType, SetType,
                              TupleType, type_of_value)

log = logging.getLogger("moshjit")
_compiling = threading.local()


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
    if isinstance(t, TupleType) and t.items is not None and len(t.items) <= 8:
        items = [static_key(item) for item in t.items]
        return None if None in items or str in items else ("tuple",) + tuple(items)
    return None


def entry_for(dispatcher, key: tuple):
    """The compiled entry of ``dispatcher`` for ``key`` (compiling it now), or None during its own compilation."""
    busy = getattr(_compiling, "keys", None)
    if busy is None:
        busy = _compiling.keys = set()
    marker = (id(dispatcher), key)
    if marker in busy:
        return None
    busy.add(marker)
    try:
        return dispatcher._specialize(key)
    except Exception as exc:            # the call through the dispatcher reports it (or falls back) at run time
        log.debug("no direct call to %r%s: %s", dispatcher, key, exc)
        return None
    finally:
        busy.discard(marker)


def bind_direct_calls(fn: Function) -> Function:
    for block in fn.blocks:
        for op in block.ops:
            if not (isinstance(op, ops.Call) and isinstance(op.func, Constant) and not op.kwnames
                    and hasattr(op.func.value, "_specialize")
                    and getattr(op.func.value, "_positional_count", -1) == len(op.args)):
                continue                  # entries take the bound parameters: only exact positional calls
            types_ = [type_of_value(a.value) if isinstance(a, Constant) else a.type for a in op.args]
            key = tuple(static_key(t) for t in types_)
            if any(k is None for k in key):
                continue
            entry = entry_for(op.func.value, key)
            if entry is not None:
                op.func = Constant(entry)
    return fn

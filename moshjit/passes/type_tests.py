"""``isinstance(x, C)`` that the inferred type of ``x`` answers becomes the constant ``True``.

Code written for several input types tests them (``if isinstance(text, str): return text`` / ``elif
isinstance(text, bytes): return text.decode(...)``); in a specialisation where ``text`` is known to be a str the
other branches are dead, and folding the test lets the φs after it keep the precise type (a str, not ``object``).

Only ``True`` is folded, and only where it holds for every value the type stands for, subclasses included: ``C``
(or one class of a tuple of classes) is in the MRO of the builtin class the type names, and ``C``'s metaclass is
exactly ``type`` (so ``isinstance`` does not call a ``__instancecheck__``: it tests the MRO of the value's type,
which contains that of the builtin class).
"""
from __future__ import annotations

import builtins

from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Constant
from moshjit.ir.types import BOOL, BYTES, CHAR, FLOAT, NONE, STR, DictType, IntType, ListType, MType, TupleType

_SIMPLE_CLASSES = {STR: str, CHAR: str, BYTES: bytes, FLOAT: float, BOOL: bool, NONE: type(None)}


def builtin_class(t: MType) -> type | None:
    """The builtin class every value of type ``t`` is an instance of (None when the type does not say)."""
    if t in _SIMPLE_CLASSES:
        return _SIMPLE_CLASSES[t]
    if isinstance(t, IntType):
        return int
    for kind, cls in ((ListType, list), (TupleType, tuple), (DictType, dict)):
        if isinstance(t, kind):
            return cls
    return None


def _classes(value) -> list | None:
    """The plain classes ``isinstance``'s second argument names (None when it is not a constant of such)."""
    if not isinstance(value, Constant):
        return None
    found = value.value if type(value.value) is tuple else (value.value,)
    if not all(type(c) is type for c in found):       # a metaclass (an ABC) may answer differently
        return None
    return list(found)


def _known_true(op) -> bool:
    if not (isinstance(op, ops.Call) and isinstance(op.func, Constant) and op.func.value is builtins.isinstance
            and len(op.args) == 2 and not op.kwnames):
        return False
    known = builtin_class(getattr(op.args[0], "type", None))
    classes = _classes(op.args[1])
    return known is not None and classes is not None and any(c in known.__mro__ for c in classes)


def type_tests(fn: Function) -> bool:
    """Fold every ``isinstance`` call the (already inferred) types answer; whether anything changed."""
    replacements = {}
    for block in fn.blocks:
        for op in list(block.ops):
            if _known_true(op):
                block.ops.remove(op)
                replacements[op] = Constant(True)
    fn.substitute(replacements)
    return bool(replacements)

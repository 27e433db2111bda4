"""``isinstance(x, C)`` that the inferred type of ``x`` answers becomes the constant ``True`` or ``False``.

Code written for several input types tests them (``if isinstance(text, str): return text`` / ``elif
isinstance(text, bytes): return text.decode(...)``); in a specialisation where ``text`` is known to be a str the
other branches are dead, and folding the test lets the φs after it keep the precise type (a str, not ``object``).

A test is folded only where the answer holds for every value the type stands for, subclasses included. ``True``:
``C`` (or one class of a tuple of classes) is in the MRO of the builtin class the type names, and ``C``'s metaclass
is exactly ``type`` (so ``isinstance`` does not call a ``__instancecheck__``: it tests the MRO of the value's type,
which contains that of the builtin class). ``False``: the builtin class and every class tested are distinct
builtin classes with instance layouts of their own (``int``, ``str``, ``tuple``, …), which no class can derive from
together (CPython refuses such bases: "multiple bases have instance lay-out conflict"), so no subclass of the one is
an instance of another: an index loop's ``isinstance(i, tuple)`` in a ``__getitem__`` taking both.
"""
from __future__ import annotations

import builtins

from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Constant
from moshjit.ir.types import BOOL, BYTES, CHAR, FLOAT, NONE, STR, DictType, IntType, ListType, MType, TupleType

_SIMPLE_CLASSES = {STR: str, CHAR: str, BYTES: bytes, FLOAT: float, BOOL: bool, NONE: type(None)}
# Builtin classes whose instances have layouts of their own: no class derives from two of them.
LAYOUT_CLASSES = (int, float, complex, str, bytes, bytearray, tuple, list, dict, set, frozenset)


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


def known_answer(op) -> bool | None:
    """What ``isinstance`` call ``op`` gives for every value its argument's type stands for, or None."""
    if not (isinstance(op, ops.Call) and isinstance(op.func, Constant) and op.func.value is builtins.isinstance
            and len(op.args) == 2 and not op.kwnames):
        return None
    known = builtin_class(getattr(op.args[0], "type", None))
    classes = _classes(op.args[1])
    if known is None or classes is None:
        return None
    if any(c in known.__mro__ for c in classes):
        return True
    if known in LAYOUT_CLASSES and all(c in LAYOUT_CLASSES for c in classes):
        return False                    # (none is ``known``: it is in its own MRO)
    return None


def type_tests(fn: Function) -> bool:
    """Fold every ``isinstance`` call the (already inferred) types answer; whether anything changed."""
    replacements = {}
    for block in fn.blocks:
        for op in list(block.ops):
            answer = known_answer(op)
            if answer is not None:
                block.ops.remove(op)
                replacements[op] = Constant(answer)
    fn.substitute(replacements)
    return bool(replacements)

"""A copy of a function's SSA IR with new blocks and values, sharing every Python object the IR refers to.

The inliner splices a callee's SSA into its caller by moving the blocks, so a callee inlined at several call sites
needs a fresh copy for each; building it anew each time (frontend, inlining into it, passes) made the work grow
with every level of nesting (``passes/inline.py``). ``copy.deepcopy`` would also copy what the IR only names — the
module's globals, classes and functions held by constants — so this copies the IR's own objects only: functions,
blocks, values (arguments, constants, ops, φs) and inlined frames, and the lists, tuples, dicts and sets that hold
them.
"""
from __future__ import annotations

from moshjit.ir.block import Block
from moshjit.ir.function import Function
from moshjit.ir.ops import UNDEFINED, InlinedFrame, Value

_IR_TYPES = (Function, Block, Value, InlinedFrame)
_CONTAINERS = (list, tuple, dict, set, frozenset)
# What a Function shares with its copy: the module's globals, the closure's cells, the signature and its binder.
_SHARED_FUNCTION_FIELDS = frozenset({"globals", "closure", "signature", "_binder"})
_slot_names: dict[type, tuple] = {}


def clone_function(fn: Function) -> tuple[Function, dict]:
    """(A copy of ``fn`` whose blocks and values are new objects, the map of each of ``fn``'s IR objects to its
    copy). Objects that are not IR (constants' values, types, names) are the same objects in both."""
    copies: dict[int, object] = {}           # id of an original IR object or container -> its copy
    pending: list[tuple] = []
    done: dict = {}

    def copy(obj):
        if obj is UNDEFINED:                 # the one "never assigned" value: compared by identity
            return obj
        found = copies.get(id(obj))
        if found is not None:
            return found
        kind = type(obj)
        if isinstance(obj, _IR_TYPES):
            new = copies[id(obj)] = object.__new__(kind)
            pending.append((obj, new))
            return new
        if kind in _CONTAINERS and _holds_ir(obj):
            if kind is dict:
                new = copies[id(obj)] = {}
                new.update((copy(k), copy(v)) for k, v in obj.items())
            elif kind is list:
                new = copies[id(obj)] = []
                new.extend(copy(item) for item in obj)
            else:                            # immutable, or a set (its items hash by identity)
                new = copies[id(obj)] = kind(copy(item) for item in obj)
            return new
        return obj

    root = copy(fn)
    while pending:
        original, new = pending.pop()
        done[original] = new
        for name in _slots(type(original)):
            if hasattr(original, name):
                object.__setattr__(new, name, copy(getattr(original, name)))
        if hasattr(original, "__dict__"):
            shared = _SHARED_FUNCTION_FIELDS if type(original) is Function else ()
            for name, value in vars(original).items():
                setattr(new, name, value if name in shared else copy(value))
    return root, done


def _holds_ir(container) -> bool:
    """Whether a list, tuple, dict or set holds IR objects, at any depth of such containers."""
    items = (*container.keys(), *container.values()) if type(container) is dict else container
    return any(isinstance(item, _IR_TYPES) or type(item) in _CONTAINERS and _holds_ir(item) for item in items)


def _slots(kind: type) -> tuple:
    """Every ``__slots__`` name of ``kind`` and its bases."""
    names = _slot_names.get(kind)
    if names is None:
        found: list = []
        for klass in kind.__mro__:
            declared = klass.__dict__.get("__slots__", ())
            found.extend([declared] if isinstance(declared, str) else declared)
        names = _slot_names[kind] = tuple(dict.fromkeys(found))
    return names

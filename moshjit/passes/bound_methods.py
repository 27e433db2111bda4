"""A method of a list, dict or set taken as a value and only called calls the method: ``push = stack.append``
then ``push(x)`` is ``stack.append(x)``.

Code tuned for CPython binds hot methods to locals (fannkuch: ``perm1_ins = perm1.insert``, ``seen_add =
seen.add``): a bound method object the backends can only call generically. The bound method holds the object, not
the variable, and on an exact list, dict or set the attribute is the type's own method descriptor — it cannot be
missing, shadowed or replaced (builtin types are immutable), and looking it up runs no code — so each call of it is
the method call on that same object at that point. When every use of the bound method is a call of it, the calls
become ``call_method`` ops on the object and the attribute load goes; a bound method stored, passed or returned is
left alone (its identity is observable).

Only objects known to be exactly of the builtin type: arguments (the dispatch key is the exact type), displays and
``list()``/``dict()``/``set()``/``sorted()`` results; a subclass could override the method.
"""
from __future__ import annotations

import builtins
import types

from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Argument, Constant
from moshjit.ir.types import DictType, ListType, SetType

_CONTAINERS = ((ListType, list), (DictType, dict), (SetType, set))
_MAKERS = {builtins.list: list, builtins.dict: dict, builtins.set: set, builtins.sorted: list}
_DISPLAYS = {ops.BuildList: list, ops.BuildMap: dict, ops.BuildSet: set}


def _exact_class(value) -> type | None:
    """list, dict or set when ``value`` is always exactly an instance of it, else None."""
    declared = next((cls for kind, cls in _CONTAINERS if isinstance(getattr(value, "type", None), kind)), None)
    if declared is None:
        return None
    if isinstance(value, Argument):
        return declared
    if type(value) in _DISPLAYS:
        return _DISPLAYS[type(value)] if _DISPLAYS[type(value)] is declared else None
    if isinstance(value, ops.Call) and isinstance(value.func, Constant):
        try:
            made = _MAKERS.get(value.func.value)
        except TypeError:                       # an unhashable constant
            return None
        return made if made is declared else None
    return None


def _method_of(cls: type, name: str) -> bool:
    """A plain method of the builtin class (``insert``, ``get``, ``add``; not a slot wrapper or class method)."""
    return isinstance(vars(cls).get(name), types.MethodDescriptorType)


def bound_methods(fn: Function) -> bool:
    """Turn the calls of bound methods of exact lists, dicts and sets into method calls; whether anything
    changed."""
    users = fn.users()
    replacements: dict = {}
    for block in fn.blocks:
        for attribute in list(block.ops):
            if not isinstance(attribute, ops.LoadAttr):
                continue
            cls = _exact_class(attribute.obj)
            calls = users.get(attribute, [])
            if cls is None or not _method_of(cls, attribute.name) or not calls or not all(
                    isinstance(call, ops.Call) and call.func is attribute and attribute not in call.args
                    for call in calls):
                continue
            for call in calls:
                method_call = ops.CallMethod(attribute.obj, list(call.args), attribute.name, call.kwnames,
                                             line=call.line)
                method_call.block = call.block
                call.block.ops[call.block.ops.index(call)] = method_call
                replacements[call] = method_call
            block.ops.remove(attribute)
    fn.substitute(replacements)
    return bool(replacements)

"""``@jit`` on a class: every function its body defines is compiled as a method, the class is otherwise unchanged
(the same class object is returned, as ``@dataclass`` does)."""
from __future__ import annotations

import types
from typing import Callable


def jit_methods(cls: type, decorate: Callable) -> type:
    """Replace each function defined in ``cls``'s own body — plain methods (``__init__`` and the other dunders
    included) and the functions behind its ``staticmethod``, ``classmethod`` and ``property`` members — by
    ``decorate(function)``; inherited methods and nested classes are left alone (jit those classes themselves), and
    so are functions another module's code put there (``typing.Protocol``'s ``__subclasshook__``, which counts its
    callers' frames): they are that library's machinery, not the class's code."""
    for name, member in list(vars(cls).items()):
        replacement = _decorated_member(member, decorate, cls)
        if replacement is not None:
            setattr(cls, name, replacement)
            if replacement is not member and hasattr(type(replacement), "__set_name__"):
                replacement.__set_name__(cls, name)      # as a class body would have (a tiered method's copy)
    return cls


def _decorated_member(member, decorate, cls: type):
    """The member with the functions that are ``cls``'s own decorated (defined in its body, or in its module), or
    None when it holds no such function."""
    def own(function) -> bool:
        return isinstance(function, types.FunctionType) and (
            function.__qualname__.startswith(cls.__qualname__ + ".") or function.__module__ == cls.__module__)

    if own(member):
        return decorate(member)
    if type(member) in (staticmethod, classmethod) and own(member.__func__):
        return type(member)(decorate(member.__func__))
    if type(member) is property and any(own(f) for f in (member.fget, member.fset, member.fdel)):
        accessors = [decorate(f) if own(f) else f for f in (member.fget, member.fset, member.fdel)]
        return property(*accessors, member.__doc__)
    return None

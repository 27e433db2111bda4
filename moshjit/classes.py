"""``@jit`` on a class: every function its body defines is compiled as a method, the class is otherwise unchanged
(the same class object is returned, as ``@dataclass`` does)."""
from __future__ import annotations

import types
from typing import Callable


def jit_methods(cls: type, decorate: Callable) -> type:
    """Replace each function defined in ``cls``'s own body — plain methods (``__init__`` and the other dunders
    included) and the functions behind its ``staticmethod``, ``classmethod`` and ``property`` members — by
    ``decorate(function)``; inherited methods and nested classes are left alone (jit those classes themselves)."""
    for name, member in list(vars(cls).items()):
        replacement = _decorated_member(member, decorate)
        if replacement is not None:
            setattr(cls, name, replacement)
            if replacement is not member and hasattr(type(replacement), "__set_name__"):
                replacement.__set_name__(cls, name)      # as a class body would have (a tiered method's copy)
    return cls


def _decorated_member(member, decorate):
    """The member with its functions decorated, or None when it holds no plain function."""
    if isinstance(member, types.FunctionType):
        return decorate(member)
    if type(member) in (staticmethod, classmethod) and isinstance(member.__func__, types.FunctionType):
        return type(member)(decorate(member.__func__))
    if type(member) is property:
        accessors = [decorate(f) if isinstance(f, types.FunctionType) else f
                     for f in (member.fget, member.fset, member.fdel)]
        return property(*accessors, member.__doc__)
    return None

"""``@jit`` on a class: every function its body defines is compiled as a method, the class is otherwise unchanged
(the same class object is returned, as ``@dataclass`` does)."""
from __future__ import annotations

import types
from typing import Callable


def jit_methods(cls: type, decorate: Callable) -> type:
    """Replace each function defined in ``cls``'s own body — plain methods (``__init__`` and the other dunders
    included) and the functions behind its ``staticmethod``, ``classmethod`` and ``property`` members — by
    ``decorate(function)``; inherited methods and nested classes are left alone (jit those classes themselves), and
    so are functions another package's code put there (``typing.Protocol``'s ``__subclasshook__``, which counts its
    callers' frames; the ``__new__``, ``_make`` and ``_replace`` of a named tuple, which ``collections`` names as the
    class's own): they are that library's machinery, not the class's code. A member whose name the metaclass
    handles on assignment stays as it is: ``cls.__name__ = ...`` renames the class rather than replacing toolz's
    ``Compose.__name__`` property in the class's dict (a property of instances that no hot loop reads)."""
    for name, member in list(vars(cls).items()):
        replacement = _decorated_member(member, decorate, cls)
        if replacement is not None and not _assigned_by_metaclass(cls, name):
            setattr(cls, name, replacement)
            if replacement is not member and hasattr(type(replacement), "__set_name__"):
                replacement.__set_name__(cls, name)      # as a class body would have (a tiered method's copy)
    return cls


def _decorated_member(member, decorate, cls: type):
    """The member with the functions that are ``cls``'s own decorated (defined in its body, or in its module), or
    None when it holds no such function."""
    def own(function) -> bool:
        return isinstance(function, types.FunctionType) and _same_package(function, cls) and (
            function.__qualname__.startswith(cls.__qualname__ + ".") or function.__module__ == cls.__module__)

    if own(member):
        return decorate(member)
    if type(member) in (staticmethod, classmethod) and own(member.__func__):
        return type(member)(decorate(member.__func__))
    if type(member) is property and any(own(f) for f in (member.fget, member.fset, member.fdel)):
        accessors = [decorate(f) if own(f) else f for f in (member.fget, member.fset, member.fdel)]
        return property(*accessors, member.__doc__)
    return None


def _same_package(function: types.FunctionType, cls: type) -> bool:
    """Whether ``function`` runs in a module of ``cls``'s top-level package (its globals' ``__name__``): a class
    body's functions do, also when a library presents the class under its package's name (``numpy.core.x``'s
    class as ``numpy``'s), and so do the methods ``dataclasses`` writes (made in the class's module globals)."""
    home, module = function.__globals__.get("__name__"), getattr(cls, "__module__", None)
    if not isinstance(home, str) or not isinstance(module, str):
        return True
    return home.partition(".")[0] == module.partition(".")[0]


def _assigned_by_metaclass(cls: type, name: str) -> bool:
    """Whether ``setattr(cls, name, ...)`` goes to a data descriptor of ``cls``'s metaclass (``type``'s
    ``__name__``, ``__qualname__``, ``__module__``, ``__doc__``, …) instead of into ``cls``'s own dict."""
    for klass in type(cls).__mro__:
        if name in vars(klass):
            return hasattr(type(vars(klass)[name]), "__set__")
    return False

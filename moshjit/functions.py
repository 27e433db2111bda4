"""The plain Python function behind what users pass to ``jit``, ``to_ssa`` and friends, and the namespaces it runs
with. Kept apart from the frontend so that creating a dispatcher does not import it."""
from __future__ import annotations

import builtins
import types

from moshjit.errors import UnsupportedError


def jitted_function(value) -> types.FunctionType | None:
    """The plain function ``value`` compiles when it is a ``@jit`` dispatcher, else None. Known by its class (which
    defines ``compiled_entry``), never by a ``py_func`` attribute alone: ``functools.wraps`` copies a dispatcher's
    into a decorator's wrapper (``lru_cache``, ``contextmanager``), and calling the wrapper is not calling it."""
    if not any(callable(vars(klass).get("compiled_entry")) for klass in type(value).__mro__):
        return None                        # (read from the class dicts: no descriptor or __getattr__ runs)
    try:                                   # the instance's own attribute: no __getattr__ runs, and an instance
        inner = object.__getattribute__(value, "py_func")   # dict CPython keeps as values is not materialised
    except AttributeError:
        return None
    return inner if isinstance(inner, types.FunctionType) else None


def python_function(fn) -> types.FunctionType:
    """The plain function behind ``fn`` (functions, lambdas, methods, jitted functions)."""
    fn = cold_copy_dispatcher(fn) or fn             # a cold method's plain-function copy (moshjit.cold_copy)
    fn = jitted_function(fn) or fn
    if isinstance(fn, (types.MethodType, staticmethod, classmethod)):
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType):
        raise UnsupportedError(f"{type(fn).__name__} object {fn!r:.60}: moshjit compiles Python functions only")
    return fn


def own_signature(fn):
    """The ``inspect.Signature`` of ``fn``'s own parameters, not of the function its ``__wrapped__`` names: a
    decorator's wrapper (``@contextmanager``'s ``helper(*args, **kwds)``) binds its arguments by its own."""
    import inspect                          # (imported when needed: ``import moshjit`` stays fast)
    return inspect.signature(fn, follow_wrapped=False)


def builtins_of(namespace: dict) -> dict:
    """The builtins namespace code run with the globals ``namespace`` sees (its ``__builtins__``, a module or a
    dict, as CPython accepts both; the interpreter's own when it has none)."""
    found = namespace.get("__builtins__", builtins)
    return found.__dict__ if isinstance(found, types.ModuleType) else found


def builtins_dict(py_function: types.FunctionType) -> dict:
    """The builtins namespace ``py_function`` runs with."""
    return builtins_of(py_function.__globals__)


def cold_copy_dispatcher(value):
    """The ``@jit`` dispatcher ``value`` stands for when it is a tiered method's plain-function copy
    (``moshjit.cold_copy``: the class holds the copy while the method is cold), else None. The copy carries the
    dispatcher and its own code in its ``__dict__``; a decorator's wrapper made with ``functools.wraps`` gets both
    in its own dict but runs other code: it is not the copy."""
    if not isinstance(value, types.FunctionType):
        return None
    own = value.__dict__
    return own.get("_moshjit_dispatcher") if own.get("_moshjit_code") is value.__code__ else None


def dispatcher_behind(value):
    """``value``, or the ``@jit`` dispatcher it stands for when it is a tiered method's plain-function copy."""
    return cold_copy_dispatcher(value) or value


def class_attribute(cls: type, name: str, after: type | None = None):
    """What looking ``name`` up on ``cls`` finds in the class dicts of its MRO (no descriptor called), or None;
    with ``after``, only in the classes after it, as ``super(after, instance of cls)`` looks."""
    mro = cls.__mro__
    if after is not None:
        mro = mro[mro.index(after) + 1:] if after in mro else ()
    for klass in mro:
        if name in vars(klass):
            return vars(klass)[name]
    return None


def jitted_method(cls: type, name: str, after: type | None = None):
    """The ``@jit`` dispatcher ``cls.name`` (``super(after, instance of cls).name``) is, or stands for, else
    None."""
    found = dispatcher_behind(class_attribute(cls, name, after))
    return found if hasattr(found, "compiled_entry") and hasattr(found, "py_func") else None


def methods_of(cls: type) -> list:
    """The plain functions behind the methods ``cls`` and its bases (but ``object``) define, jitted or not."""
    found = []
    for klass in cls.__mro__[:-1]:
        for value in vars(klass).values():
            value = dispatcher_behind(value)
            if hasattr(type(value), "compiled_entry"):        # a jitted method: its dispatcher
                value = value.py_func
            if isinstance(value, types.FunctionType):
                found.append(value)
    return found

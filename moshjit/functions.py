"""The plain Python function behind what users pass to ``jit``, ``to_ssa`` and friends, and the namespaces it runs
with. Kept apart from the frontend so that creating a dispatcher does not import it."""
from __future__ import annotations

import builtins
import types

from moshjit.errors import UnsupportedError


def python_function(fn) -> types.FunctionType:
    """The plain function behind ``fn`` (functions, lambdas, methods, jitted functions)."""
    fn = getattr(fn, "_moshjit_dispatcher", fn)      # a cold method's plain-function copy (moshjit.cold_copy)
    fn = getattr(fn, "py_func", fn)
    if isinstance(fn, (types.MethodType, staticmethod, classmethod)):
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType):
        raise UnsupportedError(f"{type(fn).__name__} object {fn!r:.60}: moshjit compiles Python functions only")
    return fn


def builtins_dict(py_function: types.FunctionType) -> dict:
    """The builtins namespace ``py_function`` runs with (its globals' ``__builtins__``, module or dict)."""
    found = py_function.__globals__.get("__builtins__", builtins)
    return found.__dict__ if isinstance(found, types.ModuleType) else found

"""The plain Python function behind what users pass to ``jit``, ``to_ssa`` and friends. Kept apart from the
frontend so that creating a dispatcher does not import it."""
from __future__ import annotations

import types

from moshjit.errors import UnsupportedError


def python_function(fn) -> types.FunctionType:
    """The plain function behind ``fn`` (functions, lambdas, methods, jitted functions)."""
    fn = getattr(fn, "py_func", fn)
    if isinstance(fn, (types.MethodType, staticmethod, classmethod)):
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType):
        raise UnsupportedError(f"{type(fn).__name__} object {fn!r:.60}: moshjit compiles Python functions only")
    return fn

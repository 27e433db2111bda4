"""Compile one specialisation: SSA → resolved globals → passes → types → a backend → a callable entry.

The order of the per-function pipeline is written out here, in one place. Backends receive typed SSA and return
an ``Artifact``: the native entry point plus what introspection shows (generated text, timings).
"""
from __future__ import annotations

import builtins
import logging
import time
import types

from moshjit.artifact import Artifact  # noqa: F401  (re-exported for the backends)
from moshjit.dispatcher import describe_key  # noqa: F401  (re-exported)
from moshjit.ir.function import Function
from moshjit.ir.types import (BOOL, BYTES, CHAR, FLOAT, INT, INT64, NONE, OBJECT, STR, ArrayType, DictType, ListType,
                              MType, SetType, TupleType, tuple_of)

log = logging.getLogger("moshjit")


# Dispatch kinds (see ``dispatcher.key_of``) → the type inference starts from.
_KEY_TYPES = {"int64": INT64, "char": CHAR, int: INT, str: STR, float: FLOAT,
              bool: BOOL, type(None): NONE, list: ListType(OBJECT), dict: DictType(OBJECT, OBJECT),
              set: SetType(OBJECT), tuple: TupleType(None, OBJECT), bytes: BYTES}


# NumPy arrays keyed by ``dispatcher.array_key``.
_KEY_TYPES.update({f"ndarray[{dtype},{ndim}]": ArrayType(dtype, ndim)
                   for dtype in ("int32", "int64", "float32", "float64") for ndim in (1, 2)})


def type_of_key(key) -> MType:
    """The inference type of one dispatch key element (anything unlisted is a plain object)."""
    if isinstance(key, tuple) and key and key[0] == "tuple":
        return tuple_of(type_of_key(k) for k in key[1:])
    return _KEY_TYPES.get(key, OBJECT)


def typed_ssa(py_function, arg_types: list[MType], assume_globals: bool = True) -> Function:
    """The per-function pipeline up to typed SSA, in its fixed order."""
    from moshjit.frontend import build_ssa
    from moshjit.passes.global_types import assume_global_types
    from moshjit.passes.inline import inline_calls
    from moshjit.passes.pipeline import run_passes
    from moshjit.passes.resolve_globals import resolve_globals
    from moshjit.passes.typeinfer import infer_types
    ir = build_ssa(py_function, optimize=False)
    resolve_globals(ir)
    inline_calls(ir, (py_function.__code__,))
    run_passes(ir)
    if assume_globals:
        assume_global_types(ir)
    infer_types(ir, arg_types)
    return ir


def builtins_dict(py_function) -> dict:
    found = py_function.__globals__.get("__builtins__", builtins)
    return found.__dict__ if isinstance(found, types.ModuleType) else found


def compile_specialization(py_function, key: tuple, backend: str, cache, fallback=None,
                           assume_globals: bool = True) -> Artifact:
    """Compile ``py_function`` for argument kinds ``key`` with ``backend`` ('auto', 'cython' or 'llvm').

    'auto' asks the LLVM backend first (it takes the function when every value has a native type) and uses
    Cython otherwise. ``fallback`` is a callable a native entry calls with the original arguments when a
    run-time check fails (a list argument holding a non-int, a data global rebound to another type); it goes
    back to the dispatcher, which uses a specialisation compiled with ``assume_globals=False``.
    """
    from moshjit.ir.printer import format_function
    start = time.perf_counter()
    arg_types = [type_of_key(k) for k in key]
    ir = typed_ssa(py_function, arg_types, assume_globals=assume_globals and fallback is not None)
    ir_text = format_function(ir)
    frontend_s = time.perf_counter() - start
    artifact = None
    if backend in ("auto", "llvm"):
        from moshjit.backends.llvm import compile_llvm
        artifact = compile_llvm(ir, py_function, key, cache, fallback, required=backend == "llvm")
    if artifact is None:
        from moshjit.backends.cython.driver import compile_cython
        from moshjit.passes.direct_calls import bind_direct_calls
        bind_direct_calls(ir)
        artifact = compile_cython(ir, py_function, cache, fallback)
    artifact.ir_text = artifact.ir_text or ir_text
    artifact.stats["frontend_s"] = round(frontend_s, 4)
    artifact.stats["total_s"] = round(time.perf_counter() - start, 4)
    log.info("compiled %s%s with %s in %.3f s", py_function.__qualname__, tuple(describe_key(k) for k in key),
             artifact.backend, artifact.stats["total_s"])
    return artifact

"""LLVM backend: typed SSA → LLVM IR → a shared object in the cache → a builtin function per specialisation.

``compile_llvm`` takes the function when every value has a native type (see ``reprs``); lists arrive typed as
``list[object]`` and are re-inferred with native item types (int, then float, bool, lists of ints or floats),
the entry checking the items at run time and taking the fallback on a miss.
"""
from __future__ import annotations

import time

from moshjit.errors import UnsupportedError
from moshjit.ir.types import BOOL, FLOAT, INT64, OBJECT, ListType, MType, TupleType

LIST_ITEM_CANDIDATES = (INT64, FLOAT, BOOL, ListType(INT64), ListType(FLOAT))


def compile_llvm(ir, py_function, key, cache, fallback, required: bool):
    """An Artifact for ``py_function`` specialised to ``key``, or None ('auto' then uses Cython); with
    ``required`` a function that is not fully native raises UnsupportedError naming the first culprit."""
    from moshjit.backends.llvm.lower import NotNative
    from moshjit.backends.llvm.runtime import check_layout
    try:
        check_layout()
        candidates = argument_candidates(ir, key)
    except UnsupportedError:
        if required:
            raise
        return None
    saved = {value: value.type for value in ir.values()}
    first_problem = None
    for arg_types in candidates:
        try:
            return _compile(ir, py_function, arg_types, cache, fallback)
        except NotNative as problem:
            first_problem = first_problem or problem
            for value, t in saved.items():
                value.type = t
    if required:
        raise UnsupportedError(f"{first_problem.what} has no native form (backend='llvm')", ir.filename,
                               first_problem.line, hint="use backend='cython' or 'auto' for this function")
    return None


def argument_candidates(ir, key) -> list[list[MType]]:
    """Argument types to try: the key's, with list arguments given each candidate item type in turn."""
    from moshjit.compiler import type_of_key
    from moshjit.backends.llvm.native_types import normalize
    base = []
    for arg, kind in zip(ir.args, key):
        t = type_of_key(kind)
        if kind is int:
            raise UnsupportedError(f"argument '{arg.name}' is an int that does not fit in 64 bits", ir.filename,
                                   ir.firstlineno)
        if t == OBJECT or isinstance(t, TupleType) and t.items is None:
            raise UnsupportedError(f"argument '{arg.name}' of type {getattr(kind, '__qualname__', kind)} has no "
                                   f"native form", ir.filename, ir.firstlineno)
        base.append(normalize(t))
    if not any(isinstance(t, ListType) for t in base):
        return [base]
    return [[ListType(item) if isinstance(t, ListType) else t for t in base] for item in LIST_ITEM_CANDIDATES]


def _compile(ir, py_function, arg_types, cache, fallback):
    from moshjit.backends.llvm.engine import load_library, make_builtin, shared_object, toolchain
    from moshjit.backends.llvm.module import build_module
    from moshjit.backends.llvm.native_types import CallGraph
    from moshjit.compiler import Artifact, typed_ssa
    from moshjit.ir.printer import format_function
    start = time.perf_counter()
    tools = toolchain()
    graph = CallGraph(typed_ssa)
    root = graph.infer(py_function, arg_types, ir=ir)
    text, method_def = build_module(graph, root, tools.triple, tools.data_layout)
    lowered = time.perf_counter()
    stats = {"backend": "llvm", "lower_s": round(lowered - start, 4)}
    path = shared_object(text, cache, stats)
    library = load_library(path)
    entry = make_builtin(library, method_def, fallback, py_function.__module__)
    stats["llvm_s"] = round(time.perf_counter() - lowered, 4)
    return Artifact(entry, "llvm", text, format_function(ir), stats)

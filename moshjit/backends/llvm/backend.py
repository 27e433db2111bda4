"""The LLVM backend's interface: typed SSA → LLVM IR → a shared object in the cache → a builtin per specialisation.

``compile`` takes the function when every value has a native type (see ``reprs``); lists arrive typed as
``list[object]`` and are re-inferred with native item types (int, then float, bool, lists of ints or floats),
the entry checking the items at run time and switching variants (``variants``) on a miss; arrays keyed only as
``ndarray`` get the same treatment. What was decided is
recorded in the cache index (``store``), so another process loads the shared object without compiling. A shared
object whose native code can deoptimise registers its deoptimisation table (``resume``) when it is loaded.
"""
from __future__ import annotations

import functools
import logging
import time

from moshjit.artifact import Artifact
from moshjit.context import CompileContext
from moshjit.errors import UnsupportedError, parameter_location
from moshjit.typeof import describe_key, is_plain_array_key, type_of_key

log = logging.getLogger("moshjit")


def list_item_candidates() -> tuple:
    """Item types tried, in order, for list arguments."""
    from moshjit.ir.types import BOOL, FLOAT, INT64, ListType
    return INT64, FLOAT, BOOL, ListType(INT64), ListType(FLOAT)


def array_guesses() -> tuple:
    """Types tried for arrays whose key does not say their item type (dimensions decide what indexing types
    natively; the item type is then switched at run time)."""
    from moshjit.ir.types import ArrayType
    return tuple(ArrayType(dtype, ndim) for dtype in ("float64", "int64") for ndim in (1, 2))


def compile(ir, ctx: CompileContext):
    """An Artifact for ``ctx.py_function`` specialised to ``ctx.key``, or None ('auto' then uses Cython); when
    the LLVM backend was asked for by name, a function that is not fully native raises UnsupportedError naming
    the first culprit."""
    from moshjit.backends.llvm import store
    from moshjit.backends.llvm.layout import check_layout
    py_function, key, cache = ctx.py_function, ctx.key, ctx.cache
    required = ctx.backend == "llvm"
    start = time.perf_counter()
    try:
        check_layout()
    except UnsupportedError:
        if required:
            raise
        return None
    index = store.index_key(py_function, key)
    known = store.lookup(cache, index)
    artifact = _load(known, ctx, index, start) if known and known["native"] else None
    if known is None or known["native"] and artifact is None:
        known = _decide(ir, ctx, index, required)
        if known.get("cacheable", True) and known.get("bindings", []) is not None and _key_covers_dependencies(ctx):
            store.record(cache, index, {k: v for k, v in known.items() if k != "artifact"})
        artifact = known.get("artifact")
    if not known["native"]:
        if required:
            columns = known.get("columns")
            raise UnsupportedError(known["reason"], ir.filename, known["line"], hint=known.get("hint"),
                                   columns=tuple(columns) if columns else None)
        return None
    return artifact


def load_cached(ctx: CompileContext):
    """The Artifact recorded in the cache index for ``ctx.py_function`` and ``ctx.key``, loaded without building
    any IR (None when the index has no native entry for it). Meant to be asked before the frontend runs."""
    from moshjit.backends.llvm import store
    from moshjit.backends.llvm.layout import check_layout
    py_function, key, cache = ctx.py_function, ctx.key, ctx.cache
    start = time.perf_counter()
    index = store.index_key(py_function, key)
    known = store.lookup(cache, index)
    if known is None or not known["native"]:
        return None
    try:                                  # asked only when there is code to load: it imports ctypes
        check_layout()
    except UnsupportedError:
        return None
    return _load(known, ctx, index, start)


def _decide(ir, ctx: CompileContext, index, required) -> dict:
    """Try the argument candidates in order: the record of the first native one (with its artifact), or of
    the first reason it is not native."""
    from moshjit.backends.llvm.lower import NotNative
    from moshjit.passes.releases import strip_releases
    py_function, key = ctx.py_function, ctx.key
    try:
        candidates = argument_candidates(ir, key, ctx.shapes)
    except UnsupportedError as problem:
        return {"native": False, "reason": problem.construct, "line": problem.lineno, "columns": problem.columns}
    positions = [i for i, kind in enumerate(key) if _decided_at_run_time(kind)]
    saved = {value: value.type for value in ir.values()}
    restore_releases = strip_releases(ir)        # put back below when the Cython backend gets the function
    first_problem = None
    for arg_types in candidates:
        try:
            return _compile_candidate(ir, ctx, index, arg_types, positions)
        except NotNative as problem:
            first_problem = first_problem or problem
        except Exception as problem:          # a backend bug must not break 'auto': Cython still works
            if required:
                raise
            log.warning("moshjit: the LLVM backend failed on %s (%s: %s); using the Cython backend",
                        py_function.__qualname__, type(problem).__name__, problem)
            restore_releases()
            return {"native": False, "reason": f"LLVM backend error: {problem}", "line": ir.firstlineno,
                    "cacheable": False}
        finally:
            for value, t in saved.items():
                value.type = t
    restore_releases()
    return {"native": False, "reason": f"{first_problem.what} has no native form (backend='llvm')",
            "line": first_problem.line, "hint": "use backend='cython' or 'auto' for this function"}


def _compile_candidate(ir, ctx: CompileContext, index, arg_types, positions) -> dict:
    from moshjit.backends.llvm.variants import ItemKindDispatch
    variants = None
    on_demote = ()
    if positions:
        primary = tuple(arg_types[i] for i in positions)
        variants = ItemKindDispatch(lambda kinds: _variant(ctx, index, arg_types, positions, kinds), positions,
                                    ctx.fallback, primary)
        on_demote = (variants.forget(primary),)
    artifact, built = _compile(ir, ctx, ctx.py_function, arg_types, variants or ctx.fallback, on_demote)
    if variants is not None:
        variants.variants[variants.primary] = artifact.entry
    return dict(built, native=True, positions=positions, artifact=artifact)


def _load(known: dict, ctx: CompileContext, index, start):
    """The artifact recorded in the index: its shared object loaded, no compiling (None if it is gone)."""
    from moshjit.backends.llvm import binding_check
    from moshjit.backends.llvm.engine import NAMESPACE, SUFFIX, load_library, make_builtin
    from moshjit.backends.llvm.types_json import decode_type
    from moshjit.functions import builtins_dict
    from moshjit.backends.llvm.variants import ItemKindDispatch
    py_function, fallback = ctx.py_function, ctx.fallback
    found = ctx.cache.load(NAMESPACE, known["so_key"], SUFFIX)
    if found is None:
        return None
    positions = known["positions"]
    target = fallback
    on_demote = ()
    try:
        arg_types = [decode_type(t) for t in known["arg_types"]]
        if positions:
            target = ItemKindDispatch(lambda kinds: _variant(ctx, index, arg_types, positions, kinds), positions,
                                      fallback, tuple(arg_types[i] for i in positions))
            on_demote = (target.forget(target.primary),)
        bindings = binding_check.rebuild(known["bindings"], py_function, builtins_dict(py_function))
        if bindings is None:          # a name it bound is gone: compile anew
            return None
        library = load_library(found[0])
        entry = make_builtin(library, known["method_def"], target, py_function.__module__, py_function,
                             known["globals"], bindings, _rebound_handler(ctx))
        if positions:
            target.variants[target.primary] = entry
    except (KeyError, ValueError, TypeError, IndexError, AttributeError) as exc:   # a record that does not fit it
        ctx.cache.reject(found[0], f"does not match its index record ({type(exc).__name__}: {exc})")
        return None
    stats = {"backend": "llvm", "cache": "hit", "load_s": round(time.perf_counter() - start, 4)}
    if known.get("deopt"):
        _register_deopt(library, known, ctx, arg_types, stats, on_demote)
    return _artifact(entry, known["code_text"], known["ir_text"], stats, known["arg_types"])


def _variant(ctx: CompileContext, index, arg_types, positions, kinds):
    """The entry of the native variant for list item types ``kinds`` (None when it is not native), through
    the index like a specialisation of its own."""
    from moshjit.backends.llvm import store
    from moshjit.backends.llvm.types_json import encode_type
    cache = ctx.cache
    start = time.perf_counter()
    variant_index = store.make_key(index, [encode_type(k) for k in kinds])
    known = store.lookup(cache, variant_index)
    if known is not None:
        artifact = _load(known, ctx, variant_index, start) if known["native"] else None
        if artifact is not None or not known["native"]:
            return artifact.entry if artifact is not None else None
    from moshjit.backends.llvm.lower import NotNative
    types = list(arg_types)
    for position, kind in zip(positions, kinds):
        types[position] = kind
    try:
        variant_ir, variant_ctx = ctx.typed_callee(ctx.py_function, types)
        artifact, facts = _compile(variant_ir, variant_ctx, ctx.py_function, types, ctx.fallback, rebound_ctx=ctx)
    except (NotNative, UnsupportedError) as problem:
        store.record(cache, variant_index, {"native": False, "reason": str(problem), "line": None})
        return None
    if facts["bindings"] is not None and _key_covers_dependencies(ctx):
        store.record(cache, variant_index, dict(facts, native=True, positions=[]))
    return artifact.entry


def _key_covers_dependencies(ctx: CompileContext) -> bool:
    """True when the index key covers everything the passes reported baking in (``ctx.dependencies``); code
    depending on anything else is kept for this process only, never recorded for another one."""
    from moshjit.cache import uncovered
    missing = uncovered(ctx.py_function, ctx.dependencies.values())
    if missing:
        log.debug("moshjit: not caching %s: its key does not cover %s", ctx.py_function.__qualname__,
                  ", ".join(repr(m) for m in missing[:3]))
    return not missing


def native_argument_type(kind):
    """The type an argument of dispatch kind ``kind`` gets in native code (an array's first guess), or None when
    it has no native form (an int beyond 64 bits, a str, an instance of a class, ...)."""
    from moshjit.backends.llvm.native_types import normalize
    from moshjit.backends.llvm.reprs import repr_of
    t = array_guesses()[0] if is_plain_array_key(kind) else normalize(type_of_key(kind))
    return None if holds_wide_int(kind) or not _decided_at_run_time(kind) and repr_of(t) is None else t


def holds_wide_int(kind) -> bool:
    """Whether values of dispatch kind ``kind`` are, or hold among a typed tuple's items, an int beyond 64 bits:
    the native int is 64 bits, so the entry's check would refuse every call of this signature."""
    return _any_kind(kind, lambda k: k is int)


def _any_kind(kind, test) -> bool:
    """Whether ``test`` holds for ``kind`` or, for a typed tuple, for any of its items' kinds at any depth."""
    if isinstance(kind, tuple) and kind[:1] == ("tuple",):
        return any(_any_kind(k, test) for k in kind[1:])
    return test(kind)


def takes_arguments(key) -> bool:
    """Whether every argument of signature ``key`` has a native form: if not, this backend refuses the
    signature whatever the function's body (known before any IR is built)."""
    return all(native_argument_type(kind) is not None for kind in key)


def argument_candidates(ir, key, shapes=None) -> list[list]:
    """Argument types to try: the key's, with lists (also inside tuple arguments) given each candidate item type in
    turn (and arrays of unknown item type each guess); first, what the first call's arguments (``shapes``) showed
    for them (floats, tuples, what a tuple argument's list held; the entry checks every item at each call)."""
    from moshjit.backends.llvm.reprs import repr_of
    from moshjit.backends.llvm.variants import shape_type
    base = []
    for arg, kind in zip(ir.args, key):
        t = native_argument_type(kind)
        if t is None:
            line, columns = parameter_location(ir.filename, ir.firstlineno, arg.name)
            problem = ("is an int that does not fit in 64 bits" if kind is int else
                       f"is a {describe_key(kind)}: an int that does not fit in 64 bits has no native form"
                       if holds_wide_int(kind) else
                       f"is {'a' if describe_key(kind)[:1] not in 'aeiou' else 'an'} {describe_key(kind)}, which "
                       f"has no native form")
            raise UnsupportedError(f"argument '{arg.name}' {problem}", ir.filename, line, columns=columns)
        base.append(t)
    lists = [_decided_at_run_time(kind) and not is_plain_array_key(kind) for kind in key]
    items = list_item_candidates() if any(lists) else (None,)
    arrays = array_guesses() if any(is_plain_array_key(kind) for kind in key) else (None,)
    candidates = [[_with_list_items(t, item) if listed else array if is_plain_array_key(kind) else t
                   for t, kind, listed in zip(base, key, lists)] for array in arrays for item in items]
    shown = [shape_type(shape) if listed and shape is not None else None
             for listed, shape in zip(lists, shapes or [None] * len(base))]
    guess = [s if s is not None and repr_of(s) is not None else c for s, c in zip(shown, candidates[0])]
    if guess in candidates:          # a list of floats first called with floats: not the ints guess first
        candidates.remove(guess)
    candidates.insert(0, guess)
    return candidates


def _with_list_items(t, item):
    """``t`` with ``item`` as the item type of its lists (a list, or lists among a tuple's items)."""
    from moshjit.ir.types import ListType, TupleType, tuple_of
    if isinstance(t, ListType):
        return ListType(item)
    if isinstance(t, TupleType) and t.items is not None:
        return tuple_of([_with_list_items(i, item) for i in t.items])
    return t


def _decided_at_run_time(kind) -> bool:
    """A list (its items' kind is decided when called), a plain NumPy array, or a tuple holding a list."""
    return _any_kind(kind, lambda k: k is list or is_plain_array_key(k))


def _compile(ir, ctx: CompileContext, py_function, arg_types, fallback, on_demote=(), rebound_ctx=None):
    """(Artifact, index facts) of ``ir`` (typed in ``ctx``) compiled natively for ``arg_types``; raises
    NotNative. ``on_demote``: what else to do when the specialisation is demoted (see ``resume``);
    ``rebound_ctx``: the context whose ``on_rebound`` handles a rebound name (``ctx`` itself by default)."""
    from moshjit.backends.llvm import binding_check
    from moshjit.backends.llvm.engine import load_library, make_builtin, shared_object, toolchain
    from moshjit.backends.llvm.module import build_module
    from moshjit.backends.llvm.native_types import CallGraph
    from moshjit.backends.llvm.types_json import encode_type
    from moshjit.bindings import function_fields, unique
    from moshjit.functions import builtins_dict
    from moshjit.ir.printer import format_function
    start = time.perf_counter()
    tools = toolchain()
    graph = CallGraph(ctx)
    root = graph.infer(py_function, arg_types, ir=ir, ctx=ctx)
    # each callee compiled into the module (the function itself too, when it calls itself) was read with its code
    # and defaults as they are now (the function's own code is among ``ctx.bindings``)
    bindings = unique([b for sig in graph.order if sig.ctx is not None for b in sig.ctx.bindings]
                      + [b for sig in graph.order if sig is not root or sig.recursive
                         for b in function_fields(sig.py_function, sig.py_function.__qualname__)])
    kinds = [binding_check.kind_of(b) for b in bindings]
    text, method_def, global_names, deopt, state = build_module(graph, root, tools.triple, tools.data_layout, kinds)
    lowered = time.perf_counter()
    stats = {"backend": "llvm", "lower_s": round(lowered - start, 4)}
    path, so_key = shared_object(text, ctx.cache, stats)
    library = load_library(path)
    entry = make_builtin(library, method_def, fallback, py_function.__module__, py_function, global_names, bindings,
                         _rebound_handler(rebound_ctx or ctx))
    stats["llvm_s"] = round(time.perf_counter() - lowered, 4)
    ir_text = format_function(ir)
    facts = {"so_key": so_key, "method_def": method_def, "code_text": text, "ir_text": ir_text,
             "arg_types": [encode_type(t) for t in arg_types], "globals": global_names, "deopt": deopt,
             "state": state, "bindings": binding_check.describe(bindings, py_function, builtins_dict(py_function))}
    if deopt:
        _register_deopt(library, facts, ctx, arg_types, stats, on_demote)
    return _artifact(entry, text, ir_text, stats, facts["arg_types"]), facts


def _rebound_handler(ctx: CompileContext):
    """What the entry calls, bindings first, when a name it bound was rebound: the dispatcher's handler (without
    one, the fallback: its specialisation checks its own bindings)."""
    if ctx.on_rebound is not None:
        return ctx.on_rebound
    fallback = ctx.fallback
    return lambda _bindings, *args: fallback(*args)


def _register_deopt(library, facts: dict, ctx: CompileContext, arg_types, stats: dict, on_demote) -> None:
    """Let the shared object's native code deoptimise: its table, and how to rebuild the SSA it continues on."""
    import ctypes

    from moshjit.backends.llvm.resume import DeoptModule, register
    address = ctypes.addressof(ctypes.c_char.in_dll(library, facts["state"]))
    register(address, DeoptModule(facts["deopt"], ctx.py_function, arg_types, ctx, address, stats, on_demote))


def _artifact(entry, code_text: str, ir_text: str, stats: dict, arg_types: list) -> Artifact:
    """An LLVM artifact: its entry is a builtin that can be re-made with another fallback (``rebind``), so the
    dispatcher can install it as its own call path. ``arg_types`` (JSON-encoded) are the native argument types."""
    from moshjit.backends.llvm.engine import rebind
    from moshjit.backends.llvm.binding_check import BINDINGS_AT
    from moshjit.backends.llvm.types_json import decode_type
    bindings = entry.__self__[BINDINGS_AT] if type(entry.__self__) is tuple else ()
    return Artifact(entry, "llvm", code_text, ir_text, stats, rebind=functools.partial(rebind, entry),
                    arg_types=[decode_type(t) for t in arg_types], bindings=bindings)

"""The driver: compile one specialisation, SSA → resolved globals → passes → types → a backend → an entry.

The order of the per-function pipeline is written out here, in one place, and so is every answer passes and
backends get about other functions: the driver's ``DriverContext`` builds a callee's SSA with this same
pipeline, memoises callees' return types, and asks the dispatcher layer for callee dispatchers and entries
through the factory the dispatcher hands in. Backends are used through their common interface
(``compile(ir, ctx)`` and ``load_cached(ctx)``); the dispatcher talks to this module only.

Importing it is cheap: the frontend, the passes and the backends are imported when first needed, so loading
cached native code (``load_cached``) builds no IR.
"""
from __future__ import annotations

import collections
import contextlib
import importlib
import logging
import threading
import time
import types
import typing
import weakref

from moshjit import progress, switching
from moshjit.artifact import Artifact
from moshjit.bindings import function_fields
from moshjit.context import CompileContext
from moshjit.errors import UnsupportedError
from moshjit.functions import methods_of
from moshjit.ir.types import CHAR, OBJECT, STR, MType
from moshjit.typeof import describe_signature, type_of_key

log = logging.getLogger("moshjit")
BACKEND_MODULES = {"cython": "moshjit.backends.cython", "llvm": "moshjit.backends.llvm"}


def backend(name: str):
    """The backend package ``name`` ('cython' or 'llvm'): its ``compile`` and ``load_cached``."""
    return importlib.import_module(BACKEND_MODULES[name])


class InlinableBody(typing.NamedTuple):
    """A callee's inlinable SSA kept across compilations, with what its build recorded in its context."""
    ir: object
    resolved_globals: dict
    bindings: list
    dependencies: dict
    inlined_at: dict


class DriverContext(CompileContext):
    """The compile context the driver hands to passes and backends: its services run the driver's pipeline.

    ``make_dispatcher`` is the dispatcher layer's factory for the dispatcher of a helper compiled on its own
    (``fallback=True``, quiet); ``nested_codes`` its factory of what compiles a nested function's code,
    ``(code, globals) -> NestedCode | None``; both are handed in by whoever asks for the compilation.
    """

    def __init__(self, py_function, key: tuple = (), backend: str = "auto", cache=None, fallback=None,
                 assume_globals: bool = False, make_dispatcher=None, generic_entry=None, on_rebound=None,
                 volatile_globals: frozenset = frozenset(), nested_codes=None):
        super().__init__(py_function, key, backend, cache, fallback, assume_globals, generic_entry, on_rebound)
        self.make_dispatcher = make_dispatcher
        self.volatile_globals = volatile_globals
        self.nested_codes = nested_codes

    def nested_code(self, code):
        if self.nested_codes is None or self.py_function is None:
            return None
        return self.nested_codes(code, self.py_function.__globals__)

    def inlinable_ssa(self, callee, stack):
        """Built once per callee, dispatch key, names found rebound and helper factory, and kept across
        compilations while the names the build bound hold and the callee's code is the same (the chains of small
        methods class-heavy code inlines were built again for every method compiled: most of a library's compile
        time). A body a call cycle cut depends on where the cycle was entered: it is not kept."""
        from moshjit.bindings import first_rebound
        memo_key = (callee, callee.__code__, self.key, self.volatile_globals, self.make_dispatcher)
        with _lock:
            kept = _inlinable_bodies.get(memo_key)
            if kept is not None:
                _inlinable_bodies.move_to_end(memo_key)
        if kept is not None and first_rebound(kept.bindings) is None:
            self.resolved_globals.update(kept.resolved_globals)
            self.bindings.extend(kept.bindings)
            self.dependencies.update(kept.dependencies)
            self.inlined_at.update(kept.inlined_at)
            return kept.ir
        ir = self._build_inlinable(callee, stack)
        if ir is not None and not self.cycle_cut:
            inlined_at = {op: self.inlined_at[op] for block in ir.blocks for op in block.ops
                          if op in self.inlined_at}
            body = InlinableBody(ir, dict(self.resolved_globals), list(self.bindings), dict(self.dependencies),
                                 inlined_at)
            with _lock:
                _inlinable_bodies[memo_key] = body
                while len(_inlinable_bodies) > MAX_KEPT_BODIES:
                    _inlinable_bodies.popitem(last=False)
        return ir

    def _build_inlinable(self, callee, stack):
        from moshjit.frontend import build_ssa
        from moshjit.passes.inline import inline_calls
        from moshjit.passes.pipeline import run_passes
        from moshjit.passes.resolve_globals import resolve_globals
        try:
            ir = build_ssa(callee, optimize=False)
        except UnsupportedError as exc:
            log.debug("not inlining %s: %s", callee.__qualname__, exc)
            _refused_by_frontend.add(callee.__code__)
            return None
        resolve_globals(ir, self)
        inline_calls(ir, self, stack)
        return run_passes(ir)

    def callee_dispatcher(self, callee):
        if self.make_dispatcher is None or callee.__code__ in _refused_by_frontend:
            return None
        with _lock:
            dispatcher = _helper_dispatchers.get(callee)
            if dispatcher is None:
                dispatcher = _helper_dispatchers[callee] = self.make_dispatcher(callee)
        return dispatcher

    def callee_return_type(self, py_function, arg_types):
        """Inferred on the callee's own typed SSA (interprocedural, memoised; recursion and failures give
        ``object``). Sound because the callee's specialisation for the run-time argument kinds is typed from
        types at least as precise as these — and while the names the callee bound hold: they join this
        compilation's bindings (a memo whose bindings no longer hold is inferred again)."""
        return self._callee_returns(py_function, arg_types)[0]

    def callee_returns_exact_str(self, py_function, arg_types):
        """From the same typed SSA and memo as ``callee_return_type``: every returned value is proven an exact
        str (``passes/str_lists.exact_str``)."""
        return self._callee_returns(py_function, arg_types)[1]

    def _callee_returns(self, py_function, arg_types) -> tuple:
        """(return type, whether every returned value is an exact str) of the callee for ``arg_types``."""
        from moshjit.bindings import first_rebound, unique
        from moshjit.passes.str_lists import returns_exact_str
        from moshjit.passes.typeinfer import returned_type
        code = py_function.__code__       # what typing it read: its code, the defaults these arguments leave
        fields = function_fields(py_function, py_function.__qualname__,
                                 ("__code__",) + (("__defaults__",) if len(arg_types) < code.co_argcount else ())
                                 + (("__kwdefaults__",) if code.co_kwonlyargcount else ()))
        if any(field.label in self.volatile_globals for field in fields):
            return OBJECT, False          # its code or defaults keep changing: assume nothing of it
        key = (py_function.__code__, id(py_function.__globals__), tuple(arg_types), self.volatile_globals)
        known = _return_types.get(key)
        if known is not None and first_rebound(known[2]) is None:
            self.bindings.extend(known[2])
            return known[:2]
        if key in _return_types_in_progress or len(_return_types_in_progress) > 8:
            return OBJECT, False
        _return_types_in_progress.add(key)
        bindings: list = []
        try:
            typed, callee_ctx = self.typed_callee(py_function, list(arg_types))
            # typed from its code and defaults as they are now: a change to them is a rebinding too
            result, bindings = returned_type(typed), unique([*callee_ctx.bindings, *fields])
            exact = result in (STR, CHAR) and returns_exact_str(typed, callee_ctx.exact_str_results)
        except Exception:                 # the callee may be uncompilable: it will run as Python
            result, exact = OBJECT, False
        finally:
            _return_types_in_progress.discard(key)
        _return_types[key] = (result, exact, bindings)
        self.bindings.extend(bindings)
        return result, exact

    def typed_callee(self, py_function, arg_types):
        callee_ctx = self.for_callee(py_function)
        return typed_ssa(py_function, arg_types, callee_ctx, assume_globals=True), callee_ctx

    def attribute_classes(self, cls):
        """From the raw SSA of every method ``cls`` and its bases define (memoised per class while their code
        stays the same; a method the frontend refuses tells nothing)."""
        from moshjit.passes.attribute_classes import stored_classes
        from moshjit.frontend import build_ssa
        methods = methods_of(cls)
        codes = tuple(method.__code__ for method in methods)
        with _lock:
            memo = _attribute_guesses.get(cls)
        if memo is not None and memo[0] == codes:
            return memo[1]
        irs = []
        for method in methods:
            try:
                irs.append(build_ssa(method, optimize=False))
            except UnsupportedError:
                continue
        guesses = stored_classes(irs, cls)
        with _lock:
            _attribute_guesses[cls] = (codes, guesses)
        return guesses

    def native_entry(self, dispatcher, key):
        busy = getattr(_compiling, "keys", None)
        if busy is None:
            busy = _compiling.keys = set()
        marker = (id(dispatcher), key)
        if marker in busy:                # the callee is being compiled further up the stack
            return None
        busy.add(marker)
        try:
            return dispatcher.compiled_entry(key)
        except Exception as exc:          # the call through the dispatcher reports it (or falls back) at run time
            log.debug("no direct call to %r%s: %s", dispatcher, key, exc)
            return None
        finally:
            busy.discard(marker)


TYPED_ROUNDS = 3                           # rounds of the passes that read inferred types (passes/pipeline.py)
_lock = threading.RLock()
MAX_KEPT_BODIES = 512      # inlinable bodies kept across compilations (~35 KB each), least recently used dropped
_inlinable_bodies: collections.OrderedDict = collections.OrderedDict()
_helper_dispatchers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_refused_by_frontend: set = set()          # code objects the frontend refused: such helpers run as plain Python
_return_types: dict = {}
_attribute_guesses: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # class -> (its methods' code, guesses)
_return_types_in_progress: set = set()
_compiling = threading.local()             # (dispatcher, key) pairs being compiled on this thread


def typed_ssa(py_function: types.FunctionType, arg_types: list[MType], ctx: CompileContext | None = None,
              assume_globals: bool = True):
    """The per-function pipeline up to typed SSA, in its fixed order. Results of the passes (globals resolved,
    global types assumed) are recorded in ``ctx``; a standalone driver context is made when none is given."""
    from moshjit.frontend import build_ssa
    from moshjit.passes.global_types import assume_global_types
    from moshjit.passes.inline import inline_calls
    from moshjit.passes.loop_ticks import place_loop_ticks
    from moshjit.passes.pipeline import run_passes, run_typed_passes
    from moshjit.passes.resolve_globals import resolve_globals
    from moshjit.passes.typeinfer import infer_types
    ctx = ctx if ctx is not None else DriverContext(py_function)
    ir = build_ssa(py_function, optimize=False)
    if ctx.closure_per_call:               # the cells differ from call to call: nothing in them is bound
        ir.closure = ()
    resolve_globals(ir, ctx)
    inline_calls(ir, ctx, (py_function.__code__,))
    run_passes(ir)
    if assume_globals:
        assume_global_types(ir, ctx)
    infer_types(ir, arg_types, ctx)
    for _ in range(TYPED_ROUNDS):          # a typed rewrite can sharpen types that enable another
        if not run_typed_passes(ir, ctx):
            break
        infer_types(ir, arg_types, ctx)
    place_loop_ticks(ir)                   # last: signals and other threads at every back-edge
    return ir


def compile_specialization(py_function, key: tuple, backend_name: str, cache, fallback=None,
                           assume_globals: bool = True, make_dispatcher=None, generic_entry=None, on_rebound=None,
                           volatile_globals: frozenset = frozenset(), shapes: tuple | None = None,
                           nested_codes=None, closure_per_call: bool = False) -> Artifact:
    """Compile ``py_function`` for argument kinds ``key`` with ``backend_name`` ('auto', 'cython' or 'llvm').

    'auto' asks the LLVM backend first (it takes the function when every value has a native type) and uses
    Cython otherwise. ``fallback`` is a callable a native entry calls with the original arguments when a
    run-time check fails (a list argument holding a non-int, a data global rebound to another type); it goes
    back to the dispatcher, which uses a specialisation compiled with ``assume_globals=False``; ``generic_entry``
    gives that specialisation's entry (native code that keeps deoptimising hands its calls to it).
    ``on_rebound`` gets the call (with the entry's bindings first) when a name bound when compiling was rebound
    since; ``volatile_globals`` are names found rebound before, never bound again (``moshjit.bindings``);
    ``shapes``: what the first call's arguments showed (``moshjit.samples``), for guarded guesses.
    ``nested_codes`` makes what compiles the functions the code makes (``DriverContext``); ``closure_per_call``
    compiles the code of such a function for all of them: the entry takes the function before the arguments
    (``moshjit.nested``).
    """
    from moshjit.ir.printer import format_function
    from moshjit.passes.direct_calls import bind_direct_calls
    start = time.perf_counter()
    ctx = DriverContext(py_function, key, backend_name, cache, fallback,
                        assume_globals=assume_globals and fallback is not None, make_dispatcher=make_dispatcher,
                        generic_entry=generic_entry, on_rebound=on_rebound, volatile_globals=volatile_globals,
                        nested_codes=nested_codes)
    ctx.shapes = shapes
    ctx.closure_per_call = closure_per_call
    if not closure_per_call:    # (a nested function's call path compares its code object at every call)
        # the code compiled is the function's now: assigning its __code__ later is seen (a plain helper compiled
        # behind a helper dispatcher is the user's own function, and IPython's autoreload assigns __code__)
        ctx.bindings.extend(function_fields(py_function, py_function.__qualname__, ("__code__",)))
    ir = typed_ssa(py_function, [type_of_key(k) for k in key], ctx, assume_globals=ctx.assume_globals)
    frontend_s = time.perf_counter() - start
    artifact = None
    if backend_name in ("auto", "llvm"):
        artifact = backend("llvm").compile(ir, ctx)       # leaves ``ir`` as it was when it refuses
    if artifact is None:
        switching.back_to_normal()                        # Cython builds: no short switch interval
        ir_text = format_function(ir)                     # as the pipeline built it, before direct calls are bound
        bind_direct_calls(ir, ctx)
        artifact = backend("cython").compile(ir, ctx)
        artifact.ir_text = artifact.ir_text or ir_text
    artifact.stats["frontend_s"] = round(frontend_s, 4)
    artifact.stats["total_s"] = round(time.perf_counter() - start, 4)
    log.info("compiled %s%s with %s in %.3f s", py_function.__qualname__, describe_signature(key),
             artifact.backend, artifact.stats["total_s"])
    progress.compiled(f"{py_function.__qualname__}{describe_signature(key)}", artifact.backend,
                      artifact.stats["total_s"])
    return artifact


@contextlib.contextmanager
def releasing_the_gil_often(backend_name: str, key: tuple):
    """A context for a background compile of signature ``key`` (the tiers' job, helpers it compiles included): on
    the compile thread, a short switch interval
    where LLVM may take the function (``moshjit.switching``: its imports, file writes and ctypes calls let the GIL
    go hundreds of times); none where Cython will build it (decided inside: the first decision imports the LLVM
    backend, which is GIL-releasing work too). Elsewhere nothing, not even the decision (a cache hit imports no
    llvmlite)."""
    if not switching.on_compile_thread():
        yield
        return
    with switching.releasing_often() as interval:
        if backend_name == "cython" or backend_name == "auto" and not backend("llvm").takes_arguments(key):
            interval.end()
        yield


def warm_builds(backend_name: str, key: tuple, cache) -> None:
    """Ahead of a background compile of signature ``key``: the Cython toolchain's build worker made ready while
    the frontend and typing run (``CythonToolchain.warm``) when Cython will build it — ``backend='cython'``, or
    'auto' with an argument the LLVM backend has no native form for. (With 'auto' and native arguments LLVM may
    take the function, and a program whose functions it all takes never starts a worker.)"""
    if backend_name == "cython" or backend_name == "auto" and not backend("llvm").takes_arguments(key):
        backend("cython").warm(cache)


def load_cached(py_function, key: tuple, backend_name: str, cache, fallback,
                make_dispatcher=None, generic_entry=None, on_rebound=None) -> Artifact | None:
    """Native code recorded in the cache for ``py_function`` and ``key``, loaded without building any IR (asked
    before the frontend is even imported), or None."""
    ctx = DriverContext(py_function, key, backend_name, cache, fallback, make_dispatcher=make_dispatcher,
                        generic_entry=generic_entry, on_rebound=on_rebound)
    for name in ("llvm", "cython") if backend_name == "auto" else (backend_name,):
        artifact = backend(name).load_cached(ctx)
        if artifact is not None:
            return artifact
    return None

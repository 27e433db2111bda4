"""``@jit``: lazy, per-signature specialisation of a Python function, with cache, fallback and introspection.

Per combination of argument kinds (exact type, plus "fits in int64" for ints and "one character" for strs), the
function is compiled for that signature and the native entry is remembered: when the signature gets hot, in the
background (``moshjit.tiers``; it runs as plain Python until then), or at its first call with ``tier="eager"``.
Compile failures raise ``UnsupportedError`` (file:line of the construct) unless ``fallback=True``, in which case
the plain function runs and one ``MoshjitWarning`` says why.
"""
from __future__ import annotations

import collections
import functools
import logging
import os
import sys
import threading
import types
import warnings
import weakref

from moshjit._version import unsupported_python
from moshjit.errors import (BuildError, MoshjitWarning, UnsupportedError, debugging, definition_line,
                            drop_hand_off_frames, hands_off, user_frame_raiser)
from moshjit.samples import shapes_of
from moshjit.typeof import ANY, describe_key, describe_signature, is_class_kind, key_of

log = logging.getLogger("moshjit")
BACKENDS = ("auto", "cython", "llvm")


class PyDispatcherCore:
    """The call path in Python, used when the compiled ``moshjit_dispatch.DispatcherCore`` cannot be built."""

    def __init__(self):
        self._entries = {}
        self._positional_count = -1
        self._any_positions = None

    def _take_parameters(self, code):
        """Which calls come as the full parameter list (the others this call path binds with ``_bind``)."""
        self._positional_count = code.co_argcount if not (code.co_kwonlyargcount or code.co_flags & 0x0C) else -1

    def __call__(self, *args, **kwargs):
        if kwargs or len(args) != self._positional_count:
            args = self._bind(args, kwargs)
        key = tuple(map(key_of, args))
        if self._any_positions is not None:         # megamorphic parameters (``_widened``)
            key = tuple(ANY if wide else kind for kind, wide in zip(key, self._any_positions))
        entry = self._entries.get(key)
        if entry is None:
            entry = self._specialize(key, None, args)
        return entry(*args)

    def __get__(self, instance, owner=None):
        """Work as a method: ``obj.method`` is a bound method calling the jitted function with ``obj`` first (the
        compiled core also binds without a bound method for ``obj.method(...)``)."""
        if instance is None:
            return self
        return types.MethodType(self, instance)

    @staticmethod
    def _tier0_entry(plain, hot_calls: int, hot_seconds: float, on_hot):
        """The counting tier-0 entry of a new signature, in Python like this call path."""
        from moshjit.tiers import PyTier0Entry
        return PyTier0Entry(plain, hot_calls, hot_seconds, on_hot)

    @staticmethod
    def _passthrough_entry(plain):
        """``plain`` itself: this call path has no recursion level to give back."""
        return plain

    @staticmethod
    def _cold_counter(remaining: int, on_hot):
        """The counter a cold method's plain-function copy tests, in Python like this call path."""
        from moshjit.tiers import PyColdCounter
        return PyColdCounter(remaining, on_hot)

    def _use_native(self, native) -> None:
        """Make ``native`` (an entry that checks its own argument types and hands misses back to ``__call__``)
        this instance's ``__call__``, in a class of its own (unless a subclass overrides ``__call__``); None: back
        to the class it had."""
        if native is None:
            self.__class__ = type(self).__dict__.get("_class_without_native", type(self))
        elif type(self).__call__ is PyDispatcherCore.__call__:
            self.__class__ = type("Dispatcher", (type(self),), {"__call__": native, "__module__": type(self).__module__,
                                                                "_class_without_native": type(self)})

    def _forget_recent(self):
        """Nothing to forget: this call path remembers no signatures besides ``_entries``."""


def _core_class():
    """The compiled call path (built once per machine with the Cython toolchain), else the Python one."""
    if os.environ.get("MOSHJIT_PURE_DISPATCH", "") not in ("", "0"):
        return PyDispatcherCore
    try:
        from moshjit.runtime import compiled_dispatcher_core
        return compiled_dispatcher_core(_cache())
    except Exception as exc:          # no C compiler, no Cython: stay correct, just slower per call
        log.warning("moshjit: compiled call path unavailable (%s); using the Python one", exc)
        return PyDispatcherCore


CO_COROUTINE = 0x80          # inspect.CO_COROUTINE (inspect is imported when needed: ``import moshjit`` stays fast)


def _mark_coroutine_function(dispatcher) -> None:
    """Make ``inspect.iscoroutinefunction`` (3.12+, by ``markcoroutinefunction``'s marker) and
    ``asyncio.iscoroutinefunction`` (its ``_is_coroutine`` attribute) say what they say of the ``async def``, so
    that frameworks await what a call of the jitted function returns."""
    import asyncio.coroutines
    import inspect
    if hasattr(inspect, "markcoroutinefunction"):
        inspect.markcoroutinefunction(dispatcher)
    dispatcher._is_coroutine = asyncio.coroutines._is_coroutine


def _plain_function_field(name: str) -> property:
    """The plain function's field ``name``, read, assigned and deleted through it."""
    return property(lambda self: getattr(self.py_func, name), lambda self, value: setattr(self.py_func, name, value),
                    lambda self: delattr(self.py_func, name))


class DispatcherBase:
    """The object ``@jit`` returns: call it like the function; inspect what was compiled."""

    def __init__(self, py_func, backend: str = "auto", cache: bool = True, strict: bool | None = None,
                 fallback: bool = False, warn: bool = True, tier: str | None = None, hot_calls: int | None = None,
                 hot_ms: float | None = None):
        from moshjit.functions import python_function
        from moshjit.tiers import tier_option, tiering_for
        check_options(backend, strict, fallback)
        super().__init__()                     # the call-path core: entries, arity
        self.py_func = python_function(py_func)
        self.backend = backend
        self.use_cache = bool(cache)
        self.fallback = bool(fallback) or strict is False
        self.strict = not self.fallback
        self.warn = warn
        self._artifacts: dict[tuple, object] = {}
        self._failed: dict[tuple, Exception] = {}
        self._generic: dict[tuple, object] = {}
        self._shapes: dict[tuple, tuple] = {}             # key -> what its first call's arguments showed
        self._volatile: frozenset[str] = frozenset()     # names found rebound: compiled code reads them at run time
        self._rebinds: dict[str, int] = {}                # name -> how often a specialisation found it rebound
        self._classes_seen: dict[int, set] = {}           # parameter -> the classes it was called with so far
        self._max_classes = max_classes()                 # ... before it takes any object (``_widened``)
        self._lock = threading.RLock()
        self._binder = None
        self._native_used = False
        self._nested: set = set()       # ``moshjit.nested.NestedCode`` of the functions its compiled code makes
        code = self.py_func.__code__
        # the compiled call path binds keywords, defaults, *args and **kwargs in C
        self._take_parameters(code)
        self._defaults_of = self.py_func    # its __defaults__ and __kwdefaults__ are read at each call, as CPython
        functools.update_wrapper(self, self.py_func)
        if code.co_flags & CO_COROUTINE:
            _mark_coroutine_function(self)
        self._tier_options = (tier_option(tier), hot_calls, hot_ms)
        self._tiering = tiering_for(self, *self._tier_options)     # None: compile at the first call

    def __set_name__(self, owner, name):
        """A method in a class body: tiered, the class holds a plain-function copy of it while it is cold."""
        if self._tiering is not None:
            self._tiering.attach(owner, name)

    # ---- calling (the hot path, ``__call__``, is the core's) -----------------------------------------------------
    def _bind(self, args, kwargs) -> tuple:
        """Apply defaults, *args and **kwargs exactly as CPython would (same TypeErrors), with the function's
        defaults as they are now (the very objects: a keyword-only default changed in place is seen too)."""
        if self._binder is None:
            from moshjit.functions import own_signature
            from moshjit.ir.function import make_binder
            self._binder = make_binder(own_signature(self.py_func), self.py_func.__name__,
                                       self.py_func.__qualname__)
        binder, function = self._binder, self.py_func
        if binder.__defaults__ is not function.__defaults__:
            binder.__defaults__ = function.__defaults__
        if binder.__kwdefaults__ is not function.__kwdefaults__:
            binder.__kwdefaults__ = function.__kwdefaults__
        return tuple(binder(*args, **kwargs))

    # A jitted function's call-time fields are the plain function's: reading, assigning and deleting them works as
    # on a function, with CPython's checks and errors (``__globals__``, ``__closure__`` and ``__builtins__`` are
    # read-only there), and calls take the values assigned (compiled code that bound the code or the defaults
    # checks them: ``moshjit.bindings``). Introspection sees the function the user wrote: PLY orders a lexer's
    # rules by each one's ``__code__.co_firstlineno``.
    __defaults__ = _plain_function_field("__defaults__")
    __kwdefaults__ = _plain_function_field("__kwdefaults__")
    __code__ = _plain_function_field("__code__")
    __globals__ = _plain_function_field("__globals__")
    __closure__ = _plain_function_field("__closure__")
    __builtins__ = _plain_function_field("__builtins__")

    def _specialize(self, key: tuple, compile=None, sample: tuple | None = None):
        """The entry for a call whose signature ``key`` has none yet (the call path asks on a miss): tiered, the
        first tier's (``moshjit.tiers``); eager, or with ``compile`` (key -> artifact) given, native code now. An
        error in the user's code comes back as an entry raising it from the user's line, so the traceback ends
        there rather than in the compiler (``MOSHJIT_DEBUG=1`` keeps the compiler's frames and the chained
        cause). ``sample``: the arguments of the call that asked, whose shapes the compile may guess from."""
        if compile is None:
            key = self._widened(key)
        if sample is not None and key not in self._shapes:
            self._shapes[key] = tuple(None if kind is ANY else shape for kind, shape in zip(key, shapes_of(sample)))
        try:
            return self._compile_entry(key, compile)
        except UnsupportedError as exc:
            if debugging() or exc.filename is None or exc.lineno is None:
                raise
            exc.function = exc.function or self.py_func.__qualname__
            return user_frame_raiser(exc, exc.filename, exc.lineno, self.py_func.__qualname__)
        except BuildError as exc:         # no C compiler, or a moshjit bug the message describes
            if debugging():
                raise
            code = self.py_func.__code__
            line = definition_line(code.co_filename, code.co_firstlineno)
            return user_frame_raiser(exc, code.co_filename, line, self.py_func.__qualname__)

    def _widened(self, key: tuple) -> tuple:
        """``key`` with ``ANY`` at each parameter now called with more than ``max_classes()`` of the program's
        classes. Such a parameter is megamorphic (a pattern object of twenty classes, say): one specialisation
        taking any object serves every class, where one per class would make each call a full key computation
        and lookup, and a compile per class. The call path keys that parameter ``ANY`` from then on. So is the
        parameter of the most classes once their combinations (three roles times four events) would make more
        signatures than the call path checks in C (``SIGNATURES_IN_C``): past those, a call in turn refills them."""
        limit = self._max_classes
        with self._lock:
            widen = set()
            for position, kind in enumerate(key):
                if is_class_kind(kind):
                    seen = self._classes_seen.setdefault(position, set())
                    seen.add(kind)
                    if len(seen) > limit:
                        widen.add(position)
            reason = f"called with more than {limit} classes"
            if not widen:
                widen = self._widened_for_combinations(key)
                reason = f"of the most classes, which combine into more than {SIGNATURES_IN_C} signatures"
            if not widen:
                return key
            current = self._any_positions or ()
            self._any_positions = tuple(position in widen or (position < len(current) and current[position])
                                        for position in range(len(key)))
            self._forget_recent()
            log.info("moshjit: %s: parameter %s %s; one specialisation takes any object there",
                     self.py_func.__qualname__, ", ".join(map(str, sorted(widen))), reason)
            return tuple(ANY if self._any_positions[position] else kind for position, kind in enumerate(key))

    def _widened_for_combinations(self, key: tuple) -> set:
        """The parameter to key ``ANY`` when ``key`` would be one signature more than the C check holds, among
        the signatures still called (the entries' keys as now widened): the one called with the most classes, if
        any was called with two or more; else none."""
        def as_called(kinds: tuple) -> tuple:
            wide = self._any_positions or ()
            return tuple(ANY if position < len(wide) and wide[position] else kind
                         for position, kind in enumerate(kinds))
        called = {as_called(k) for k in self._entries if len(k) == len(key)} | {as_called(key)}
        if len(called) <= SIGNATURES_IN_C:
            return set()
        polymorphic = [(len(self._classes_seen[position]), position) for position, kind in enumerate(as_called(key))
                       if is_class_kind(kind) and len(self._classes_seen.get(position, ())) > 1]
        return {max(polymorphic)[1]} if polymorphic else set()

    def _compile_entry(self, key: tuple, compile=None):
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and (compile is None or not (self._tiering is not None
                                                              and self._tiering.provisional(key))):
                return entry            # a call that found no entry and waited for the lock: another made it
            try:
                if compile is None and self._tiering is not None:
                    return self._tiering.first_entry(key)
                artifact = (compile or self._compile)(key)
            except Exception as exc:            # UnsupportedError, or a backend's build failure
                if not self.fallback:
                    raise
                return self._fall_back(key, exc)
            return self._install(key, artifact)

    def _install(self, key: tuple, artifact):
        """Make ``artifact`` the entry of ``key`` (replacing a tier-0 one at once); returns the entry."""
        self._artifacts[key] = artifact
        self._replace_entry(key, artifact.entry)
        if self.use_cache:
            self._record(key)
        if artifact.rebind is not None:
            self._call_natively(artifact)
        if self._tiering is not None:
            self._tiering.installed(key)
        return artifact.entry

    def _replace_entry(self, key: tuple, entry) -> None:
        """One store, then the call path forgets its remembered entries (calls in flight finish where they are)."""
        self._entries[key] = entry
        self._forget_recent()

    def _plain_call(self):
        """The plain function taking the bound parameter list the call path hands an entry."""
        return self.py_func if self._positional_count >= 0 else _rebinding_call(self.py_func)

    def _plain_entry(self):
        """The plain function as an uncounted entry (compiling, demoted, fallen back)."""
        return self._passthrough_entry(self._plain_call())

    def _record(self, key: tuple) -> None:
        """Note the signature in the cache, for ``moshjit.precompile`` in the next process."""
        from moshjit.cache import record_signature
        from moshjit.typeof import recordable_key
        kinds = recordable_key(key)
        if kinds is not None:
            try:
                record_signature(_cache(), self.py_func, kinds)
            except OSError as exc:           # a read-only cache still compiles; only the warm-up record is lost
                log.info("moshjit: signature of %s not recorded: %s", self.py_func.__qualname__, exc)

    def compiled_entry(self, key: tuple):
        """The entry compiled for dispatch ``key`` (compiled now if needed): what a call from compiled code to
        this function binds to when the caller's types fix the signature."""
        if self._tiering is not None:
            from moshjit.tiers import compiling_in_background
            if compiling_in_background():     # never block the compile thread on another function's compile
                return self._tiering.native_entry(key)
        return self._compile_entry(key, self._compile)

    def _call_natively(self, artifact) -> None:
        """The call fast path: the first specialisation whose entry checks its own argument types (LLVM)
        is what this instance's positional calls try first (the compiled core calls it straight from its vectorcall
        entry); its type misses come back to the dispatcher.
        Only when a plain positional call binds exactly like CPython (no keyword-only, ``*args`` or ``**kwargs``
        parameters): the entry takes every parameter positionally, so ``f(5, 1)`` must not reach it for
        ``def f(a, *, b)``."""
        if self._native_used or self._positional_count < 0:
            return
        self._native_used = True
        self._use_native(artifact.rebind(functools.partial(type(self).__call__, self)))

    def _fall_back(self, key: tuple, exc: Exception):
        if not self._failed and self.warn:
            warnings.warn(f"moshjit could not compile {self.py_func.__qualname__} ({exc}); running it as plain "
                          f"Python", MoshjitWarning, stacklevel=_user_stacklevel())
        self._failed[key] = exc
        plain = self._plain_entry()
        self._replace_entry(key, plain)
        return plain

    def _compile(self, key: tuple, generic: bool = False):
        from moshjit import compiler          # cheap: it imports the frontend and the backends when it needs them
        cache = _cache() if self.use_cache else _memory_cache()
        rebound = functools.partial(self._rebound_call, key)
        if generic:                       # no assumptions to check, so no fallback needed
            return compiler.compile_specialization(self.py_func, key, "cython", cache,
                                                   make_dispatcher=helper_dispatcher, on_rebound=rebound,
                                                   volatile_globals=self._volatile, shapes=self._shapes.get(key),
                                                   nested_codes=self._nested_codes)
        cached = self._load_from_cache(key)      # native code recorded before: no IR
        if cached is not None:
            return cached
        return compiler.compile_specialization(self.py_func, key, self.backend, cache,
                                               fallback=functools.partial(self._generic_call, key),
                                               make_dispatcher=helper_dispatcher,
                                               generic_entry=functools.partial(self._generic_entry, key),
                                               on_rebound=rebound, volatile_globals=self._volatile,
                                               shapes=self._shapes.get(key), nested_codes=self._nested_codes)

    def _nested_codes(self, code, globals_):
        """What compiles the functions this dispatcher's compiled code makes from ``code`` (``moshjit.nested``),
        in this dispatcher's tier."""
        from moshjit import nested
        tiering = self._tiering
        found = nested.nested_code(code, globals_, tiering is None, tiering.hot_calls if tiering else 1,
                                   _cache() if self.use_cache else _memory_cache(), helper_dispatcher)
        if found is not None:
            self._nested.add(found)
        return found

    def _warm_builds(self, key: tuple) -> None:
        """Ahead of a background compile of ``key`` (the tiers): the build worker it needs made ready meanwhile."""
        from moshjit import compiler
        try:
            compiler.warm_builds(self.backend, key, _cache() if self.use_cache else _memory_cache())
        except Exception as exc:          # only ever a head start: the compile reports its own problems
            log.debug("moshjit: no head start for the build worker: %s", exc)

    def _load_from_cache(self, key: tuple):
        """The specialisation for ``key`` loaded from the on-disk cache (no IR is built), or None."""
        from moshjit import compiler
        cache = _cache() if self.use_cache else _memory_cache()
        return compiler.load_cached(self.py_func, key, self.backend, cache,
                                    functools.partial(self._generic_call, key), make_dispatcher=helper_dispatcher,
                                    generic_entry=functools.partial(self._generic_entry, key),
                                    on_rebound=functools.partial(self._rebound_call, key))

    @hands_off
    def _generic_call(self, key: tuple, *args):
        """Called by a native entry whose run-time checks failed (or that was demoted after deoptimising too
        often): run a specialisation without assumptions."""
        try:
            return self._generic_entry(key)(*args)
        except BaseException as exc:
            drop_hand_off_frames(exc)
            raise

    @hands_off
    def _rebound_call(self, key: tuple, bindings, *args):
        """Called by an entry that found a name it bound when compiling (a helper, a module, a class) rebound:
        the specialisations of ``key`` compiled with it are dropped and compiled anew, and the call runs there.
        A name rebound a second time is never bound again (it is read at run time), unless only native code will
        do (``backend='llvm'``: that reads no Python object, so each rebinding compiles, or loads, again). An
        entry already dropped (a stale direct call from other compiled code) only forwards the call; a check
        that found nothing rebound (a race) runs the specialisation without assumptions."""
        from moshjit.bindings import first_rebound
        with self._lock:
            label = first_rebound(bindings)
            current = [a for a in (self._artifacts.get(key), self._generic.get(key)) if a is not None]
            if label is None:
                entry = self._generic_entry(key)
            else:
                if any(a.bindings is bindings for a in current):
                    self._drop_for_rebinding(key, label)
                entry = self._compile_entry(key, self._compile)
        try:
            return entry(*args)
        except BaseException as exc:
            drop_hand_off_frames(exc)
            raise

    def _drop_for_rebinding(self, key: tuple, label: str) -> None:
        """Forget every specialisation of ``key`` (native, generic, the native call path): they bound ``label``."""
        self._rebinds[label] = self._rebinds.get(label, 0) + 1
        if self._rebinds[label] > 1 and self.backend != "llvm":
            self._volatile = self._volatile | {label}
        log.info("moshjit: %s: %s was rebound; compiling %s again%s", self.py_func.__qualname__, label,
                 describe_signature(key), " without binding it" if label in self._volatile else "")
        self._artifacts.pop(key, None)
        self._generic.pop(key, None)
        self._entries.pop(key, None)
        self._forget_recent()
        self._stop_calling_natively()

    def _stop_calling_natively(self) -> None:
        """Undo ``_call_natively``: the native entry made the call path may be one that was dropped."""
        if self._native_used:
            self._native_used = False
            self._use_native(None)

    def _generic_entry(self, key: tuple):
        """The entry of the specialisation without assumptions for ``key`` (Cython, Python ints), compiled once."""
        with self._lock:
            artifact = self._generic.get(key)
            if artifact is None:
                artifact = self._generic[key] = self._compile(key, generic=True)
        return artifact.entry

    # ---- introspection --------------------------------------------------------------------------------------
    @property
    def signatures(self) -> list[tuple]:
        """The argument kinds compiled so far (one tuple per specialisation)."""
        return [describe_signature(key) for key in self._artifacts]

    @property
    def stats(self) -> dict:
        """Per signature: backend chosen, cache hit or miss, and compile times."""
        out = {describe_signature(key): dict(a.stats, backend=a.backend) for key, a in self._artifacts.items()}
        for key, exc in self._failed.items():
            out[describe_signature(key)] = {"backend": "python (fallback)", "reason": str(exc)}
        for key, artifact in self._generic.items():     # used when a native entry's run-time checks fail
            out.setdefault(describe_signature(key), {})["generic"] = dict(artifact.stats, backend=artifact.backend)
        if self._tiering is not None:                   # where each signature runs, and since when
            slot = self._tiering.slot
            for key, spec in list(self._tiering.specializations.items()):
                out.setdefault(describe_signature(key), {}).update(spec.describe())
                if slot is not None and slot.copy is not None:     # a method: its copy's calls, all signatures
                    out[describe_signature(key)]["plain_copy_calls"] = slot.copy_calls
        return out

    @property
    def nested_functions(self) -> dict:
        """Per nested function (``def``/``lambda``) its compiled code makes, by qualified name: where the functions
        made from it run (``moshjit.nested``)."""
        return {nested.code.co_qualname: nested.describe()
                for nested in sorted(self._nested, key=lambda n: n.code.co_qualname)}

    def compile(self, *args, **kwargs):
        """Compile now for the signature of these example arguments (as a call with them would, without running
        the function), so a service pays the compile before its first request. Returns ``self``."""
        self._compile_now(tuple(map(key_of, self._bind(args, kwargs))))
        return self

    def compile_signature(self, kinds) -> None:
        """Compile now for argument kinds given as types or kind names (``[str, "char"]``, ``"str,int64"``)."""
        from moshjit.typeof import key_of_kinds
        self._compile_now(key_of_kinds(kinds))

    def _compile_now(self, key: tuple) -> None:
        """Compile for ``key``; an error in the user's code is raised from the user's line, as a call would."""
        entry = self._specialize(key, self._compile)
        if hasattr(entry, "moshjit_error"):
            entry()

    def inspect_ssa(self) -> str:
        """The SSA built from the function's bytecode, after the standard passes."""
        from moshjit.frontend import build_ssa
        return str(build_ssa(self.py_func))

    def inspect_types(self, signature=None):
        """Per compiled signature: every SSA value with its inferred type, and the backend chosen."""
        from moshjit.artifact import Listing
        return Listing([(f"signature {self._describe(key)} -> backend {artifact.backend}", artifact.ir_text)
                        for key, artifact in self._selected(signature)], self._nothing_compiled(signature))

    def inspect_code(self, signature=None):
        """Per compiled signature: the generated Cython or LLVM IR text."""
        from moshjit.artifact import Listing
        return Listing([(f"signature {self._describe(key)} ({artifact.backend})", artifact.code_text)
                        for key, artifact in self._selected(signature)], self._nothing_compiled(signature))

    def _nothing_compiled(self, signature) -> str:
        name = self.py_func.__name__
        if signature is not None and self._artifacts:
            return (f"{name} has no compiled signature {tuple(signature)}; compiled: "
                    f"{', '.join(map(str, self.signatures))}")
        return (f"{name} has not been compiled yet: it compiles at its first call per argument signature; call "
                f"{name}(...) or {name}.compile(example arguments) first")

    def _selected(self, signature):
        for key, artifact in self._artifacts.items():
            if signature is None or describe_signature(key) == tuple(signature):
                yield key, artifact

    @staticmethod
    def _describe(key) -> str:
        return "(" + ", ".join(describe_key(k) for k in key) + ")"

    def __repr__(self):
        return f"<moshjit.jit {self.py_func.__module__}.{self.py_func.__qualname__}>"

    def __reduce__(self):
        """Pickle by value: the plain function (via cloudpickle) and options, never machine code, plus an identity
        that makes every unpickling in one process (and in processes forked after the pickling) give the same
        dispatcher, as Numba's do: a pool that sends the function with each task compiles it once per worker."""
        import cloudpickle
        return (_rebuild, (cloudpickle.dumps(self.py_func), self.backend, self.use_cache, self.strict,
                           self.fallback, self._tier_options, self._pickle_identity()))

    def _pickle_identity(self) -> str:
        """This dispatcher's key in ``_unpickled``, made at its first pickling."""
        identity = self.__dict__.get("_pickled_as")
        if identity is None:
            identity = os.urandom(16).hex()
            self._pickled_as = identity
            _unpickled[identity] = self
        return identity


def _rebinding_call(py_func):
    """``py_func`` taking the bound parameter list the call path hands an entry (keyword-only parameters, the
    ``*args`` tuple and the ``**kwargs`` dict in signature order) and calling it as CPython would."""
    from moshjit.functions import own_signature
    parameters = list(own_signature(py_func).parameters.values())

    @hands_off
    def call(*bound):
        args, kwargs = [], {}
        for parameter, value in zip(parameters, bound):
            if parameter.kind is parameter.VAR_POSITIONAL:
                args.extend(value)
            elif parameter.kind is parameter.VAR_KEYWORD:
                kwargs.update(value)
            elif parameter.kind is parameter.KEYWORD_ONLY:
                kwargs[parameter.name] = value
            else:
                args.append(value)
        try:
            return py_func(*args, **kwargs)
        except BaseException as exc:
            drop_hand_off_frames(exc)
            raise
    return call


#: pickle identity -> the dispatcher this process pickled or unpickled under it (``DispatcherBase.__reduce__``)
_unpickled: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
#: the last dispatchers unpickled, kept alive: a pool's worker drops each task's function when the task is done
_recently_unpickled: collections.deque = collections.deque(maxlen=64)


def _rebuild(payload: bytes, backend, cache, strict, fallback, tier_options=(None, None, None), identity=None):
    """Unpickle a dispatcher: the one this process already knows under ``identity``, or a new one."""
    known = None if identity is None else _unpickled.get(identity)
    if known is not None:
        return known
    import cloudpickle
    tier, hot_calls, hot_ms = tier_options
    dispatcher = dispatcher_class()(cloudpickle.loads(payload), backend=backend, cache=cache, strict=strict,
                                    fallback=fallback, tier=tier, hot_calls=hot_calls, hot_ms=hot_ms)
    if identity is None:
        return dispatcher
    dispatcher._pickled_as = identity
    dispatcher = _unpickled.setdefault(identity, dispatcher)
    _recently_unpickled.append(dispatcher)
    return dispatcher


def helper_dispatcher(callee):
    """The dispatcher of a helper the compiler decided to compile on its own (too big or recursive to inline):
    it falls back quietly to Python if it cannot be compiled."""
    return dispatcher_class()(callee, fallback=True, warn=False)


_caches: dict = {}


def _cache():
    from moshjit.cache import DiskCache, default_root
    root = default_root()
    if root not in _caches:
        _caches[root] = DiskCache(root)
    return _caches[root]


def _memory_cache():
    """``cache=False``: a private throw-away directory for this process (removed at exit, or by a later
    process if this one is killed)."""
    from moshjit.cache import DiskCache, scratch_directory
    if "private" not in _caches:
        _caches["private"] = DiskCache(scratch_directory("moshjit-nocache-", keep_until_exit=True))
    return _caches["private"]


_dispatcher_class = None
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _user_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the user's call: the first frame outside moshjit (the compiled
    call path has no Python frame, the pure one has one, so counting fixed levels would be wrong)."""
    frame, level = sys._getframe(2), 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


def dispatcher_class():
    """``Dispatcher``: DispatcherBase on top of the fastest available call path (created on first use)."""
    global _dispatcher_class
    if _dispatcher_class is None:
        built = type("Dispatcher", (DispatcherBase, _core_class()), {"__module__": __name__})
        seal = getattr(built, "_seal_class", None)      # the compiled core: immutable, so method calls specialise
        if seal is not None:
            seal(built)
        _dispatcher_class = built
    return _dispatcher_class


def __getattr__(name):
    if name == "Dispatcher":
        return dispatcher_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


DEFAULT_MAX_CLASSES = 4      # classes per parameter: each is a compile
SIGNATURES_IN_C = 8          # signatures the vectorcall slot checks (MJ_LAST_SLOTS in runtime/moshjit_dispatch.pyx)


def max_classes() -> int:
    """How many of the program's classes one parameter is specialised for before it takes any object
    (``MOSHJIT_MAX_CLASSES``, else ``DEFAULT_MAX_CLASSES``)."""
    text = os.environ.get("MOSHJIT_MAX_CLASSES", "")
    try:
        return max(1, int(text)) if text else DEFAULT_MAX_CLASSES
    except ValueError:
        log.warning("moshjit: MOSHJIT_MAX_CLASSES=%r is not a whole number; using %d", text, DEFAULT_MAX_CLASSES)
        return DEFAULT_MAX_CLASSES


def check_options(backend, strict, fallback) -> None:
    """Refuse options that make no sense, at decoration time."""
    if backend not in BACKENDS:
        raise ValueError(f"moshjit.jit: backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if strict and fallback:
        raise ValueError("moshjit.jit: strict=True and fallback=True contradict each other (strict raises "
                         "UnsupportedError, fallback runs plain Python): pass one of them")


def jit(fn=None, *, backend: str = "auto", cache: bool = True, strict: bool | None = None, fallback: bool = False,
        signatures=None, tier: str | None = None, hot_calls: int | None = None, hot_ms: float | None = None):
    """Compile ``fn`` lazily per argument signature. Use as ``@jit``, ``@jit(...)`` or ``jit(fn)``; on a class,
    every method its body defines is jitted with these options.

    Tiered (the default; ``tier="eager"`` or ``MOSHJIT_TIER=eager`` compiles at the first call instead), a
    signature runs as plain Python until it is hot — ``hot_calls`` calls or one call of ``hot_ms`` milliseconds
    (``MOSHJIT_HOT_CALLS``, ``MOSHJIT_HOT_MS``) — then compiles in the background; native code recorded in the
    cache runs from the first call (see ``moshjit.tiers``).

    ``signatures=[(str,), ("char",), "list[float]"]`` compiles those signatures now, at decoration time (for
    services that must not compile on their first request). On a Python moshjit does not support, decorating
    raises ``UnsupportedError`` (with ``fallback=True``: warns and returns the plain function) before anything is
    built. With MOSHJIT_DISABLE=1 in the environment, returns the plain function unchanged."""
    check_options(backend, strict, fallback)
    from moshjit.tiers import tier_option
    tier_option(tier)

    def wrap(function):
        if os.environ.get("MOSHJIT_DISABLE", "") not in ("", "0"):
            return function
        problem = unsupported_python()
        if problem:
            if fallback or strict is False:
                warnings.warn(f"{problem}: {getattr(function, '__qualname__', function)} runs as plain Python",
                              MoshjitWarning, stacklevel=3 if fn is None else 2)
                return function
            raise UnsupportedError(problem)
        if isinstance(function, type):
            if signatures:
                raise ValueError("moshjit.jit: signatures= names one function's argument kinds; on a class, give "
                                 "them to @jit on the method instead")
            from moshjit.classes import jit_methods
            return jit_methods(function, jit(backend=backend, cache=cache, strict=strict, fallback=fallback, tier=tier,
                                                 hot_calls=hot_calls, hot_ms=hot_ms))
        bound_to = None
        if isinstance(function, types.MethodType):      # ``jit(obj.method)``: the jitted function, bound to obj
            function, bound_to = function.__func__, function.__self__
        dispatcher = dispatcher_class()(function, backend=backend, cache=cache, strict=strict, fallback=fallback,
                                        tier=tier, hot_calls=hot_calls, hot_ms=hot_ms)
        for kinds in signatures or ():
            dispatcher.compile_signature(kinds)
        return dispatcher if bound_to is None else types.MethodType(dispatcher, bound_to)
    if fn is None:
        return wrap
    if not callable(fn):
        raise TypeError(f"moshjit.jit expects a function, got {type(fn).__name__}")
    return wrap(fn)


def precompile(module) -> dict:
    """Compile, or load from the cache, every ``@jit`` function defined in ``module`` for each signature it was
    compiled for in earlier runs (recorded in the cache): a service calls it at start-up to start warm. Returns
    {qualified name: signatures now compiled}."""
    from moshjit.cache import recorded_signatures
    from moshjit.typeof import key_of_kinds
    warmed = {}
    for value in list(vars(module).values()):
        if not isinstance(value, DispatcherBase) or getattr(value.py_func, "__module__", None) != module.__name__:
            continue
        for kinds in recorded_signatures(_cache(), value.py_func):
            try:
                value.compiled_entry(key_of_kinds(kinds))
            except Exception as exc:        # the signature is no longer compilable: it compiles (or fails) on call
                log.info("precompile: %s%s not warmed: %s", value.py_func.__qualname__, tuple(kinds), exc)
        warmed[value.py_func.__qualname__] = value.signatures
    return warmed

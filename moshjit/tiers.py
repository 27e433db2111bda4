"""Tiers: a jitted function runs its own bytecode in the interpreter until it is hot, then compiles in the background.

Per specialisation (dispatch signature) of a tiered dispatcher, the first call

1. loads native code recorded in the on-disk cache, if any: then it runs native from its first call;
2. else runs the frontend on the function (a few ms, memoised per code object), so that a construct moshjit
   refuses raises ``UnsupportedError`` (or falls back with a ``MoshjitWarning``) at the first call, as in eager mode;
3. else installs a *tier-0 entry* (``moshjit_dispatch.Tier0Entry``, in C): the plain function, called through
   vectorcall with no Python frame of moshjit's, behind a counter; calls are timed by sampling (the first 32, then
   one in 32). After ``hot_calls`` calls, or one timed call longer than ``hot_ms``, the specialisation is queued
   for compilation on moshjit's compile thread (``moshjit.background``) and the plain function runs uncounted
   meanwhile. When the native entry is ready it replaces the plain one in one dictionary store (calls in flight
   finish in the interpreter; both give CPython's results). A compile that fails is never retried: strict
   dispatchers raise its ``UnsupportedError`` into the next call of that signature, from the user's line;
   ``fallback=True`` ones warn once there and stay Python.

There is no on-stack replacement: a loop that became hot runs natively from the function's next call.
``tier="eager"`` (or ``MOSHJIT_TIER=eager``) keeps compiling at the first call; ``signatures=``, ``compile()`` and
``moshjit.precompile`` are always eager.
"""
from __future__ import annotations

import functools
import logging
import os
import threading
import time
import weakref

from moshjit.errors import BuildCancelled
from moshjit.typeof import describe_signature

log = logging.getLogger("moshjit")
TIERS = ("tiered", "eager")
DEFAULT_HOT_CALLS = 1000
DEFAULT_HOT_MS = 20.0

INTERPRETED, QUEUED, TRIAL, NATIVE, DEMOTED = "interpreter", "compiling", "trial", "native", "demoted"
FAILING, FAILED = "failing", "failed"
PROVISIONAL = (INTERPRETED, QUEUED, TRIAL, DEMOTED, FAILING)    # compile() and precompile make these native now
MIN_TRIAL_CALLS = 100           # interpreted calls (a sample of them timed) before native code is tried against them
TIMED_FIRST, TIMED_EVERY = 32, 32   # tier 0 times its first 32 calls, then one in 32 (as moshjit_dispatch.Tier0Entry)
IMPLICIT_DESCRIPTORS = ("__new__", "__init_subclass__", "__class_getitem__")   # a class body wraps these: no copy
SLOWER = 1.1                    # native code this much slower than the interpreter per call is demoted


def tier_option(tier) -> str | None:
    """Check a ``jit(tier=...)`` option at decoration time."""
    if tier is not None and tier not in TIERS:
        raise ValueError(f"moshjit.jit: tier must be one of {', '.join(TIERS)}, not {tier!r}")
    return tier


def _env_number(name: str, default: float) -> float:
    text = os.environ.get(name, "")
    try:
        value = float(text) if text else default
    except ValueError:
        log.warning("moshjit: %s=%r is not a number; using %s", name, text, default)
        return default
    return value if value >= 0 else default


def tiering_for(dispatcher, tier: str | None, hot_calls: int | None, hot_ms: float | None):
    """The tier bookkeeping of ``dispatcher``, or None when it compiles eagerly (the option, else
    ``MOSHJIT_TIER``, else tiered)."""
    mode = tier or os.environ.get("MOSHJIT_TIER", "") or "tiered"
    if mode not in TIERS:
        log.warning("moshjit: MOSHJIT_TIER=%r is not one of %s; compiling tiered", mode, ", ".join(TIERS))
        mode = "tiered"
    if mode == "eager":
        return None
    calls = hot_calls if hot_calls is not None else int(_env_number("MOSHJIT_HOT_CALLS", DEFAULT_HOT_CALLS))
    ms = hot_ms if hot_ms is not None else _env_number("MOSHJIT_HOT_MS", DEFAULT_HOT_MS)
    return Tiering(dispatcher, max(calls, 1), ms / 1000.0)


class Specialization:
    """What the tiers know about one signature: where it runs, how often it ran there, when it was promoted. The
    interpreted calls are counted and timed by its tier-0 entry (``counter``)."""

    __slots__ = ("tier", "counter", "first_call", "promoted_after_s", "native_after_s", "compile_s", "error",
                 "native_vs_interpreter")

    def __init__(self, tier: str):
        self.tier = tier
        self.counter = None
        self.first_call = time.perf_counter()
        self.promoted_after_s = self.native_after_s = self.compile_s = self.native_vs_interpreter = None
        self.error = None

    @property
    def calls(self) -> int:
        """Interpreted calls (every one is counted)."""
        return self.counter.calls if self.counter is not None else 0

    @property
    def timed_calls(self) -> int:
        """Interpreted calls that were timed (a sample: see ``Tier0Entry``)."""
        return self.counter.timed_calls if self.counter is not None else 0

    @property
    def interpreted_per_call_s(self) -> float:
        """The interpreter's mean time per call, from the timed sample (0 before any)."""
        timed = self.timed_calls
        return self.counter.interpreted_s / timed if timed else 0.0

    def describe(self) -> dict:
        out = {"tier": self.tier, "interpreted_calls": self.calls}
        for name in ("promoted_after_s", "native_after_s", "compile_s", "native_vs_interpreter"):
            value = getattr(self, name)
            if value is not None:
                out[name] = round(value, 4)
        if self.error is not None:
            out["error"] = self.error
        return out


class PyTier0Entry:
    """``moshjit_dispatch.Tier0Entry`` in Python, for the Python call path (``PyDispatcherCore``): the same
    counting and sampled timing, with a Python frame of its own (a failed promotion is logged)."""

    def __init__(self, plain, hot_calls: int, hot_seconds: float, on_hot):
        self.plain, self.hot_calls, self.hot_seconds, self.on_hot = plain, hot_calls, hot_seconds, on_hot
        self.calls = self.timed_calls = 0
        self.interpreted_s = 0.0
        self.hot = False
        self.on_cold = None

    def __call__(self, *args):
        if self.hot:
            return self.plain(*args)
        self.calls += 1
        if self.calls >= self.hot_calls:
            self._became_hot()
            return self.plain(*args)
        if self.calls == TIMED_FIRST and self.on_cold is not None:
            _notify(self.on_cold)
        if self.calls > TIMED_FIRST and self.calls % TIMED_EVERY:
            return self.plain(*args)
        start = time.perf_counter()
        try:
            return self.plain(*args)
        finally:
            took = time.perf_counter() - start
            if self.calls > 1:      # the first call decides hotness but is not in the sample (as in C)
                self.interpreted_s += took
                self.timed_calls += 1
            if took >= self.hot_seconds and not self.hot:
                self._became_hot()

    def _became_hot(self) -> None:
        self.hot = True
        _notify(self.on_hot)


class PyColdCounter:
    """``moshjit_dispatch.ColdCounter`` in Python, for the Python call path: counts its truth tests."""

    def __init__(self, remaining: int, on_hot):
        self.remaining, self.on_hot, self.calls = remaining, on_hot, 0

    def __bool__(self):
        if self.remaining > 0:
            self.calls += 1
            self.remaining -= 1
            if self.remaining == 0:
                _notify(self.on_hot)
        return True


def _notify(hook) -> None:
    """Call a tier hook from inside a user's call: a failure is a moshjit bug, logged, never raised there."""
    try:
        hook()
    except Exception:
        log.exception("moshjit: a tier change failed")


_in_compile_thread = threading.local()


def compiling_in_background() -> bool:
    """Whether this thread is running a background compile (then callees are never compiled synchronously)."""
    return getattr(_in_compile_thread, "active", False)


class Tiering:
    """The tier-0 entries of one dispatcher, their counters, and their promotion to native code."""

    def __init__(self, dispatcher, hot_calls: int, hot_seconds: float):
        self.dispatcher = dispatcher
        self.hot_calls = hot_calls
        self.hot_seconds = hot_seconds
        self.specializations: dict[tuple, Specialization] = {}
        self.slot: MethodSlot | None = None       # where the dispatcher is a class attribute (a method)

    # ---- a method's class attribute: the dispatcher, or its plain-function copy while that is all it runs ------
    def attach(self, owner: type, name: str) -> None:
        """The dispatcher is ``owner.name``: from its first tier-0 calls on, the class may hold a counting copy."""
        from moshjit.cold_copy import can_copy
        if self.slot is None and can_copy(self.dispatcher.py_func) and name not in IMPLICIT_DESCRIPTORS:
            self.slot = MethodSlot(self.dispatcher, owner, name)

    def _find_slot(self, key: tuple) -> None:
        """Attach to the class of the first argument if the dispatcher is its method under the function's name
        (a dispatcher stored with ``setattr`` after the class was made: ``__set_name__`` was not called)."""
        if self.slot is not None or not key or not isinstance(key[0], type):
            return
        name = self.dispatcher.py_func.__name__
        for klass in key[0].__mro__:
            if klass.__dict__.get(name) is self.dispatcher:
                self.attach(klass, name)
                return

    def _cold(self) -> None:
        """A tier-0 entry's timed first calls found no long call: if every signature is still interpreted, the
        class holds the counting copy from now on (CPython calls it as a Python function; it counts the calls of
        all signatures together)."""
        from moshjit.cold_copy import counting_copy
        dispatcher = self.dispatcher
        with dispatcher._lock:
            slot = self.slot
            if slot is None or slot.warm or any(s.tier != INTERPRETED for s in self.specializations.values()):
                return
            if slot.copy is None:
                counted = sum(s.calls for s in self.specializations.values())
                slot.counter = dispatcher._cold_counter(max(self.hot_calls - counted, 1), self._warm)
                slot.copy = counting_copy(dispatcher.py_func, slot.counter, dispatcher)
            slot.hold(slot.copy)

    def _warm(self) -> None:
        """The copy counted ``hot_calls`` calls: the dispatcher goes back into the class and counts each signature
        up to ``MIN_TRIAL_CALLS`` calls (timed, so that the trial has the interpreter's time per call)."""
        with self.dispatcher._lock:
            slot = self.slot
            slot.warm = True
            threshold = self._threshold()
            for spec in self.specializations.values():
                if spec.tier == INTERPRETED and spec.counter is not None:
                    spec.counter.hot_calls = max(spec.counter.calls + 1, threshold)
            slot.hold(self.dispatcher)

    def _threshold(self) -> int:
        """Calls of a new signature in tier 0 before it is hot (fewer once the copy found the method hot)."""
        warm = self.slot is not None and self.slot.warm
        return min(self.hot_calls, MIN_TRIAL_CALLS) if warm else self.hot_calls

    def _settle(self) -> None:
        """After a tier change (under the lock): the class holds the dispatcher while it has more to do than call
        the plain function (native code, a trial, a failure to report, signatures still counted before any was
        promoted), else the copy, counting nothing any more."""
        from moshjit.cold_copy import counting_copy
        slot = self.slot
        if slot is None:
            return
        specs = list(self.specializations.values())
        slot.warm = slot.warm or any(s.tier != INTERPRETED for s in specs)
        strict = not self.dispatcher.fallback
        if (not slot.warm or all(s.tier == INTERPRETED for s in specs)
                or any(s.tier in (NATIVE, TRIAL, FAILING) or (s.tier == FAILED and strict) for s in specs)):
            slot.hold(self.dispatcher)
            return
        if slot.copy is None:
            slot.counter = self.dispatcher._cold_counter(0, None)
            slot.copy = counting_copy(self.dispatcher.py_func, slot.counter, self.dispatcher)
        slot.counter.remaining = 0            # a signature was promoted: the function is no longer counted
        slot.hold(slot.copy)

    # ---- the first call of a signature (under the dispatcher's lock) ----------------------------------------
    def first_entry(self, key: tuple):
        """The entry for the first call of ``key``: cached native code, else a counting tier-0 entry. Raises the
        frontend's ``UnsupportedError`` for a function moshjit refuses."""
        dispatcher = self.dispatcher
        artifact = dispatcher._load_from_cache(key)
        if artifact is not None:
            return dispatcher._install(key, artifact)
        check_frontend(dispatcher.py_func)
        self._find_slot(key)
        self.specializations[key] = Specialization(INTERPRETED)
        entry = self._counting_entry(key, dispatcher._plain_call())
        if self.slot is not None and not self.slot.warm:
            entry.on_cold = self._cold
        dispatcher._entries[key] = entry
        return entry

    def installed(self, key: tuple) -> None:
        """Native code for ``key`` is in place now (from the background, or compiled eagerly meanwhile)."""
        spec = self.specializations.setdefault(key, Specialization(NATIVE))
        if spec.native_after_s is None:
            spec.native_after_s = time.perf_counter() - spec.first_call
        spec.tier = NATIVE
        self._settle()

    def provisional(self, key: tuple) -> bool:
        """Whether ``key``'s entry is a stand-in (interpreted) that an eager compile should replace."""
        spec = self.specializations.get(key)
        return spec is not None and spec.tier in PROVISIONAL

    def native_entry(self, key: tuple):
        """For a caller compiling in the background: ``key``'s native entry if it is ready, else None (the
        caller then calls through the dispatcher, and the callee is promoted when it gets hot itself)."""
        spec = self.specializations.get(key)
        if spec is None or spec.tier != NATIVE:
            return None
        return self.dispatcher._entries.get(key)

    def _counting_entry(self, key: tuple, plain):
        """The plain function behind a counter (the call path's ``Tier0Entry``): hot after ``hot_calls`` calls or
        one timed call of ``hot_seconds``."""
        entry = self.dispatcher._tier0_entry(plain, self._threshold(), self.hot_seconds,
                                             functools.partial(self.promote, key))
        self.specializations[key].counter = entry
        return entry

    # ---- promotion ------------------------------------------------------------------------------------------
    def promote(self, key: tuple) -> None:
        """Queue ``key`` for compilation (once); the plain function runs uncounted until native code is ready."""
        from moshjit import background
        dispatcher = self.dispatcher
        with dispatcher._lock:
            spec = self.specializations.get(key)
            if spec is None or spec.tier != INTERPRETED:
                return
            spec.tier = QUEUED
            spec.promoted_after_s = time.perf_counter() - spec.first_call
            dispatcher._replace_entry(key, dispatcher._plain_entry())
            self._settle()
        log.debug("%s%s is hot after %d interpreted calls: compiling in the background",
                  dispatcher.py_func.__qualname__, describe_signature(key), spec.calls)
        background.submit(lambda: self._compile(key), priority=spec.interpreted_per_call_s)

    def _compile(self, key: tuple) -> None:
        """Run on the compile thread: compile ``key`` and swap its native entry in, or remember the failure."""
        from moshjit import compiler
        dispatcher = self.dispatcher
        spec = self.specializations[key]
        start = time.perf_counter()
        _in_compile_thread.active = True
        try:
            with compiler.releasing_the_gil_often(dispatcher.backend, key):
                dispatcher._warm_builds(key)
                artifact = dispatcher._compile(key)
        except BuildCancelled as exc:            # the interpreter is exiting: no next call to report it to
            log.debug("%s%s: %s", dispatcher.py_func.__qualname__, describe_signature(key), exc)
            return
        except Exception as exc:                 # UnsupportedError, BuildError: reported at the next call
            spec.compile_s = time.perf_counter() - start
            log.info("%s%s did not compile (reported at its next call): %s", dispatcher.py_func.__qualname__,
                     describe_signature(key), exc)
            with dispatcher._lock:
                spec.tier, spec.error = FAILING, str(exc)
                dispatcher._replace_entry(key, self._failure_entry(key, exc))
                self._settle()
            return
        finally:
            _in_compile_thread.active = False
        spec.compile_s = time.perf_counter() - start
        with dispatcher._lock:
            if spec.tier != QUEUED:           # compiled eagerly meanwhile (``compile()``, ``precompile``)
                return
            if artifact.rebind is None and spec.calls >= MIN_TRIAL_CALLS and spec.timed_calls:
                dispatcher._artifacts[key] = artifact
                if dispatcher.use_cache:
                    dispatcher._record(key)
                spec.tier = TRIAL
                dispatcher._replace_entry(key, self._trial_entry(key, artifact))
                self._settle()
            else:
                dispatcher._install(key, artifact)
        log.info("%s%s compiled with %s in the background in %.3f s, %.3f s after its first call: %s",
                 dispatcher.py_func.__qualname__, describe_signature(key), artifact.backend, spec.compile_s,
                 time.perf_counter() - spec.first_call,
                 "on trial against the interpreter" if spec.tier == TRIAL else "native now")

    def _trial_entry(self, key: tuple, artifact):
        """Native code behind a timer for as many calls as were timed interpreted; then kept if it is not slower
        per call than the interpreter was (class-heavy code can be: CPython's specialising interpreter beats
        generic C-API code), else the signature goes back to the plain function for good (``demoted``). Both
        sides pay the same wrapper, and both are exact, so the choice only affects speed."""
        spec, native, clock = self.specializations[key], artifact.entry, time.perf_counter
        budget, timed = spec.timed_calls, [-1, 0.0]

        def trial(*args):
            if timed[0] < 0:        # the first call pays one-time costs (up to ~1 ms): left out, as tier 0 does
                timed[0] = 0
                return native(*args)
            start = clock()
            try:
                return native(*args)
            finally:
                timed[1] += clock() - start
                timed[0] += 1
                if timed[0] >= budget:
                    self._judge(key, artifact, timed[1] / timed[0])
        trial.__moshjit_transient__ = True      # compiled method sites do not remember it (``method_sites.py``)
        return trial

    def _judge(self, key: tuple, artifact, native_per_call: float) -> None:
        dispatcher = self.dispatcher
        with dispatcher._lock:
            spec = self.specializations[key]
            if spec.tier != TRIAL:
                return
            ratio = native_per_call / max(spec.interpreted_per_call_s, 1e-9)
            spec.native_vs_interpreter = ratio
            if ratio <= SLOWER:
                dispatcher._install(key, artifact)
            else:
                spec.tier = DEMOTED
                dispatcher._replace_entry(key, dispatcher._plain_entry())
                self._settle()
        log.info("%s%s: native code takes %.2f× the interpreter's time per call: %s",
                 dispatcher.py_func.__qualname__, describe_signature(key), ratio,
                 "kept" if ratio <= SLOWER else "demoted to the interpreter")

    def _failure_entry(self, key: tuple, exc: Exception):
        """An entry that reports a failed background compile at the next call of ``key``, in the caller's thread,
        exactly as an eager first call would have (raise from the user's line, or warn once and run Python), and
        then stays what the report installs: the failure is never compiled again."""
        dispatcher = self.dispatcher

        def report(*args):
            with dispatcher._lock:
                if self.specializations[key].tier == FAILING:
                    entry = dispatcher._specialize(key, _raising(exc))
                    self.specializations[key].tier = FAILED
                    dispatcher._replace_entry(key, entry)
                    self._settle()
                else:                         # another thread reported it first
                    entry = dispatcher._entries[key]
            return entry(*args)
        report.__moshjit_transient__ = True     # compiled method sites do not remember it (``method_sites.py``)
        return report


class MethodSlot:
    """The class attribute a tiered method's dispatcher lives in, and the plain-function copy that stands in for
    it there (``moshjit.cold_copy``). A store is one ``type.__setattr__``: the type's version tag changes, so
    CPython's inline caches and compiled method sites look the attribute up again; calls in flight finish where
    they started (both run the same function, exactly)."""

    __slots__ = ("dispatcher", "owner", "name", "copy", "counter", "warm", "held")

    def __init__(self, dispatcher, owner: type, name: str):
        self.dispatcher, self.owner, self.name = dispatcher, owner, name
        self.copy = self.counter = None
        self.warm = False                   # the copy counted hot_calls calls (or a signature was promoted)
        self.held = dispatcher              # what moshjit last stored there

    @property
    def copy_calls(self) -> int:
        """Calls counted by the copy (all signatures together)."""
        return self.counter.calls if self.counter is not None else 0

    def hold(self, value) -> None:
        """Store ``value`` in the class unless the attribute no longer holds what moshjit stored (the program
        rebound it: then it is the program's, and moshjit leaves it alone from now on)."""
        if value is self.held or self.held is None:
            return
        if self.owner.__dict__.get(self.name) is not self.held:
            self.held = None
            return
        for field in ("__defaults__", "__kwdefaults__"):       # assigned to what the class held: keep them
            if getattr(value, field) is not getattr(self.held, field):
                setattr(value, field, getattr(self.held, field))
        try:
            type.__setattr__(self.owner, self.name, value)
        except TypeError:                   # an immutable type: the dispatcher stays
            self.held = None
            return
        self.held = value


def _raising(exc: Exception):
    def compile(key):
        raise exc
    return compile


_frontend_checked = weakref.WeakKeyDictionary()    # code object -> True, or the frontend's UnsupportedError


def check_frontend(py_func) -> None:
    """Build the function's SSA once per code object, so the frontend's ``UnsupportedError`` comes at the first
    call (typing and the backends may still refuse later, at the promotion)."""
    code = py_func.__code__
    outcome = _frontend_checked.get(code)
    if outcome is None:
        from moshjit.errors import UnsupportedError
        from moshjit.frontend import build_ssa
        try:
            build_ssa(py_func, optimize=False)
            outcome = True
        except UnsupportedError as exc:
            outcome = exc
        except Exception as exc:          # a moshjit bug: the compile at the promotion reports it as eager mode does
            log.debug("moshjit: frontend check of %s: %r", py_func.__qualname__, exc)
            outcome = True
        _frontend_checked[code] = outcome
    if outcome is not True:
        raise outcome.with_traceback(None)

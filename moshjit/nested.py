"""Nested functions of jitted code run compiled: the ``def``s and ``lambda``s a jitted function makes.

A function made by compiled code is CPython's own function object (its type, name, cells, ``__code__`` are what
the interpreter would make), but its call path is the backend's (``backends/cython/nested_functions.py``): once
the functions made from one code object have been called ``threshold`` times, the site asks this module's
``NestedCode`` to compile the code, and reads the entry from ``NestedCode.slot``. The code is compiled once for
every function made from it in one namespace — the entry takes the function before the arguments and reads the
cells from it — with every argument an object, on the background thread when tiered (the site asks again later),
at that call when eager. A code that cannot be compiled stays interpreted, quietly (it was not the user's ``@jit``
that named it) and for good; one whose bound name is rebound compiles again, reading that name at run time; one
whose entry finds a type it assumed of a global changed is compiled once more without assumptions, and the sites
call that from then on (as a dispatcher's generic specialisation).
"""
from __future__ import annotations

import inspect
import logging
import threading
import types

log = logging.getLogger("moshjit")

MAX_ARGS = 8                        # as the call path passes them (``nested_functions.MAX_ARGS``)
_UNSUPPORTED_FLAGS = (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS | inspect.CO_GENERATOR | inspect.CO_COROUTINE
                      | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE)
_lock = threading.Lock()
_codes: dict = {}                   # (code, id(globals), eager, threshold, id(cache)) → NestedCode


class NestedCode:
    """What compiles one nested code object for one namespace, and the entry once it is compiled."""

    def __init__(self, code: types.CodeType, globals_: dict, threshold: int, eager: bool, cache, make_dispatcher):
        self.code = code
        self.globals = globals_             # (kept: its id is part of the key this is found by)
        self.threshold = threshold          # calls a site counts before it first asks ``hot``
        self.eager = eager
        self.cache = cache                  # the on-disk cache the compiled code goes to
        self.make_dispatcher = make_dispatcher   # the dispatcher layer's factory for helpers compiled on their own
        self.state = "interpreted"          # → "compiling" → "native" | "failed"
        self.slot = [None]                  # the compiled entry, read by the sites at each call; None: none
        self.generic = False                # is the entry the compilation without assumptions?
        self.reason = None                  # why it stays interpreted, once it failed
        self.volatile: frozenset = frozenset()   # names found rebound: the compiled code reads them at run time
        self._lock = threading.Lock()

    def hot(self, function: types.FunctionType) -> None:
        """A site's functions are hot: compile (eager: now, tiered: queued), unless it is compiling or done. The
        site reads the entry from ``slot`` afterwards."""
        with self._lock:
            if self.state != "interpreted":
                return
            self.state = "compiling"
        if self.eager:
            self._compile(function)
        else:
            from moshjit import background
            background.submit(lambda: self._compile(function))

    def _compile(self, function: types.FunctionType) -> None:
        try:
            artifact = self._compiled(function, assume_globals=True)
        except Exception as exc:           # an optimisation the user did not ask for by name: stay interpreted
            self._failed(exc)
            return
        self.slot[0], self.state = artifact.entry, "native"

    def _compiled(self, function: types.FunctionType, assume_globals: bool):
        from moshjit import compiler
        return compiler.compile_specialization(
            function, ("object",) * self.code.co_argcount, "cython", self.cache, fallback=self.deoptimised,
            assume_globals=assume_globals, make_dispatcher=self.make_dispatcher, on_rebound=self.rebound,
            volatile_globals=self.volatile, nested_codes=self.nested_code, closure_per_call=True)

    def _failed(self, exc: Exception) -> None:
        log.info("moshjit: the nested function %s stays interpreted: %s", self.code.co_qualname, exc)
        self.reason, self.state, self.slot[0] = exc, "failed", None

    def deoptimised(self, function: types.FunctionType, *args):
        """The entry found a global's type (or a method) it assumed changed: the code is compiled now without
        assumptions, the sites call that from now on, and so does this call (it stays interpreted, for good, if
        that compile fails)."""
        with self._lock:
            if self.state == "native" and not self.generic:
                try:
                    artifact = self._compiled(function, assume_globals=False)
                except Exception as exc:
                    self._failed(exc)
                else:
                    log.info("moshjit: the nested function %s: an assumption failed; compiled without assumptions",
                             self.code.co_qualname)
                    self.slot[0], self.generic = artifact.entry, True
            entry = self.slot[0] if self.generic else None
        return entry(function, *args) if entry is not None else interpreted(function, *args)

    def nested_code(self, code: types.CodeType, globals_: dict):
        """What compiles the functions this code's compiled code makes, alike."""
        return nested_code(code, globals_, self.eager, self.threshold, self.cache, self.make_dispatcher)

    def describe(self) -> dict:
        """Where the functions made from the code run (``stats``): interpreted, compiling, native or failed."""
        described = {"state": self.state, "threshold": self.threshold}
        if self.generic:
            described["generic"] = True
        if self.reason is not None:
            described["reason"] = str(self.reason)
        return described

    def rebound(self, bindings, function, *args):
        """A name the compiled code bound was rebound: the entry is withdrawn (the sites run the bytecode until
        they ask again, and the code compiles anew reading that name at run time); this call runs the bytecode."""
        from moshjit.bindings import first_rebound
        label = first_rebound(bindings)
        with self._lock:
            if label is not None and self.state == "native":
                log.info("moshjit: the nested function %s: %s was rebound; compiling it again without binding it",
                         self.code.co_qualname, label)
                self.volatile = self.volatile | {label}
                self.slot[0], self.state, self.generic = None, "interpreted", False
        return interpreted(function, *args)


def interpreted(function: types.FunctionType, *args):
    """One call of a nested function's bytecode: a plain copy of it (same code, globals, defaults and cells) called,
    so the call does not come back through its compiled call path."""
    return types.FunctionType(function.__code__, function.__globals__, function.__name__, function.__defaults__,
                              function.__closure__)(*args)


def nested_code(code: types.CodeType, globals_: dict, eager: bool, threshold: int, cache, make_dispatcher):
    """The ``NestedCode`` of ``code`` made in ``globals_`` (compiled at once when ``eager``, else in the background
    after ``threshold`` calls; into ``cache``), or None for a code the call path does not take (a class body,
    ``*args``, ``**kwargs``, keyword-only parameters, generators and coroutines, more than ``MAX_ARGS``
    parameters)."""
    if not code.co_flags & inspect.CO_OPTIMIZED:     # a class body's code: ``__build_class__`` runs it, not calls
        return None
    if code.co_flags & _UNSUPPORTED_FLAGS or code.co_kwonlyargcount or code.co_argcount > MAX_ARGS:
        return None
    key = (code, id(globals_), eager, threshold, id(cache))
    with _lock:
        found = _codes.get(key)
        if found is None:
            found = _codes[key] = NestedCode(code, globals_, 1 if eager else threshold, eager, cache, make_dispatcher)
    return found

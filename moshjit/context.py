"""The compile context: one object per compilation, carrying what passes and backends may ask for and what
passes hand on to later steps.

The driver (``compiler.py``) creates a context for every specialisation it compiles and hands it to each pass
and to the backend; none of them imports the driver or the dispatcher (Numba's ``CompilerState`` and typing
context are the model). Questions that need the rest of the compiler — the SSA of a callee, its return type,
the native entry of a jitted callee — are methods here. This base class answers them conservatively (nothing
is known about callees), which is what a pass run on its own, e.g. in a unit test, gets; the driver's subclass
answers them by running its pipeline.
"""
from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from moshjit.bindings import BindingList

if TYPE_CHECKING:
    import types

    from moshjit.ir.function import Function
    from moshjit.ir.types import MType


class CompileContext:
    """The request (function, dispatch key, backend, options), the services, and the results of passes."""

    def __init__(self, py_function: types.FunctionType | None = None, key: tuple = (), backend: str = "auto",
                 cache=None, fallback=None, assume_globals: bool = False, generic_entry=None, on_rebound=None):
        self.py_function = py_function
        self.key = key                      # dispatch kinds of the arguments (``moshjit.typeof``)
        self.backend = backend              # 'auto', 'cython' or 'llvm'
        self.cache = cache                  # the on-disk cache (``moshjit.cache.DiskCache``) code is kept in
        self.fallback = fallback            # what a native entry calls when its run-time checks fail
        self.generic_entry = generic_entry  # () -> the entry of this key's specialisation without assumptions
                                            # (compiled on first use), what ``fallback`` calls; None: unknown
        self.assume_globals = assume_globals  # may types of data globals be assumed (checked on entry)?
        self.on_rebound = on_rebound        # (bindings, *args): what an entry calls when a name it bound was rebound
        self.shapes: tuple | None = None    # ``moshjit.samples.Shape`` of each argument of the signature's first
                                            # call: guesses for code guarded at run time only; None: unknown
        self.closure_per_call = False       # the code of a nested function, compiled once for every function made
                                            # from it: the entry takes the function first, its closure read from it
        # Results handed on by passes:
        self.resolved_globals: dict[str, object] = {}       # resolve_globals, inline: name → object bound
        self.bindings = BindingList()       # resolve_globals, inline: where each bound name was found
                                            # (``moshjit.bindings.Binding``), checked by the compiled entry
        self.volatile_globals: frozenset[str] = frozenset()  # names found rebound before: never bound again
        self.global_assumptions: dict[str, MType] = {}      # global_types: data global → assumed type
        self.inlined_at: dict = {}          # inline: an op of an inlined body → the line of the call it replaced
        self.inlinable_bodies: dict = {}    # inline: (callee, key) → (its inlinable SSA, its context), built once
                                            # per compilation and copied for each call site
        self.cycle_cut = False              # inline: a call cycle kept a call of this body (or of one inlined
                                            # into it) a call, which it would not be where the cycle is not open
        self.direct_entries: set[int] = set()  # direct_calls: ids of the compiled entries calls were bound to
        # typeinfer: a ``call_method`` on an argument of known class whose result was typed from the jitted method
        # it finds now → (class, dispatcher, type); the backend checks at entry that each call would still find it
        self.method_assumptions: dict = {}
        # typeinfer: those of ``method_assumptions`` whose result is always an exact str (the method's code returns
        # exact strs, and the generic path's result is checked to be one): ``passes/str_lists.py`` reads through them
        self.exact_str_results: set = set()
        # Every object whose identity or contents the compiled code bakes in (functions, modules, classes resolved;
        # callees inlined or bound directly). Callees' contexts share this record, so it is transitive (an inlined
        # body's build keeps its own, which the caller takes on where it inlines the body); a backend that caches
        # code across processes checks that its key covers all of it.
        self.dependencies: dict[int, object] = {}

    def record_dependency(self, obj) -> None:
        """Report that the code being compiled bakes in ``obj`` (a pass resolved, inlined or bound it)."""
        self.dependencies[id(obj)] = obj

    def for_callee(self, py_function: types.FunctionType) -> CompileContext:
        """A context for building a callee's SSA within this compilation (same services and options)."""
        child = copy.copy(self)
        child.py_function, child.key, child.fallback, child.assume_globals = py_function, (), None, False
        child.on_rebound = child.shapes = None
        child.closure_per_call = False
        child.resolved_globals, child.global_assumptions, child.bindings = {}, {}, BindingList()
        child.method_assumptions, child.exact_str_results = {}, set()
        child.cycle_cut = False
        return child            # ``dependencies``, ``volatile_globals``, ``inlined_at``, ``inlinable_bodies`` shared

    # ---- services: the driver's subclass answers these ------------------------------------------------------------
    def inlinable_ssa(self, callee: types.FunctionType, stack: tuple) -> Function | None:
        """The optimised, untyped SSA of ``callee`` with its own calls inlined (``stack``: the code objects being
        inlined into, so recursion stops), or None when the frontend refuses it or nothing is known. What the
        build found (globals resolved, bindings, dependencies, where inlined ops come from) is recorded in this
        context; the SSA is only read and copied by the caller, so the driver may hand out one kept from an
        earlier compilation while its bindings hold."""
        return None

    def callee_dispatcher(self, callee: types.FunctionType):
        """A dispatcher compiling a same-module helper on its own (falling back quietly to Python), or None."""
        return None

    def callee_return_type(self, py_function: types.FunctionType, arg_types: list[MType]) -> MType | None:
        """What a jitted callee returns for these argument types, or None when it is not known."""
        return None

    def callee_returns_exact_str(self, py_function: types.FunctionType, arg_types: list[MType]) -> bool:
        """Whether every value the callee returns for these argument types is an exact str (not a subclass)."""
        return False

    def typed_callee(self, py_function: types.FunctionType, arg_types: list[MType]) -> tuple[Function, CompileContext]:
        """The typed SSA of ``py_function`` for ``arg_types`` built by the standard pipeline (a fresh copy), with
        the context its passes recorded their results in."""
        raise NotImplementedError("typed SSA of another function needs the driver's compile context")

    def attribute_classes(self, cls: type) -> dict[str, type]:
        """Guessed classes of the attributes ``cls``'s methods store on its instances
        (``moshjit.passes.attribute_classes``): hints for code that checks them at run time, {} when unknown."""
        return {}

    def native_entry(self, dispatcher, key: tuple):
        """The compiled entry of a jitted callee for dispatch ``key`` (compiled now if needed), or None."""
        return None

    def nested_code(self, code: types.CodeType):
        """What compiles the functions the compiled code makes from ``code`` (a ``def`` or ``lambda`` in its body)
        when they get hot — the object a backend's call path for them asks (``moshjit.nested.NestedCode``) — or
        None: they stay plain functions."""
        return None

"""Continuing a native function in the SSA interpreter after it deoptimised: the run-time half of ``deopt``.

Native code calls ``resume(address, site, words)`` (through ``mj_deopt``) when it meets a value it cannot
represent. ``address`` names the shared object's deoptimisation module (registered when the code was
loaded), ``site`` the entry of its table, ``words`` the raw live state. The continuation runs on the typed SSA
the machine code was lowered from: rebuilt once per process through the compile context (the table's structure
fingerprints prove it is the same SSA, op for op), so code loaded from the cache deoptimises like fresh code.
Each live value is rebuilt from the words (``materialise``), pure values native code never built are recomputed,
and ``ir.interpreter.resume_function`` goes on from the site's op; nothing already done is done again.

A specialisation that keeps deoptimising is *demoted*: once its continuations have cost about as much as compiling
a generic specialisation would (``MOSHJIT_DEOPT_BUDGET`` seconds, 0.05 by default, estimated as the number of
deoptimisations times the fastest continuation, so that a callee compiled during one does not count), the generic
one (Python ints, no assumptions) is compiled and the native entry hands every later call to it, so a hot loop
does not stay in the interpreter. Imported by native code at its first deoptimisation only; no llvmlite here.
"""
from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import re
import threading
import time
import types

log = logging.getLogger("moshjit")

# The buffer of a native list (``native_lists``): {i64 references, i64 length, i64 capacity, items*}.
NATIVE_LIST_LENGTH, NATIVE_LIST_ITEMS = 8, 24
NATIVE_LIST_KINDS = {"IntR": "int", "FloatR": "float", "BoolR": "bool"}
_ITEM_TYPES = {"int": ctypes.c_int64, "float": ctypes.c_double, "bool": ctypes.c_uint8}
DEFAULT_BUDGET = 0.05

_modules: dict[int, "DeoptModule"] = {}
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def structure_fingerprint(fn) -> str:
    """What a resume point's meaning depends on: the blocks, ops and operands of ``fn`` (types left out)."""
    from moshjit.ir.printer import format_function
    text = _ADDRESS.sub("0x", format_function(fn, types_=False))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def register(address: int, module: "DeoptModule") -> None:
    """Native code whose state flag lives at ``address`` deoptimises into ``module``. A shared object is loaded
    once per process, so two dispatchers of the same code share its native code and its state flag: the first
    registration continues for both, and a demotion reaches every user (its statistics, its hooks)."""
    existing = _modules.get(address)
    if existing is None:
        _modules[address] = module
        return
    existing.users.extend(module.users)
    if existing.demoted:                     # its entry already sends calls to the fallback
        existing.tell_demoted(module.users)


def budget() -> float:
    try:
        return float(os.environ.get("MOSHJIT_DEOPT_BUDGET", DEFAULT_BUDGET))
    except ValueError:
        return DEFAULT_BUDGET


def resume(address: int, site: int, words: bytes):
    """Called by native code: ``(result,)``, or ``(exception, line, function name, file name)`` when the
    continuation raised (the exception's traceback without the interpreter's own frames; the native side adds an
    entry for the function at that line)."""
    module = _modules.get(address)
    if module is None:                       # cannot happen: every loader registers the table first
        return (RuntimeError("moshjit: native code deoptimised but its deoptimisation table is not registered"),
                0, "<native>", "<moshjit>")
    return module.resume(site, words)


class DeoptModule:
    """The deoptimisation table of one loaded shared object and what is needed to continue its functions."""

    def __init__(self, table: dict, py_function, arg_types: list, ctx, state_address: int, stats: dict | None = None,
                 on_demote=()):
        self.table = table
        self.py_function = py_function
        self.arg_types = arg_types           # native argument types of the root function
        self.ctx = ctx                       # a compile context: typed_callee rebuilds the SSA, generic_entry
        self.state_address = state_address   # the module's state flag (1: demoted, the entry calls its fallback)
        self.users = [(stats if stats is not None else {}, list(on_demote))]   # per loader of the shared object
        self.deopts = 0
        self.counted = 0                     # deoptimisations for a value without native form
        self.fastest = float("inf")          # seconds of the fastest of their continuations
        self.demoted = False                 # the state flag says so: the entry calls its fallback
        self.tried_demotion = False
        self._functions = None
        self._calls: dict = {}
        self._lock = threading.RLock()

    # ---- the typed SSA --------------------------------------------------------------------------------------------
    def functions(self) -> list:
        """Per native function of the module, in the table's order: (its typed SSA, its values in order, its
        blocks by label, the call line of each op inlined into it) (built once)."""
        with self._lock:
            if self._functions is None:
                self._functions = [(fn, list(fn.values()), {block.label: block for block in fn.blocks}, inlined_at)
                                   for fn, inlined_at in _on_a_fresh_stack(self._rebuild)]
            return self._functions

    def _rebuild(self) -> list:
        from moshjit.backends.llvm.native_types import CallGraph
        ir, ctx = self.ctx.typed_callee(self.py_function, list(self.arg_types))
        graph = CallGraph(self.ctx)
        graph.infer(self.py_function, list(self.arg_types), ir=ir, ctx=ctx)
        expected = self.table["functions"]
        found = [(sig.ir, sig.ctx.inlined_at) for sig in graph.order]
        if len(found) != len(expected) or any(structure_fingerprint(fn) != entry["fingerprint"]
                                              for (fn, _), entry in zip(found, expected)):
            raise RuntimeError(f"moshjit: cannot continue {self.py_function.__qualname__} after its native code met "
                               f"a value it cannot represent: the SSA rebuilt in this process differs from the one "
                               f"the machine code was compiled from (a stale cache entry?); clearing the cache "
                               f"directory (MOSHJIT_CACHE_DIR) fixes it")
        return found

    def routed_calls(self, index: int) -> dict:
        """For a continuation on a nearly exhausted C stack: each native call op of function ``index`` mapped to
        its callee's SSA, run in the interpreter too (Python frames, no C stack per level)."""
        from moshjit.backends.llvm.native_types import bind_arguments, python_callee
        calls = self._calls.get(index)
        if calls is None:
            calls = self._calls[index] = {}
            functions = self.functions()
            values = functions[index][1]
            for op_number, callee in self.table["functions"][index]["calls"].items():
                op = values[int(op_number)]
                bound = bind_arguments(python_callee(op.func.value), op)
                calls[op] = (functions[callee][0], bound, self.routed_calls(callee))
        return calls

    # ---- continuing ---------------------------------------------------------------------------------------------
    def resume(self, site: int, words: bytes):
        from moshjit.ir.interpreter import Frame, resume_function
        index, label, start, slots, exhausted, counted = self.table["sites"][site]
        try:
            fn, values, blocks, inlined_at = self.functions()[index]
            env = materialise(fn, values, slots, words)
            calls = self.routed_calls(index) if exhausted else None
        except BaseException as exc:             # the machinery failed: say so where the function is
            code = self.py_function.__code__
            return exc.with_traceback(None), code.co_firstlineno, code.co_name, code.co_filename
        began = time.perf_counter()
        frame = Frame(fn, env, calls)
        try:
            outcome = (resume_function(frame, blocks[label], start),)
        except BaseException as exc:
            # an op of an inlined callee shows the line of the call, as the Cython backend's tracebacks do
            line = inlined_at.get(frame.raised_at) or getattr(frame.raised_at, "line", None) or fn.firstlineno
            outcome = (exc.with_traceback(_without_own_frames(exc.__traceback__)), line, fn.name, fn.filename)
        self._count(time.perf_counter() - began, counted and not exhausted)
        return outcome

    def _count(self, seconds: float, counted: bool) -> None:
        """Count a deoptimisation; those for a value without native form count towards demotion (a nearly full
        C stack, or a loop letting a signal handler or another thread in, says nothing about the types the
        specialisation meets)."""
        self.deopts += 1
        for stats, _ in self.users:
            stats["deopts"] = self.deopts
        if not counted:
            return
        self.counted += 1
        self.fastest = min(self.fastest, seconds)
        if not self.tried_demotion and self.counted * self.fastest >= budget():
            self.demote()

    @staticmethod
    def tell_demoted(users) -> None:
        for stats, hooks in users:
            for hook in hooks:
                hook()
            stats["demoted"] = True

    def demote(self) -> None:
        """Send every later call of this specialisation to the generic one (compiled now; if that fails the
        native code stays, deoptimising as needed)."""
        self.tried_demotion = True
        generic = getattr(self.ctx, "generic_entry", None)
        if generic is None:
            return
        try:
            _on_a_fresh_stack(generic)
        except Exception as exc:             # e.g. no C compiler for Cython: correct, just slower
            log.warning("moshjit: %s keeps deoptimising but no generic specialisation could be built (%s)",
                        self.py_function.__qualname__, exc)
            return
        ctypes.c_uint8.from_address(self.state_address).value = 1
        self.demoted = True
        self.tell_demoted(self.users)
        log.info("moshjit: %s deoptimised %d times (at least %.6f s each): later calls use the generic "
                 "specialisation", self.py_function.__qualname__, self.deopts, self.fastest)


def _on_a_fresh_stack(work):
    """``work()`` (the compiler: rebuilding the SSA, compiling the generic specialisation) run on a thread of its
    own: a deoptimisation can happen deep in a native recursion, where little C stack is left for a compiler."""
    outcome: list = []

    def run():
        try:
            outcome.append((True, work()))
        except BaseException as exc:         # handed back to the deoptimising thread
            outcome.append((False, exc))

    worker = threading.Thread(target=run, name="moshjit-compile")
    worker.start()
    worker.join()
    succeeded, value = outcome[0]
    if not succeeded:
        raise value
    return value


# ---- rebuilding values ---------------------------------------------------------------------------------------------
def materialise(fn, values: list, slots: list, words: bytes) -> dict:
    """The interpreter environment for a site: each slot ``[value number, descriptor]`` rebuilt from ``words``
    (``values``: the function's values in order)."""
    from moshjit.ir.interpreter import evaluate
    builder = _Builder(values, slots, words)
    env = {}
    recompute = []
    for number, descriptor in slots:
        if descriptor[0] == "recompute":
            recompute.append(number)
        else:
            env[values[number]] = builder.value(number)
    for number in sorted(recompute):         # value order: operands before the values made from them
        op = values[number]
        env[op] = evaluate(op, fn, env)
    return env


class _Builder:
    """Python objects from a site's words and descriptors (see ``deopt.Words``); each native list and each
    live value is made once, so what native code shared stays shared."""

    def __init__(self, values: list, slots: list, words: bytes):
        self.values = values
        self.integers = memoryview(words).cast("q")
        self.floats = memoryview(words).cast("d")
        self.described = dict(slots)
        self.built: dict = {}
        self.lists: dict = {}                # native list address -> the one Python list made for it

    def value(self, number: int):
        if number not in self.built:
            self.built[number] = self.build(self.described[number], number)
        return self.built[number]

    def build(self, descriptor, number=None):
        integers, kind = self.integers, descriptor[0]
        if kind == "int":
            return integers[descriptor[1]]
        if kind == "float":
            return self.floats[descriptor[1]]
        if kind == "bool":
            return bool(integers[descriptor[1]])
        if kind == "object":
            return _object_at(integers[descriptor[1]])
        if kind == "passed":                             # a number argument: its caller's object, where there is one
            address = integers[descriptor[1]]
            return ctypes.cast(address, ctypes.py_object).value if address else self.build(descriptor[2])
        if kind == "none":
            return None
        if kind == "literal":
            return descriptor[1]
        if kind == "constant":
            return self.values[number].type.value
        if kind == "int128":
            return (integers[descriptor[1]] << 64) | (integers[descriptor[1] + 1] & 0xFFFF_FFFF_FFFF_FFFF)
        if kind == "tuple":
            return tuple(self.build(item) for item in descriptor[1])
        if kind == "native_list":
            address = integers[descriptor[1]]
            if address not in self.lists:
                self.lists[address] = _native_list(address, descriptor[2])
            return self.lists[address]
        if kind == "range":
            return range(*(integers[i] for i in descriptor[1:]))
        if kind == "array":
            return _array(integers[descriptor[1]], _object_at(integers[descriptor[2]]), descriptor[3])
        if kind == "ref":
            return self.value(descriptor[1])
        if kind == "range_iter":
            return iter(range(integers[descriptor[1]], integers[descriptor[2]], integers[descriptor[3]]))
        if kind == "range_iter_after":                   # the item just produced and a step of +-1
            step = descriptor[3]
            return iter(range(integers[descriptor[1]] + step, integers[descriptor[2]], step))
        if kind == "range_iter_left":
            current, step, left = (integers[i] for i in descriptor[1:])
            return iter(range(current, current + left * step, step))
        if kind == "sequence_iter":                      # [sequence, position word, offset, reversed]
            sequence = self.build(descriptor[1])
            iterator = reversed(sequence) if descriptor[4] else iter(sequence)
            iterator.__setstate__(integers[descriptor[2]] + descriptor[3])
            return iterator
        if kind == "enumerate":
            return enumerate(self.build(descriptor[1]), integers[descriptor[2]])
        if kind == "zip":
            return zip(*(self.build(inner) for inner in descriptor[1]))
        raise ValueError(f"moshjit: unknown deoptimisation descriptor {descriptor!r}")


def _object_at(address: int):
    """A new reference to the live object at ``address`` (0: a variable that is unbound on this path)."""
    if address == 0:
        from moshjit.ir.interpreter import UNBOUND
        return UNBOUND
    return ctypes.cast(address, ctypes.py_object).value


def _native_list(address: int, kind: str) -> list:
    if address == 0:
        from moshjit.ir.interpreter import UNBOUND
        return UNBOUND
    length = ctypes.c_int64.from_address(address + NATIVE_LIST_LENGTH).value
    items = ctypes.c_void_p.from_address(address + NATIVE_LIST_ITEMS).value
    raw = list((_ITEM_TYPES[kind] * length).from_address(items)) if length else []
    return [bool(x) for x in raw] if kind == "bool" else raw


def _array(data: int, owner, ndim: int):
    """The array a native array value views: its owner (an argument) or a row of it (``a[i]`` of a 2-d one)."""
    if getattr(owner, "ndim", 1) == ndim:      # an array.array has one dimension (and no ndim)
        return owner
    start = owner.__array_interface__["data"][0]
    return owner[(data - start) // owner.strides[0]]


_OWN_FILES = None


def _without_own_frames(traceback):
    """The traceback without the frames of the interpreter and of this module (they are moshjit's machinery,
    not the user's code; the native side adds the function's own entry), unless MOSHJIT_DEBUG is set."""
    from moshjit.errors import debugging
    global _OWN_FILES
    if debugging():
        return traceback
    if _OWN_FILES is None:
        from moshjit.ir import interpreter
        _OWN_FILES = {os.path.abspath(interpreter.__file__), os.path.abspath(__file__)}
    entries = []
    while traceback is not None:
        if os.path.abspath(traceback.tb_frame.f_code.co_filename) not in _OWN_FILES:
            entries.append(traceback)
        traceback = traceback.tb_next
    rebuilt = None
    for entry in reversed(entries):
        rebuilt = types.TracebackType(rebuilt, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return rebuilt

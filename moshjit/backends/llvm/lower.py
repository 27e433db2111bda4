"""Typed SSA → LLVM IR for one function specialisation.

Blocks map to LLVM blocks and φs to ``phi`` instructions (no out-of-SSA step). A native function returns
``{result, i1 failed, i32 origin}`` (``origin``: which argument a returned number is); when an op fails it has set
a Python exception, and control goes to a landing block that releases the references owned at that point, adds a
traceback entry naming the source line, and returns ``failed``. The meaning of each op lives in the op modules,
which never import this one: their ``OPS`` tables (``arith``, ``comparisons``, ``sequences``, ``native_list_ops``,
``iterators``, ``calls``) make ``OP_LOWERING``, an op type several of them lower going to one by the kind of values
it works on (``lowering_module``), and ``fusion`` emits fused list expressions. This module keeps the bookkeeping:
values, ownership (see ``refcount``), edges, failure paths, the origins of numbers (``origin``: the argument
whose object a number is), and deoptimisation sites (see ``deopt``): where a value leaves what native code can
represent (an int beyond 64 bits), the function continues in the SSA interpreter instead of raising.
"""
from __future__ import annotations

import contextlib
import functools

import llvmlite.ir as ir

from moshjit.analysis.dominators import reverse_postorder
from moshjit.backends.llvm import (arith, calls, comparisons, conversions, fusion, iterators, native_list_ops,
                                   native_lists, sequences, truth)
from moshjit.backends.llvm.cold_paths import cold_blocks, in_cold_block
from moshjit.backends.llvm.deopt import DeoptPoints, DeoptTable
from moshjit.backends.llvm.native_types import Signature, python_callee
from moshjit.backends.llvm.refcount import Liveness
from moshjit.backends.llvm.reprs import (I1, I8, I32, PTR, ArrayR, BoxedTupleR, FloatR, IntR, IterR, ListR, NListR,
                                         Repr, TupleR, UnitR, number_positions, repr_of)
from moshjit.backends.llvm.runtime import Runtime
from moshjit.ir import ops
from moshjit.ir.function import Block
from moshjit.ir.ops import UNDEFINED, Argument, Constant, Op, Phi
from moshjit.ir.types import BOOL, BOTTOM, FLOAT, INT64, OBJECT, IntType, type_of_value
from moshjit.passes.loop_ticks import TICK_EVERY


class NotNative(Exception):
    """The function cannot be compiled natively: ``what`` at ``line``."""

    def __init__(self, what: str, line: int | None):
        super().__init__(what)
        self.what = what
        self.line = line


def return_repr(sig: Signature) -> Repr:
    if sig.ir.suspends:
        raise NotNative(f"{'generator function' if sig.ir.generator else 'coroutine'} (a call returns a Python "
                        f"{'generator' if sig.ir.generator else 'coroutine'} object)", sig.ir.firstlineno)
    if sig.return_type == BOTTOM:
        return UnitR()
    found = repr_of(sig.return_type)
    if found is None:
        raise NotNative(f"the return value, {python_type(sig.return_type)},", sig.ir.firstlineno)
    return found


def function_type(sig: Signature, global_reads=()) -> ir.FunctionType:
    """{result, failed, origin} (arguments..., the objects of the number arguments, module globals read..., on a
    call cycle: the thread's recursion count); ``origin``: the position of the argument a returned number is, -1
    for a computed one. A number argument's object is the one its caller had for it (borrowed; NULL where the
    caller computed the number): a store hands it on (``origin``)."""
    result = ir.LiteralStructType([return_repr(sig).llvm, I1, I32])
    arguments = [repr_of(t).llvm for t in sig.arg_types] + [PTR] * len(number_positions(sig.arg_types))
    return ir.FunctionType(result, arguments + [repr_of(t).llvm for _, t in global_reads]
                           + ([PTR] if sig.recursive else []))



def global_reads(sig: Signature, root: bool) -> list:
    """(name, type) of each module global ``sig`` reads, sorted by name. They are read once, by the entry of
    the compiled function (their types were assumed when compiling and are checked there); a called function
    reading globals is not compiled natively. Cold blocks read theirs in the interpreter."""
    reads = {}
    for block in sig.ir.blocks:
        if block in sig.cold:
            continue
        for op in block.ops:
            if isinstance(op, ops.LoadGlobal):
                if not root:
                    raise NotNative(f"the module global '{op.name}' read in a called function", op.line)
                if not (isinstance(op.type, IntType) or op.type in (FLOAT, BOOL)):
                    raise NotNative(f"the module global '{op.name}', {python_type(op.type)},", op.line)
                reads[op.name] = INT64 if isinstance(op.type, IntType) else op.type
    return sorted(reads.items())


class FunctionLowering:
    """Emits the body of one signature into ``function``."""

    def __init__(self, sig: Signature, function: ir.Function, runtime: Runtime, symbols: dict, global_reads=(),
                 table: DeoptTable | None = None, function_index: int = 0):
        self.sig = sig
        self.fn = sig.ir
        self.function = function
        self.rt = runtime
        self.symbols = symbols                 # (function, argument types) -> (Signature, ir.Function, index)
        numbers = number_positions(sig.arg_types)
        self.argument_objects = {position: function.args[len(sig.arg_types) + i] for i, position in enumerate(numbers)}
        for position, obj in self.argument_objects.items():
            obj.name = f"{self.fn.args[position].name}.object"
        first_global = len(sig.arg_types) + len(numbers)
        self.globals = {name: function.args[first_global + i] for i, (name, _) in enumerate(global_reads)}
        self.return_repr = return_repr(sig)
        self.values: dict = {}
        self.reprs: dict = {}
        self.index = {v: i for i, v in enumerate(self.fn.values())}
        self.iterators: dict = {}               # iterator value -> iterators.Iterator
        self.line = self.fn.firstlineno
        # an op of an inlined callee reports the line of the call, as the Cython backend's tracebacks do
        self.inlined_at = sig.ctx.inlined_at if sig.ctx is not None else {}
        self.block = None                       # the SSA block and op position being lowered (deopt sites)
        self.position = 0
        self._landings: dict = {}
        # the thread's recursion count (``sig.recursive``): its callers hand it on, found once per call from Python
        self.recursion_count = function.args[-1] if sig.recursive else None
        if self.recursion_count is not None:
            self.recursion_count.name = "recursion_count"
        self._chains: dict = {}
        self._raises: dict = {}
        self.cold = False                       # in failure paths: releases call out-of-line helpers
        self.cold_blocks = sig.cold             # error paths the interpreter runs (``cold_paths``)
        self._pending_phis: list = []
        self.origins: dict = {}                 # number value -> i32: the argument it is (``origin``)
        self._find_reprs()
        self.deferred = fusion.deferred_ops(self.fn, self.reprs, self.cold_blocks)
        self.live = Liveness(self.fn, self.counted, self.deferred)
        self.owned: dict = {}
        entry = function.append_basic_block("entry")
        self.blocks = {block: function.append_basic_block(f"B{block.label}") for block in self.fn.blocks
                       if block not in self.cold_blocks}
        self.b = ir.IRBuilder(entry)
        self._error_block = None
        self._ticks_left = None
        self.deopt = DeoptPoints(self, table if table is not None else DeoptTable(), function_index)

    # ---- representations --------------------------------------------------------------------------------------
    def _find_reprs(self) -> None:
        self.reprs = value_reprs(self.fn, self.cold_blocks)
        self.reprs.update(native_lists.native_list_reprs(self.fn, self.reprs, self.cold_blocks))

    def repr(self, value) -> Repr:
        if isinstance(value, Constant):
            found = repr_of(type_of_value(value.value))
            if found is None:
                self.not_native(f"constant {value.value!r:.40}")
            return found
        return self.reprs[value]

    def counted(self, value) -> bool:
        if isinstance(value, Constant) or value is UNDEFINED or value in self.deferred:
            return False
        found = self.reprs.get(value)
        if found is None:
            return False
        if isinstance(found, IterR):
            return iterators.holds_references(self, value)
        return found.refcounted

    def not_native(self, what: str):
        raise NotNative(what, self.line)

    # ---- values -------------------------------------------------------------------------------------------------
    def get(self, value) -> ir.Value:
        if isinstance(value, Constant):
            return self.constant(value.value, self.repr(value))
        if value is UNDEFINED:
            self.not_native("a variable that may be unbound")
        return self.values[value]

    def constant(self, python_value, representation: Repr) -> ir.Value:
        return conversions.constant(self, python_value, representation)

    def set(self, value, llvm_value: ir.Value) -> None:
        self.values[value] = llvm_value

    # ---- object identity of numbers --------------------------------------------------------------------------------
    def origin(self, value, representation: Repr | None = None) -> ir.Value:
        """The position of the argument whose object the float or int ``value`` is (CPython hands that object on:
        ``f(x) is x``, ``x if x > y else y``), or -1 where it was computed or its representation changes to
        ``representation``. An argument's own position; a φ's or a native call's as they were lowered."""
        if representation is not None and self.repr(value) != representation:
            return ir.Constant(I32, -1)
        if isinstance(value, Argument) and isinstance(self.reprs.get(value), (IntR, FloatR)):
            return ir.Constant(I32, value.index)
        return self.origins.get(value, ir.Constant(I32, -1))

    def object_of(self, value, representation: Repr) -> ir.Value | None:
        """The object CPython would hold for ``value`` stored as ``representation``: the caller's object of the
        argument it is (a borrowed reference, NULL at run time where that argument was computed by a native
        caller), or None when it is surely a computed number."""
        if isinstance(value, Constant) or value is UNDEFINED:
            return None
        origin = self.origin(value, representation)
        if isinstance(origin, ir.Constant):
            return self.argument_objects.get(origin.constant)
        found = ir.Constant(PTR, None)
        for position, obj in self.argument_objects.items():
            found = self.b.select(self.b.icmp_signed("==", origin, ir.Constant(I32, position)), obj, found)
        return found

    # ---- reference counting -------------------------------------------------------------------------------------
    def incref(self, llvm_value: ir.Value, representation: Repr, times: int = 1) -> None:
        if isinstance(representation, (ListR, BoxedTupleR, NListR)):
            for _ in range(times):
                self.rt.call(self.b, "mj_incref", llvm_value)
        elif isinstance(representation, TupleR):
            for i, item in enumerate(representation.items):
                if item.refcounted:
                    self.incref(self.b.extract_value(llvm_value, i), item, times)

    def decref(self, llvm_value: ir.Value, representation: Repr | None) -> None:
        """Release references held by ``llvm_value`` (``None``: a plain object reference)."""
        if isinstance(representation, NListR):
            native_lists.release(self, llvm_value)
        elif representation is None or isinstance(representation, (ListR, BoxedTupleR)):
            self.rt.call(self.b, "mj_decref_cold" if self.cold else "mj_decref", llvm_value)
        elif isinstance(representation, TupleR):
            for i, item in enumerate(representation.items):
                if item.refcounted:
                    self.decref(self.b.extract_value(llvm_value, i), item)

    def release(self, value) -> None:
        """Drop the reference owned by SSA value ``value``."""
        self.owned.pop(value, None)
        self._drop(value)

    def _drop(self, value) -> None:
        if isinstance(self.reprs[value], IterR):
            self.iterators[value].release(self)
        else:
            self.decref(self.values[value], self.reprs[value])

    def retain(self, value, times: int = 1) -> None:
        if isinstance(self.reprs[value], IterR):
            self.iterators[value].retain(self, times)
        else:
            self.incref(self.values[value], self.reprs[value], times)

    def own(self, value) -> None:
        if self.counted(value):
            self.owned[value] = None

    # ---- failure paths ------------------------------------------------------------------------------------------
    def new_block(self, name: str) -> ir.Block:
        return self.function.append_basic_block(name)

    def fail_block(self, temporaries=()) -> ir.Block:
        """Where to go when the current op has failed (exception set): add a traceback entry for the current
        line, release the owned values, return failure. ``temporaries`` are (llvm value, repr) pairs to drop
        too. Landings share their release code (see ``release_chain``), so failure paths stay small."""
        owned = tuple(sorted(self.owned, key=self.index.__getitem__))
        key = (self.line, owned)
        landing = self._landings.get(key)
        if landing is None:
            landing = self._landings[key] = self.new_block(f"fail.L{self.line}")
            with self.cold_code(landing):
                self.rt.call(self.b, "_PyTraceback_Add", self.rt.cstring(self.fn.name),
                             self.rt.cstring(self.fn.filename), ir.Constant(I32, self.line or 0))
                self.b.branch(self.release_chain(owned))
        if not temporaries:
            return landing
        cleanup = self.new_block(f"fail.tmp.L{self.line}")
        with self.cold_code(cleanup):
            for llvm_value, representation in temporaries:
                self.decref(llvm_value, representation)
            self.b.branch(landing)
        return cleanup

    def release_chain(self, owned: tuple) -> ir.Block:
        """Release ``owned`` newest first, then return failure: the chain for a set ends in the chain for the
        set without its newest value, which other landings share."""
        if not owned:
            return self._error_return()
        chain = self._chains.get(owned)
        if chain is None:
            chain = self._chains[owned] = self.new_block("release")
            with self.cold_code(chain):
                self._drop(owned[-1])
                self.b.branch(self.release_chain(owned[:-1]))
        return chain

    @contextlib.contextmanager
    def cold_code(self, block: ir.Block):
        """Emit into ``block`` with out-of-line reference releases, then come back."""
        saved, was_cold = self.b.block, self.cold
        self.b.position_at_end(block)
        self.cold = True
        try:
            yield
        finally:
            self.cold = was_cold
            self.b.position_at_end(saved)

    def _error_return(self) -> ir.Block:
        """The function's shared "failed" return (filled in at the end, see ``_finish_error_return``)."""
        if self._error_block is None:
            self._error_block = self.new_block("failed")
        return self._error_block

    def _finish_error_return(self) -> None:
        """Leave the recursive call, and when it is safe give a deoptimised result that fits back as a normal
        return (``deopt.DeoptPoints.takes_back``)."""
        if self._error_block is None:
            return
        self.b.position_at_end(self._error_block)
        if self.sig.recursive:
            self.rt.call(self.b, "mj_leave_recursion", self.recursion_count)
        if self.deopt.takes_back(self.return_repr):
            self.deopt.take_back(self.return_repr)
        self.return_failed()

    def return_failed(self) -> None:
        """Return "failed": an exception is set, or the function deoptimised (its result in ``@mj_deopt_value``)."""
        result = ir.Constant(self.function.return_value.type, ir.Undefined)
        self.b.ret(self.b.insert_value(result, ir.Constant(I1, 1), 1))

    def branch_unless(self, failed: ir.Value, target: ir.Block) -> None:
        """Continue in a new block when ``failed`` is false, else go to ``target``."""
        go_on = self.new_block("ok")
        branch = self.b.cbranch(failed, target, go_on)
        branch.set_weights([1, 1000])
        self.b.position_at_end(go_on)

    def guard(self, failed: ir.Value, exception: type, message: str) -> None:
        """Raise ``exception(message)`` when ``failed`` is true."""
        landing = self.fail_block()
        key = (exception, message, landing)
        raise_block = self._raises.get(key)
        if raise_block is None:
            raise_block = self._raises[key] = self.new_block(f"raise.{exception.__name__}")
            with self.cold_code(raise_block):
                self.rt.call(self.b, "mj_raise", self.rt.exception_type(self.b, exception), self.rt.cstring(message))
                self.b.branch(landing)
        self.branch_unless(failed, raise_block)

    def guard_null(self, pointer: ir.Value, temporaries=()) -> ir.Value:
        """A C-API result that is NULL on failure (exception set)."""
        self.branch_unless(self.b.icmp_unsigned("==", pointer, ir.Constant(PTR, None)),
                           self.fail_block(temporaries))
        return pointer

    def guard_status(self, status: ir.Value, temporaries=()) -> None:
        """A C-API int result that is negative on failure (exception set)."""
        self.branch_unless(self.b.icmp_signed("<", status, ir.Constant(status.type, 0)),
                           self.fail_block(temporaries))

    def deoptimize_if(self, condition: ir.Value, counted: bool = True) -> None:
        """Continue in the interpreter from the current op when ``condition`` holds (its result has no native
        form, e.g. an int beyond 64 bits); the op must not have changed anything yet. (It may start a little
        earlier, see ``deopt.DeoptPoints.redo_from``.) ``counted``: the continuation counts towards demotion
        (it says something about the values the specialisation meets)."""
        start = self.deopt.redo_from(self.block, self.position)
        self.branch_unless(condition, self.deopt.site(self.block, start, counted=counted))

    def ticks_left(self) -> ir.Value:
        """The stack slot of the loops' countdown to the next look at the interpreter's flags (``LoopTick``)."""
        if self._ticks_left is None:
            builder = ir.IRBuilder(self.function.entry_basic_block)
            builder.position_at_start(self.function.entry_basic_block)
            self._ticks_left = builder.alloca(I32, name="ticks_left")
            builder.store(ir.Constant(I32, TICK_EVERY), self._ticks_left)
        return self._ticks_left

    @contextlib.contextmanager
    def when_count_is_down(self, counter: ir.Value):
        """Count ``counter`` (an i32 in memory) down; the body is emitted in a cold block reached every
        ``TICK_EVERY`` counts (the counter reset), which must end by branching to the block yielded."""
        b = self.b
        left = b.sub(b.load(counter, typ=I32), ir.Constant(I32, 1))
        b.store(left, counter)
        due, after = self.new_block("tick"), self.new_block("tick.after")
        b.cbranch(b.icmp_signed("<=", left, ir.Constant(I32, 0)), due, after).set_weights([1, 1000])
        with self.cold_code(due):
            b.store(ir.Constant(I32, TICK_EVERY), counter)
            yield after
        b.position_at_end(after)

    @functools.cached_property
    def holds_shared_state(self) -> bool:
        """Whether this code relies on state other Python code could change while it lets that code run: list
        items read without checks (a list of ints stays one), array buffers, globals read once by the entry."""
        return bool(self.globals) or any(isinstance(r, (ListR, ArrayR)) for r in self.reprs.values())

    def deoptimize_after(self, condition: ir.Value, value, kind: str) -> None:
        """Continue in the interpreter after the current op, whose result ``value`` (of kind ``kind``, see
        ``deopt.DeoptPoints._given``) has no native form, when ``condition`` holds (or from the op itself or a
        little earlier when it only computes numbers, see ``deopt.DeoptPoints.redo_from``)."""
        start = self.deopt.redo_from(self.block, self.position + 1, given=self.block.ops[self.position])
        result = (self.block.ops[self.position], value, kind) if start == self.position + 1 else None
        self.branch_unless(condition, self.deopt.site(self.block, start, result=result))

    # ---- the walk -------------------------------------------------------------------------------------------------
    def lower(self) -> None:
        for arg, llvm_arg in zip(self.fn.args, self.function.args):
            llvm_arg.name = arg.name
            self.set(arg, llvm_arg)
        if self.sig.recursive:
            self._enter_recursive_call()
        for arg in self.fn.args:
            if self.counted(arg) and arg in self.live.live_in[self.fn.entry]:
                self.retain(arg)
                self.owned[arg] = None
        self.b.branch(self.blocks[self.fn.entry])
        for block in self.blocks:
            self._create_phis(block)
        for block in reverse_postorder(self.fn.entry, Block.successors):
            if block not in self.cold_blocks:
                self._lower_block(block)
        for llvm_phi, llvm_block, value in self._pending_phis:
            llvm_phi.add_incoming(value, llvm_block)
        self._finish_error_return()

    def alloca(self, kind: ir.Type, name: str = "") -> ir.Value:
        """A stack slot in the entry block (so the optimiser turns it into registers)."""
        builder = ir.IRBuilder(self.function.entry_basic_block)
        builder.position_at_start(self.function.entry_basic_block)
        return builder.alloca(kind, name=name)

    def _enter_recursive_call(self) -> None:
        """Functions on a call cycle count against the recursion limit, like Python frames (RecursionError as in
        CPython); every exit then leaves the recursive call. When the C stack is nearly used up (a limit raised
        with sys.setrecursionlimit) the call continues in the interpreter instead, where deeper calls take no C
        stack: the recursion goes on as far as CPython's would."""
        b = self.b
        status = self.rt.call(b, "mj_enter_recursion", self.recursion_count)
        stopped = self.new_block("recursion.stopped")
        self.branch_unless(b.icmp_signed("!=", status, ir.Constant(I32, 0)), stopped)
        go_on = b.block
        with self.cold_code(stopped):
            too_deep = self.new_block("recursion.error")
            b.cbranch(b.icmp_signed("==", status, ir.Constant(I32, 1)), too_deep,
                      self.deopt.site(self.fn.entry, 0, exhausted=True, leaves_recursion=False))
            b.position_at_end(too_deep)
            self.return_failed()
        b.position_at_end(go_on)
        if not self.holds_shared_state:        # a native call cycle meets no eval loop: its entries tick too
            ticks = self.rt.module.globals.get("mj_call_ticks") or ir.GlobalVariable(self.rt.module, I32,
                                                                                       "mj_call_ticks")
            with self.when_count_is_down(ticks) as after:
                self.guard_status(self.rt.call(b, "mj_loop_breaker"))
                b.branch(after)

    def _create_phis(self, block) -> None:
        """φ nodes first, for every block: an edge may reach a block before it is lowered."""
        self.b.position_at_end(self.blocks[block])
        for phi in block.phis:
            representation = self.reprs[phi]
            if isinstance(representation, UnitR):
                self.set(phi, ir.Constant(I8, 0))
            else:
                self.set(phi, self.b.phi(representation.llvm, name=f"phi{self.index[phi]}"))
            if isinstance(representation, (IntR, FloatR)):
                self.origins[phi] = self.b.phi(I32, name=f"origin{self.index[phi]}")

    def _lower_block(self, block) -> None:
        self.b.position_at_end(self.blocks[block])
        self.owned = {v: None for v in sorted(self.live.live_in[block], key=self.index.__getitem__)}
        for phi in block.phis:
            self.own(phi)
        for phi in block.phis:
            if self.counted(phi) and self.live.dies_at(block, phi, -1):
                self.release(phi)
        self.block = block
        for position, op in enumerate(block.ops):
            self.line = self.inlined_at.get(op) or op.line or self.line
            self.position = position
            result = self._lower_op(op)
            if result is not None:
                self.set(op, result)
            elif op not in self.values:
                self.set(op, ir.Constant(I8, 0))
            self.own(op)
            for value in list(self.owned):
                if self.live.dies_at(block, value, position):
                    self.release(value)
        term = block.terminator
        self.line = self.inlined_at.get(term) or term.line or self.line
        self.position = len(block.ops)
        self._lower_terminator(block, term)

    def _lower_op(self, op: Op):
        if op in self.deferred:
            return ir.Constant(I8, 0)             # emitted by the op it is fused into
        if fusion.is_root(op, self.reprs):
            return fusion.lower_fused(self, op)
        handler = OP_LOWERING.get(type(op))
        if handler is None:
            self.not_native(f"'{op.NAME}'")
        return handler(self, op)

    # ---- edges and terminators ------------------------------------------------------------------------------------
    def edge(self, pred, succ, extra_owned=()) -> ir.Block:
        """The LLVM block to branch to for the edge pred → succ, and succ's φ inputs from it. The edge gets a
        block of its own when it has work to do: releasing values succ does not need, adding references for φs
        that take a value which stays live. Call it with the builder in pred's last block, before branching.
        An edge into a cold block goes to the deoptimisation site at its first op: the interpreter runs the error
        path (``cold_paths``)."""
        if succ in self.cold_blocks:
            return self.deopt.site(succ, 0)
        owned = list(self.owned) + [v for v in extra_owned if v not in self.owned]
        needed = self.live.edge_live(pred, succ)
        drop = [v for v in owned if v not in needed]
        extra = {v: self.live.owners_after_edge(pred, succ, v) - 1 for v in owned if v in needed}
        extra = {v: n for v, n in extra.items() if n > 0}
        saved = self.b.block
        target = self.blocks[succ]
        if drop or extra:
            target = self.new_block(f"edge.B{pred.label}.B{succ.label}")
            self.b.position_at_end(target)
            for value, times in extra.items():
                self.retain(value, times)
            for value in drop:
                self._drop(value)
        for phi in succ.phis:
            if not isinstance(self.reprs[phi], UnitR):
                self._pending_phis.append((self.values[phi], self.b.block,
                                           self._phi_input(phi.incoming[pred], phi)))
            if phi in self.origins:
                self._pending_phis.append((self.origins[phi], self.b.block,
                                           self._origin_input(phi.incoming[pred], phi)))
        if target is not self.blocks[succ]:
            self.b.branch(self.blocks[succ])
            self.b.position_at_end(saved)
        return target

    def _origin_input(self, value, phi) -> ir.Value:
        if value is UNDEFINED or isinstance(value, Constant):
            return ir.Constant(I32, -1)
        return self.origin(value, self.reprs[phi])

    def _phi_input(self, value, phi) -> ir.Value:
        target = self.reprs[phi]
        if value is UNDEFINED:
            return ir.Constant(target.llvm, None if self.counted(phi) else ir.Undefined)
        if isinstance(value, Constant):
            return self.constant(value.value, target)
        return conversions.coerce(self, self.get(value), self.repr(value), target)

    def _lower_terminator(self, block, term) -> None:
        handler = TERMINATOR_LOWERING.get(type(term))
        if handler is None:
            self.not_native(f"'{term.NAME}'")
        handler(self, block, term)

    def _lower_jump(self, block, term) -> None:
        self.b.branch(self.edge(block, term.target))

    def _lower_branch(self, block, term) -> None:
        if term.if_true is term.if_false:
            self.b.branch(self.edge(block, term.if_true))
            return
        cond = truth.truth(self, term.cond)
        on_true = self.edge(block, term.if_true)
        on_false = self.edge(block, term.if_false)
        self.b.cbranch(cond, on_true, on_false)

    def _lower_raise(self, block, term) -> None:
        calls.lower_raise(self, term)

    def _lower_return(self, block, term) -> None:
        value = term.value
        representation = self.repr(value)
        llvm_value = self.get(value)
        if self.counted(value):
            self.owned.pop(value)
        for other in list(self.owned):
            self.release(other)
        result_value = conversions.coerce(self, llvm_value, representation, self.return_repr)
        if self.sig.recursive:
            self.rt.call(self.b, "mj_leave_recursion", self.recursion_count)
        result = ir.Constant(self.function.return_value.type, ir.Undefined)
        result = self.b.insert_value(result, result_value, 0)
        origin = ir.Constant(I32, -1) if isinstance(value, Constant) else self.origin(value, self.return_repr)
        result = self.b.insert_value(result, origin, 2)
        self.b.ret(self.b.insert_value(result, ir.Constant(I1, 0), 1))


def settle_cold_blocks(sig: Signature) -> None:
    """``sig.cold``: its error paths that native code cannot run (``cold_paths.cold_blocks``), from the types
    native inference gave."""
    sig.cold = cold_blocks(sig.ir, sig.error_paths, _representable, _calls_python)


def _representable(value) -> bool:
    """Whether native code has a representation for ``value`` (as ``value_reprs`` requires)."""
    return isinstance(value, ops.Terminator) and not isinstance(value, ops.ForIter) or \
        value.type is not None and repr_of(value.type) is not None


def _calls_python(op) -> bool:
    """A call of a Python function (in an error path it is not a native callee: the interpreter makes it)."""
    return isinstance(op.func, Constant) and python_callee(op.func.value) is not None


def value_reprs(fn, cold: frozenset = frozenset()) -> dict:
    """The representation of every value of ``fn`` outside the ``cold`` blocks (``cold_paths``); NotNative
    names the first value (in block order) without one, at its source line: the first such operation, where the
    Python object comes from, before a variable or an argument it flows into."""
    reprs = {}
    missing = []
    for value in fn.values():
        if isinstance(value, ops.Terminator) and not isinstance(value, ops.ForIter) or in_cold_block(value, cold):
            continue
        found = repr_of(value.type) if value.type is not None else None
        if found is None:
            missing.append(value)
            continue
        reprs[value] = found
        if isinstance(found, IterR) and not iterators.only_looped_over(fn, value):
            raise NotNative("an iterator used other than by a for loop", getattr(value, "line", None))
    if missing:
        value = next((v for v in missing if not isinstance(v, (Phi, Argument)) and getattr(v, "line", None)),
                     missing[0])
        line = getattr(value, "line", None) or fn.firstlineno
        raise NotNative(f"{_describe(value)}, whose value is {python_type(value.type)},", line)
    return reprs


# What an op is in the terms of the Python the user wrote, for refusals (an IR op name says nothing to them).
PYTHON_TERMS = {
    "binary_op": "the arithmetic", "unary_op": "the unary operation", "compare": "the comparison",
    "load_global": "the global variable", "load_deref": "the closure variable", "import_name": "the import",
    "import_from": "the import", "load_attr": "the attribute access (obj.name)",
    "get_item": "the subscript (obj[key])", "build_slice": "the slice", "call": "the call",
    "call_method": "the method call", "call_ex": "the call with *args/**kwargs",
    "make_function": "the nested function or lambda", "build_tuple": "the tuple", "build_list": "the list display",
    "build_set": "the set display", "build_map": "the dict display ({...})", "build_string": "the f-string",
    "format_value": "the f-string field", "list_to_tuple": "the tuple display", "unpack_sequence": "the unpacking",
    "unpack_ex": "the starred unpacking", "extract_item": "the unpacked item", "get_iter": "the iteration",
    "caught_exception": "the caught exception", "before_with": "the with statement",
    "with_except_start": "the with statement", "check_bound": "the variable", "for_iter": "the loop item",
}


def python_type(t) -> str:
    """A type as the user knows it: 'a str', 'a list', 'a Python object of unknown type'."""
    if t is None or t == OBJECT:
        return "a Python object of unknown type"
    name = str(t).partition("[")[0]
    return f"{'an' if name[:1] in 'aeiou' else 'a'} {name}"


def _describe(value) -> str:
    if isinstance(value, Argument):
        return f"argument '{value.name}'"
    if isinstance(value, Phi):
        return f"variable '{value.var}'" if value.var else "a value merged from several branches"
    return PYTHON_TERMS.get(value.NAME, f"the operation '{value.NAME}'")


# ---- ops that several modules lower --------------------------------------------------------------------------
SEQUENCE_KINDS = (ListR, NListR, TupleR, BoxedTupleR)


def lowering_module(low, op):
    """The module whose ``OPS`` lowers ``op``, for the op types several modules lower, by the kind of values it
    works on: numbers (``arith``, ``comparisons``), list and tuple objects, ranges and arrays (``sequences``),
    native lists (``native_list_ops``)."""
    if isinstance(op, ops.BinaryOp):
        left, right = low.repr(op.left), low.repr(op.right)
        if not (isinstance(left, SEQUENCE_KINDS) or isinstance(right, SEQUENCE_KINDS)):
            return arith
        native = isinstance(low.reprs[op], NListR)
    elif isinstance(op, ops.Compare):
        if op.op not in ("in", "not in"):
            return comparisons
        low.repr(op.left)               # an item without a native form is named before its container
        native = isinstance(low.repr(op.right), NListR)
    elif isinstance(op, (ops.GetItem, ops.SetItem)):
        native = isinstance(low.repr(op.obj), NListR)
    elif isinstance(op, ops.ListAppend):
        native = isinstance(low.repr(op.target), NListR)
    elif isinstance(op, ops.ListExtend):
        native = isinstance(low.repr(op.target), NListR) and isinstance(low.repr(op.iterable), NListR)
    else:                               # build_list
        native = isinstance(low.reprs[op], NListR)
    return native_list_ops if native else sequences


def _lower_by_kind(low, op):
    return lowering_module(low, op).OPS[type(op)](low, op)


def _lower_load_global(low, op):
    return low.globals[op.name]              # read once by the entry, its type checked there (``global_reads``)


def _lower_loop_tick(low, op):
    """A loop's back-edge (``passes/loop_ticks.py``): count down; every ``TICK_EVERY`` look at the interpreter's
    flags and do what CPython's eval loop does (``mj_loop_breaker``: signal handlers, the GIL to a thread that
    asked). Code that holds what a handler could change under it (list items read without checks, globals read
    once by the entry) continues in the interpreter instead when a signal waits, whose own eval loop then runs
    the handler; it keeps the GIL when a thread asks (the continuation would run the rest of the call a thousand
    times slower than native code), as it did before ticks: the thread waits until the call returns."""
    b = low.b
    with low.when_count_is_down(low.ticks_left()) as after:
        if low.holds_shared_state:
            signals = low.rt.call(b, "mj_signals_flag")
            low.deoptimize_if(b.icmp_unsigned("!=", signals, ir.Constant(I32, 0)), counted=False)
        else:
            low.guard_status(low.rt.call(b, "mj_loop_breaker"))
        b.branch(after)
    return ir.Constant(I8, 0)


def _lower_release(low, op):
    """Nothing to do: native values free nothing observable; a native list's reference goes where its owner's
    analysis (``refcount``) drops it, and freeing a list of numbers runs no code."""
    return ir.Constant(I8, 0)


OP_LOWERING = {**arith.OPS, **comparisons.OPS, **sequences.OPS, **iterators.OPS, **calls.OPS,
               ops.LoadGlobal: _lower_load_global, ops.Release: _lower_release, ops.FrameEnd: _lower_release,
               ops.LoopTick: _lower_loop_tick}
OP_LOWERING.update(dict.fromkeys(native_list_ops.OPS, _lower_by_kind))     # every op type native lists have

# Ops with no native form: a function using one is not native ('auto' gives it to the Cython backend).
REFUSED_OPS = {
    ops.MatchSequence: "match statements are left to the Cython backend",
    ops.MatchMapping: "match statements are left to the Cython backend",
    ops.MatchClass: "class patterns read Python attributes",
    ops.MatchKeys: "mapping patterns call the mapping's get method",
    ops.LoadDeref: "closure cells are Python objects",
    ops.Yield: "generators are Python objects", ops.YieldFrom: "generators are Python objects",
    ops.Await: "coroutines are Python objects",
    ops.AwaitSelf: "coroutines are Python objects",
    ops.CallSelf: "a call bound to the Cython module's own body",
    ops.GetAIter: "async for iterates Python objects",
    ops.GetANext: "async for iterates Python objects",
    ops.SuperCallMethod: "super() looks the method up in a Python class's MRO",
    ops.StoreGlobal: "global writes change the module dict whose globals the native entry reads once",
    ops.DeleteGlobal: "global writes change the module dict whose globals the native entry reads once",
    ops.ImportName: "imports run Python's import system",
    ops.ImportFrom: "imports run Python's import system",
    ops.StoreAttr: "attributes are Python objects",
    ops.DelAttr: "attributes are Python objects",
    ops.DelItem: "deleting items changes Python containers",
    ops.CallEx: "f(*args, **kwargs) builds Python argument containers",
    ops.MethodIs: "method guards read Python classes and instances",
    ops.SuperIs: "method guards read Python classes and instances",
    ops.RaiseIsCaught: "raise guards read Python classes",
    ops.MakeFunction: "nested functions are Python objects",
    ops.MakeClosure: "nested functions are Python objects",
    ops.MakeCell: "closure cells are Python objects",
    ops.LoadCell: "closure cells are Python objects",
    ops.CellGet: "closure cells are Python objects",
    ops.CellSet: "closure cells are Python objects",
    ops.CellDelete: "closure cells are Python objects",
    ops.BuildSet: "sets are Python objects",
    ops.BuildMap: "dicts are Python objects",
    ops.BuildString: "f-strings build Python str objects",
    ops.FormatValue: "formatting builds Python str objects",
    ops.ListToTuple: "tuples built from lists are Python objects",
    ops.SetAdd: "sets are Python objects",
    ops.SetUpdate: "sets are Python objects",
    ops.MapAdd: "dicts are Python objects",
    ops.DictUpdate: "dicts are Python objects",
    ops.DictMerge: "dicts are Python objects",
    ops.UnpackEx: "starred unpacking builds a Python list",
    ops.CaughtException: "exception handlers need Python's exception state",
    ops.PushExcInfo: "exception handlers need Python's exception state",
    ops.PopExcept: "exception handlers need Python's exception state",
    ops.CheckExcMatch: "exception handlers need Python's exception state",
    ops.BeforeWith: "with-statements call Python context managers",
    ops.WithExceptStart: "with-statements call Python context managers",
}

TERMINATOR_LOWERING = {
    ops.Jump: FunctionLowering._lower_jump,
    ops.Branch: FunctionLowering._lower_branch,
    ops.ForIter: iterators.lower_for_iter,
    ops.Return: FunctionLowering._lower_return,
    ops.Raise: FunctionLowering._lower_raise,
}
REFUSED_TERMINATORS = {ops.Reraise: "re-raising needs Python's exception state (handlers are not native)"}

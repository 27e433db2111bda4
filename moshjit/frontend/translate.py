"""Stack → register translation: simulate CPython's value stack symbolically over the bytecode CFG and emit SSA.

Every local and every stack slot is an SSA variable (``SSABuilder``); blocks are translated in a loop-contiguous
reverse postorder so that a loop is sealed before the code after it reads values that crossed it. Comprehensions
(nested code objects on 3.11; 3.12 inlines them itself) and generator expressions are translated inline into the
same function. Stack entries that are not values (the NULL of a call, a method reference, a comprehension about
to be called, a truth value for the next jump, …) travel as markers and must be consumed by the instruction that
expects them. Only neutral instructions (``decode.NEUTRAL_OPS``) reach this module: it never asks which CPython
runs.
"""
from __future__ import annotations

import builtins
import functools
import inspect
import itertools
import sys
import types

from moshjit import cpython
from moshjit.errors import UnsupportedError, code_columns
from moshjit.frontend.cfg import BytecodeBlock, BytecodeCFG
from moshjit.frontend.consumers import Consumer, choose_consumer
from moshjit.frontend.decode import Instr, decode
from moshjit.frontend.markers import (NULL, CellRef, ClosureTuple, ComprehensionFunction, MethodRef,
                                      PendingGenerator, Truth)
from moshjit.frontend.ssa_builder import SSABuilder, local_holder
from moshjit.functions import builtins_of
from moshjit.ir import ops
from moshjit.ir.function import Block, Function
from moshjit.ir.ops import UNDEFINED, Constant, Phi, Value
from moshjit.primitives.namespaces import call_in_frame, frame_globals, frame_locals

COMPREHENSION_NAMES = {"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"}

# f-string conversions (``!s``, ``!r``, ``!a``) when they come as an instruction of their own.
CONVERTERS = {"s": str, "r": repr, "a": ascii}

# Builtins that read the calling frame when called with fewer positional arguments than this: they get the
# function's namespace and a dict of its locals (``frame_namespace_call``).
FRAME_INSPECTING_BUILTINS = {"locals": 1, "vars": 1, "dir": 1, "eval": 2, "exec": 2}
FRAME_READERS = {*FRAME_INSPECTING_BUILTINS, "globals"}


@functools.cache
def stack_readers() -> dict:
    """Functions that read the Python call stack, which compiled code does not keep (a jitted call has no frame
    of its own): called from it they would find the frame of some caller outside, or none. Keyed by identity."""
    import traceback
    found = {sys._getframe: "sys._getframe", inspect.currentframe: "inspect.currentframe",
             inspect.stack: "inspect.stack", traceback.extract_stack: "traceback.extract_stack",
             traceback.format_stack: "traceback.format_stack", traceback.print_stack: "traceback.print_stack"}
    if hasattr(sys, "_getframemodulename"):                  # 3.12
        found[sys._getframemodulename] = "sys._getframemodulename"
    return {id(function): name for function, name in found.items()}


# ---- scopes ----------------------------------------------------------------------------------------------------
class Scope:
    """One code object being translated: its variable keys, how its free variables map, where it returns."""

    _ids = itertools.count()

    def __init__(self, code: types.CodeType, free_map: dict | None, mode: str, generators: frozenset = frozenset()):
        self.id = next(self._ids)
        self.code = code
        self.free_map = free_map      # freevar name -> variable key in the enclosing scope (None: real closure)
        self.mode = mode              # 'function', 'comprehension' or 'generator'
        # cell variables a nested function captures: their SSA variable holds a real cell object
        self.real_cells = {self.local(name) for name in closure_captures(code, generators)
                           if name in code.co_cellvars}

    def local(self, name: str):
        return ("local", self.id, name)

    def slot(self, i: int):
        return ("stack", self.id, i)


def closure_captures(code: types.CodeType, generators: frozenset = frozenset()) -> set[str]:
    """The variables of ``code`` that a nested function captures: those of nested code objects other than
    comprehensions (which are translated in place) — counting ``generators``, the generator expressions that
    become real generators — looking through comprehensions for what they pass on."""
    names: set[str] = set()
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_name in COMPREHENSION_NAMES and const not in generators:
                names |= closure_captures(const, generators) & set(const.co_freevars)
            else:
                names |= set(const.co_freevars)
    return names


class NeedsCells(Exception):
    """A generator expression becomes a real generator but captures variables translated as plain SSA values:
    the translation starts again with that expression counted among the closures (``build_ssa`` retries)."""

    def __init__(self, code: types.CodeType):
        super().__init__(code.co_qualname)
        self.code = code


class InlineExit:
    """Where an inlined scope's RETURN_VALUE (or short-circuit) goes: the continuation block and result."""

    def __init__(self, continuation: Block, result_var):
        self.continuation = continuation
        self.result_var = result_var


class Translator:
    """Translates one Python function (and the comprehensions it contains) into an SSA ``Function``."""

    def __init__(self, fn: Function, code: types.CodeType, generators: frozenset = frozenset()):
        self.fn = fn
        self.code = code
        self.generators = generators         # generator expressions that become real generators (their cells)
        self.ssa = SSABuilder(fn)
        self.var_ids = itertools.count()
        self.cell_vars: set = set()          # SSA variables holding a real cell (shared with nested functions)

    def new_var(self):
        """A fresh SSA variable key for values the frontend itself introduces (results of inlined code)."""
        return ("temp", next(self.var_ids))

    def translate(self) -> None:
        scope = Scope(self.code, None, "function", self.generators)
        entry = self.ssa.new_block()
        for arg in self.fn.args:
            self.ssa.write(scope.local(arg.name), entry, arg)
        self.ssa.seal(entry)
        unit = CodeUnit(self, scope, None, None)
        first = unit.first_block()
        entry.set_terminator(ops.Jump(first))
        self.ssa.add_edge(entry, first)
        unit.run()
        self.ssa.finish()


class CodeUnit:
    """The translation state of one code object: IR entry blocks, stack depths, sealing counters."""

    def __init__(self, translator: Translator, scope: Scope, inline_exit: InlineExit | None,
                 inherited_handler: Block | None, consumer: Consumer | None = None):
        self.t = translator
        self.ssa = translator.ssa
        self.scope = scope
        self.code = scope.code
        self.cfg = BytecodeCFG(*decode(self.code))
        self.inline_exit = inline_exit
        self.inherited_handler = inherited_handler
        translator.cell_vars |= scope.real_cells
        self.consumer = consumer                   # what an inlined generator expression's items feed
        self.entry_block: dict[BytecodeBlock, Block] = {}
        self.entry_depth: dict[BytecodeBlock, int] = {}
        self.pending = {bb: len(preds) for bb, preds in self.cfg.predecessors.items()}
        # state of the block being simulated
        self.block: Block | None = None
        self.stack: list = []
        self.raised = False              # the current IR block has an op that can raise
        self.raise_count = 0             # raising ops emitted so far (to see whether an instruction raised)
        self.instr: Instr | None = None
        self.saved_by_clear: dict = {}   # local -> values LOAD_FAST_AND_CLEAR saved, not yet stored back
        self.handler_entries = {bb.exceptional for bb in self.cfg.order if bb.exceptional is not None}
        self.bytecode_block: BytecodeBlock | None = None

    # ---- blocks ---------------------------------------------------------------------------------------------
    def ir_entry(self, bb: BytecodeBlock) -> Block:
        if bb not in self.entry_block:
            self.entry_block[bb] = self.ssa.new_block()
        return self.entry_block[bb]

    def first_block(self) -> Block:
        """The IR block of the code's first instruction; the caller jumps to it."""
        self.entry_depth[self.cfg.entry] = 0
        return self.ir_entry(self.cfg.entry)

    def run(self) -> None:
        """Translate every reachable bytecode block, sealing each IR entry once all its predecessors are done."""
        first = self.cfg.entry
        for bb in self.cfg.order:
            block = self.ir_entry(bb)
            if self.pending[bb] == 0:
                self.ssa.seal(block)
            if self.ssa.preds[block] or bb is first:
                self.simulate(bb)
            else:                                   # dead: nothing jumps here and nothing raises into it
                self.ssa.seal(block)
                self.t.fn.blocks.remove(block)
            for succ in bb.successors():
                self.pending[succ] -= 1
                if self.pending[succ] == 0 and succ in self.entry_block:
                    self.ssa.seal(self.entry_block[succ])

    def start_block(self, bb: BytecodeBlock) -> None:
        self.block = self.ir_entry(bb)
        self.block.handler = self.ir_entry(bb.exceptional) if bb.exceptional is not None else self.inherited_handler
        self.raised = False
        entry = next((p.handler for p in self.cfg.predecessors[bb] if p.exceptional is bb), None)
        if entry is None:
            self.stack = self.read_stack(self.entry_depth[bb])
            return
        if bb in self.entry_depth:
            self.unsupported("exception handler that is also reached by a jump")
        self.stack = self.read_stack(entry.depth)
        if entry.lasti:
            self.stack.append(Constant(None))          # f_lasti: only used by CPython to set the traceback line
        self.stack.append(self.emit(ops.CaughtException()))

    def read_stack(self, depth: int) -> list:
        return [self.ssa.read(self.scope.slot(i), self.block) for i in range(depth)]

    def end_block(self, terminator: ops.Terminator) -> None:
        """Terminate the current IR block, publish its stack to successors, keep the handler edge if needed."""
        block = self.block
        self.values_only(terminator)
        terminator.line = self.instr.line if self.instr is not None else self.code.co_firstlineno
        # a generator expression still waiting for its consumer cannot cross into a join: make it real here
        self.stack = [self.real_generator(v) if isinstance(v, PendingGenerator) else v for v in self.stack]
        block.set_terminator(terminator)
        for i, value in enumerate(self.stack):
            self.ssa.write(self.scope.slot(i), block, value)
        for succ in terminator.successors():
            self.ssa.add_edge(block, succ)
        if block.handler is not None:
            if self.raised or terminator.can_raise():
                self.ssa.add_edge(block, block.handler)
            else:
                block.handler = None
        self.block = None

    def goto_bytecode(self, bb: BytecodeBlock, depth: int) -> Block:
        """The IR block for a jump to ``bb`` arriving with ``depth`` stack entries."""
        known = self.entry_depth.setdefault(bb, depth)
        if known != depth:
            self.unsupported(f"inconsistent stack depth at a join ({known} vs {depth})")
        return self.ir_entry(bb)

    def new_block(self, handler: Block | None) -> Block:
        block = self.ssa.new_block()
        block.handler = handler
        return block

    def split(self) -> None:
        """End the current block here and continue in a fresh one (single predecessor, same handler)."""
        nxt = self.new_block(self.block.handler)
        self.end_block(ops.Jump(nxt))
        self.continue_in(nxt)

    def continue_in(self, block: Block) -> None:
        """Make ``block`` (whose predecessors are all known) current, keeping the simulated stack."""
        self.ssa.seal(block)
        self.block = block
        self.raised = False

    # ---- emission -------------------------------------------------------------------------------------------
    def emit(self, op: ops.Op) -> ops.Op:
        self.values_only(op)
        op.line = self.instr.line if self.instr is not None else self.code.co_firstlineno
        self.block.append(op)
        if op.can_raise():
            self.raised = True
            self.raise_count += 1
        return op

    def values_only(self, op: ops.Op) -> None:
        """Check that every operand of ``op`` is a value: a generator expression no consumer inlined becomes a
        real generator here; any other marker is a construct we cannot compile."""
        if all(isinstance(operand, Value) for operand in op.operands()):
            return
        op.map_operands(self.as_value)

    def as_value(self, entry) -> Value:
        if isinstance(entry, Value):
            return entry
        if isinstance(entry, PendingGenerator):
            return self.real_generator(entry)
        self.unsupported(entry.construct)

    def real_generator(self, pending: PendingGenerator) -> Value:
        """``(expr for x in it)`` as CPython makes it: a function of the generator expression's code, closing over
        the cells it captures, called with the iterator. Made once per expression, where it is first used."""
        if pending.value is None:
            function = pending.function
            if function.closure is None:
                maker = ops.MakeFunction(Constant(None), Constant(None), Constant(None), function.code)
            else:
                if any(ref.cell is None and ref.var[0] != "closure" for ref in function.closure.cells):
                    raise NeedsCells(function.code)
                cells = self.emit(ops.BuildTuple([self.cell_object(ref) for ref in function.closure.cells]))
                maker = ops.MakeClosure(Constant(None), Constant(None), cells, Constant(None), function.code)
            pending.value = self.emit(ops.Call(self.emit(maker), [self.as_value(pending.iterator)], ()))
        return pending.value

    def unsupported(self, construct: str):
        line = self.instr.line if self.instr is not None else self.code.co_firstlineno
        columns = code_columns(self.code, self.instr.offset, line) if self.instr is not None else None
        raise UnsupportedError(construct, self.code.co_filename, line, columns=columns)

    def pop(self):
        return self.stack.pop()

    def popn(self, n: int) -> list:
        if n == 0:
            return []
        items = self.stack[-n:]
        del self.stack[-n:]
        return items

    def push(self, value) -> None:
        self.stack.append(value)

    # ---- locals ---------------------------------------------------------------------------------------------
    def before_local_write(self) -> None:
        """Keep the invariant that a protected block's locals are the same at every point that can raise."""
        if self.raised and self.block.handler is not None:
            self.split()

    def read_local(self, var, name: str, kind: str) -> Value:
        value = self.ssa.read(var, self.block)
        if value is UNDEFINED or isinstance(value, Phi):
            value = self.emit(ops.CheckBound(value, name, kind))
        return value

    def store_local(self, var) -> None:
        """Pop the top of the stack into ``var`` (splitting first, so the split block still holds the value).
        Storing back what an inlined comprehension saved (CPython 3.12+) releases nothing: its last item goes
        when the variable is reused or the frame ends, as on 3.11, whose comprehension frames are not modelled."""
        self.stack[-1] = self.as_value(self.stack[-1])
        self.before_local_write()
        value = self.pop()
        previous = None if self.restores(var, value) or isinstance(value, (ops.Op, Phi)) \
            else self.ssa.read(var, self.block)
        self.t.fn.hold(value, local_holder(var))
        self.ssa.write(var, self.block, value)
        self.release(previous, var)

    def restores(self, var, value) -> bool:
        """Whether storing ``value`` into ``var`` stores back what an inlined comprehension saved. The restore
        after the loop ends the saving (a later ``x = a`` of the same value is the user's own store); the one in
        the comprehension's clean-up handler does not, and if it comes last its release goes with the handler
        (``bypass_reraise``)."""
        saved = self.saved_by_clear.get(var, [])
        for position, candidate in enumerate(saved):
            if candidate is value:
                if self.bytecode_block not in self.handler_entries:
                    del saved[position]
                return True
        return False

    def release(self, previous, var) -> None:
        """A local's computed value is no longer held by it (``ops.Release``). A value an op computes is
        written into the variable the local's values share, which releases the old one there already."""
        if isinstance(previous, (ops.Op, Phi)):
            self.emit(ops.Release(previous, var[2]))

    def deref_var(self, name: str):
        """The variable behind a cell or free variable of this scope, or None for a real closure cell."""
        if name in self.code.co_cellvars:
            return self.scope.local(name)
        if self.scope.free_map is not None:
            return self.scope.free_map[name]
        return None

    # ---- simulation -----------------------------------------------------------------------------------------
    def simulate(self, bb: BytecodeBlock) -> None:
        self.start_block(bb)
        self.bytecode_block = bb
        depth = bb.handler.depth if bb.handler is not None else None
        for ins in bb.instrs:
            self.instr = ins
            handler = getattr(self, "op_" + ins.op, None)
            if handler is None:
                self.unsupported(f"bytecode instruction {ins.op}")
            if depth is None or not self.raised:
                handler(ins, bb)
            else:
                self.simulate_protected(ins, bb, handler, depth)
            if self.block is None:
                return
        # fell off the end of the block: go to the next one
        succ = bb.normal[0]
        target = self.goto_bytecode(succ, len(self.stack))
        self.end_block(ops.Jump(target))

    def simulate_protected(self, ins: Instr, bb: BytecodeBlock, handler, depth: int) -> None:
        """Simulate ``ins`` after a raising op of a block whose exception handler keeps ``depth`` stack entries.

        The handler receives the stack as it is at the block's end, so those entries must not change after a
        point that can raise. CPython's exception table also covers non-raising shuffles (a SWAP or a POP_TOP
        at the end of a ``try``) that do change them: the block is then ended before the instruction.
        """
        if ins.op == "RETURN_VALUE" and len(self.stack) - 1 < depth:
            self.split()
            handler(ins, bb)
            return
        block, raises, before = self.block, self.raise_count, list(self.stack)
        handler(ins, bb)
        if self.block is not block or _same_prefix(before, self.stack, depth):
            return
        if self.raise_count != raises:
            self.unsupported(f"{ins.op} changing the stack kept by an exception handler")
        after, self.stack = self.stack, before
        nxt = self.new_block(block.handler)
        self.end_block(ops.Jump(nxt))
        self.continue_in(nxt)
        self.stack = after

    # constants and locals
    def op_LOAD_CONST(self, ins, bb):
        self.push(Constant(ins.arg))

    def op_LOAD_FAST(self, ins, bb):
        self.push(self.read_local(self.scope.local(ins.arg), ins.arg, "local"))

    def op_STORE_FAST(self, ins, bb):
        self.store_local(self.scope.local(ins.arg))

    def op_DELETE_FAST(self, ins, bb):
        var = self.scope.local(ins.arg)
        previous = self.read_local(var, ins.arg, "local")
        self.before_local_write()
        self.ssa.write(var, self.block, UNDEFINED)
        self.release(previous, var)

    def op_MAKE_CELL(self, ins, bb):
        """A cell only inlined comprehensions read is an ordinary SSA variable; one a nested function captures
        becomes a real cell, created from the variable's current value (an argument, or unbound)."""
        var = self.scope.local(ins.arg)
        if var not in self.t.cell_vars:
            return
        initial = self.ssa.read(var, self.block)
        if isinstance(initial, Phi):
            self.unsupported(f"cell variable '{ins.arg}' created where it may or may not be bound")
        self.before_local_write()
        self.ssa.write(var, self.block, self.emit(ops.MakeCell(initial)))

    def own_cell(self, name: str, var) -> ops.Op:
        """The cell object of a free variable of the jitted function itself."""
        index = var[2] if var is not None else self.code.co_freevars.index(name)
        return self.emit(ops.LoadCell(name, index))

    def deref_kind(self, name: str) -> str:
        return "local" if name in self.code.co_cellvars else "free"

    def op_LOAD_DEREF(self, ins, bb):
        var = self.deref_var(ins.arg)
        if var is None:
            index = self.code.co_freevars.index(ins.arg)
            self.push(self.emit(ops.LoadDeref(ins.arg, index)))
        elif var[0] == "closure":             # the jitted function's own closure, read from a comprehension
            self.push(self.emit(ops.LoadDeref(var[1], var[2])))
        elif var in self.t.cell_vars:
            self.push(self.emit(ops.CellGet(self.ssa.read(var, self.block), ins.arg, self.deref_kind(ins.arg))))
        else:
            self.push(self.read_local(var, ins.arg, self.deref_kind(ins.arg)))

    def op_STORE_DEREF(self, ins, bb):
        var = self.deref_var(ins.arg)
        if var is None or var[0] == "closure":      # nonlocal write to the jitted function's own closure
            self.emit(ops.CellSet(self.own_cell(ins.arg, var), self.pop()))
        elif var in self.t.cell_vars:
            self.emit(ops.CellSet(self.ssa.read(var, self.block), self.pop()))
        else:
            self.store_local(var)

    def op_DELETE_DEREF(self, ins, bb):
        var = self.deref_var(ins.arg)
        kind = self.deref_kind(ins.arg)
        if var is None or var[0] == "closure":
            self.emit(ops.CellDelete(self.own_cell(ins.arg, var), ins.arg, kind))
        elif var in self.t.cell_vars:
            self.emit(ops.CellDelete(self.ssa.read(var, self.block), ins.arg, kind))
        else:
            self.read_local(var, ins.arg, kind)
            self.before_local_write()
            self.ssa.write(var, self.block, UNDEFINED)

    def op_LOAD_CLOSURE(self, ins, bb):
        """A reference to a cell, for a comprehension to inline (its variable) or a nested function (the cell)."""
        var = self.deref_var(ins.arg)
        if var is None:                       # a cell of the jitted function's closure
            var = ("closure", ins.arg, self.code.co_freevars.index(ins.arg))
        cell = self.ssa.read(var, self.block) if var in self.t.cell_vars else None
        self.push(CellRef(var, cell))

    def cell_object(self, ref: CellRef) -> Value:
        """The cell object behind a LOAD_CLOSURE, for a nested function's closure tuple."""
        if ref.cell is not None:
            return ref.cell
        if ref.var[0] == "closure":
            return self.own_cell(ref.var[1], ref.var)
        self.unsupported("nested function capturing a variable moshjit keeps out of a cell")

    def op_LOAD_FAST_AND_CLEAR(self, ins, bb):
        """Save a local and unbind it (an inlined comprehension hides its variable this way): push its value, or
        UNDEFINED when it is unbound — nothing is checked, the saved value is only ever stored back."""
        var = self.scope.local(ins.arg)
        saved = self.ssa.read(var, self.block)
        self.saved_by_clear.setdefault(var, []).append(saved)
        self.push(saved)
        self.before_local_write()
        self.ssa.write(var, self.block, UNDEFINED)

    def op_LOAD_GLOBAL(self, ins, bb):
        self.push(self.emit(ops.LoadGlobal(ins.arg)))

    def op_STORE_GLOBAL(self, ins, bb):
        self.emit(ops.StoreGlobal(self.pop(), ins.arg))

    def op_DELETE_GLOBAL(self, ins, bb):
        self.emit(ops.DeleteGlobal(ins.arg))

    # stack shuffling
    def op_POP_TOP(self, ins, bb):
        self.pop()

    def op_PUSH_NULL(self, ins, bb):
        self.push(NULL)

    def op_COPY(self, ins, bb):
        self.push(self.stack[-ins.arg])

    def op_SWAP(self, ins, bb):
        self.stack[-1], self.stack[-ins.arg] = self.stack[-ins.arg], self.stack[-1]

    # operators
    def op_BINARY_OP(self, ins, bb):
        right, left = self.pop(), self.pop()
        symbol, inplace = ins.arg
        self.push(self.emit(ops.BinaryOp(left, right, symbol, inplace)))

    def op_UNARY(self, ins, bb):
        operand = self.pop()
        if isinstance(operand, Truth) and ins.arg == "not":
            operand = operand.value
        self.push(self.emit(ops.UnaryOp(operand, ins.arg)))

    def op_TO_BOOL(self, ins, bb):
        """The truth of the top of the stack, for the jump or ``not`` that follows. When that consumer is in the
        same block (same exception handler), it tests the value itself; otherwise ``bool()`` is called here, so
        that an exception from ``__bool__`` is raised where CPython raises it."""
        value = self.pop()
        if ins is bb.instrs[-1]:
            self.push(self.emit(ops.Call(Constant(bool), [value], ())))
        else:
            self.push(Truth(value))

    def op_COMPARE(self, ins, bb):
        right, left = self.pop(), self.pop()
        self.push(self.emit(ops.Compare(left, right, ins.arg)))

    # attributes, items, slices
    def op_LOAD_ATTR(self, ins, bb):
        self.push(self.emit(ops.LoadAttr(self.pop(), ins.arg)))

    def op_STORE_ATTR(self, ins, bb):
        obj, value = self.pop(), self.pop()
        self.emit(ops.StoreAttr(obj, value, ins.arg))

    def op_DELETE_ATTR(self, ins, bb):
        self.emit(ops.DelAttr(self.pop(), ins.arg))

    def op_BINARY_SUBSCR(self, ins, bb):
        key, obj = self.pop(), self.pop()
        self.push(self.emit(ops.GetItem(obj, key)))

    def op_STORE_SUBSCR(self, ins, bb):
        key, obj, value = self.pop(), self.pop(), self.pop()
        self.emit(ops.SetItem(obj, key, value))

    def op_DELETE_SUBSCR(self, ins, bb):
        key, obj = self.pop(), self.pop()
        self.emit(ops.DelItem(obj, key))

    def op_BUILD_SLICE(self, ins, bb):
        items = self.popn(ins.arg)
        start, stop, step = (items + [Constant(None)])[:3]
        self.push(self.emit(ops.BuildSlice(start, stop, step)))

    # calls
    def op_LOAD_METHOD(self, ins, bb):
        obj = self.pop()
        self.push(MethodRef(obj, ins.arg))
        self.push(obj)

    def op_LOAD_SUPER_ATTR(self, ins, bb):
        """``super().name`` / ``super(cls, obj).name`` with ``super``, ``cls`` and ``obj`` on the stack."""
        name, method, two_arguments = ins.arg
        obj, klass, super_ = self.pop(), self.pop(), self.pop()
        if two_arguments:
            args = [klass, obj]
        elif self.builtin_name(super_) != "super":
            args = []                                   # a global named super: CPython calls it without arguments
        elif self.scope.mode != "function":
            self.unsupported("super() without arguments outside a method")
        else:
            args = [klass, obj]
        bound = self.emit(ops.Call(super_, args, ()))
        if method:
            self.push(MethodRef(bound, name))
            self.push(bound)
        else:
            self.push(self.emit(ops.LoadAttr(bound, name)))

    def op_CALL(self, ins, bb):
        argc, kwnames = ins.arg
        self.call(argc, kwnames)

    def op_CALL_KW(self, ins, bb):
        names = self.pop()
        if not (isinstance(names, Constant) and isinstance(names.value, tuple)):
            self.unsupported("call with keyword names that are not a constant")
        self.call(ins.arg, names.value)

    def call(self, argc: int, kwnames: tuple) -> None:
        """CALL with ``argc`` arguments, the last ``len(kwnames)`` by keyword. Below them: NULL and the callable
        in either order, a method reference and self, or a callable and its first argument."""
        args = self.popn(argc)
        second, first = self.pop(), self.pop()
        if second is NULL:
            first, second = NULL, first
        reader = stack_readers().get(id(self.known_callee(first, second)))
        if reader is not None:
            self.unsupported(f"{reader}() (it reads the call stack, and a compiled call has no Python frame)")
        if isinstance(first, ComprehensionFunction):
            if first.code.co_name == "<genexpr>":
                self.push(PendingGenerator(first, second))
            else:
                self.inline_comprehension(first, second)
            return
        if any(isinstance(a, PendingGenerator) for a in args):
            if self.inline_generator_consumer(first, second, args, kwnames):
                return
        if first is NULL and not kwnames:
            reader = self.frame_reader(second)
            if reader == "globals" and not args and self.scope.mode != "function":
                self.push(self.emit(ops.Call(Constant(frame_globals), [second, Constant(self.t.fn.globals)], ())))
                return
            if reader in FRAME_READERS and len(args) < FRAME_INSPECTING_BUILTINS.get(reader, 1):
                self.push(self.frame_namespace_call(second, args, reader != "globals"))
                return
            if self.builtin_name(second) == "super" and not args:
                args = self.zero_argument_super()
        self.emit_call(first, second, args, kwnames)

    def frame_namespace_call(self, function, args: list, updates_frame_dict: bool) -> Value:
        """``locals()``, ``vars()``, ``dir()``, ``globals()``, ``eval(source)``, ``exec(source)``: CPython hands
        these the calling frame's locals or globals; compiled code has no frame, so the call goes through
        ``call_in_frame`` with the function's namespace and a dict of its bound locals as they are now
        (``frame_locals``), which it reads only if what the name holds when it runs reads the frame's locals."""
        if self.scope.mode != "function":
            self.unsupported("locals(), vars(), dir(), eval() or exec() reading the locals of a comprehension")
        namespace = self.frame_locals(updates_frame_dict)
        return self.emit(ops.Call(Constant(call_in_frame),
                                  [function, Constant(self.t.fn.globals), namespace, *args], ()))

    def frame_locals(self, updates_frame_dict: bool) -> Value:
        """A dict of the locals that are bound now, cells' and free variables' contents included, in CPython's
        order (its "fast locals": ``co_varnames``, the other cell variables, ``co_freevars``). Before CPython 3.13
        a frame keeps one such dict, updated at each call (a name unbound since is removed, other keys stay); it
        lives in a hidden variable here, which ``globals()`` leaves alone. From 3.13 on (PEP 667) each call makes
        a new dict."""
        code = self.code
        names = list(code.co_varnames)
        names += [name for name in code.co_cellvars if name not in names] + list(code.co_freevars)
        values, cells = [], []
        for index, name in enumerate(names):
            var = self.deref_var(name) if name in code.co_cellvars or name in code.co_freevars \
                else self.scope.local(name)
            if var is None or var[0] == "closure":
                values.append(self.own_cell(name, var))
                cells.append(index)
            else:
                values.append(self.ssa.read(var, self.block))
                if var in self.t.cell_vars:
                    cells.append(index)
        holder = ("frame locals", self.scope.id)
        one_dict = updates_frame_dict and not cpython.FRAME_LOCALS_SNAPSHOT
        previous = self.ssa.read(holder, self.block) if one_dict else UNDEFINED
        namespace = self.emit(ops.Call(Constant(frame_locals), [
            previous, UNDEFINED, Constant(tuple(names)), Constant(frozenset(cells)), *values], ()))
        if one_dict:
            self.before_local_write()
            self.ssa.write(holder, self.block, namespace)
        return namespace

    def zero_argument_super(self) -> list:
        """``super()`` reads the method's ``__class__`` cell and first argument from its frame: pass them."""
        code = self.code
        if self.scope.mode != "function" or "__class__" not in code.co_freevars or not code.co_argcount:
            self.unsupported("super() without arguments outside a method")
        klass = self.emit(ops.LoadDeref("__class__", code.co_freevars.index("__class__")))
        first = code.co_varnames[0]
        var = self.deref_var(first) or self.scope.local(first)
        if var in self.t.cell_vars:                 # the first argument is captured by a nested function
            return [klass, self.emit(ops.CellGet(self.ssa.read(var, self.block), first, "local"))]
        return [klass, self.read_local(var, first, "local")]

    def known_callee(self, first, second):
        """What a call's callable is when compiling, as far as a global or a module attribute tells (else None):
        ``f(...)``, ``module.f(...)``."""
        if first is NULL:
            return self.known_global(second)
        if isinstance(first, MethodRef):
            module = self.known_global(first.obj)
            return vars(module).get(first.name) if isinstance(module, types.ModuleType) else None
        return self.known_global(first)

    def known_global(self, value):
        """The object a global load (or an attribute of a module it loads) finds now, else None."""
        if isinstance(value, ops.LoadAttr):
            module = self.known_global(value.obj)
            return vars(module).get(value.name) if isinstance(module, types.ModuleType) else None
        if not isinstance(value, ops.LoadGlobal):
            return None
        globals_ = self.t.fn.globals
        return globals_[value.name] if value.name in globals_ else builtins_of(globals_).get(value.name)

    def frame_reader(self, value) -> str | None:
        """The name of the builtin that reads its caller's frame which a global load finds now, under its own name
        or another (``show = locals``): C code calling it would read some Python frame outside the function."""
        if not isinstance(value, ops.LoadGlobal):
            return None
        found = self.known_global(value)
        return next((name for name in FRAME_READERS if found is getattr(builtins, name)), None)

    def builtin_name(self, value) -> str | None:
        """The name of the builtin ``value`` loads, when it is a global load not shadowed by a module global."""
        if isinstance(value, ops.LoadGlobal) and value.name not in self.t.fn.globals and hasattr(builtins, value.name):
            return value.name
        return None

    def emit_call(self, first, second, args: list, kwnames) -> None:
        """CALL's three stack shapes: NULL + callable, method reference + self, callable + first argument."""
        if first is NULL:
            self.push(self.emit(ops.Call(second, args, tuple(kwnames))))
        elif isinstance(first, MethodRef):
            self.push(self.emit(ops.CallMethod(first.obj, args, first.name, tuple(kwnames))))
        else:
            self.push(self.emit(ops.Call(first, [second] + args, tuple(kwnames))))

    def op_CALL_FUNCTION_EX(self, ins, bb):
        kwargs = self.pop() if ins.arg & 1 else Constant(None)
        posargs = self.pop()
        above, below = self.pop(), self.pop()
        func = above if below is NULL else below if above is NULL else None
        if func is None:
            self.unsupported("call of an unexpected stack shape")
        self.push(self.emit(ops.CallEx(func, posargs, kwargs)))

    def op_LOAD_BUILD_CLASS(self, ins, bb):
        """A class statement calls ``__build_class__`` from the function's builtins with the class body as a plain
        function (made by the MAKE_FUNCTION that follows, closing over the cells it reads): CPython runs the body."""
        build_class = builtins_of(self.t.fn.globals).get("__build_class__")
        if build_class is None:
            self.unsupported("class definition where the builtins have no __build_class__")
        self.push(Constant(build_class))

    def op_MAKE_FUNCTION(self, ins, bb):
        code = self.pop().value
        flags = ins.arg
        closure = self.pop() if flags & 0x08 else None
        annotations = self.pop() if flags & 0x04 else Constant(None)     # a tuple: name, value, name, ...
        kwdefaults = self.pop() if flags & 0x02 else Constant(None)
        defaults = self.pop() if flags & 0x01 else Constant(None)
        if code.co_name in COMPREHENSION_NAMES:
            self.push(ComprehensionFunction(code, closure))
            return
        if closure is None:
            self.push(self.emit(ops.MakeFunction(defaults, kwdefaults, annotations, code)))
            return
        if not isinstance(closure, ClosureTuple):
            self.unsupported(f"nested function '{code.co_name}' with an unexpected closure")
        cells = self.emit(ops.BuildTuple([self.cell_object(ref) for ref in closure.cells]))
        self.push(self.emit(ops.MakeClosure(defaults, kwdefaults, cells, annotations, code)))

    # displays
    def op_BUILD_TUPLE(self, ins, bb):
        items = self.popn(ins.arg)
        if items and all(isinstance(i, CellRef) for i in items):
            self.push(ClosureTuple(items))
        else:
            self.push(self.emit(ops.BuildTuple(items)))

    def op_BUILD_LIST(self, ins, bb):
        self.push(self.emit(ops.BuildList(self.popn(ins.arg))))

    def op_BUILD_SET(self, ins, bb):
        self.push(self.emit(ops.BuildSet(self.popn(ins.arg))))

    def op_BUILD_MAP(self, ins, bb):
        flat = self.popn(2 * ins.arg)
        self.push(self.emit(ops.BuildMap(flat[0::2], flat[1::2])))

    def op_BUILD_CONST_KEY_MAP(self, ins, bb):
        keys = self.pop()
        values = self.popn(ins.arg)
        self.push(self.emit(ops.BuildMap([Constant(k) for k in keys.value], values)))

    def op_BUILD_STRING(self, ins, bb):
        self.push(self.emit(ops.BuildString(self.popn(ins.arg))))

    def op_CONVERT_VALUE(self, ins, bb):
        self.push(self.emit(ops.Call(Constant(CONVERTERS[ins.arg]), [self.pop()], ())))

    def op_FORMAT_VALUE(self, ins, bb):
        conversion, has_spec = ins.arg
        spec = self.pop() if has_spec else Constant(None)
        self.push(self.emit(ops.FormatValue(self.pop(), spec, conversion)))

    def op_LIST_APPEND(self, ins, bb):
        item = self.pop()
        self.emit(ops.ListAppend(self.stack[-ins.arg], item))

    def op_SET_ADD(self, ins, bb):
        item = self.pop()
        self.emit(ops.SetAdd(self.stack[-ins.arg], item))

    def op_MAP_ADD(self, ins, bb):
        value, key = self.pop(), self.pop()
        self.emit(ops.MapAdd(self.stack[-ins.arg], key, value))

    def op_LIST_EXTEND(self, ins, bb):
        iterable = self.pop()
        self.emit(ops.ListExtend(self.stack[-ins.arg], iterable))

    def op_SET_UPDATE(self, ins, bb):
        iterable = self.pop()
        self.emit(ops.SetUpdate(self.stack[-ins.arg], iterable))

    def op_DICT_UPDATE(self, ins, bb):
        other = self.pop()
        self.emit(ops.DictUpdate(self.stack[-ins.arg], other))

    def op_DICT_MERGE(self, ins, bb):
        other = self.pop()
        func = self.stack[-(ins.arg + 2)]          # the callable, next to its NULL (above it until 3.12)
        if func is NULL and len(self.stack) >= ins.arg + 3:
            func = self.stack[-(ins.arg + 3)]
        self.emit(ops.DictMerge(self.stack[-ins.arg], other, func if isinstance(func, Value) else Constant(None)))

    def op_LIST_TO_TUPLE(self, ins, bb):
        self.push(self.emit(ops.ListToTuple(self.pop())))

    # unpacking
    def op_UNPACK_SEQUENCE(self, ins, bb):
        unpack = self.emit(ops.UnpackSequence(self.pop(), ins.arg))
        for i in reversed(range(ins.arg)):
            self.push(self.emit(ops.ExtractItem(unpack, i)))

    def op_UNPACK_EX(self, ins, bb):
        before, after = ins.arg & 0xFF, ins.arg >> 8
        unpack = self.emit(ops.UnpackEx(self.pop(), before, after))
        for i in reversed(range(before + 1 + after)):
            self.push(self.emit(ops.ExtractItem(unpack, i)))

    # structural pattern matching: the subject stays on the stack under each test's result
    def op_MATCH_SEQUENCE(self, ins, bb):
        self.push(self.emit(ops.MatchSequence(self.stack[-1])))

    def op_MATCH_MAPPING(self, ins, bb):
        self.push(self.emit(ops.MatchMapping(self.stack[-1])))

    def op_GET_LEN(self, ins, bb):
        """len() of the top of the stack (PyObject_Length, as the builtin: same errors)."""
        self.push(self.emit(ops.Call(Constant(len), [self.stack[-1]], ())))

    def op_MATCH_KEYS(self, ins, bb):
        self.push(self.emit(ops.MatchKeys(self.stack[-2], self.stack[-1])))

    def op_MATCH_CLASS(self, ins, bb):
        names, cls, subject = self.pop(), self.pop(), self.pop()
        self.push(self.emit(ops.MatchClass(subject, cls, names, ins.arg)))

    # imports
    def op_IMPORT_NAME(self, ins, bb):
        fromlist, level = self.pop(), self.pop()
        self.push(self.emit(ops.ImportName(fromlist, level, ins.arg)))

    def op_IMPORT_FROM(self, ins, bb):
        self.push(self.emit(ops.ImportFrom(self.stack[-1], ins.arg)))

    # iteration and control flow
    def op_GET_ITER(self, ins, bb):
        self.push(self.emit(ops.GetIter(self.pop())))

    def op_FOR_ITER(self, ins, bb):
        iterator = self.stack[-1]
        depth = len(self.stack)
        body_bb, exit_bb = bb.normal
        exit_block = self.goto_bytecode(exit_bb, depth - 1)
        body_edge = self.new_block(self.block.handler)
        term = ops.ForIter(iterator, body_edge, exit_block)
        self.end_block(term)
        # The item exists only on the body edge: a block of its own pushes it and jumps on.
        self.continue_in(body_edge)
        self.push(term)
        target = self.goto_bytecode(body_bb, depth + 1)
        self.end_block(ops.Jump(target))

    def op_JUMP(self, ins, bb):
        target = self.goto_bytecode(bb.normal[0], len(self.stack))
        self.end_block(ops.Jump(target))

    def _branch(self, cond, jump_if_true: bool, bb, jump_depth: int, fall_depth: int) -> None:
        fall_bb, jump_bb = bb.normal
        jump = self.goto_bytecode(jump_bb, jump_depth)
        fall = self.goto_bytecode(fall_bb, fall_depth)
        if_true, if_false = (jump, fall) if jump_if_true else (fall, jump)
        self.end_block(ops.Branch(cond, if_true, if_false))

    def op_JUMP_IF(self, ins, bb):
        cond = self.pop()
        if isinstance(cond, Truth):
            cond = cond.value
        self._branch(cond, ins.arg, bb, len(self.stack), len(self.stack))

    def op_JUMP_IF_NONE(self, ins, bb):
        value = self.pop()
        cond = self.emit(ops.Compare(value, Constant(None), "is"))
        self._branch(cond, ins.arg, bb, len(self.stack), len(self.stack))

    def op_JUMP_IF_OR_POP(self, ins, bb):
        cond = self.stack[-1]
        self._branch(cond, ins.arg, bb, len(self.stack), len(self.stack) - 1)

    def op_RETURN_VALUE(self, ins, bb):
        value = self.pop()
        if self.inline_exit is None:
            self.end_block(ops.Return(value))
            return
        self.leave_inline(value if self.consumer is None else self.consumer.exhausted(self))

    def leave_inline(self, result) -> None:
        """End inlined code here: ``result`` is the value of the call that was inlined."""
        self.ssa.write(self.inline_exit.result_var, self.block, result)
        self.end_block(ops.Jump(self.inline_exit.continuation))

    def op_RAISE_VARARGS(self, ins, bb):
        """0 operands: bare ``raise``; 1: ``raise exc``; 2: ``raise exc from cause`` (cause may be None)."""
        items = self.popn(ins.arg)
        exc, cause = (items + [None, None])[:2]
        self.end_block(ops.Raise(exc, cause))

    def op_RERAISE(self, ins, bb):
        exc = self.pop()
        self.end_block(ops.Reraise(exc))

    # exceptions and with
    def op_PUSH_EXC_INFO(self, ins, bb):
        exc = self.pop()
        self.push(self.emit(ops.PushExcInfo(exc)))
        self.push(exc)

    def op_POP_EXCEPT(self, ins, bb):
        self.emit(ops.PopExcept(self.pop()))

    def op_CHECK_EXC_MATCH(self, ins, bb):
        match = self.pop()
        self.push(self.emit(ops.CheckExcMatch(self.stack[-1], match)))

    def op_BEFORE_WITH(self, ins, bb):
        """``with`` (BEFORE_WITH, operand None) or ``async with`` (BEFORE_ASYNC_WITH, operand True)."""
        if ins.arg and not (self.scope.mode == "function" and self.t.fn.coroutine):
            self.unsupported("async with outside an async def")
        enter = self.emit(ops.BeforeWith(self.pop(), bool(ins.arg)))
        self.push(self.emit(ops.ExtractItem(enter, 0)))
        self.push(self.emit(ops.ExtractItem(enter, 1)))

    def op_WITH_EXCEPT_START(self, ins, bb):
        self.push(self.emit(ops.WithExceptStart(self.stack[-4], self.stack[-1])))

    # generators: a generator function, or an inlined generator expression
    def op_RETURN_GENERATOR(self, ins, bb):
        """The first instruction of a generator function or coroutine: makes the generator or coroutine (popped
        again by the POP_TOP after)."""
        if self.consumer is None and not (self.scope.mode == "function" and self.t.fn.suspends):
            if self.code.co_flags & inspect.CO_COROUTINE:      # 3.11: an async comprehension is its own coroutine
                self.unsupported("asynchronous comprehension")
            self.unsupported("generator function (yield)")
        self.push(Constant(None))

    def op_YIELD_VALUE(self, ins, bb):
        if self.consumer is not None:
            self.consumer.item(self, self.pop())
            self.push(Constant(None))                   # what the generator's ``yield`` evaluates to
            return
        if not (self.scope.mode == "function" and self.t.fn.generator):
            self.unsupported("generator function (yield)")
        self.push(self.emit(ops.Yield(self.pop())))

    def op_YIELD_FROM(self, ins, bb):
        if not (self.scope.mode == "function" and self.t.fn.generator):
            self.unsupported("yield from outside a generator function")
        self.push(self.emit(ops.YieldFrom(self.pop())))

    def op_AWAIT(self, ins, bb):
        if not (self.scope.mode == "function" and self.t.fn.coroutine):
            self.unsupported("await in an asynchronous comprehension")
        self.push(self.emit(ops.Await(self.pop(), ins.arg)))

    def op_GET_AITER(self, ins, bb):
        if not (self.scope.mode == "function" and self.t.fn.coroutine):
            self.unsupported("async for in an asynchronous comprehension")
        self.push(self.emit(ops.GetAIter(self.pop())))

    def op_GET_ANEXT(self, ins, bb):
        self.push(self.emit(ops.GetANext(self.stack[-1])))      # the async iterator stays for the next item

    def op_END_ASYNC_FOR(self, ins, bb):
        """The handler of an ``async for``'s ``__anext__`` await: StopAsyncIteration ends the loop (the exception
        and the async iterator are dropped and what follows runs), anything else is raised again."""
        exc = self.pop()
        self.pop()
        ended = self.emit(ops.CheckExcMatch(exc, Constant(StopAsyncIteration)))
        after, again = self.new_block(self.block.handler), self.new_block(self.block.handler)
        self.end_block(ops.Branch(ended, after, again))
        stack = list(self.stack)
        self.continue_in(again)
        self.end_block(ops.Reraise(exc))
        self.stack = stack
        self.continue_in(after)

    # ---- inlining -------------------------------------------------------------------------------------------
    def new_var(self):
        return self.t.new_var()

    def inline(self, function: ComprehensionFunction, iterator, consumer: Consumer | None) -> Value:
        """Translate ``function``'s code in place with ``.0`` = iterator; continue in the block after it and
        return the value of the inlined call."""
        iterator = self.as_value(iterator)
        names = function.code.co_freevars
        cells = function.closure.cells if function.closure is not None else []
        if len(names) != len(cells):
            self.unsupported("comprehension with an unexpected closure")
        mode = "comprehension" if consumer is None else "generator"
        scope = Scope(function.code, {name: cell.var for name, cell in zip(names, cells)}, mode, self.t.generators)
        handler = self.block.handler
        continuation = self.new_block(handler)
        result_var = self.new_var()
        inner = CodeUnit(self.t, scope, InlineExit(continuation, result_var), handler, consumer)
        if consumer is not None:
            consumer.start(self)
        self.ssa.write(scope.local(function.code.co_varnames[0]), self.block, iterator)
        self.end_block(ops.Jump(inner.first_block()))
        inner.run()
        self.continue_in(continuation)
        self.stack = self.read_stack(len(self.stack))
        return self.ssa.read(result_var, self.block)

    def inline_comprehension(self, function: ComprehensionFunction, iterator) -> None:
        self.push(self.inline(function, iterator, None))

    def inline_generator_consumer(self, first, second, args, kwnames) -> bool:
        """Inline the generator expression among ``args`` into the call consuming it, if the consumer is known."""
        consumer = choose_consumer(self, first, second, args, kwnames)
        if consumer is None:
            return False
        gen = args[0]
        consumer.finish(self, self.inline(gen.function, gen.iterator, consumer))
        return True


def _same_prefix(before: list, after: list, depth: int) -> bool:
    """Whether the first ``depth`` stack entries are the same objects in both stacks."""
    if len(after) < depth and len(after) != len(before):
        return False
    return all(a is b for a, b in zip(before[:depth], after[:depth]))

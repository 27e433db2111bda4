"""Structural checks of an SSA function, run after the frontend and after every pass in tests.

Checks: one terminator per block, successors inside the function, φ arity = predecessors, every use dominated
by its definition (for exceptional edges: available before the predecessor's first raising op), ForIter items
used only under their body edge, handler blocks entered only by exceptions and starting with CaughtException,
multi-result ops read only through ExtractItem, sane op attributes, and yields only in generator functions, awaits
only in coroutines.
"""
from __future__ import annotations

from moshjit.analysis.dominators import DominatorTree
from moshjit.ir import ops
from moshjit.ir.function import Block, Function
from moshjit.ir.ops import UNDEFINED, Argument, Constant, Op, Terminator, Value

BINARY_OPERATORS = {"+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "@"}
UNARY_OPERATORS = {"neg", "pos", "invert", "not"}
COMPARE_OPERATORS = {"<", "<=", "==", "!=", ">", ">=", "is", "is not", "in", "not in"}


class VerificationError(AssertionError):
    """The IR broke an invariant; the message names the block and the instruction."""


def verify(fn: Function) -> None:
    """Raise ``VerificationError`` listing every broken invariant of ``fn``."""
    errors = _Checker(fn).run()
    if errors:
        raise VerificationError(f"{fn.qualname}: " + "; ".join(errors[:20]))


class _Checker:
    def __init__(self, fn: Function):
        self.fn = fn
        self.errors: list[str] = []
        self.block_set = set(fn.blocks)

    def error(self, block: Block, message: str) -> None:
        self.errors.append(f"B{block.label}: {message}")

    def run(self) -> list[str]:
        fn = self.fn
        if not fn.blocks:
            return ["function has no blocks"]
        self.check_structure()
        if self.errors:
            return self.errors
        self.preds = fn.predecessors()
        self.domtree = DominatorTree(fn.entry, Block.successors)
        self.position: dict[Value, tuple[Block, int]] = {}
        for block in fn.blocks:
            for i, inst in enumerate([*block.phis, *block.instructions()]):
                if inst in self.position:
                    self.error(block, f"{inst.NAME if isinstance(inst, Op) else 'phi'} defined twice")
                self.position[inst] = (block, i)
        handlers = {b.handler for b in fn.blocks if b.handler is not None}
        for block in fn.blocks:
            if block not in self.domtree.idom:
                self.error(block, "unreachable block")
                continue
            self.check_phis(block)
            self.check_handler_entry(block, block in handlers)
            for inst in block.instructions():
                self.check_op(block, inst)
        if self.preds[fn.entry]:
            self.error(fn.entry, "entry block has predecessors")
        return self.errors

    def check_structure(self) -> None:
        for block in self.fn.blocks:
            if block.terminator is None:
                self.error(block, "no terminator")
                continue
            if any(isinstance(op, Terminator) for op in block.ops):
                self.error(block, "terminator in the middle of a block")
            for succ in block.successors():
                if succ not in self.block_set:
                    self.error(block, f"successor B{succ.label} is not in the function")
            for op in block.ops:
                if op.block is not block:
                    self.error(block, f"{op.NAME} does not know its block")

    def check_phis(self, block: Block) -> None:
        preds = self.preds[block]
        for phi in block.phis:
            if set(phi.incoming) != set(preds) or len(phi.incoming) != len(preds):
                self.error(block, f"phi has incoming {sorted(b.label for b in phi.incoming)} but predecessors "
                                  f"{sorted(b.label for b in preds)}")
                continue
            for pred, value in phi.incoming.items():
                self.check_available_at_edge(block, pred, value)

    def check_handler_entry(self, block: Block, is_handler: bool) -> None:
        first = block.ops[0] if block.ops else None
        if is_handler:
            if not isinstance(first, ops.CaughtException):
                self.error(block, "handler block does not start with caught_exception")
            for pred in self.preds[block]:
                if block in pred.normal_successors():
                    self.error(block, f"handler block entered by a jump from B{pred.label}")
        for i, op in enumerate(block.ops):
            if isinstance(op, ops.CaughtException) and (i != 0 or not is_handler):
                self.error(block, "caught_exception outside the start of a handler block")

    # ---- uses -------------------------------------------------------------------------------------------------
    def check_operand_value(self, block: Block, inst, value) -> bool:
        if isinstance(value, (Argument, Constant)) or value is UNDEFINED:
            return False
        if not isinstance(value, Value):
            self.error(block, f"{_name(inst)} has a non-value operand {value!r:.40}")
            return False
        if value not in self.position:
            self.error(block, f"{_name(inst)} uses a value defined outside the function")
            return False
        return True

    def check_available_at_edge(self, block: Block, pred: Block, value) -> None:
        """A φ operand must be available at the end of ``pred`` (at its raising points for exception edges)."""
        if not self.check_operand_value(block, "phi", value):
            return
        def_block, def_index = self.position[value]
        if isinstance(value, ops.ForIter):
            if not self.domtree.dominates(value.body, pred):
                self.error(block, f"phi uses the item of B{def_block.label}'s for_iter outside its body")
            return
        exceptional = pred.handler is block and block not in pred.normal_successors()
        if def_block is pred:
            if exceptional:
                first_raise = next((i for i, inst in enumerate([*pred.phis, *pred.instructions()])
                                    if isinstance(inst, Op) and inst.can_raise()), None)
                if first_raise is not None and def_index >= first_raise:
                    self.error(block, f"exception edge from B{pred.label} uses a value defined after it can raise")
            return
        if not self.domtree.dominates(def_block, pred):
            self.error(block, f"phi operand from B{pred.label} is not dominated by its definition "
                              f"in B{def_block.label}")

    def check_use(self, block: Block, inst: Op, value) -> None:
        if not self.check_operand_value(block, inst, value):
            return
        def_block, def_index = self.position[value]
        if isinstance(value, ops.ForIter):
            if not self.domtree.dominates(value.body, block):
                self.error(block, f"{_name(inst)} uses a for_iter item outside the loop body")
            return
        if def_block is block:
            if def_index >= self.position[inst][1]:
                self.error(block, f"{_name(inst)} uses a value before its definition")
        elif not self.domtree.dominates(def_block, block):
            self.error(block, f"{_name(inst)} uses a value from B{def_block.label}, which does not dominate it")
        if isinstance(value, Op) and value.MULTI and not isinstance(inst, ops.ExtractItem):
            self.error(block, f"{_name(inst)} uses the multi-result {value.NAME} directly")

    def check_op(self, block: Block, inst: Op) -> None:
        for value in inst.operands():
            self.check_use(block, inst, value)
        if isinstance(inst, ops.ExtractItem):
            source = inst.source
            if not (isinstance(source, Op) and source.MULTI):
                self.error(block, "extract_item of a value that is not a multi-result op")
            elif not 0 <= inst.index < _result_count(source):
                self.error(block, f"extract_item index {inst.index} out of range")
        elif isinstance(inst, ops.BinaryOp) and inst.op not in BINARY_OPERATORS:
            self.error(block, f"unknown binary operator {inst.op!r}")
        elif isinstance(inst, ops.UnaryOp) and inst.op not in UNARY_OPERATORS:
            self.error(block, f"unknown unary operator {inst.op!r}")
        elif isinstance(inst, ops.Compare) and inst.op not in COMPARE_OPERATORS:
            self.error(block, f"unknown comparison {inst.op!r}")
        elif isinstance(inst, (ops.Call, ops.CallMethod)):
            if not all(isinstance(k, str) for k in inst.kwnames) or len(inst.kwnames) > len(inst.args):
                self.error(block, f"{inst.NAME} has bad keyword names {inst.kwnames!r}")
        elif isinstance(inst, ops.BuildMap) and len(inst.keys) != len(inst.values):
            self.error(block, "build_map with different numbers of keys and values")
        elif isinstance(inst, ops.ForIter):
            body_preds = self.preds[inst.body]
            if body_preds != [block]:
                self.error(block, "for_iter body block has other predecessors")
        elif isinstance(inst, ops.Branch) and inst.cond is None:
            self.error(block, "branch without a condition")
        elif isinstance(inst, (ops.Yield, ops.YieldFrom)) and not self.fn.generator:
            self.error(block, f"{inst.NAME} outside a generator function")
        elif isinstance(inst, ops.Await) and not self.fn.coroutine:
            self.error(block, "await outside a coroutine")
        elif isinstance(inst, ops.AwaitSelf) and not (self.fn.coroutine and not self.fn.generator):
            self.error(block, "await_self outside a coroutine function")
        elif isinstance(inst, ops.CallSelf) and self.fn.suspends:
            self.error(block, "call_self in a generator or coroutine (its call returns one)")


def _result_count(op: Op) -> int:
    if isinstance(op, ops.UnpackSequence):
        return op.count
    if isinstance(op, ops.UnpackEx):
        return op.before + 1 + op.after
    if isinstance(op, ops.BeforeWith):
        return 2
    return 0


def _name(inst) -> str:
    return inst.NAME if isinstance(inst, Op) else str(inst)

"""Executors for the Cython backend's intermediate forms, so out-of-SSA and structuring can be checked against
CPython without building anything: ``run_copies`` runs a CFG whose φs are plain variables written only by a
``CopyPlan``'s edge copies; ``run_structured`` runs a structured statement tree (``structure.py``) directly.
Ops are evaluated by the reference interpreter's own evaluators, so only the control flow is under test."""
from __future__ import annotations

import importlib

from moshjit.backends.cython.out_of_ssa import CopyPlan, Temp
from moshjit.ir import interpreter, ops
from moshjit.ir.function import Function

st = importlib.import_module("moshjit.backends.cython.structure")   # the package re-exports a function by that name
MAX_STEPS = 100_000


def _frame(fn: Function, args, env=None) -> interpreter.Frame:
    frame = interpreter.Frame(fn, {} if env is None else env)
    for arg, value in zip(fn.args, args):
        frame.env[arg] = value
    return frame


def _copy(frame: interpreter.Frame, moves: list) -> None:
    """Perform sequentialised moves one after the other (a Temp is a variable like any other)."""
    for dst, src in moves:
        frame.env[dst] = frame.env[src] if isinstance(src, Temp) else frame.get(src)


def _run_ops(block, frame: interpreter.Frame) -> None:
    for op in block.ops:
        frame.env[op] = interpreter.EVALUATORS[type(op)](op, frame)


def run_copies(fn: Function, plan: CopyPlan, args, copies=None):
    """Run ``fn`` (normal edges only) reading φs as variables that only ``plan``'s copies write.
    ``copies(pred, succ)`` may override where the moves of an edge come from (to show what a wrong plan does)."""
    copies = copies or plan.copies
    frame = _frame(fn, args)
    block = fn.entry
    for _ in range(MAX_STEPS):
        _run_ops(block, frame)
        term = block.terminator
        if isinstance(term, ops.Return):
            return frame.get(term.value)
        if isinstance(term, ops.Jump):
            succ = term.target
        elif isinstance(term, ops.Branch):
            succ = term.if_true if frame.get(term.cond) else term.if_false
        elif isinstance(term, ops.ForIter):
            try:
                frame.env[term] = next(frame.get(term.iterator))
                succ = term.body
            except StopIteration:
                succ = term.exit
        else:
            raise AssertionError(f"run_copies does not handle {type(term).__name__}")
        _copy(frame, copies(block, succ))
        block = succ
    raise AssertionError("run_copies: too many steps (a loop that never exits)")


class _Branch(BaseException):
    """A ``Br`` travelling outwards to the construct that owns its target."""

    def __init__(self, target, kind):
        super().__init__(target, kind)
        self.target, self.kind = target, kind


class _Return(BaseException):
    def __init__(self, value):
        super().__init__(value)
        self.value = value


class _TreeRunner:
    def __init__(self, fn: Function, plan: CopyPlan, args, env=None):
        self.fn = fn
        self.plan = plan
        self.frame = _frame(fn, args, env)
        self.taken: dict = {}           # terminator -> the branch it decided
        self.steps = 0

    def tick(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise AssertionError("run_structured: too many steps (a loop that never exits)")

    def run(self, stmts: list) -> None:
        for stmt in stmts:
            self.statement(stmt)

    def statement(self, stmt) -> None:
        frame = self.frame
        if isinstance(stmt, st.Code):
            _run_ops(stmt.block, frame)
            self.decide(stmt.block.terminator)
        elif isinstance(stmt, st.Guarded):
            caught = None
            try:
                self.run(stmt.body)
            except (_Branch, _Return):
                raise
            except BaseException as exc:  # the exception travels to the handler, as in the emitted ``except``
                caught = exc
            if caught is not None:        # outside the except clause: the handled exception is the IR's business
                frame.caught = caught
                self.run(stmt.on_raise)
        elif isinstance(stmt, st.Copies):
            _copy(frame, self.plan.copies(stmt.pred, stmt.succ))
        elif isinstance(stmt, st.If):
            self.run(stmt.then if self.taken.pop(stmt.terminator) else stmt.orelse)
        elif isinstance(stmt, st.Leaf):
            term = stmt.terminator
            if isinstance(term, ops.Return):
                raise _Return(frame.get(term.value))
            if isinstance(term, ops.Raise):
                interpreter._raise(term, frame)
            interpreter._reraise(frame.get(term.exc))
        elif isinstance(stmt, st.Br):
            raise _Branch(stmt.target, stmt.kind)
        elif isinstance(stmt, st.Loop):
            while True:
                self.tick()
                try:
                    self.run(stmt.body)
                except _Branch as br:
                    if not (br.kind == "continue" and br.target is stmt.header):
                        raise
        elif isinstance(stmt, st.Labeled):
            try:
                self.run(stmt.body)
            except _Branch as br:
                if not (br.kind == "exit" and br.target is stmt.target):
                    raise
        elif isinstance(stmt, st.Dispatch):
            state = self.fn.entry
            while True:
                self.tick()
                try:
                    self.run(stmt.cases[state])
                    raise AssertionError(f"state machine case {state} fell off its end")
                except _Branch as br:
                    if br.kind != "state":
                        raise
                    state = br.target
        else:
            raise AssertionError(f"unknown statement {stmt!r}")

    def decide(self, term) -> None:
        """The part of a terminator that runs with its block's code (it may raise into the handler)."""
        if isinstance(term, ops.Branch):
            self.taken[term] = bool(self.frame.get(term.cond))
        elif isinstance(term, ops.ForIter):
            try:
                self.frame.env[term] = next(self.frame.get(term.iterator))
                self.taken[term] = True
            except StopIteration:
                self.taken[term] = False


def run_structured(fn: Function, plan: CopyPlan, stmts: list, args, env=None):
    """Execute a structured statement tree; returns what the function returns (exceptions propagate).
    ``env`` may be a mapping that stores values elsewhere (shared variables, after coalescing)."""
    runner = _TreeRunner(fn, plan, args, env)
    try:
        runner.run(stmts)
    except _Return as ret:
        return ret.value
    except _Branch as br:
        raise AssertionError(f"Br to B{br.target.label} ({br.kind}) escaped every construct") from None
    raise AssertionError("control fell off the end of the structured function")


def outcome(fn, *args):
    """What a call does: ('ok', result) or ('raise', type, message)."""
    try:
        return ("ok", fn(*args))
    except Exception as exc:          # the exception is part of the behaviour being compared
        return ("raise", type(exc), str(exc))

"""Error paths native code leaves to the interpreter: a block that can only end in ``raise`` and holds a value
native code cannot represent is not compiled.

Numeric functions check their input and raise with a message built from it (``raise ValueError(f"bad n: {n}")``,
``"... %s" % n``): a str, a call of an exception class with a computed message — values with no native form,
which used to keep the whole function out of the LLVM backend. A block from which no path reaches a ``return``
(following exceptional edges too) runs at most once per call, just before the call raises, so nothing is lost by
running it in the interpreter: native code branches into such a block through a deoptimisation site at its first
op (``deopt``), the SSA interpreter runs the rest of the call exactly as CPython would — it builds the message
and raises — and the native frame returns "failed" with that exception set. An error path native code can run
itself (``raise ValueError("constant")``, ``assert``) stays compiled: a native raise costs far less than a
deoptimisation, which a function raising often would also pay towards its demotion.

The *error paths* (``error_paths``, from the SSA alone) are where this may happen: native type inference does not
make their calls native callees. After inference, ``cold_blocks`` picks those holding a value without a native
representation or a call of a Python function, and what they lead to within the error paths.

A cold block never flows into a compiled one (what it reaches is cold too), so its values never need a native
form: representations, lowering, native list analysis, fusion and the call graph skip it (a call in it is not
inferred as a native callee). Kept compiled: the entry block, blocks inside ``try`` (their handler may return),
blocks that suspend or use the exception state, and a cold block with φs entered from a compiled block (the
site continues at an op, after the φs were chosen).

A function given an ``array.array`` holds its buffer until it returns, and the array cannot be resized meanwhile
(CPython raises BufferError): its error paths may only compute and format numbers and build builtin exceptions —
nothing that could reach the array and resize it (a call of Python code, a global, an attribute).
"""
from __future__ import annotations

import builtins

from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Constant
from moshjit.ir.types import ArrayType

# ops the continuation runs with Python's exception state or a frame that suspends: never left to a cold block
_KEPT_OPS = (ops.Yield, ops.YieldFrom, ops.Await, ops.CaughtException, ops.PushExcInfo, ops.PopExcept,
             ops.CheckExcMatch, ops.BeforeWith, ops.WithExceptStart, ops.GetAIter, ops.GetANext)
_COLD_TERMINATORS = (ops.Raise, ops.Jump, ops.Branch, ops.ForIter)
# what the error path of a function holding an array.array's buffer may do (nothing reaches Python code)
_COMPUTING_OPS = (ops.BinaryOp, ops.UnaryOp, ops.Compare, ops.BuildString, ops.FormatValue, ops.BuildTuple)
_FORMATTING_BUILTINS = frozenset({builtins.str, builtins.repr, builtins.format, builtins.len, builtins.abs,
                                  builtins.int, builtins.float, builtins.round, builtins.hex})


def error_paths(fn: Function, arg_types=()) -> frozenset:
    """The blocks of ``fn`` that may be left to the interpreter (see the module docstring); the same for the same
    SSA and argument types, so the continuation rebuilt in another process agrees with the machine code."""
    holds_array = any(isinstance(t, ArrayType) and t.container == "array" for t in arg_types)
    preds = fn.predecessors()
    returning: set = set()
    work = [block for block in fn.blocks if isinstance(block.terminator, ops.Return)]
    while work:
        block = work.pop()
        if block not in returning:
            returning.add(block)
            work.extend(preds.get(block, []))
    cold = {block for block in fn.blocks
            if block not in returning and block is not fn.entry and block.handler is None
            and isinstance(block.terminator, _COLD_TERMINATORS)
            and not any(isinstance(op, _KEPT_OPS) or holds_array and not _only_computes(op) for op in block.ops)}
    changed = True
    while changed:                  # closed under successors; φs only where every way in is cold
        changed = False
        for block in list(cold):
            if any(succ not in cold for succ in block.successors()) or (
                    block.phis and any(pred not in cold for pred in preds.get(block, []))):
                cold.discard(block)
                changed = True
    return frozenset(cold)


def cold_blocks(fn: Function, paths: frozenset, representable, native_call) -> frozenset:
    """The error ``paths`` left to the interpreter, after native type inference: those holding a value that
    ``representable`` refuses or a call that ``native_call`` says native code would make to Python code, and
    every error path they lead to; none entered from compiled code at its φs."""
    preds = fn.predecessors()
    cold = {block for block in paths
            if any(not representable(value) for value in [*block.phis, *block.ops])
            or any(isinstance(op, ops.Call) and native_call(op) for op in block.ops)}
    work = list(cold)
    while work:
        for succ in work.pop().successors():
            if succ in paths and succ not in cold:
                cold.add(succ)
                work.append(succ)
    changed = True
    while changed:
        changed = False
        for block in list(cold):
            if block.phis and any(pred not in cold for pred in preds.get(block, [])):
                cold.discard(block)             # compiled (and refused if it cannot be): the site is at an op
                changed = True
    return frozenset(cold)


def is_builtin_exception(value) -> bool:
    """A builtin exception class (its construction runs no Python code)."""
    return isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == "builtins"


def _only_computes(op) -> bool:
    """Arithmetic, comparisons, formatting, and calls of builtin exception classes and formatting builtins."""
    if isinstance(op, ops.BinaryOp):
        return not op.inplace
    if isinstance(op, _COMPUTING_OPS):
        return True
    if isinstance(op, ops.Call) and isinstance(op.func, Constant) and not op.kwnames:
        target = op.func.value
        return target in _FORMATTING_BUILTINS or is_builtin_exception(target)
    return False


def in_cold_block(value, cold: frozenset) -> bool:
    """Whether ``value`` (an op or φ) is computed in a block of ``cold``."""
    return getattr(value, "block", None) in cold

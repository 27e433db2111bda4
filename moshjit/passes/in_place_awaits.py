"""A coroutine that only awaits itself, on numbers, runs each awaited call in place: no coroutine object.

``async def fib(n): ... return await fib(n - 1) + await fib(n - 2)`` makes, under CPython and in Cython's compiled
coroutines alike, one coroutine per call, driven to its end by the ``await`` that made it: nothing in it ever
suspends. When every ``await`` of a coroutine function awaits a call of the function being compiled (its jitted
dispatcher, as a name bound when compiling; positional arguments whose types pin down this very specialisation)
and every other value is a number, the body cannot suspend, and awaiting such a call is calling the body: the
``await`` becomes an ``await_self`` op, which the Cython backend compiles to a direct C call of the body.

What makes this exact: the dispatcher's binding is checked when the coroutine starts (the entry's binding check),
and a body of numeric arithmetic, comparisons and branches runs no Python code that could rebind it (no call, no
attribute, no finalizer: ints and floats free silently; a raised exception only unwinds, nothing runs after it).
So every call in place would have gone to this specialisation, and would have run to its end without suspending.
No ``StopIteration`` can escape such a body either (PEP 479's conversion has nothing to do). The awaited calls'
type is what the body returns, found by iterating type inference from nothing to a fixed point.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from moshjit.functions import jitted_function
from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Constant
from moshjit.ir.types import BOOL, BOTTOM, FLOAT, INT, IntType, MType, join, type_of_value
from moshjit.typeof import static_key, type_of_key

if TYPE_CHECKING:
    from moshjit.context import CompileContext

MAX_ROUNDS = 4          # of type inference, for the awaited calls' type (ints are widened after the first)


def in_place_awaits(fn: Function, ctx: CompileContext | None) -> bool:
    """Turn every ``await`` into ``await_self`` when the coroutine qualifies; whether ``fn`` changed (its types
    are then those of the rewritten function)."""
    from moshjit.passes.typeinfer import infer_types
    if ctx is None or ctx.py_function is None or not (fn.coroutine and not fn.generator):
        return False
    pairs = self_awaits(fn, ctx)
    if not pairs:
        return False
    arg_types = [type_of_key(k) for k in ctx.key]
    fused = [_fuse(fn, call, awaited) for call, awaited in pairs]
    result = BOTTOM
    for _ in range(MAX_ROUNDS):
        for op in fused:
            op.result = result
        infer_types(fn, arg_types, ctx)
        returned = _widened(returned_numbers(fn))
        if returned == result:
            if returned is not None and runs_only_numbers(fn):
                return True
            break
        if returned is None:
            break
        result = returned
    for op, (call, awaited) in zip(fused, pairs):
        _unfuse(fn, op, call, awaited)
    infer_types(fn, arg_types, ctx)
    return False


def self_awaits(fn: Function, ctx: CompileContext) -> list | None:
    """The (call, await) pairs when every ``await`` in ``fn`` awaits, right after it, a positional call of the
    jitted function being compiled whose argument kinds are this specialisation's key; else None."""
    users = fn.users()
    pairs = []
    for block in fn.blocks:
        for index, op in enumerate(block.ops):
            if not isinstance(op, ops.Await):
                continue
            call = op.value
            if not (op.context is None and isinstance(call, ops.Call) and call.block is block and index > 0
                    and block.ops[index - 1] is call and users.get(call) == [op] and not call.kwnames
                    and isinstance(call.func, Constant)
                    and jitted_function(call.func.value) is ctx.py_function
                    and getattr(call.func.value, "_positional_count", -1) == len(call.args) == len(fn.args)):
                return None
            kinds = tuple(static_key(type_of_value(a.value) if isinstance(a, Constant) else a.type)
                          for a in call.args)
            if kinds != tuple(ctx.key):
                return None
            pairs.append((call, op))
    return pairs or None


def _fuse(fn: Function, call: ops.Call, awaited: ops.Await) -> ops.AwaitSelf:
    block = awaited.block
    fused = ops.AwaitSelf(call.func, list(call.args), BOTTOM, line=awaited.line)
    fused.block = block
    block.ops[block.ops.index(awaited)] = fused
    block.ops.remove(call)
    fn.replace_all_uses(awaited, fused)
    return fused


def _unfuse(fn: Function, fused: ops.AwaitSelf, call: ops.Call, awaited: ops.Await) -> None:
    block = fused.block
    index = block.ops.index(fused)
    block.ops[index:index + 1] = [call, awaited]
    fn.replace_all_uses(fused, awaited)


def _numeric(t: MType) -> bool:
    return isinstance(t, IntType) or t in (FLOAT, BOOL)


def _type(value) -> MType:
    return type_of_value(value.value) if isinstance(value, Constant) else value.type


def returned_numbers(fn: Function) -> MType | None:
    """The join of the types of the values ``fn`` returns when all are numbers (BOTTOM: none yet), else None."""
    result = BOTTOM
    for block in fn.blocks:
        if isinstance(block.terminator, ops.Return):
            t = _type(block.terminator.value)
            if t == BOTTOM:
                continue
            if not _numeric(t):
                return None
            result = join(result, t)
    return result if result == BOTTOM or _numeric(result) else None


def _widened(t: MType | None) -> MType | None:
    """Ints of any range as ``int``, so the iteration ends."""
    return INT if isinstance(t, IntType) else t


_CLOSED_OPS = (ops.BinaryOp, ops.UnaryOp, ops.Compare, ops.AwaitSelf)
_CLOSED_TERMINATORS = (ops.Jump, ops.Branch, ops.Return)


def runs_only_numbers(fn: Function) -> bool:
    """Every argument, φ, op and operand is a number; the ops are arithmetic, comparisons and ``await_self``;
    control flow is jumps, branches and returns with no exception handler: nothing that runs Python code."""
    if not all(_numeric(a.type) for a in fn.args):
        return False
    for block in fn.blocks:
        if block.handler is not None or not isinstance(block.terminator, _CLOSED_TERMINATORS):
            return False
        if not all(_numeric(phi.type) for phi in block.phis):
            return False
        for inst in [*block.ops, block.terminator]:
            if isinstance(inst, ops.Op) and not isinstance(inst, ops.Terminator):
                if not (isinstance(inst, _CLOSED_OPS) and _numeric(inst.type)):
                    return False
            operands = inst.args if isinstance(inst, ops.AwaitSelf) else inst.operands()   # func: the dispatcher
            if not all(_numeric(_type(v)) for v in operands):
                return False
    return True

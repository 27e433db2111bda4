"""Inline calls to small Python functions known at compile time (plain functions of the same module, and jitted
functions anywhere), so that helpers like ``is_punctuation(ch)`` run natively, typed by their caller's arguments.

Runs after ``resolve_globals`` (the callee must be a Constant). A call is inlined when the callee is not recursive,
binds its arguments at compile time (positional/keyword/defaults; no ``*args``/``**kwargs``), has no closure,
and reads no run-time globals of another module. The callee's ``__code__``, and the defaults the call took
(``__defaults__``; ``__kwdefaults__`` and each keyword-only default taken, since that dict can change in place),
are then checked on every call of the caller (``moshjit.bindings``); once they changed twice, the callee is no
longer bound (called at run time).
Exceptions raised inside the inlined body reach the caller's handler exactly as they would through a call (only
the traceback lacks the callee's frame).

``arg.m(args)`` where the dispatch key fixes the argument's exact class and ``m`` is a small jitted method taking
exactly these arguments is inlined too, behind a ``MethodIs`` guard made at each call (the call itself runs when
the class's method was replaced or the instance shadows it); the method's own calls on its receiver are inlined
into it first, the receiver's class known.
"""
from __future__ import annotations

import inspect
import types
from typing import TYPE_CHECKING

from moshjit.bindings import FUNCTION_FIELDS, Binding, function_fields
from moshjit.functions import jitted_method
from moshjit.ir import ops
from moshjit.ir.function import Block, Function
from moshjit.ir.ops import Constant, Phi

if TYPE_CHECKING:
    from moshjit.context import CompileContext

MAX_CALLEE_SIZE = 300          # ops in a callee, after its own inlining and passes
MAX_METHOD_SIZE = 80           # ops in a method inlined behind its guard (the call stays beside it: code grows)
MAX_TOTAL_SIZE = 6000          # ops in the caller: stop inlining beyond this


CO_GENERATOR = 0x20


def _callee_function(value):
    py_func = getattr(value, "py_func", None)
    if isinstance(py_func, types.FunctionType):
        return py_func, True
    if isinstance(value, types.FunctionType):
        return value, False
    return None, False


def _size(fn: Function) -> int:
    return sum(len(b.ops) + 1 for b in fn.blocks)


def _bind(callee: types.FunctionType, call: ops.Call) -> tuple[list, list] | None:
    """(The caller values for each callee parameter, the parameters left to their defaults), or None when binding
    is not static (or would fail). Defaults are the callee's now, as Constants: ``_default_bindings`` says what
    the caller must then check."""
    code = callee.__code__
    if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return None
    params = list(inspect.signature(callee).parameters.values())
    split = len(call.args) - len(call.kwnames)
    positional, keywords = call.args[:split], dict(zip(call.kwnames, call.args[split:]))
    if len(keywords) != len(call.kwnames):
        return None
    values, defaulted = [], []
    for i, param in enumerate(params):
        if i < len(positional):
            if param.kind is param.KEYWORD_ONLY or param.name in keywords:
                return None
            values.append(positional[i])
        elif param.name in keywords and param.kind is not param.POSITIONAL_ONLY:
            values.append(keywords.pop(param.name))
        elif param.default is not param.empty:
            values.append(Constant(param.default))
            defaulted.append(param)
        else:
            return None
    if len(positional) > len(params) or keywords:
        return None
    return values, defaulted


def _default_bindings(callee: types.FunctionType, label: str, defaulted: list) -> list:
    """What the call read from ``callee``, as the caller's entry checks it: its code, and the defaults it took —
    ``__defaults__``, or ``__kwdefaults__`` and the entry of each keyword-only default taken (that dict can change
    in place). A call that passed every argument reads no default."""
    fields = ["__code__"]
    if any(param.kind is not param.KEYWORD_ONLY for param in defaulted):
        fields.append("__defaults__")
    taken = [param.name for param in defaulted if param.kind is param.KEYWORD_ONLY]
    if taken:
        fields.append("__kwdefaults__")
    found = function_fields(callee, label, fields)
    kwdefaults = callee.__kwdefaults__
    for name, value in kwdefaults.items() if taken else ():
        if name in taken:
            found.append(Binding(kwdefaults, name, value, None, f"{label}.__kwdefaults__"))
    return found


def _callee_ir(callee: types.FunctionType, caller: Function, ctx: CompileContext, stack: tuple, key: tuple = (),
               max_size: int = MAX_CALLEE_SIZE):
    """(SSA, the callee's compile context) ready to splice into ``caller``, or None when it cannot be inlined.
    ``key``: what the call fixes of the callee's argument kinds (a method's receiver class), for its own inlining."""
    if callee.__closure__ or callee.__code__.co_flags & CO_GENERATOR:    # a generator's call returns a generator
        return None
    callee_ctx = ctx.for_callee(callee)
    callee_ctx.key = key
    ir = callee_ctx.inlinable_ssa(callee, stack)
    if ir is None or _size(ir) > max_size:
        return None
    foreign = ir.globals is not caller.globals
    for block in ir.blocks:
        for op in block.ops:
            if isinstance(op, ops.LoadDeref) or (foreign and isinstance(op, (ops.LoadGlobal, ops.ImportName,
                                                                            ops.MakeFunction, ops.MakeClosure, ops.StoreGlobal,
                                                                            ops.DeleteGlobal))):
                return None
    return ir, callee_ctx


def inline_calls(fn: Function, ctx: CompileContext, stack: tuple) -> Function:
    """Inline every eligible call in ``fn`` (callees are inlined into each other first). ``stack`` holds the code
    objects being inlined into, starting with ``fn``'s own, so recursion is never inlined. Helpers that cannot
    be inlined are called through the dispatcher ``ctx.callee_dispatcher`` gives, when it gives one."""
    for block in list(fn.blocks):
        index = 0
        while index < len(block.ops):
            op = block.ops[index]
            index += 1
            if isinstance(op, ops.CallMethod):
                rest = _inline_method(fn, block, index - 1, op, ctx, stack)
                if rest is not None:
                    block, index = rest, 0
                continue
            if not (isinstance(op, ops.Call) and isinstance(op.func, Constant)):
                continue
            callee, jitted = _callee_function(op.func.value)
            if callee is None or (not jitted and callee.__globals__ is not fn.globals):
                continue
            if callee.__code__ in stack:          # recursion: never inlined; a plain helper gets compiled
                if not jitted:
                    _call_through_dispatcher(op, callee, ctx)
                continue
            if _size(fn) > MAX_TOTAL_SIZE:
                return fn
            volatile = any(f"{callee.__qualname__}.{field}" in ctx.volatile_globals for field in FUNCTION_FIELDS)
            bound = None if volatile else _bind(callee, op)
            values = None if bound is None else bound[0]
            fields = [] if bound is None else _default_bindings(callee, callee.__qualname__, bound[1])
            found = None if values is None else _callee_ir(callee, fn, ctx, stack + (callee.__code__,))
            if found is None:
                if not jitted:
                    jitted = _call_through_dispatcher(op, callee, ctx)
                if jitted and values is not None:
                    # bound at compile time: the dispatcher then takes its positional fast path
                    op.args, op.kwnames = list(values), ()
                    ctx.bindings.extend(fields)          # the defaults it took are checked on every call
                continue
            body, callee_ctx = found
            ctx.resolved_globals.update(callee_ctx.resolved_globals)
            ctx.bindings.extend(callee_ctx.bindings)
            ctx.bindings.extend(fields)              # its code and defaults are now part of the caller: checked
            ctx.record_dependency(callee)            # on every call, and part of the cache key
            block = _splice(fn, block, index - 1, op, body, values, ctx.inlined_at)
            index = 0
    return fn


def _inline_method(fn: Function, block: Block, position: int, op: ops.CallMethod, ctx: CompileContext,
                   stack: tuple) -> Block | None:
    """Inline ``arg.name(args)`` where the dispatch key fixes the argument's exact class and ``name`` is a small
    jitted method of it, behind a ``MethodIs`` guard checked at each call: the body when the call would reach that
    method, the call itself otherwise (a method replaced or shadowed meanwhile). Returns the block holding the
    rest of ``block``, or None when the call stays."""
    receiver = op.obj
    argument = receiver.value if isinstance(receiver, ops.CheckBound) else receiver    # before the passes
    if not (not op.kwnames and isinstance(argument, ops.Argument)
            and argument.index < len(ctx.key) and isinstance(ctx.key[argument.index], type)):
        return None
    cls = ctx.key[argument.index]
    method = jitted_method(cls, op.name)
    callee = getattr(method, "py_func", None)
    if (not isinstance(callee, types.FunctionType) or callee.__code__ in stack or _size(fn) > MAX_TOTAL_SIZE
            or getattr(method, "_positional_count", -1) != 1 + len(op.args)):
        return None                 # (a call leaving parameters to defaults reads the dispatcher's: not inlined)
    label = f"{cls.__qualname__}.{op.name}"
    if any(f"{callee.__qualname__}.{field}" in ctx.volatile_globals for field in FUNCTION_FIELDS):
        return None
    bound = _bind(callee, _PositionalCall([receiver, *op.args]))
    found = None if bound is None else _callee_ir(callee, fn, ctx, stack + (callee.__code__,), (cls,),
                                                  MAX_METHOD_SIZE)
    if found is None:
        return None
    values, defaulted = bound
    body, callee_ctx = found
    ctx.resolved_globals.update(callee_ctx.resolved_globals)
    ctx.bindings.extend(callee_ctx.bindings)
    ctx.bindings.extend(_default_bindings(callee, label, defaulted))
    ctx.record_dependency(method)
    taken, rest = _guarded_split(fn, block, position, op, ops.MethodIs(receiver, op.name, cls, method,
                                                                        line=op.line))
    _splice(fn, taken, 0, op, body, values, ctx.inlined_at)
    return rest


class _PositionalCall:
    """What ``_bind`` reads of a call: its argument values, all positional."""

    def __init__(self, args: list):
        self.args, self.kwnames = args, ()


def _guarded_split(fn: Function, block: Block, position: int, call: ops.CallMethod,
                   guard: ops.Op) -> tuple[Block, Block]:
    """Make ``block[position]`` (``call``) conditional on ``guard``: ``block`` ends testing it; one new block
    holds ``call`` alone (the caller replaces it by the inlined body), another a copy of ``call`` for when the
    guard fails, and both go on to the rest of ``block``, where a φ of the two results takes the place of
    ``call``. Returns (the block holding ``call``, the rest)."""
    rest = fn.new_block()
    rest.handler = block.handler
    for op in block.ops[position + 1:]:
        rest.append(op)
    rest.set_terminator(block.terminator)
    for succ in rest.normal_successors():
        for phi in succ.phis:
            if block in phi.incoming:
                phi.incoming[rest] = phi.incoming.pop(block)
    block.ops = block.ops[:position]
    block.append(guard)
    taken, fallback = fn.new_block(), fn.new_block()
    generic = ops.CallMethod(call.obj, list(call.args), call.name, call.kwnames, line=call.line)
    for new, op in ((taken, call), (fallback, generic)):
        new.handler = block.handler
        new.append(op)
        new.set_terminator(ops.Jump(rest, line=call.line))
    if block.handler is not None:
        for phi in block.handler.phis:
            if block in phi.incoming:
                for new in (rest, taken, fallback):
                    phi.incoming[new] = phi.incoming[block]
    block.set_terminator(ops.Branch(guard, taken, fallback, line=call.line))
    result = Phi(rest)
    fn.substitute({call: result})
    result.incoming[taken], result.incoming[fallback] = call, generic
    rest.phis.append(result)
    return taken, rest


def _call_through_dispatcher(op: ops.Call, callee: types.FunctionType, ctx: CompileContext) -> bool:
    """Let a plain helper that is not inlined be compiled on its own, like Numba compiles called functions:
    the call goes to the dispatcher the context gives (True), if any."""
    dispatcher = ctx.callee_dispatcher(callee)
    if dispatcher is None:
        return False
    op.func = Constant(dispatcher)
    ctx.record_dependency(callee)
    return True


def _splice(fn: Function, block: Block, position: int, call: ops.Call, body: Function, values: list,
            inlined_at: dict) -> Block:
    """Replace ``call`` (at ``position`` in ``block``) by ``body``; returns the block holding the rest. Each op
    of the body is noted in ``inlined_at`` with the call's line (where a traceback shows the caller)."""
    rest = fn.new_block()
    rest.handler = block.handler
    for op in block.ops[position + 1:]:
        rest.append(op)
    rest.set_terminator(block.terminator)
    block.ops = block.ops[:position]
    for succ in rest.normal_successors():
        for phi in succ.phis:
            if block in phi.incoming:
                phi.incoming[rest] = phi.incoming.pop(block)
    handler = block.handler
    if handler is not None:
        for phi in handler.phis:
            if block in phi.incoming:
                phi.incoming[rest] = phi.incoming[block]
    body.substitute(dict(zip(body.args, values)))
    returns = []
    for inner in body.blocks:
        inner.label = fn._next_label
        fn._next_label += 1
        fn.blocks.append(inner)
        term = inner.terminator
        for inst in (*inner.phis, *inner.ops, term):
            inlined_at[inst] = call.line
        if isinstance(term, ops.Return):
            returns.append((inner, term.value))
            inner.set_terminator(ops.Jump(rest, line=term.line))
        if inner.handler is None and handler is not None and inner.can_raise():
            inner.handler = handler
            for phi in handler.phis:
                if block in phi.incoming:
                    phi.incoming[inner] = phi.incoming[block]
    block.set_terminator(ops.Jump(body.entry, line=call.line))
    if handler is not None and not block.can_raise():
        for phi in handler.phis:
            phi.incoming.pop(block, None)
        block.handler = None
    if len(returns) == 1:
        result = returns[0][1]
    else:
        result = Phi(rest)
        for pred, value in returns:
            result.incoming[pred] = value
        rest.phis.append(result)
    fn.substitute({call: result})
    return rest

"""Inline calls to small Python functions known at compile time (plain functions of the same module, jitted
functions anywhere, and plain functions of other modules that read no globals, such as ``typing.cast``), so that
helpers like ``is_punctuation(ch)`` run natively, typed by their caller's arguments. A plain helper of the same
module that is not inlined is compiled on its own; another module's is called as it is.

Runs after ``resolve_globals`` (the callee must be a Constant). A call is inlined when the callee is not recursive,
binds its arguments at compile time (positional/keyword/defaults; no ``*args``/``**kwargs``), has no closure,
and reads no run-time globals of another module. The callee's ``__code__``, and the defaults the call took
(``__defaults__``; ``__kwdefaults__`` and each keyword-only default taken, since that dict can change in place),
are then checked on every call of the caller (``moshjit.bindings``); once they changed twice, the callee is no
longer bound (called at run time).
Exceptions raised inside the inlined body reach the caller's handler exactly as they would through a call (only
the traceback lacks the callee's frame).

``obj.m(args)`` where ``m`` is a small jitted method taking exactly these arguments of the class ``obj`` has or is
expected to have (``_receiver_class``: the dispatch key, a constructor, and guesses from the first call's sample and
from what the class's methods store) is inlined too, behind a ``MethodIs`` guard made at each call (the call itself
runs when ``obj`` has another class, the class's method was replaced or the instance shadows it); the method's own
calls on its receiver are inlined into it first, the receiver's class known. ``obj[k]`` and ``obj[k] = v`` become
the class's ``__getitem__``/``__setitem__`` the same way, the subscript itself kept for a failed guard.
"""
from __future__ import annotations

import inspect
import types
from collections import deque
from typing import TYPE_CHECKING

from moshjit.analysis.dominators import reverse_postorder
from moshjit.bindings import FUNCTION_FIELDS, Binding, function_fields
from moshjit.functions import jitted_function, jitted_method, own_signature
from moshjit.ir import ops
from moshjit.ir.clone import clone_function
from moshjit.ir.function import Block, Function
from moshjit.ir.ops import Constant, Phi
from moshjit.passes.super_calls import is_super_call, nothing_between

if TYPE_CHECKING:
    from moshjit.context import CompileContext

MAX_CALLEE_SIZE = 300          # ops in a callee, after its own inlining and passes
MAX_METHOD_SIZE = 80           # ops in a method inlined behind its guard (the call stays beside it: code grows)
MAX_TOTAL_SIZE = 6000          # ops in the caller: stop inlining beyond this
MAX_GUESS_DEPTH = 4            # attribute loads and φs followed to guess a receiver's class (``a.b.c.d``)


SUSPENDING_FLAGS = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
_BEING_BUILT = object()        # ``ctx.inlinable_bodies``' entry for a callee whose inlinable SSA is being built


def _callee_function(value):
    py_func = jitted_function(value)
    if py_func is not None:
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
    params = list(own_signature(callee).parameters.values())
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
    ``key``: what the call fixes of the callee's argument kinds (a method's receiver class), for its own inlining.

    The callee's SSA, its own calls inlined, is built once per compilation (``ctx.inlinable_bodies``; the driver may
    keep it across compilations, see ``CompileContext.inlinable_ssa``) and copied for each call site: built anew at
    every site, a chain of small methods calling each other cost a build per path through the call graph (a
    JavaScript parser's scanner: 12,700 builds of 79 functions in one method's compile). The one build inlines into
    the callee as if it were the outermost function (only its own recursion stops); a body that reaches a function
    of ``stack`` — one it is being inlined into — ends in a call to one of them, which ``_calls_back`` refuses here,
    exactly as when recursion into ``stack`` stopped while building it. A callee met again while its own body is
    being built (a call cycle) is not inlined there."""
    if callee.__closure__ or callee.__code__.co_flags & SUSPENDING_FLAGS:    # its call returns a generator/coroutine
        return None
    built = ctx.inlinable_bodies.get((callee, key))
    if built is _BEING_BUILT:            # a call cycle through functions not on ``stack``: this call stays a call
        ctx.cycle_cut = True
        return None
    if built is None:
        callee_ctx = ctx.for_callee(callee)
        callee_ctx.key = key
        callee_ctx.dependencies = {}     # what the body bakes in: the caller takes it on where it inlines the body
        ctx.inlinable_bodies[(callee, key)] = _BEING_BUILT
        try:
            built = (callee_ctx.inlinable_ssa(callee, (callee.__code__,)), callee_ctx)
        finally:
            del ctx.inlinable_bodies[(callee, key)]
        ctx.inlinable_bodies[(callee, key)] = built
    ir, callee_ctx = built
    if ir is None or _size(ir) > max_size or _calls_back(ir, stack):
        return None
    foreign = ir.globals is not caller.globals
    for block in ir.blocks:
        for op in block.ops:
            if isinstance(op, ops.LoadDeref) or (foreign and isinstance(op, (ops.LoadGlobal, ops.ImportName,
                                                                            ops.MakeFunction, ops.MakeClosure, ops.StoreGlobal,
                                                                            ops.DeleteGlobal))):
                return None
    body, copies = clone_function(ir)
    for original, copy in copies.items():         # where tracebacks show the inlined ops of the callee's callees
        if original in ctx.inlined_at:
            ctx.inlined_at[copy] = ctx.inlined_at[original]
    return body, callee_ctx


def _take_on(ctx: CompileContext, callee_ctx: CompileContext) -> None:
    """What an inlined body's build found becomes the caller's: the globals it resolved, the names it bound (checked
    on every call), the objects it bakes in, and whether a call cycle kept one of its calls a call."""
    ctx.resolved_globals.update(callee_ctx.resolved_globals)
    ctx.bindings.extend(callee_ctx.bindings)
    ctx.dependencies.update(callee_ctx.dependencies)
    ctx.cycle_cut = ctx.cycle_cut or callee_ctx.cycle_cut


# Names of the built-in containers' and strs' methods: ``self.cells[i].remove(v)`` inside a method ``remove`` is
# almost always the list's, so it does not make the method a possible call cycle (``_calls_back``).
_BUILT_IN_METHOD_NAMES = frozenset(name for kind in (list, dict, set, str, tuple, bytes) for name in dir(kind))


def _calls_back(ir: Function, stack: tuple) -> bool:
    """Whether ``ir`` (a callee, its own callees inlined) calls a function of ``stack`` — the callee itself or one
    it is being inlined into —, or may: a method call by the name of one of them (``child.depth()`` in ``depth``;
    not a name the built-in containers' methods have, see ``_BUILT_IN_METHOD_NAMES``).
    Such a callee is on a call cycle: its frame counts towards the recursion limit at every level in CPython, which
    its inlined body would not, so a recursion through it would go deeper than CPython's (twice as deep through two
    functions calling each other)."""
    names = {code.co_name for code in stack} - _BUILT_IN_METHOD_NAMES
    for block in ir.blocks:
        for op in block.ops:
            if isinstance(op, ops.Call) and isinstance(op.func, Constant):
                target, _ = _callee_function(op.func.value)
                if target is not None and target.__code__ in stack:
                    return True
            elif isinstance(op, ops.CallMethod) and op.name in names:
                return True
    return False


def inline_calls(fn: Function, ctx: CompileContext, stack: tuple) -> Function:
    """Inline every eligible call in ``fn`` (callees are inlined into each other first). ``stack`` holds the code
    objects being inlined into, starting with ``fn``'s own, so recursion is never inlined. Helpers that cannot
    be inlined are called through the dispatcher ``ctx.callee_dispatcher`` gives, when it gives one. The body of
    an inlined function is looked at again for methods and subscripts: its arguments are now the caller's
    values, whose classes the caller may know."""
    work = deque((block, stack, True) for block in fn.blocks)
    while work:
        block, block_stack, calls_too = work.popleft()
        index = 0
        while index < len(block.ops):
            op = block.ops[index]
            index += 1
            if isinstance(op, (ops.CallMethod, ops.GetItem, ops.SetItem)):
                inline = _inline_method if isinstance(op, ops.CallMethod) else _inline_subscript
                rest = inline(fn, block, index - 1, op, ctx, block_stack)
                if rest is not None:
                    block, index = rest, 0
                continue
            if not (calls_too and isinstance(op, ops.Call) and isinstance(op.func, Constant)):
                continue
            callee, jitted = _callee_function(op.func.value)
            if callee is None:
                continue
            own = jitted or callee.__globals__ is fn.globals   # else another module's plain function (typing.cast)
            if callee.__code__ in block_stack:    # recursion: never inlined; a plain helper gets compiled
                if not jitted and own:
                    _call_through_dispatcher(op, callee, ctx)
                continue
            if _size(fn) > MAX_TOTAL_SIZE:
                return fn
            volatile = any(f"{callee.__qualname__}.{field}" in ctx.volatile_globals for field in FUNCTION_FIELDS)
            bound = None if volatile else _bind(callee, op)
            values = None if bound is None else bound[0]
            fields = [] if bound is None else _default_bindings(callee, callee.__qualname__, bound[1])
            found = None if values is None else _callee_ir(callee, fn, ctx, block_stack + (callee.__code__,))
            if found is None:
                if not jitted and own:
                    jitted = _call_through_dispatcher(op, callee, ctx)
                if jitted and values is not None:
                    # bound at compile time: the dispatcher then takes its positional fast path
                    op.args, op.kwnames = list(values), ()
                    ctx.bindings.extend(fields)          # the defaults it took are checked on every call
                continue
            body, callee_ctx = found
            _take_on(ctx, callee_ctx)
            ctx.bindings.extend(fields)              # its code and defaults are now part of the caller: checked
            ctx.record_dependency(callee)            # on every call, and part of the cache key
            work.extend((inner, block_stack + (callee.__code__,), False) for inner in body.blocks)
            block = _splice(fn, block, index - 1, op, body, values, ctx.inlined_at)
            index = 0
    return fn


def _receiver_class(value, ctx: CompileContext, depth: int = 0, seen: frozenset = frozenset()) -> type | None:
    """The class ``value`` has at run time if it has the one expected: an argument's from the dispatch key, a
    constructor call's class, what the signature's first call showed (``ctx.shapes``: an attribute's, a list
    item's, the class an argument named), an attribute's guess from what the methods of its owner's class store
    in it (``ctx.attribute_classes``), the one class a φ's known inputs agree on. Only code guarded by
    ``MethodIs`` — which checks the exact class at each run — may use it: all but the first are guesses."""
    known = _key_class(value, ctx)
    if known is not None:
        return known
    if isinstance(value, ops.CheckBound):
        value = value.value
    if isinstance(value, ops.Call) and isinstance(value.func, Constant) and type(value.func.value) is type:
        return value.func.value
    if depth >= MAX_GUESS_DEPTH:
        return None
    if isinstance(value, ops.Call):                       # a class the first call passed, called
        shape = _sampled_shape(value.func, ctx, depth + 1)
        return None if shape is None else shape.named
    shape = _sampled_shape(value, ctx, depth)
    if shape is not None:
        return shape.cls
    if isinstance(value, ops.LoadAttr):
        owner = _receiver_class(value.obj, ctx, depth + 1, seen)
        return None if owner is None else ctx.attribute_classes(owner).get(value.name)
    if isinstance(value, Phi) and value not in seen:
        found = {_receiver_class(incoming, ctx, depth + 1, seen | {value}) for incoming in value.incoming.values()}
        found.discard(None)
        return found.pop() if len(found) == 1 else None
    return None


def _key_class(value, ctx: CompileContext) -> type | None:
    """The exact class the dispatch key fixes for ``value`` when it is an argument, else None."""
    if isinstance(value, ops.CheckBound):
        value = value.value
    if isinstance(value, ops.Argument) and value.index < len(ctx.key) and isinstance(ctx.key[value.index], type):
        return ctx.key[value.index]
    return None


def _has_loop(fn: Function) -> bool:
    """Whether ``fn``'s CFG has a cycle (an edge back to a block not after it in reverse postorder)."""
    order = {block: i for i, block in enumerate(reverse_postorder(fn.entry, Block.successors))}
    return any(order.get(succ, len(order)) <= order[block] for block in order for succ in block.successors())


def _sampled_shape(value, ctx: CompileContext, depth: int):
    """What the signature's first call showed of ``value`` (``moshjit.samples.Shape``): an argument, an attribute
    or list item of one, a loop's item over one; None when it showed nothing of it."""
    if isinstance(value, ops.CheckBound):
        value = value.value
    if ctx.shapes is None or depth >= MAX_GUESS_DEPTH:
        return None
    if isinstance(value, ops.Argument):
        return ctx.shapes[value.index] if value.index < len(ctx.shapes) else None
    if isinstance(value, ops.LoadAttr):
        owner = _sampled_shape(value.obj, ctx, depth + 1)
        return None if owner is None else owner.attributes.get(value.name)
    source = value.obj if isinstance(value, ops.GetItem) else value.iterator.obj if (
        isinstance(value, ops.ForIter) and isinstance(value.iterator, ops.GetIter)) else None
    if source is not None:
        sequence = _sampled_shape(source, ctx, depth + 1)
        return None if sequence is None else sequence.item
    return None


def _inline_method(fn: Function, block: Block, position: int, op: ops.CallMethod, ctx: CompileContext,
                   stack: tuple) -> Block | None:
    """Inline ``obj.name(args)`` where ``obj``'s class is known or guessed (``_receiver_class``) and ``name`` is
    a small jitted method of it; the call itself stays for when the guard fails. Returns the block holding the
    rest of ``block``, or None when the call stays."""
    if op.kwnames:
        return None
    if is_super_call(op.obj):
        return _inline_super_method(fn, block, position, op, ctx, stack)
    return _inline_guarded(fn, block, position, op, op.name, list(op.args), ctx, stack)


def _inline_super_method(fn: Function, block: Block, position: int, op: ops.CallMethod, ctx: CompileContext,
                         stack: tuple) -> Block | None:
    """Inline ``super(C, obj).name(args)`` where ``obj``'s class is known or guessed and the method ``super``
    finds after ``C`` is a small jitted one, behind a ``SuperIs`` guard; the super object is not made on either
    branch (the other calls ``super_call_method``). Only where ``super_calls`` would fuse the two calls."""
    made = op.obj
    start = made.args[0].value if isinstance(made.args[0], Constant) else None
    if not (isinstance(start, type) and made.block is block and fn.users().get(made) == [op]
            and nothing_between(block, made, position)):
        return None
    receiver = made.args[1]

    def guard(cls, method):
        return ops.SuperIs(receiver, start, op.name, cls, method, line=op.line)
    generic = ops.SuperCallMethod(made.args[0], receiver, list(op.args), op.name, (), line=op.line)
    rest = _inline_guarded(fn, block, position, op, op.name, list(op.args), ctx, stack, receiver=receiver,
                           after=start, guard=guard, generic=generic)
    if rest is not None:
        block.ops.remove(made)          # used by nothing now: neither branch makes the super object
    return rest


def _inline_subscript(fn: Function, block: Block, position: int, op, ctx: CompileContext,
                      stack: tuple) -> Block | None:
    """Inline ``obj[key]`` / ``obj[key] = value`` where ``obj``'s class is known or guessed and has a small jitted
    ``__getitem__`` / ``__setitem__``: what CPython's type slot calls for an instance of that class (the slot
    looks in the class only; the guard also refuses an instance attribute of that name, so such an instance
    takes the subscript itself, still exactly). The subscript stays for when the guard fails."""
    if isinstance(op, ops.GetItem):
        return _inline_guarded(fn, block, position, op, "__getitem__", [op.key], ctx, stack)
    return _inline_guarded(fn, block, position, op, "__setitem__", [op.key, op.value], ctx, stack)


def _inline_guarded(fn: Function, block: Block, position: int, op: ops.Op, name: str, args: list,
                    ctx: CompileContext, stack: tuple, receiver=None, after: type | None = None, guard=None,
                    generic: ops.Op | None = None) -> Block | None:
    """Replace ``op`` (at ``position`` in ``block``), which calls method ``name`` of ``receiver`` (``op.obj``)
    with ``args``, by that method's body behind a guard checked at each run (``MethodIs``, or what ``guard(cls,
    method)`` makes), and ``generic`` (a copy of ``op``) when the guard fails. With ``after``, the method is the
    one ``super(after, receiver)`` finds. Returns the block holding the rest of ``block``, or None when ``op``
    stays."""
    receiver = op.obj if receiver is None else receiver
    cls = _receiver_class(receiver, ctx)
    guessed = cls is not None and cls is not _key_class(receiver, ctx)
    method = None if cls is None or after is not None and after not in cls.__mro__ else jitted_method(cls, name,
                                                                                                        after)
    callee = jitted_function(method)
    if (callee is None or callee.__code__ in stack or _size(fn) > MAX_TOTAL_SIZE
            or getattr(method, "_positional_count", -1) != 1 + len(args)):
        return None                 # (a call leaving parameters to defaults reads the dispatcher's: not inlined)
    label = f"{cls.__qualname__}.{name}"
    if any(f"{callee.__qualname__}.{field}" in ctx.volatile_globals for field in FUNCTION_FIELDS):
        return None
    bound = _bind(callee, _PositionalCall([receiver, *args]))
    found = None if bound is None else _callee_ir(callee, fn, ctx, stack + (callee.__code__,), (cls,),
                                                  MAX_METHOD_SIZE)
    if found is None or guessed and _has_loop(found[0]):
        return None     # a loop is worth the call: its own specialisation is typed by the arguments' run-time kinds
    values, defaulted = bound
    body, callee_ctx = found
    _take_on(ctx, callee_ctx)
    ctx.bindings.extend(_default_bindings(callee, label, defaulted))
    ctx.record_dependency(method)
    check = ops.MethodIs(receiver, name, cls, method, line=op.line) if guard is None else guard(cls, method)
    taken, rest = _guarded_split(fn, block, position, op, check, _remade(op) if generic is None else generic)
    _splice(fn, taken, 0, op, body, values, ctx.inlined_at)
    return rest


def _remade(op: ops.Op) -> ops.Op:
    """A new op doing what ``op`` does, on the same operands (for the branch a failed guard takes)."""
    fields = (getattr(op, field) for field in op.OPERANDS + op.ATTRS)
    return type(op)(*(list(value) if isinstance(value, list) else value for value in fields), line=op.line)


class _PositionalCall:
    """What ``_bind`` reads of a call: its argument values, all positional."""

    def __init__(self, args: list):
        self.args, self.kwnames = args, ()


def _guarded_split(fn: Function, block: Block, position: int, call: ops.Op, guard: ops.Op,
                   generic: ops.Op) -> tuple[Block, Block]:
    """Make ``block[position]`` (``call``) conditional on ``guard``: ``block`` ends testing it; one new block
    holds ``call`` alone (the caller replaces it by the inlined body), another ``generic`` (what ``call`` does,
    made anew) for when the guard fails, and both go on to the rest of ``block``, where a φ of the two results
    takes the place of ``call``. Returns (the block holding ``call``, the rest)."""
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


def _holds_a_value(instruction) -> bool:
    """Whether an instruction's result is a value a variable may hold (a φ, an op, a loop's item)."""
    return isinstance(instruction, (Phi, ops.ForIter)) or not isinstance(instruction, ops.Terminator)


def _in_frame(holder: str, token: str) -> str:
    """A callee's ``Function.holders`` entry as the caller's: each local it names (``name@scope``, more names
    joined by ``+``, each ending in its ``#id``) now is in the inlined frame ``token`` too."""
    return "+".join("#".join([locals_[0] + "@" + token, *locals_[1:]])
                    for locals_ in (part.split("#") for part in holder.split("+")))


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
    frame = ops.InlinedFrame(body.qualname, f"inlined{id(call)}", frozenset(
        v for inner in body.blocks for v in (*inner.phis, *inner.ops, inner.terminator) if _holds_a_value(v)))
    for value, holder in body.holders.items():    # the callee's locals, held until its frame would have ended
        fn.hold(value, _in_frame(holder, frame.token))
    for inner in body.blocks:                     # its releases let go of its own locals
        for op in inner.ops:
            if isinstance(op, ops.Release):
                op.name = f"{op.name}@{frame.token}"
    end = ops.FrameEnd(frame, line=call.line)
    end.block = rest
    rest.ops.insert(0, end)
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

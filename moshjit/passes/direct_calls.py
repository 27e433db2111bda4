"""Calls from compiled code to other jitted functions go straight to the callee's compiled entry.

After type inference, a call to a ``@jit`` dispatcher whose argument types pin down one dispatch signature is bound
to that signature's entry, which the compile context gives (compiling it now if needed): the call then skips the
dispatcher's signature lookup. When a type does not determine the signature (an ``int`` that may not fit 64 bits,
an ``object``), or the context gives no entry (the callee is being compiled further up the stack, or failed), the
call keeps going through the dispatcher — except a call of the function being compiled itself, through its global
name, whose argument kinds are this specialisation's key: it becomes ``call_self``, which the Cython backend (the
only one this runs for: the LLVM backend compiles such recursion itself) emits as a direct call of the module's own
checks and body (calling what the name holds now when a name bound has moved).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from moshjit.functions import jitted_function
from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Constant
from moshjit.ir.types import type_of_value
from moshjit.typeof import static_key

if TYPE_CHECKING:
    from moshjit.context import CompileContext


def bind_direct_calls(fn: Function, ctx: CompileContext) -> Function:
    replacements = {}
    for block in fn.blocks:
        for index, op in enumerate(block.ops):
            if not (isinstance(op, ops.Call) and isinstance(op.func, Constant) and not op.kwnames
                    and hasattr(op.func.value, "compiled_entry")
                    and getattr(op.func.value, "_positional_count", -1) == len(op.args)):
                continue                  # entries take the bound parameters: only exact positional calls
            types_ = [type_of_value(a.value) if isinstance(a, Constant) else a.type for a in op.args]
            key = tuple(static_key(t) for t in types_)
            if any(k is None for k in key):
                continue
            name = own_global_name(fn, ctx, op, key)
            if name is not None:
                block.ops[index] = replacements[op] = ops.CallSelf(op.func, list(op.args), name, line=op.line)
                block.ops[index].block, block.ops[index].type = block, op.type
                continue
            entry = ctx.native_entry(op.func.value, key)
            if entry is not None:
                ctx.record_dependency(op.func.value)
                ctx.direct_entries.add(id(entry))     # the backend calls it counting the frame it stands for
                op.func = Constant(entry)
    fn.substitute(replacements)
    return fn


def own_global_name(fn: Function, ctx: CompileContext, op: ops.Call, key: tuple) -> str | None:
    """The global name through which ``op`` calls the function being compiled (not a generator or coroutine: its
    call returns one), with every parameter, in argument kinds that select this very specialisation; else None
    (also when the compilation bound it under another name or in another namespace too: a call in place whose
    check fails looks this one name up again)."""
    dispatcher = op.func.value
    if (fn.suspends or jitted_function(dispatcher) is not ctx.py_function or len(op.args) != len(fn.args)
            or key != tuple(ctx.key)):
        return None
    holders = [b for b in ctx.bindings if b.value is dispatcher]
    return holders[0].name if len(holders) == 1 and holders[0].namespace is fn.globals else None

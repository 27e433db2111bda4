"""Calls from compiled code to other jitted functions go straight to the callee's compiled entry.

After type inference, a call to a ``@jit`` dispatcher whose argument types pin down one dispatch signature is bound
to that signature's entry, which the compile context gives (compiling it now if needed): the call then skips the
dispatcher's signature lookup. When a type does not determine the signature (an ``int`` that may not fit 64 bits,
an ``object``), or the context gives no entry (the callee is being compiled further up the stack, or failed), the
call keeps going through the dispatcher.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Constant
from moshjit.ir.types import type_of_value
from moshjit.typeof import static_key

if TYPE_CHECKING:
    from moshjit.context import CompileContext


def bind_direct_calls(fn: Function, ctx: CompileContext) -> Function:
    for block in fn.blocks:
        for op in block.ops:
            if not (isinstance(op, ops.Call) and isinstance(op.func, Constant) and not op.kwnames
                    and hasattr(op.func.value, "compiled_entry")
                    and getattr(op.func.value, "_positional_count", -1) == len(op.args)):
                continue                  # entries take the bound parameters: only exact positional calls
            types_ = [type_of_value(a.value) if isinstance(a, Constant) else a.type for a in op.args]
            key = tuple(static_key(t) for t in types_)
            if any(k is None for k in key):
                continue
            entry = ctx.native_entry(op.func.value, key)
            if entry is not None:
                ctx.record_dependency(op.func.value)
                op.func = Constant(entry)
    return fn

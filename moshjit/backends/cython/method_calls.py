"""Direct calls between jitted methods: ``obj.name(args)`` where ``obj`` is an argument of the function being
compiled, so its exact class is fixed by the dispatch key, and the class's ``name`` is a jitted method whose
signature the argument types pin down. The call goes to that specialisation's compiled entry — no bound method,
no signature check in the dispatcher — while ``mj_method_is`` (``attribute_cache.py``) confirms at run time that
``obj.name`` still finds that method (or its tiered plain-function copy); otherwise the call takes the generic
path. A call whose result type inference took from the method (``ctx.method_assumptions``) is always made
direct: to the method's dispatcher itself when no compiled entry is ready (it is being compiled in the
background, or the arguments' kinds are not fixed)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from moshjit.functions import jitted_method
from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Argument, Constant
from moshjit.ir.types import type_of_value
from moshjit.typeof import static_key

if TYPE_CHECKING:
    from moshjit.context import CompileContext


def argument_kind(value, ctx: CompileContext):
    """The dispatch kind ``value`` has on every call: an argument's from the key, else its type's, or None."""
    if isinstance(value, Argument) and value.index < len(ctx.key):
        return ctx.key[value.index]
    return static_key(type_of_value(value.value) if isinstance(value, Constant) else value.type)


def direct_methods(fn: Function, ctx: CompileContext) -> dict:
    """{``call_method`` op: (class, jitted method, compiled entry or None: through the method's dispatcher)} for
    the method calls that go direct."""
    found = {}
    for block in fn.blocks:
        for op in block.ops:
            if not (isinstance(op, ops.CallMethod) and not op.kwnames and isinstance(op.obj, Argument)):
                continue
            cls = argument_kind(op.obj, ctx)
            method = jitted_method(cls, op.name) if isinstance(cls, type) else None
            if method is None or getattr(method, "_positional_count", -1) != 1 + len(op.args):
                continue                  # entries take the bound parameters: only exact positional calls
            key = (cls,) + tuple(argument_kind(a, ctx) for a in op.args)
            entry = None if any(k is None for k in key) else ctx.native_entry(method, key)
            if entry is not None or op in ctx.method_assumptions:
                ctx.record_dependency(method)
                found[op] = (cls, method, entry)
    return found

"""Type assumptions for module-level data globals (constants such as ``CONTINUATION_PREFIX = "##"``).

Data globals are read at call time, so rebinding them is seen; but their *types* are assumed from the values
they have when compiling, so that ``"##" + piece`` stays a typed string operation. The backend checks every
assumption on entry and, when one no longer holds (the global was rebound to another type), hands the call to a
specialisation compiled without assumptions. A global the function assigns or deletes itself gets no assumption:
the entry check could not see a write made during the call. Nor does a generator function: it runs in pieces, and
a global may be rebound between two of them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.types import BOOL, FLOAT, INT64, STR, MType
from moshjit.passes.resolve_globals import written_globals

if TYPE_CHECKING:
    from moshjit.context import CompileContext

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def assumable_type(value) -> MType | None:
    """The type assumed for a global holding ``value`` (scalars only: cheap to check on every call)."""
    kind = type(value)
    if kind is str:
        return STR
    if kind is bool:
        return BOOL
    if kind is int and INT64_MIN <= value <= INT64_MAX:
        return INT64
    if kind is float:
        return FLOAT
    return None


def assume_global_types(fn: Function, ctx: CompileContext) -> Function:
    """Record ``ctx.global_assumptions``: global name → assumed type, for each data global ``fn`` loads."""
    assumptions: dict[str, MType] = {}
    if fn.suspends:
        ctx.global_assumptions = assumptions
        return fn
    written = written_globals(fn)
    for block in fn.blocks:
        for op in block.ops:
            if isinstance(op, ops.LoadGlobal) and op.name in fn.globals and op.name not in written:
                assumed = assumable_type(fn.globals[op.name])
                if assumed is not None:
                    assumptions[op.name] = assumed
    ctx.global_assumptions = assumptions
    return fn


def assumption_holds(value, assumed: MType) -> bool:
    return assumable_type(value) == assumed

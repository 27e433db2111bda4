"""Typed SSA → out-of-SSA → structured statements → the text of a typed .pyx module."""
from __future__ import annotations

from moshjit.backends.cython.emit import emit_module
from moshjit.backends.cython.out_of_ssa import out_of_ssa
from moshjit.backends.cython.structure import structure
from moshjit.ir.function import Function


def generate_pyx(fn: Function, entry_name: str, global_assumptions: dict | None = None,
                 fallback=None, own_lines=None, inlined_at=None, direct_methods=None, bindings=(),
                 on_rebound=None, method_assumptions=None, direct_entries=frozenset(), nested_codes=None,
                 closure_per_call: bool = False) -> tuple[str, list]:
    """The Cython source of a typed function and the constants its module must be given at load time.
    ``fallback`` receives the call when an assumption checked on entry (a global's type, from
    ``global_assumptions``) does not hold; ``own_lines`` are the function's own source lines and ``inlined_at``
    the call line of each inlined op (for tracebacks); ``direct_methods`` the method calls bound to compiled
    entries (``method_calls.direct_methods``); ``bindings`` the names bound when compiling, checked on entry, a
    rebound one handing the call to ``on_rebound``; ``method_assumptions`` the method calls whose result type
    came from the method they find (``ctx.method_assumptions``), checked on entry too, handing the call to
    ``fallback``; ``direct_entries`` the ids of the compiled entries calls were bound to (``direct_calls``)."""
    plan = out_of_ssa(fn)
    body = structure(fn)
    return emit_module(fn, plan, body, entry_name, global_assumptions or {}, fallback, own_lines, inlined_at,
                       direct_methods, bindings, on_rebound, method_assumptions, direct_entries, nested_codes,
                       closure_per_call)

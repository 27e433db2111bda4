"""Bytecode frontend: a Python function's code object → verified SSA ``moshjit.ir.Function``.

decode.py with the running CPython's opcode table (opcodes_3xx.py, the only version-specific modules) → cfg.py
(bytecode blocks) → translate.py (stack simulation, comprehension inlining) with ssa_builder.py (Braun et al.)
→ tidy-up to pruned SSA → passes.
"""
from __future__ import annotations

import inspect

from moshjit.errors import UnsupportedError, code_columns
from moshjit.functions import own_signature, python_function  # noqa: F401  (re-exported: part of the frontend's API)
from moshjit.frontend.decode import check_version, first_refused_instruction
from moshjit.ir.function import Function
from moshjit.ir.ops import Argument

_REFUSED_FLAGS = {inspect.CO_ITERABLE_COROUTINE: "generator-based coroutine"}


def build_ssa(fn, optimize: bool = True) -> Function:
    """Translate ``fn`` to SSA; with ``optimize`` the standard pass pipeline runs afterwards."""
    check_version()
    fn = python_function(fn)
    code = fn.__code__
    for flag, construct in _REFUSED_FLAGS.items():
        if code.co_flags & flag:
            construct, line, offset = first_refused_instruction(code, construct) or (construct, code.co_firstlineno,
                                                                                      None)
            raise UnsupportedError(construct, code.co_filename, line, columns=code_columns(code, offset, line))
    from moshjit.frontend.translate import NeedsCells, Translator
    from moshjit.passes.dce import prune_dead_phis
    from moshjit.passes.simplify_cfg import remove_unreachable_blocks, renumber_blocks

    signature = own_signature(fn)
    args = [Argument(i, name) for i, name in enumerate(signature.parameters)]
    generators: frozenset = frozenset()            # generator expressions made real generators, with their cells
    while True:
        ir = Function(fn.__name__, fn.__qualname__, code.co_filename, code.co_firstlineno, args, signature,
                      fn.__globals__, fn.__closure__)
        # an async generator is both: it yields, and it awaits
        ir.generator = bool(code.co_flags & (inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR))
        ir.coroutine = bool(code.co_flags & (inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR))
        try:
            Translator(ir, code, generators).translate()
            break
        except NeedsCells as retry:
            if retry.code in generators:
                raise UnsupportedError(f"generator expression {retry.code.co_qualname} capturing variables",
                                       code.co_filename, code.co_firstlineno) from None
            generators |= {retry.code}
    remove_unreachable_blocks(ir)
    prune_dead_phis(ir)
    renumber_blocks(ir)
    if optimize:
        from moshjit.passes.pipeline import run_passes
        ir = run_passes(ir)
    return ir

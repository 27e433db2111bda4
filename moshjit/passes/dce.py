"""Dead-code elimination: drop φs and ops whose results nobody needs and that cannot raise or act."""
from __future__ import annotations

from moshjit.ir.function import Function
from moshjit.ir.ops import Op, Phi


def _removable(inst) -> bool:
    return isinstance(inst, Phi) or (not inst.can_raise() and not inst.has_side_effects())


def _live_values(fn: Function, ops_are_roots: bool) -> set:
    """Mark from the roots (terminators and every op that must run) through operands."""
    live: set = set()
    work: list = []
    for block in fn.blocks:
        for inst in block.instructions():
            if ops_are_roots or not _removable(inst):
                live.add(inst)
                work.append(inst)
    while work:
        inst = work.pop()
        for operand in inst.operands():
            if isinstance(operand, (Op, Phi)) and operand not in live:
                live.add(operand)
                work.append(operand)
    return live


def prune_dead_phis(fn: Function) -> Function:
    """Turn minimal SSA into pruned SSA: remove φs that no op needs, directly or through other φs."""
    live = _live_values(fn, ops_are_roots=True)
    for block in fn.blocks:
        block.phis = [phi for phi in block.phis if phi in live]
    return fn


def dce(fn: Function) -> Function:
    """Remove dead φs and dead pure ops (mark-and-sweep, so dead cycles of φs go too)."""
    live = _live_values(fn, ops_are_roots=False)
    for block in fn.blocks:
        block.phis = [phi for phi in block.phis if phi in live]
        block.ops = [op for op in block.ops if op in live or not _removable(op)]
    return fn

"""Copy propagation: replace values that merely copy another value by that value.

Copies in our SSA are φs whose operands are all one value (or the φ itself; equal constants count as one value), and items extracted from the
unpacking of a tuple/list display of the right length (``a, b = x, y`` beyond the SWAP-optimised sizes).
"""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Constant, Phi, same_value


def _copied_value(inst):
    """The value ``inst`` is a copy of, or None."""
    if isinstance(inst, Phi):
        others = [v for v in inst.incoming.values() if v is not inst]
        return others[0] if others and all(same_value(v, others[0]) for v in others) else None
    if isinstance(inst, ops.ExtractItem) and isinstance(inst.source, ops.UnpackSequence):
        source = inst.source.source
        if not inst.source.can_raise():
            if isinstance(source, Constant):
                return Constant(source.value[inst.index])
            return source.items[inst.index]
    return None


def copyprop(fn: Function) -> Function:
    replacements: dict = {}

    def resolve(value):
        while value in replacements:
            value = replacements[value]
        return value

    changed = True
    while changed:                               # a φ can become a copy once another φ is forwarded
        changed = False
        for block in fn.blocks:
            for inst in [*block.phis, *block.ops]:
                if inst in replacements:
                    continue
                inst.map_operands(resolve)
                target = _copied_value(inst)
                if target is not None:
                    replacements[inst] = target
                    changed = True
    for block in fn.blocks:
        block.phis = [phi for phi in block.phis if phi not in replacements]
        block.ops = [op for op in block.ops if op not in replacements]
    fn.substitute(replacements)
    return fn

"""Where native code releases references: liveness of the values that own CPython references.

Every SSA value whose representation holds references (lists, tuples of them, iterators over them) owns one
reference while it is live. The lowering walks each block keeping the set of owned values and releases a value
right after its last use in the block, unless it is still live afterwards; on each CFG edge it releases what the
successor no longer needs and adds one reference per extra owner (a φ taking a value that stays live). A
``for_iter`` result only exists on the loop-body edge, so it is treated as defined there.
"""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.function import Block, Function
from moshjit.ir.ops import Argument, Op, Phi


class Liveness:
    """live_in / live_out of every block, for the values ``counted`` selects."""

    def __init__(self, fn: Function, counted, deferred: dict | None = None):
        """``deferred`` maps ops emitted later by another op of their block (see ``fusion``): their operands
        are used where that op is."""
        self.fn = fn
        self.counted = counted
        deferred = deferred or {}
        self.live_in: dict[Block, set] = {b: set() for b in fn.blocks}
        self.live_out: dict[Block, set] = {b: set() for b in fn.blocks}
        self.last_use: dict[Block, dict] = {}
        uses: dict[Block, set] = {}
        defs: dict[Block, set] = {}
        for block in fn.blocks:
            used, defined, last = set(), {p for p in block.phis if counted(p)}, {}
            position = {inst: i for i, inst in enumerate(block.instructions())}
            for index, inst in enumerate(block.instructions()):
                if inst in deferred:
                    index = position[deferred[inst]]
                for operand in inst.operands():
                    if self._is_value(operand) and counted(operand):
                        if operand not in defined:
                            used.add(operand)
                        last[operand] = index
                if isinstance(inst, Op) and not isinstance(inst, ops.Terminator) and counted(inst):
                    defined.add(inst)
            if isinstance(block.terminator, ops.ForIter) and counted(block.terminator):
                defined.add(block.terminator)
            uses[block], defs[block], self.last_use[block] = used, defined, last
        changed = True
        order = list(reversed(fn.blocks))
        while changed:
            changed = False
            for block in order:
                out = set()
                for succ in block.successors():
                    out |= self.edge_live(block, succ)
                new_in = uses[block] | (out - defs[block])
                if out != self.live_out[block] or new_in != self.live_in[block]:
                    self.live_out[block], self.live_in[block] = out, new_in
                    changed = True

    @staticmethod
    def _is_value(value) -> bool:
        return isinstance(value, (Argument, Phi, Op))

    def edge_live(self, pred: Block, succ: Block) -> set:
        """Values that must be owned on the edge pred → succ: live into succ, plus what succ's φs take."""
        live = {v for v in self.live_in[succ] if not (isinstance(v, Phi) and v.block is succ)}
        for phi in succ.phis:
            value = phi.incoming.get(pred)
            if self._is_value(value) and self.counted(value):
                live.add(value)
        return live

    def owners_after_edge(self, pred: Block, succ: Block, value) -> int:
        """How many references ``value`` must hold after the edge (its own liveness plus each φ taking it)."""
        live_in = value in self.live_in[succ] and not (isinstance(value, Phi) and value.block is succ)
        return int(live_in) + sum(1 for phi in succ.phis if phi.incoming.get(pred) is value)

    def dies_at(self, block: Block, value, index: int) -> bool:
        """Whether ``value`` is released right after instruction ``index`` of ``block``."""
        return self.last_use[block].get(value, -1) <= index and value not in self.live_out[block]

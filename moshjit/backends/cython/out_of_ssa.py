"""Out of SSA for the Cython backend: split critical edges, turn φs into parallel copies on edges, and
sequentialise each parallel copy (with a temporary only where copies form a cycle: the swap problem).

The result is a ``CopyPlan``: for every edge (pred, succ) the ordered list of ``(destination φ, source)`` moves,
where a source may also be a ``Temp``. Exceptional edges keep their copies too; the emitter performs them in the
``except`` clause of the raising block.
"""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.function import Block, Function


class Temp:
    """A temporary introduced to break a copy cycle."""

    __slots__ = ("index", "type")

    def __init__(self, index: int, type_):
        self.index = index
        self.type = type_


def split_critical_edges(fn: Function) -> Function:
    """Insert an empty block on every normal edge from a block with several successors to a block with several
    predecessors and φs, so each edge's copies have a place of their own."""
    preds = fn.predecessors()
    for block in list(fn.blocks):
        term = block.terminator
        succs = term.successors()
        if len(set(succs)) < 2:
            continue
        for succ in set(succs):
            if len(preds[succ]) < 2 or not succ.phis:
                continue
            middle = fn.new_block()
            middle.set_terminator(ops.Jump(succ, line=term.line))
            term.replace_target(succ, middle)
            for phi in succ.phis:
                phi.incoming[middle] = phi.incoming.pop(block)
            preds[succ] = [middle if p is block else p for p in preds[succ]]
            preds[middle] = [block]
    return fn


def sequentialize(moves: list[tuple]) -> list[tuple]:
    """Order parallel moves ``(dst, src)`` so that no destination is overwritten before it is read.

    Classic algorithm: emit moves whose destination is no longer needed as a source; when only cycles remain,
    save one destination in a temporary and continue.
    """
    moves = [(d, s) for d, s in moves if d is not s]
    result: list[tuple] = []
    temps = 0
    while moves:
        sources = {id(s) for _, s in moves}
        ready = next((m for m in moves if id(m[0]) not in sources), None)
        if ready is not None:
            result.append(ready)
            moves.remove(ready)
            continue
        dst, _ = moves[0]                 # every destination is still read: break the cycle at dst
        temp = Temp(temps, getattr(dst, "type", None))
        temps += 1
        result.append((temp, dst))
        moves = [(d, temp if s is dst else s) for d, s in moves]
    return result


class CopyPlan:
    """Sequentialised φ copies for each edge."""

    def __init__(self, fn: Function):
        self.edges: dict[tuple[Block, Block], list[tuple]] = {}
        for block in fn.blocks:
            if not block.phis:
                continue
            by_pred: dict[Block, list] = {}
            for phi in block.phis:
                for pred, value in phi.incoming.items():
                    by_pred.setdefault(pred, []).append((phi, value))
            for pred, moves in by_pred.items():
                ordered = sequentialize(moves)
                if ordered:
                    self.edges[(pred, block)] = ordered

    def copies(self, pred: Block, succ: Block) -> list[tuple]:
        return self.edges.get((pred, succ), [])


def out_of_ssa(fn: Function) -> CopyPlan:
    split_critical_edges(fn)
    return CopyPlan(fn)

"""Variable coalescing for the Cython backend: SSA values whose live ranges never overlap share one variable.

Every variable of a generated function costs at each call (Cython initialises each object local and releases it
on exit: ~0.7 ns per variable, ~100 ns for a 150-variable pattern match), and each φ copy whose source and
destination share a variable disappears. Liveness is computed on the out-of-SSA CFG the emitter walks: ops in
block order, the terminator's reads, then the φ copies of each edge (sequentialised, as the ``CopyPlan`` orders
them). An exceptional edge's copies run where the block raised, so whatever they and the handler read is kept
alive across the whole block from its definition on. Interference is recorded at every definition (an op's
result also interferes with its own operands: emitted code may assign it before reading them); values are
then coloured greedily in definition order, preferring the variable of a copy partner, within groups of the
same declared C type.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from moshjit.backends.cython.out_of_ssa import CopyPlan
from moshjit.ir import ops
from moshjit.ir.function import Block, Function


class Liveness:
    """Live-in sets per block and the interference graph of ``candidates``.

    ``reads(instruction)`` gives the candidates an op or terminator reads where the emitter places it (the
    emitter reads some values at another op's place: folded ``range`` calls, inline slices, planned loops);
    ``defines(op)`` says whether the emitted code assigns the op's own variable there."""

    def __init__(self, fn: Function, plan: CopyPlan, candidates: set,
                 reads: Callable[[ops.Op], Iterable], defines: Callable[[ops.Op], bool]):
        self.fn = fn
        self.plan = plan
        self.candidates = candidates
        self.reads = reads
        self.defines = defines
        self.live_in: dict[Block, frozenset] = {block: frozenset() for block in fn.blocks}
        self.interference: dict = {value: set() for value in candidates}
        self._solve()
        for block in fn.blocks:
            self._scan(block, record=True)

    def _solve(self) -> None:
        changed = True
        while changed:
            changed = False
            for block in reversed(self.fn.blocks):
                live = self._scan(block, record=False)
                if live != self.live_in[block]:
                    self.live_in[block] = live
                    changed = True

    def _through_copies(self, pred: Block, succ: Block, live: set, record: bool) -> set:
        """Live before the copies of edge pred → succ, given ``live`` after them (the live-in of succ)."""
        live = set(live)
        for dst, src in reversed(self.plan.copies(pred, succ)):
            if dst in self.candidates:
                live.discard(dst)
                if record:
                    self._interfere(dst, live, exempt=src)
            if src in self.candidates:
                live.add(src)
        return live

    def live_after(self, block: Block) -> dict:
        """Each op of ``block`` -> the candidates live just after it (what the rest of the function still reads)."""
        after: dict = {}
        self._scan(block, record=False, after=after)
        return after

    def _scan(self, block: Block, record: bool, after: dict | None = None) -> frozenset:
        """Walk ``block`` backwards from its live-out; returns its live-in (recording interference if asked, and
        each op's live-after set into ``after`` if given)."""
        term = block.terminator
        live: set = set()
        for succ in dict.fromkeys(term.successors()):
            live |= self._through_copies(block, succ, self.live_in[succ], record)
        at_raise: set = set()
        if block.handler is not None:
            at_raise = self._through_copies(block, block.handler, self.live_in[block.handler], record)
        position = {op: i for i, op in enumerate(block.ops)}
        end = len(block.ops)
        # a value the raise path needs is live from its definition in this block (or from the start) to the end
        live |= {v for v in at_raise if position.get(v, -1) < end}
        if isinstance(term, ops.ForIter) and term in self.candidates:
            live.discard(term)                    # the loop item, assigned where the body starts
            if record:
                self._interfere(term, live | at_raise)
        live |= self._read_set(term)
        for i in range(end - 1, -1, -1):
            op = block.ops[i]
            if after is not None:
                after[op] = frozenset(live)
            read = self._read_set(op)
            if op in self.candidates and self.defines(op):
                live.discard(op)
                if record:            # an op's code may assign its result before its last read (``x = a; x += b``)
                    self._interfere(op, live | read)
            live |= read
            live |= {v for v in at_raise if position.get(v, -1) < i}
        return frozenset(live)

    def _read_set(self, instruction) -> set:
        return {v for v in self.reads(instruction) if v in self.candidates}

    def _interfere(self, value, live: Iterable, exempt=None) -> None:
        for other in live:
            if other is not value and other is not exempt:
                self.interference[value].add(other)
                self.interference[other].add(value)


def coalesce(fn: Function, plan: CopyPlan, candidates: Iterable, group_of: Callable[[object], str],
             reads: Callable[[ops.Op], Iterable], defines: Callable[[ops.Op], bool],
             liveness: Liveness | None = None) -> dict:
    """Map each candidate to the representative of the variable it shares (itself when alone). Only values of
    the same ``group_of`` (the declared C type) share; values that interfere never do. ``liveness``: one already
    computed for these candidates, reads and definitions."""
    ordered = list(dict.fromkeys(candidates))
    liveness = liveness or Liveness(fn, plan, set(ordered), reads, defines)
    partners: dict = {value: [] for value in ordered}
    for moves in plan.edges.values():
        for dst, src in moves:
            if dst in partners and src in partners:
                partners[dst].append(src)
                partners[src].append(dst)
    members: dict = {}                            # representative -> the values sharing its variable
    by_group: dict[str, list] = {}
    representative: dict = {}
    for value in ordered:
        group = group_of(value)
        conflicts = liveness.interference[value]
        preferred = [representative[p] for p in partners[value] if p in representative]
        choice = None
        for rep in dict.fromkeys(preferred + by_group.get(group, [])):
            if group_of(rep) == group and conflicts.isdisjoint(members[rep]):
                choice = rep
                break
        if choice is None:
            choice = value
            members[value] = []
            by_group.setdefault(group, []).append(value)
        members[choice].append(value)
        representative[value] = choice
    return representative

"""Natural loops and the loop nesting forest (back edges to a dominating header; reducible CFGs)."""
from __future__ import annotations

from typing import Callable, Hashable, Iterable

from moshjit.analysis.dominators import DominatorTree


class Loop:
    """A natural loop: its header, every block in it (nested loops included), latches and nesting."""

    def __init__(self, header):
        self.header = header
        self.body: set = {header}
        self.latches: list = []
        self.parent: Loop | None = None
        self.children: list[Loop] = []

    @property
    def depth(self) -> int:
        return 0 if self.parent is None else self.parent.depth + 1

    def exits(self, successors) -> list:
        """Blocks outside the loop reached from inside it."""
        out = []
        for node in self.body:
            for succ in successors(node):
                if succ not in self.body and succ not in out:
                    out.append(succ)
        return out

    def __repr__(self):
        return f"<Loop header={self.header!r} size={len(self.body)}>"


class LoopForest:
    """All natural loops, their nesting, and the innermost loop of each node."""

    def __init__(self, entry, successors: Callable[[Hashable], Iterable], domtree: DominatorTree | None = None):
        self.domtree = domtree or DominatorTree(entry, successors)
        self.irreducible_edges: list = []
        by_header: dict = {}
        position = {node: i for i, node in enumerate(self.domtree.order)}
        for node in self.domtree.order:
            for succ in successors(node):
                if succ not in self.domtree.idom:
                    continue
                if self.domtree.dominates(succ, node):
                    loop = by_header.setdefault(succ, Loop(succ))
                    loop.latches.append(node)
                    self._collect_body(loop, node)
                elif position[succ] <= position[node]:
                    self.irreducible_edges.append((node, succ))
        # Nest: a loop's parent is the smallest other loop whose body contains its header.
        loops = sorted(by_header.values(), key=lambda lp: len(lp.body))
        for i, loop in enumerate(loops):
            for outer in loops[i + 1:]:
                if loop.header in outer.body and outer is not loop:
                    loop.parent = outer
                    outer.children.append(loop)
                    break
        self.loops = loops
        self.roots = [lp for lp in loops if lp.parent is None]
        self.innermost: dict = {}
        for loop in loops:                          # smallest first, so the innermost wins
            for node in loop.body:
                self.innermost.setdefault(node, loop)

    def _collect_body(self, loop: Loop, latch) -> None:
        preds = self.domtree.preds
        work = [latch]
        while work:
            node = work.pop()
            if node not in loop.body:
                loop.body.add(node)
                work.extend(p for p in preds[node] if p in self.domtree.idom)

    @property
    def reducible(self) -> bool:
        return not self.irreducible_edges

    def loop_of(self, node) -> Loop | None:
        return self.innermost.get(node)

    def loop_contiguous_order(self) -> list:
        """Reverse postorder rearranged so each loop's blocks are contiguous, header first: every block comes
        after its forward predecessors, and a loop is finished before anything after it starts."""
        order = self.domtree.order
        position = {node: i for i, node in enumerate(order)}
        emitted: set = set()
        out: list = []

        def emit(nodes: list, loop: Loop | None) -> None:
            for node in nodes:
                if node in emitted:
                    continue
                child = self.innermost.get(node)
                while child is not None and child is not loop and child.parent is not loop:
                    child = child.parent
                if child is None or child is loop:
                    emitted.add(node)
                    out.append(node)
                else:                               # first block of a nested loop: emit that loop whole
                    emitted.add(child.header)
                    out.append(child.header)
                    emit(sorted(child.body - {child.header}, key=position.__getitem__), child)

        emit(order, None)
        return out

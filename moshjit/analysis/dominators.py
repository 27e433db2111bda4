"""Dominators (Cooper–Harvey–Kennedy), the dominator tree and dominance frontiers, for any rooted graph."""
from __future__ import annotations

from typing import Callable, Hashable, Iterable


def reverse_postorder(entry, successors: Callable[[Hashable], Iterable]) -> list:
    """Nodes reachable from ``entry`` in reverse postorder (iterative DFS, successors visited in order)."""
    order, seen = [], {entry}
    stack = [(entry, iter(successors(entry)))]
    while stack:
        node, it = stack[-1]
        for succ in it:
            if succ not in seen:
                seen.add(succ)
                stack.append((succ, iter(successors(succ))))
                break
        else:
            stack.pop()
            order.append(node)
    order.reverse()
    return order


class DominatorTree:
    """Immediate dominators of every reachable node, with tree children, depth queries and frontiers."""

    def __init__(self, entry, successors: Callable[[Hashable], Iterable]):
        self.entry = entry
        self.order = reverse_postorder(entry, successors)
        position = {node: i for i, node in enumerate(self.order)}
        preds: dict = {node: [] for node in self.order}
        for node in self.order:
            for succ in successors(node):
                if succ in preds and node not in preds[succ]:
                    preds[succ].append(node)
        self.preds = preds
        idom = {entry: entry}
        changed = True
        while changed:
            changed = False
            for node in self.order[1:]:
                candidates = [p for p in preds[node] if p in idom]
                new = candidates[0]
                for p in candidates[1:]:
                    new = self._intersect(p, new, idom, position)
                if idom.get(node) is not new:
                    idom[node] = new
                    changed = True
        self.idom = idom
        self.children: dict = {node: [] for node in self.order}
        for node in self.order[1:]:
            self.children[idom[node]].append(node)
        self._depth = {entry: 0}
        for node in self.order[1:]:
            self._depth[node] = self._depth[idom[node]] + 1

    @staticmethod
    def _intersect(a, b, idom, position):
        while a is not b:
            while position[a] > position[b]:
                a = idom[a]
            while position[b] > position[a]:
                b = idom[b]
        return a

    def immediate_dominator(self, node):
        """The idom of ``node`` (None for the entry)."""
        return None if node is self.entry else self.idom[node]

    def dominates(self, a, b) -> bool:
        """True if every path from the entry to ``b`` passes through ``a`` (a node dominates itself)."""
        while self._depth[b] > self._depth[a]:
            b = self.idom[b]
        return a is b

    def frontiers(self) -> dict:
        """Dominance frontier of every node (Cytron et al., computed the CHK way from join points)."""
        frontier: dict = {node: set() for node in self.order}
        for node in self.order:
            # the entry also has the implicit edge from outside the graph, so a back edge to it makes a join
            if len(self.preds[node]) >= 2 or (node is self.entry and self.preds[node]):
                stop = self.immediate_dominator(node)
                for pred in self.preds[node]:
                    runner = pred
                    while runner is not stop:
                        frontier[runner].add(node)
                        runner = self.immediate_dominator(runner)
        return frontier

    def preorder(self) -> list:
        """Dominator-tree preorder (children in reverse-postorder position)."""
        out, stack = [], [self.entry]
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(self.children[node]))
        return out

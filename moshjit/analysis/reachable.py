"""The nodes a set of nodes leads to."""
from __future__ import annotations

from typing import Callable, Hashable, Iterable


def reachable_from(starts: Iterable, successors: Callable[[Hashable], Iterable]) -> set:
    """The nodes reachable from ``starts`` (themselves included) along ``successors`` (for blocks,
    ``Block.successors``: normal and exceptional edges)."""
    seen, pending = set(), list(starts)
    while pending:
        node = pending.pop()
        if node not in seen:
            seen.add(node)
            pending.extend(successors(node))
    return seen

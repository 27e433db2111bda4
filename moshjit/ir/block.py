"""Basic blocks of the SSA IR."""
from __future__ import annotations

from typing import Iterator

from moshjit.ir.ops import Op, Phi, Terminator


class Block:
    """A basic block: φs, then ops, then one terminator. ``handler`` is the exceptional successor of every op
    in the block that can raise (None outside ``try`` regions)."""

    __slots__ = ("label", "phis", "ops", "terminator", "handler")

    def __init__(self, label: int):
        self.label = label
        self.phis: list[Phi] = []
        self.ops: list[Op] = []
        self.terminator: Terminator | None = None
        self.handler: Block | None = None

    def append(self, op: Op) -> Op:
        op.block = self
        self.ops.append(op)
        return op

    def set_terminator(self, term: Terminator) -> Terminator:
        term.block = self
        self.terminator = term
        return term

    def normal_successors(self) -> list["Block"]:
        return self.terminator.successors() if self.terminator is not None else []

    def successors(self) -> list["Block"]:
        """Normal successors, then the exceptional one (if any)."""
        succ = self.normal_successors()
        if self.handler is not None and self.handler not in succ:
            succ = succ + [self.handler]
        return succ

    def can_raise(self) -> bool:
        return any(op.can_raise() for op in self.instructions())

    def instructions(self) -> Iterator[Op]:
        """Ops and then the terminator (φs excluded)."""
        yield from self.ops
        if self.terminator is not None:
            yield self.terminator

    def __repr__(self):
        return f"<Block B{self.label}>"

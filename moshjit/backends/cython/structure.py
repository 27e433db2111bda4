"""Control-flow structuring: rebuild loops, ifs, breaks and continues from a reducible CFG.

After Ramsey, "Beyond Relooper" (2022): walk the dominator tree; a loop header becomes a ``Loop``; a block with
several forward predecessors (a merge node) is placed after a ``Labeled`` statement that its predecessors leave
with ``Br``; every other block is inlined where its single predecessor branches to it. Adapted to Python's
``while True`` (falling off the end of a loop body repeats it): the merge nodes of a loop header that lie outside
the loop are placed after the loop, and loop exits and exception handlers are always treated as merge nodes.
A final pass deletes the ``Br``s that merely fall through, so most ``Labeled`` statements disappear.
Irreducible CFGs (which CPython never produces) are handled by ``state_machine`` instead.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from moshjit.analysis.dominators import DominatorTree
from moshjit.analysis.loops import LoopForest
from moshjit.ir import ops
from moshjit.ir.function import Block, Function


# ---- the structured statement tree ---------------------------------------------------------------------------------
@dataclass(eq=False)
class Code:
    """The ops of one block (the terminator is handled by the statements around it)."""
    block: Block


@dataclass(eq=False)
class Copies:
    """φ copies for the edge pred → succ."""
    pred: Block
    succ: Block


@dataclass(eq=False)
class Guarded:
    """Code of a block that can raise, run under ``try``; the except clause makes the handler edge's copies
    and leaves with ``on_raise`` (a Br to the handler)."""
    block: Block
    body: list
    on_raise: list


@dataclass(eq=False)
class If:
    """Branch on the block's condition: ``cond`` is the Branch or ForIter terminator being decided."""
    terminator: ops.Terminator
    then: list
    orelse: list


@dataclass(eq=False)
class Loop:
    header: Block
    body: list


@dataclass(eq=False)
class Labeled:
    """A region left by ``Br(target)`` towards ``target``, whose code follows this statement."""
    target: Block
    body: list


@dataclass(eq=False)
class Br:
    """Jump to a Labeled's end (``kind='exit'``) or a Loop's start (``kind='continue'``)."""
    target: Block
    kind: str


@dataclass(eq=False)
class Leaf:
    """A terminator that leaves the function: return, raise, reraise."""
    terminator: ops.Terminator


@dataclass(eq=False)
class Dispatch:
    """State-machine fallback for irreducible flow: ``while True`` over ``state`` with one case per block."""
    cases: dict = field(default_factory=dict)


class Structurer:
    def __init__(self, fn: Function):
        self.fn = fn
        self.domtree = DominatorTree(fn.entry, Block.successors)
        self.forest = LoopForest(fn.entry, Block.successors, self.domtree)
        self.rpo = {b: i for i, b in enumerate(self.domtree.order)}
        self.preds = fn.predecessors()
        self.loop_headers = {loop.header: loop for loop in self.forest.loops}
        self.merge_nodes = self._merge_nodes()

    def _merge_nodes(self) -> set:
        merge = set()
        for block in self.domtree.order:
            forward = [p for p in self.preds[block] if self.rpo[p] < self.rpo[block]]
            if len(forward) >= 2:
                merge.add(block)
        for block in self.fn.blocks:
            if block.handler is not None:
                merge.add(block.handler)
        for loop in self.forest.loops:
            merge.update(loop.exits(Block.successors))
        return merge

    def structure(self) -> list:
        return strip_fallthrough(self.do_tree(self.fn.entry), None)

    def _merge_children(self, x: Block) -> list:
        children = [c for c in self.domtree.children[x] if c in self.merge_nodes]
        return sorted(children, key=lambda b: -self.rpo[b])

    def do_tree(self, x: Block) -> list:
        ys = self._merge_children(x)
        loop = self.loop_headers.get(x)
        if loop is None:
            return self._wrap(ys, self.block_body(x))
        inside = [y for y in ys if y in loop.body]
        outside = [y for y in ys if y not in loop.body]
        return self._wrap(outside, [Loop(x, self._wrap(inside, self.block_body(x)))])

    def _wrap(self, ys: list, inner: list) -> list:
        """Labeled(y1){ Labeled(y2){ … inner … }; tree(y2) }; tree(y1) for ys in decreasing RPO order."""
        result = inner
        for y in reversed(ys):
            result = [Labeled(y, result)] + self.do_tree(y)
        return result

    def do_branch(self, x: Block, y: Block) -> list:
        copies = [Copies(x, y)]
        if self.rpo[y] <= self.rpo[x]:
            return copies + [Br(y, "continue")]
        if y in self.merge_nodes:
            return copies + [Br(y, "exit")]
        return copies + self.do_tree(y)

    def block_body(self, x: Block) -> list:
        term = x.terminator
        if x.handler is not None and x.can_raise():
            if isinstance(term, (ops.Raise, ops.Reraise)):   # the raise itself goes to the handler
                return [Guarded(x, [Code(x), Leaf(term)], [Copies(x, x.handler), Br(x.handler, "exit")])]
            code = [Guarded(x, [Code(x)], [Copies(x, x.handler), Br(x.handler, "exit")])]
        else:
            code = [Code(x)]
        if isinstance(term, ops.Jump):
            return code + self.do_branch(x, term.target)
        if isinstance(term, ops.Branch):
            if term.if_true is term.if_false:
                return code + self.do_branch(x, term.if_true)
            return code + [If(term, self.do_branch(x, term.if_true), self.do_branch(x, term.if_false))]
        if isinstance(term, ops.ForIter):
            return code + [If(term, self.do_branch(x, term.body), self.do_branch(x, term.exit))]
        return code + [Leaf(term)]


def strip_fallthrough(stmts: list, fall: Block | None) -> list:
    """Remove each ``Br`` whose target is where control goes anyway by falling off the end of ``stmts``;
    ``fall`` is that target (a Labeled's follow block, or a Loop's header for ``while True``)."""
    out = []
    for i, stmt in enumerate(stmts):
        last = i == len(stmts) - 1
        if isinstance(stmt, Br) and last and stmt.target is fall:
            continue
        if isinstance(stmt, If):
            branch_fall = fall if last else None
            stmt = If(stmt.terminator, strip_fallthrough(stmt.then, branch_fall),
                      strip_fallthrough(stmt.orelse, branch_fall))
        elif isinstance(stmt, Labeled):
            stmt = Labeled(stmt.target, strip_fallthrough(stmt.body, stmt.target))
        elif isinstance(stmt, Loop):
            stmt = Loop(stmt.header, strip_fallthrough(stmt.body, stmt.header))
        out.append(stmt)
    return out


def count_branches(stmts: list, counts: dict) -> dict:
    """How many ``Br`` statements target each block (Labeled statements with none need no construct)."""
    for stmt in stmts:
        if isinstance(stmt, Br):
            counts[stmt.target] = counts.get(stmt.target, 0) + 1
        elif isinstance(stmt, If):
            count_branches(stmt.then, counts)
            count_branches(stmt.orelse, counts)
        elif isinstance(stmt, (Labeled, Loop)):
            count_branches(stmt.body, counts)
        elif isinstance(stmt, Guarded):
            count_branches(stmt.on_raise, counts)
    return counts


def state_machine(fn: Function) -> list:
    """Structure any CFG (also irreducible ones) as one dispatch loop over a state variable."""
    return [Dispatch({block: [*_state_body(block)] for block in fn.blocks})]


def _state_body(block: Block) -> list:
    term = block.terminator
    guarded = block.handler is not None and block.can_raise()
    on_raise = [Copies(block, block.handler), Br(block.handler, "state")] if guarded else []
    if guarded and isinstance(term, (ops.Raise, ops.Reraise)):
        return [Guarded(block, [Code(block), Leaf(term)], on_raise)]
    code = [Guarded(block, [Code(block)], on_raise)] if guarded else [Code(block)]
    goto = lambda target: [Copies(block, target), Br(target, "state")]
    if isinstance(term, ops.Jump):
        return code + goto(term.target)
    if isinstance(term, ops.Branch):
        return code + [If(term, goto(term.if_true), goto(term.if_false))]
    if isinstance(term, ops.ForIter):
        return code + [If(term, goto(term.body), goto(term.exit))]
    return code + [Leaf(term)]


def structure(fn: Function) -> list:
    """Structured statements for ``fn``: nested loops/ifs when reducible, a state machine otherwise."""
    structurer = Structurer(fn)
    if not structurer.forest.reducible:
        return state_machine(fn)
    return structurer.structure()

"""A CPython 3.12+ ``sum(generator)`` of ints becomes a plain ``total = total + item`` accumulator.

On 3.12+ the frontend feeds an inlined ``sum(gen, start)`` to a ``Summation`` object (``primitives/summation.py``),
which follows CPython's compensated float loop, one interpreted method call per item. When ``start`` and every
item are typed int or bool, that loop is exactly ``total = total + item`` from ``start``: the C-long phase adds
exact ints, an overflowing or non-exact int (a subclass) is added with ``+``, and any later phase adds int items
with ``+`` too (a float total adds an int as the double it rounds to, as ``float + int`` does; an int item never
changes the compensation term). So the ``Summation`` goes and its ``add``/``result`` read and write an SSA
accumulator, which the backends' int arithmetic (overflow into an exact big int) then compiles natively.
"""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.function import Block, Function
from moshjit.ir.ops import Constant, Phi
from moshjit.ir.types import BOOL, IntType, type_of_value
from moshjit.primitives.summation import Summation


class _NeedsHandlerPhi(Exception):
    """The accumulator would have to flow into an exception handler: the rewrite is left out."""


def _int_like(value) -> bool:
    """Typed int or bool (a constant by its value)."""
    kind = type_of_value(value.value) if isinstance(value, Constant) else value.type
    return isinstance(kind, IntType) or kind == BOOL


def _summation_uses(summation, users) -> list | None:
    """The ``add``/``result`` calls on ``summation`` when they are its only uses and every item is int-like."""
    uses = users.get(summation, [])
    for use in uses:
        if not (isinstance(use, ops.CallMethod) and use.obj is summation and not use.kwnames
                and summation not in use.args):
            return None
        if use.name == "add" and len(use.args) == 1 and _int_like(use.args[0]) and not users.get(use):
            continue
        if use.name != "result" or use.args:
            return None
    return uses


class _Accumulator:
    """Braun et al.'s SSA construction for the one variable ``total``: its value at the end of each block that
    defines it is known; elsewhere it is read through the predecessors, with a φ where they meet."""

    def __init__(self, fn: Function, last: dict[Block, object]):
        self.preds = fn.predecessors()
        self.handlers = {block.handler for block in fn.blocks if block.handler is not None}
        self.last = last
        self.at_entry: dict[Block, object] = {}
        self.phis: list[Phi] = []

    def at_end(self, block: Block):
        return self.last[block] if block in self.last else self.entry(block)

    def entry(self, block: Block):
        if block in self.at_entry:
            return self.at_entry[block]
        if block in self.handlers:
            raise _NeedsHandlerPhi
        preds = self.preds.get(block, [])
        if len(preds) == 1:
            value = self.at_entry[block] = self.at_end(preds[0])
            return value
        phi = self.at_entry[block] = Phi(block)
        self.phis.append(phi)
        for pred in preds:
            phi.incoming[pred] = self.at_end(pred)
        return phi


def _rewrite(fn: Function, summation, uses: list) -> bool:
    """Replace ``summation`` and its calls by the accumulator; False (nothing changed) when the accumulator would
    need a φ in an exception handler."""
    additions = {use: ops.BinaryOp(None, use.args[0], "+", False, line=use.line) for use in uses if use.name == "add"}
    last: dict[Block, object] = {}
    for block in fn.blocks:
        for op in block.ops:
            if op is summation:
                last[block] = summation.args[0]
            elif op in additions:
                last[block] = additions[op]
    accumulator = _Accumulator(fn, last)
    calls = set(uses)
    before: dict = {}                      # add/result call -> the total it reads
    try:
        for block in fn.blocks:
            current = None
            for op in block.ops:
                if op is summation:
                    current = summation.args[0]
                elif op in calls:
                    before[op] = current if current is not None else accumulator.entry(block)
                    current = additions.get(op, current)
    except _NeedsHandlerPhi:
        return False
    for phi in accumulator.phis:
        phi.block.phis.append(phi)
    for call, addition in additions.items():
        addition.left, addition.block = before[call], call.block
    for block in fn.blocks:
        block.ops = [additions.get(op, op) for op in block.ops
                     if op is not summation and (op in additions or op not in calls)]
    fn.substitute({call: total for call, total in before.items() if call not in additions})
    return True


def int_sums(fn: Function) -> bool:
    """Turn every ``Summation`` whose start and items are int-like into an accumulator; whether anything changed."""
    users = fn.users()
    changed = False
    for block in fn.blocks:
        for op in list(block.ops):
            if not (isinstance(op, ops.Call) and isinstance(op.func, Constant) and op.func.value is Summation
                    and len(op.args) == 1 and not op.kwnames and _int_like(op.args[0])):
                continue
            uses = _summation_uses(op, users)
            if uses is not None and _rewrite(fn, op, uses):
                changed = True
                users = fn.users()
    return changed

"""Every loop's back-edge gets an ``ops.LoopTick``: where compiled code, like CPython's eval loop at each backward
jump, handles signals (Ctrl-C raises KeyboardInterrupt there, inside the loop's ``try``) and lets a thread that
asked for the GIL run. Without it a compiled loop could neither be interrupted nor share the interpreter with
other threads until it ended.

Placed last, on the typed SSA both backends receive, so that no pass has to reason about it: the tick goes at
the end of each latch (the block whose edge returns to the loop's header), before its terminator, or in a block
of its own on the back-edge when the latch may also leave the loop, with the terminator's line (CPython's
backward jump belongs to the same line). The backends make it cheap: a countdown reaches the slow path every
``TICK_EVERY`` back-edges, and the slow path only acts when the interpreter's own flags say so
(``moshjit.cpython.EVAL_BREAKER_FLAGS``).
"""
from __future__ import annotations

from moshjit.analysis.loops import LoopForest
from moshjit.ir import ops
from moshjit.ir.block import Block
from moshjit.ir.function import Function
from moshjit.ir.types import NONE

TICK_EVERY = 1024
"""Back-edges between two reads of the interpreter's flags (compiled loops take 1-50 ns per iteration: a signal
is seen within about 50 µs, against 5 ms for a thread's GIL request to become due)."""


def place_loop_ticks(fn: Function) -> bool:
    """Give every back-edge of ``fn`` a tick; whether any was added."""
    forest = LoopForest(fn.entry, Block.successors)
    added = False
    for loop in forest.loops:
        for latch in loop.latches:
            targets = latch.terminator.successors()
            if loop.header not in targets or _ticks(latch):
                continue
            line = latch.terminator.line or _last_line(latch)
            if isinstance(latch.terminator, ops.Branch) and targets.count(loop.header) == 1:
                _tick_on_edge(fn, latch, loop.header, line)    # only the iterations that take it count
            else:
                _append_tick(latch, line)
            added = True
    return added


def _ticks(block: Block) -> bool:
    return bool(block.ops) and isinstance(block.ops[-1], ops.LoopTick)


def _append_tick(block: Block, line) -> ops.LoopTick:
    tick = ops.LoopTick(line=line)
    tick.block = block
    tick.type = NONE
    block.ops.append(tick)
    return tick


def _tick_on_edge(fn: Function, latch: Block, header: Block, line) -> None:
    """A block of its own on the edge latch → header (in the latch's ``try``), so that a latch which branches
    back or on (a ``continue`` under an ``if``) ticks only when it goes back."""
    edge = fn.new_block()
    edge.handler = latch.handler
    if latch.handler is not None:           # a tick that raises there sees the locals as the latch leaves them
        for phi in latch.handler.phis:
            phi.incoming[edge] = phi.incoming[latch]
    _append_tick(edge, line)
    edge.set_terminator(ops.Jump(header, line=line))
    branch = latch.terminator
    if branch.if_true is header:
        branch.if_true = edge
    else:
        branch.if_false = edge
    for phi in header.phis:
        phi.incoming = {edge if pred is latch else pred: value for pred, value in phi.incoming.items()}


def _last_line(block: Block) -> int | None:
    lines = [op.line for op in block.ops if op.line]
    return lines[-1] if lines else None

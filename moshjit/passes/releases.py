"""Releases nothing can observe are dropped: freeing a number, a str or bytes, or a tuple or list of only such values
runs no code and leaves nothing another object could see, so when a local holding one is rebound the reference may
go whenever the backend's variable is reused.

``ops.Release`` marks where CPython drops a local's reference (``x = None``, ``del x``): what is freed there may run
a finalizer (``__del__``, a generator's ``finally``, a file's close). Every other release would only keep values
alive that the backends handle natively (an int64 in a register has nothing to release) and make them look used.
An ``ops.FrameEnd`` (an inlined callee returned) whose callee defined only such values goes too.
"""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.passes.dce import prune_dead_phis
from moshjit.ir.types import BOOL, BYTES, CHAR, FLOAT, NONE, STR, IntType, ListType, MType, TupleType

_SILENT = {BOOL, BYTES, CHAR, FLOAT, NONE, STR}


def frees_silently(t: MType | None) -> bool:
    """Whether freeing any value of type ``t`` runs no code a program could notice."""
    if t in _SILENT or isinstance(t, IntType):
        return True
    if isinstance(t, ListType):
        return frees_silently(t.item)
    if isinstance(t, TupleType):
        return all(frees_silently(item) for item in t.items) if t.items is not None else frees_silently(t.item)
    return False


def copied_from(value) -> list:
    """``value`` and, through φs, every value it may have been copied from (φs, unbound inputs and constants
    included): what a rebound local's previous value may be."""
    sources, work = [], [value]
    while work:
        value = work.pop()
        if value in sources:
            continue
        sources.append(value)
        if isinstance(value, ops.Phi):
            work.extend(value.incoming.values())
    return sources


def releases_silently(value) -> bool:
    """Whether letting go of ``value`` frees only what frees silently: through a φ (the frontend reads a rebound
    local's previous value, a φ at a loop header or a join), what each of its inputs may be; an unbound input or a
    constant frees nothing."""
    return all(frees_silently(getattr(source, "type", None)) for source in copied_from(value)
               if not (isinstance(source, (ops.Phi, ops.Constant)) or source is ops.UNDEFINED))


def drop_silent_releases(fn: Function) -> bool:
    """Remove the releases of values that free silently, and the φs only they read (the frontend made those to
    read the rebound local's previous value), and the ends of inlined frames that held only such values.
    Returns False: nothing else changed, so neither the pipeline nor type inference needs to run again — and the
    function's structure is the same whichever releases went, as the LLVM backend's continuations need
    (``strip_releases``)."""
    present = set(fn.values())
    removed = False
    for block in fn.blocks:
        kept = [op for op in block.ops if not (isinstance(op, ops.Release) and releases_silently(op.value)
                                               or isinstance(op, ops.FrameEnd) and _frees_silently(op, present))]
        if len(kept) != len(block.ops):
            block.ops = kept
            removed = True
    if removed:
        prune_dead_phis(fn)
    return False


def _frees_silently(end: ops.FrameEnd, present: set) -> bool:
    """Whether everything the inlined frame's body defined that is still in the function frees silently."""
    return all(frees_silently(getattr(value, "type", None)) for value in end.frame.defined if value in present)


def strip_releases(fn: Function):
    """Remove every release and frame end, and the φs only releases read (the LLVM backend: native values free
    nothing, and its deoptimisation continuations rebuild the function and must find the same structure whatever
    types decided which releases stayed). Returns a callable that puts them back (for the Cython backend after a
    refusal)."""
    saved = [(block, block.ops, block.phis) for block in fn.blocks]
    if any(isinstance(op, (ops.Release, ops.FrameEnd)) for block in fn.blocks for op in block.ops):
        for block in fn.blocks:
            block.ops = [op for op in block.ops if not isinstance(op, (ops.Release, ops.FrameEnd))]
        prune_dead_phis(fn)

    def restore():
        for block, block_ops, phis in saved:
            block.ops, block.phis = block_ops, phis
    return restore

"""Exceptions go straight past handlers that only re-raise them.

A handler whose whole body is ``%e = caught_exception; reraise %e`` changes nothing the exception carries (a
re-raise adds no traceback entry), so every block raising into it can raise into that handler's own handler
instead, or out of the function. Such handlers come from CPython 3.12+'s inlined comprehensions (which restore
their iteration variable, then re-raise) and from ``except ... as name`` or ``finally`` clean-ups whose work DCE
removed. Bypassing them keeps try-free code free of handlers, so the LLVM backend can take it on every version.

A handler that also releases locals (``ops.Release``) before re-raising is bypassed too: an ``except E as e``
clean-up (``e`` stays reachable as the new exception's ``__context__``), and a comprehension's clean-up
translated after the restore following its loop (the frontend marks only the first restore as such). Without an
outer handler the exception leaves the frame, which drops those values anyway; with one, they go when their
variable is next reused or the frame ends, as the values of other temporaries do.
"""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.function import Block, Function
from moshjit.ir.ops import Phi


def bypass_reraise(fn: Function) -> Function:
    users = None
    for block in list(fn.blocks):
        if not _only_reraises(block):
            continue
        outer = block.handler
        if block.phis:
            users = users if users is not None else fn.users()
            if not all((isinstance(user, Phi) and user.block is outer)
                       or (isinstance(user, ops.Release) and user.block is block)
                       for phi in block.phis for user in users.get(phi, ())):
                continue
        for raiser in fn.blocks:
            if raiser.handler is not block:
                continue
            raiser.handler = outer
            if outer is not None:
                for phi in outer.phis:
                    value = phi.incoming[block]
                    phi.incoming[raiser] = value.incoming[raiser] if isinstance(value, Phi) and value.block is block \
                        else value
        if outer is not None:
            for phi in outer.phis:
                del phi.incoming[block]
        fn.blocks.remove(block)              # a handler is entered only by exceptions: nothing reaches it now
        users = None
    return fn


def _only_reraises(block: Block) -> bool:
    """Whether ``block`` catches, at most releases locals, and re-raises what it caught."""
    return (len(block.ops) >= 1 and isinstance(block.ops[0], ops.CaughtException)
            and all(isinstance(op, ops.Release) for op in block.ops[1:])
            and isinstance(block.terminator, ops.Reraise) and block.terminator.exc is block.ops[0])

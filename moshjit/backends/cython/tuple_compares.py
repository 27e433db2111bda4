"""Tuple displays compared with ``==``/``!=`` without making the tuple: ``(word[i], word[i + 1]) == pair``.

CPython builds the tuple, compares it item by item with the other operand (``tuplerichcompare``) and frees it.
When a display of two or three items is used only by one such comparison in its own block, the comparison is
emitted as a call of ``moshjit_rt._mj_display_compare``, which compares the items against an exact tuple directly
and makes the display only when the other operand is anything else (where a subclass's or a reflected ``__eq__``
may run).
Building a tuple can only fail for memory, so making it at the comparison instead of at the display changes
nothing a program can observe.
"""
from __future__ import annotations

from moshjit.ir import ops

_SIZES = (2, 3)


def plan_tuple_compares(fn, users) -> dict:
    """compare op → (the folded display, the other operand, whether the display is the left operand)."""
    found = {}
    for block in fn.blocks:
        here = set(block.ops)
        for op in block.ops:
            if not (isinstance(op, ops.Compare) and op.op in ("==", "!=") and op.left is not op.right):
                continue
            for display, other, left in ((op.left, op.right, True), (op.right, op.left, False)):
                if (isinstance(display, ops.BuildTuple) and len(display.items) in _SIZES and display in here
                        and users.get(display) == [op]):
                    found[op] = (display, other, left)
                    break
    return found

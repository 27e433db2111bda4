"""Loops over a joined character buffer read the buffer: ``s = "".join(chars)`` followed by ``for ch in s`` makes no
str when ``s`` has no other use.

Chained character passes (clean the text, then space out CJK; strip the accents of a word, then split it on
punctuation) hand each other their result as a str built from a ``CharBuffer`` and read back one code point at a
time. The str is only an intermediate: the loop reads the same code points from the buffer's array. Exact as long
as nothing can tell the difference:

- the joined str's only use is the loop (``get_iter``/``for_iter``, planned as an index loop over a str);
- the buffer is a single ``CharBuffer`` (not a φ web of buffers), and no append to it is reachable from the join
  without passing the buffer's creation again: the code points the loop reads are those the join saw;
- a join can raise only MemoryError, which the loop over the buffer cannot need.
"""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.ops import Constant, Phi


def joined_loops(plan) -> dict:
    """``{get_iter op: the CharBuffer value it reads}`` for the loops of ``plan`` that read a joined buffer."""
    found = {}
    for getiter, iteration in plan.iteration.items():
        joined = getiter.obj
        if iteration.kind != "str" or not _joins_buffer(plan, joined):
            continue
        buffer = joined.args[0]
        if plan.users.get(joined) == [getiter] and _unchanged_after(plan, buffer, joined):
            found[getiter] = buffer
    return found


def _joins_buffer(plan, value) -> bool:
    return (isinstance(value, ops.CallMethod) and value.name == "join" and isinstance(value.obj, Constant)
            and value.obj.value == "" and len(value.args) == 1 and not value.kwnames
            and value.args[0] in plan.char_buffers and isinstance(value.args[0], ops.BuildList))


def _appends_to(user, buffer) -> bool:
    return ((isinstance(user, ops.ListAppend) and user.target is buffer)
            or (isinstance(user, ops.CallMethod) and user.obj is buffer))


def _unchanged_after(plan, buffer, join) -> bool:
    """No append to ``buffer`` is reachable from ``join`` unless through ``buffer``'s creation (a new buffer)."""
    users = plan.users.get(buffer, [])
    if any(isinstance(user, Phi) for user in users):
        return False
    appends = {user for user in users if _appends_to(user, buffer)}
    join_block = join.block
    after_join = join_block.ops[join_block.ops.index(join) + 1:]
    if any(op in appends for op in after_join):
        return False
    seen = set()
    work = list(join_block.successors())
    while work:
        block = work.pop()
        if block in seen:
            continue
        seen.add(block)
        if block is buffer.block:
            created = block.ops.index(buffer)
            if any(op in appends for op in block.ops[:created]):
                return False
            continue                          # past the creation every append is to a new buffer
        if any(op in appends for op in block.instructions()):
            return False
        work.extend(block.successors())
    return True

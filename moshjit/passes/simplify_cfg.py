"""CFG simplification: drop unreachable blocks, merge straight-line blocks, bypass empty blocks, renumber."""
from __future__ import annotations

from moshjit.analysis.dominators import reverse_postorder
from moshjit.ir import ops
from moshjit.ir.function import Block, Function
from moshjit.ir.ops import same_value


def remove_unreachable_blocks(fn: Function) -> Function:
    reachable = set(reverse_postorder(fn.entry, Block.successors))
    dead = [b for b in fn.blocks if b not in reachable]
    if dead:
        fn.blocks = [b for b in fn.blocks if b in reachable]
        for block in fn.blocks:
            for phi in block.phis:
                for pred in dead:
                    phi.incoming.pop(pred, None)
    return fn


def renumber_blocks(fn: Function) -> Function:
    """Order blocks in reverse postorder and label them 0, 1, … (stable printing)."""
    order = reverse_postorder(fn.entry, Block.successors)
    for label, block in enumerate(order):
        block.label = label
    fn.blocks = order
    fn._next_label = len(order)
    return fn


_NO_RAISE = "no-raise"


def _raise_target(block: Block):
    """Where an exception raised in ``block`` goes: its handler, None (propagates), or _NO_RAISE."""
    return block.handler if block.can_raise() else _NO_RAISE


def drop_stale_handler_edges(fn: Function) -> Function:
    """A block that can no longer raise (its raising ops were folded away) loses its exceptional edge."""
    for block in fn.blocks:
        if block.handler is not None and not block.can_raise():
            for phi in block.handler.phis:
                phi.incoming.pop(block, None)
            block.handler = None
    return fn


def _replace_pred(preds: dict, block: Block, old: Block, new: Block) -> None:
    lst = preds[block]
    lst[:] = [new if p is old else p for p in lst]
    if lst.count(new) > 1:
        lst.remove(new)


def _try_merge(fn: Function, a: Block, b: Block, preds: dict, replacements: dict) -> bool:
    """Append b to a when a jumps to b, b's only predecessor is a, and exceptions still go where they went."""
    if b is a or b is fn.entry or preds[b] != [a] or (b.ops and isinstance(b.ops[0], ops.CaughtException)):
        return False
    target_a, target_b = _raise_target(a), _raise_target(b)
    if target_a is not _NO_RAISE and target_b is not _NO_RAISE:
        if target_a is not target_b:
            return False
        if target_a is not None and not all(same_value(phi.incoming[a], phi.incoming[b]) for phi in target_a.phis):
            return False
    handler = target_b if target_b is not _NO_RAISE else (target_a if target_a is not _NO_RAISE else None)
    for phi in b.phis:                        # single predecessor: every φ copies its one operand
        replacements[phi] = phi.incoming[a]
    for op in b.ops:
        a.append(op)
    a.set_terminator(b.terminator)
    if a.handler is not None and a.handler is not handler:
        for phi in a.handler.phis:
            phi.incoming.pop(a, None)
        preds[a.handler].remove(a)
    if b.handler is not None:
        for phi in b.handler.phis:
            phi.incoming.setdefault(a, phi.incoming.pop(b))
    a.handler = handler
    for succ in dict.fromkeys(b.successors()):       # once each: ``branch c, X, X`` names X twice
        if succ in b.normal_successors():
            for phi in succ.phis:
                phi.incoming[a] = phi.incoming.pop(b)
        _replace_pred(preds, succ, b, a)
    del preds[b]
    fn.blocks.remove(b)
    return True


def _try_bypass(fn: Function, empty: Block, preds: dict) -> bool:
    """Send the jumps into an empty ``jump T`` block straight to T, when T's φs allow it."""
    if empty is fn.entry or empty.phis or empty.ops or not isinstance(empty.terminator, ops.Jump):
        return False
    target = empty.terminator.target
    if target is empty or not preds[empty]:
        return False
    for pred in preds[empty]:
        if not isinstance(pred.terminator, (ops.Jump, ops.Branch)) or pred.handler is empty:
            return False
        if target in pred.successors() and not all(same_value(phi.incoming[pred], phi.incoming[empty])
                                                     for phi in target.phis):
            return False
    for phi in target.phis:
        value = phi.incoming.pop(empty)
        for pred in preds[empty]:
            phi.incoming[pred] = value
    preds[target].remove(empty)
    for pred in preds[empty]:
        pred.terminator.replace_target(empty, target)
        if pred not in preds[target]:
            preds[target].append(pred)
    del preds[empty]
    fn.blocks.remove(empty)
    return True


def simplify_cfg(fn: Function) -> Function:
    drop_stale_handler_edges(fn)          # first: a handler only stale edges reached becomes unreachable
    remove_unreachable_blocks(fn)
    preds = fn.predecessors()
    replacements: dict = {}
    changed = True
    while changed:
        changed = False
        for block in list(fn.blocks):
            if block not in preds:
                continue                      # merged away or bypassed in this sweep
            while isinstance(block.terminator, ops.Jump) and _try_merge(fn, block, block.terminator.target, preds,
                                                                          replacements):
                changed = True
            if _try_bypass(fn, block, preds):
                changed = True
    fn.substitute(replacements)
    return renumber_blocks(fn)

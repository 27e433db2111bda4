"""Constant folding: evaluate operations on constants at compile time, fold branches on constants (dropping the
blocks only they reached), branch on ``v`` rather than on ``bool(v)`` computed just before, and drop unbound-local
checks that can never fire (or that a dominating check already made)."""
from __future__ import annotations

from moshjit.analysis.dominators import DominatorTree
from moshjit.analysis.reachable import reachable_from
from moshjit.cpython import BOOL_INVERT_WARNS
from moshjit.ir import ops
from moshjit.ir.function import Block, Function
from moshjit.ir.interpreter import BINARY_FUNCTIONS, COMPARE_FUNCTIONS, UNARY_FUNCTIONS
from moshjit.ir.ops import UNDEFINED, Constant
from moshjit.passes.simplify_cfg import remove_unreachable_blocks

# Constants whose operations are pure and deterministic; anything else (user objects) is never folded.
_FOLDABLE_TYPES = (int, float, complex, str, bytes, bool, type(None))
# CPython's own limits (Python/ast_opt.c): results that could be large are checked *before* computing them, so a
# constant like ``2 ** 62 ** 4`` or ``"ab" * 10 ** 9`` is left to run time, as in CPython.
MAX_INT_SIZE = 128            # bits
MAX_COLLECTION_SIZE = 256
MAX_STR_SIZE = 4096


def _foldable(value) -> bool:
    if isinstance(value, tuple):
        return all(_foldable(v) for v in value)
    return type(value) in _FOLDABLE_TYPES


def _within_limits(operator: str, left, right) -> bool:
    """Whether CPython's optimiser would compute ``left <operator> right`` (safe_multiply, safe_power,
    safe_lshift, safe_mod): no result that could exceed its size limits."""
    ints = type(left) in (int, bool) and type(right) in (int, bool)
    if operator == "*":
        if ints:
            return left == 0 or right == 0 or left.bit_length() + right.bit_length() <= MAX_INT_SIZE
        for sequence, count in ((left, right), (right, left)):
            if isinstance(sequence, (str, bytes, tuple)) and type(count) in (int, bool):
                limit = MAX_COLLECTION_SIZE if isinstance(sequence, tuple) else MAX_STR_SIZE
                return count <= 0 or len(sequence) <= limit // count
        return True
    if operator == "**" and ints:
        return right <= 0 or left.bit_length() * right <= MAX_INT_SIZE
    if operator == "<<" and ints:
        return right < 0 or left == 0 or left.bit_length() + right <= MAX_INT_SIZE
    if operator == "%" and isinstance(left, (str, bytes)):
        return False              # formatting: CPython folds only simple cases; leave it to run time
    return True


def _small(value) -> bool:
    if isinstance(value, (str, bytes)):
        return len(value) <= MAX_STR_SIZE
    if isinstance(value, tuple):
        return len(value) <= MAX_COLLECTION_SIZE
    return True


def _evaluate(op):
    """The constant result of ``op``, or None when it cannot (or must not) be computed now."""
    if isinstance(op, ops.BinaryOp) and not op.inplace:
        args, fold = (op.left, op.right), BINARY_FUNCTIONS[op.op]
    elif isinstance(op, ops.UnaryOp):
        args, fold = (op.operand,), UNARY_FUNCTIONS[op.op]
        if op.op == "invert" and BOOL_INVERT_WARNS and isinstance(op.operand, Constant) \
                and type(op.operand.value) is bool:
            return None           # CPython warns at run time (cpython.BOOL_INVERT_WARNS): leave it there
    elif isinstance(op, ops.Compare):
        args, fold = (op.left, op.right), COMPARE_FUNCTIONS[op.op]
        if op.op in ("is", "is not") and not all(isinstance(a, Constant) and a.value in (None, True, False)
                                                 for a in args):
            return None
    elif isinstance(op, ops.BuildTuple):
        if all(isinstance(v, Constant) and _foldable(v.value) for v in op.items):
            return Constant(tuple(v.value for v in op.items))
        return None
    elif isinstance(op, ops.GetItem):
        args, fold = (op.obj, op.key), (lambda obj, key: obj[key])
        if not (isinstance(op.key, Constant) and type(op.key.value) is int):
            return None
    else:
        return None
    if not all(isinstance(a, Constant) and _foldable(a.value) for a in args):
        return None
    if isinstance(op, ops.BinaryOp) and not _within_limits(op.op, args[0].value, args[1].value):
        return None
    try:
        result = fold(*(a.value for a in args))
    except Exception:            # it raises at run time, with CPython's own error: leave it there
        return None
    return Constant(result) if _small(result) else None


def maybe_undefined(fn: Function) -> set:
    """Values that may be an unbound local at run time: UNDEFINED and φs that can merge it (fixpoint)."""
    result = {UNDEFINED}
    changed = True
    while changed:
        changed = False
        for block in fn.blocks:
            for phi in block.phis:
                if phi not in result and any(v in result for v in phi.incoming.values()):
                    result.add(phi)
                    changed = True
    return result


def _fold_branch(block: Block) -> bool:
    term = block.terminator
    if not (isinstance(term, ops.Branch) and isinstance(term.cond, Constant) and _foldable(term.cond.value)):
        return False
    taken, dropped = (term.if_true, term.if_false) if term.cond.value else (term.if_false, term.if_true)
    block.set_terminator(ops.Jump(taken, line=term.line))
    if dropped is not taken:
        for phi in dropped.phis:
            phi.incoming.pop(block, None)
    return True


def constfold(fn: Function) -> Function:
    replacements: dict = {}

    def resolve(value):
        while value in replacements:
            value = replacements[value]
        return value

    folded_branch = False
    for block in fn.blocks:                      # reverse postorder: operands are folded before their users
        kept = []
        for op in block.ops:
            op.map_operands(resolve)
            result = _evaluate(op)
            if result is None:
                kept.append(op)
            else:
                replacements[op] = result
        block.ops = kept
        block.terminator.map_operands(resolve)
        folded_branch |= _fold_branch(block)
    fn.substitute(replacements)
    if folded_branch:
        remove_unreachable_blocks(fn)
    _branch_on_truth(fn)
    _remove_redundant_bound_checks(fn)
    return fn


def _branch_on_truth(fn: Function) -> None:
    """``%t = call bool(v); branch %t`` with nothing between becomes ``branch v``: a branch tests truth the same
    way, raising the same error at the same point. (3.13's TO_BOOL is such a call where a block ends after it.)"""
    calls = {}
    for block in fn.blocks:
        term = block.terminator
        if isinstance(term, ops.Branch) and block.ops and block.ops[-1] is term.cond:
            call = term.cond
            if isinstance(call, ops.Call) and isinstance(call.func, Constant) and call.func.value is bool \
                    and len(call.args) == 1 and not call.kwnames:
                calls[call] = block
    if not calls:
        return
    users = fn.users()
    for call, block in calls.items():
        if len(users[call]) == 1:
            block.ops.pop()
            block.terminator.map_operands(lambda value: call.args[0] if value is call else value)


def _remove_redundant_bound_checks(fn: Function) -> None:
    checks = [op for block in fn.blocks for op in block.ops if isinstance(op, ops.CheckBound)]
    if not checks:
        return
    undefined = maybe_undefined(fn)
    replacements = {op: op.value for op in checks if op.value not in undefined}      # can never fire
    counts: dict = {}
    for op in checks:
        if op not in replacements:
            counts[op.value] = counts.get(op.value, 0) + 1
    if any(n > 1 for n in counts.values()):          # the same value checked twice: keep dominating checks only
        _replace_dominated_checks(fn, replacements)
    for block in fn.blocks:
        block.ops = [op for op in block.ops if op not in replacements]
    fn.substitute(replacements)


def _replace_dominated_checks(fn: Function, replacements: dict) -> None:
    domtree = DominatorTree(fn.entry, Block.successors)
    checked: dict = {}           # value -> the CheckBound ops already made of it
    after_raise: dict = {}       # block -> the blocks its handler reaches (where its checks may not have run)

    def has_run(check, block) -> bool:
        """``check`` (earlier in ``block``, or in a dominating block) completed on every path to ``block``: a
        path that left the check's block through its exception edge — the check itself may have raised —
        does not count, so blocks its handler reaches are excluded."""
        if check.block is block:
            return True
        if not domtree.dominates(check.block, block):
            return False
        if check.block not in after_raise:
            handler = check.block.handler
            after_raise[check.block] = reachable_from([handler] if handler else [], Block.successors)
        return block not in after_raise[check.block]

    for block in domtree.preorder():
        for op in block.ops:
            if not isinstance(op, ops.CheckBound) or op in replacements:
                continue
            # blocks come in dominator-tree preorder and ops in order, so a recorded check in a
            # dominating block (or earlier in this one) has already run, unless an exception left its block
            earlier = next((c for c in checked.get(op.value, []) if has_run(c, block)), None)
            if earlier is not None:
                replacements[op] = earlier
            else:
                checked.setdefault(op.value, []).append(op)

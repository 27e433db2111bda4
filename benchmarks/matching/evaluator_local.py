# moshmosh?
# +pattern-matching
"""The AST evaluator task with node classes defined in the same file as the matches, so the rewriter reads
their ``__match_args__`` from the source and positional patterns become plain attribute loads."""
from dataclasses import dataclass

from benchmarks.matching import shapes


@dataclass
class Num:
    value: int


@dataclass
class Add:
    left: object
    right: object


@dataclass
class Mul:
    left: object
    right: object


@dataclass
class Neg:
    operand: object


def from_shapes(node):
    """The same expression built from this file's node classes."""
    with match(node):
        if shapes.Num(v):
            return Num(v)
        if shapes.Add(l, r):
            return Add(from_shapes(l), from_shapes(r))
        if shapes.Mul(l, r):
            return Mul(from_shapes(l), from_shapes(r))
        if shapes.Neg(e):
            return Neg(from_shapes(e))


def evaluate(node):
    with match(node):
        if Num(v):
            return v
        if Add(l, r):
            return evaluate(l) + evaluate(r)
        if Mul(l, r):
            return evaluate(l) * evaluate(r)
        if Neg(e):
            return -evaluate(e)


def evaluate_chain(node):
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Add):
        return evaluate_chain(node.left) + evaluate_chain(node.right)
    if isinstance(node, Mul):
        return evaluate_chain(node.left) * evaluate_chain(node.right)
    if isinstance(node, Neg):
        return -evaluate_chain(node.operand)
    return None


def evaluate_match(node):
    match node:
        case Num(v):
            return v
        case Add(l, r):
            return evaluate_match(l) + evaluate_match(r)
        case Mul(l, r):
            return evaluate_match(l) * evaluate_match(r)
        case Neg(e):
            return -evaluate_match(e)

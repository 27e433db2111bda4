"""Building small SSA functions by hand for unit tests of the passes, the verifier and the interpreter."""
from __future__ import annotations

import inspect

from moshjit.ir.function import Block, Function
from moshjit.ir.ops import Argument, Constant, Op, Phi, Terminator, Value
from moshjit.ir.printer import format_function


def new_function(*arg_names: str, name: str = "f") -> Function:
    """An empty function with positional parameters ``arg_names`` (reach them as ``fn.args``)."""
    parameters = [inspect.Parameter(a, inspect.Parameter.POSITIONAL_OR_KEYWORD) for a in arg_names]
    args = [Argument(i, a) for i, a in enumerate(arg_names)]
    return Function(name, name, "<handmade>", 1, args, inspect.Signature(parameters), {"__builtins__": __builtins__},
                    None)


def blocks(fn: Function, count: int) -> list[Block]:
    return [fn.new_block() for _ in range(count)]


def emit(block: Block, op: Op) -> Op:
    """Append an op, or set the terminator when ``op`` is one."""
    if isinstance(op, Terminator):
        return block.set_terminator(op)
    return block.append(op)


def phi(block: Block, incoming: dict, var: str | None = None) -> Phi:
    """A φ in ``block`` with ``{predecessor: value}`` (plain Python values become constants)."""
    node = Phi(block, var)
    node.incoming = {pred: value if isinstance(value, Value) else Constant(value) for pred, value in incoming.items()}
    block.phis.append(node)
    return node


def text(fn: Function) -> str:
    """The printed IR without the header line, dedented, for comparison with expected text."""
    return "\n".join(format_function(fn).splitlines()[1:]) + "\n"


def const(value) -> Constant:
    return Constant(value)

"""Functions: the container of the SSA IR (blocks, arguments, and what is needed to call it)."""
from __future__ import annotations

import inspect
from typing import Iterator

from moshjit.ir.block import Block
from moshjit.ir.ops import Argument, Op, Phi, Value

__all__ = ["Block", "Function", "make_binder"]


class Function:
    """A function in SSA form plus what is needed to call it: signature, globals, closure."""

    def __init__(self, name: str, qualname: str, filename: str, firstlineno: int,
                 args: list[Argument], signature: inspect.Signature, globals_: dict, closure: tuple | None):
        self.name = name
        self.qualname = qualname
        self.filename = filename
        self.firstlineno = firstlineno
        self.args = args
        self.signature = signature
        self.globals = globals_
        self.closure = closure or ()
        self.generator = False        # a generator function: a call returns a generator running these blocks
        self.coroutine = False        # an ``async def``: a call returns a coroutine running these blocks
        self.blocks: list[Block] = []
        # value -> the local variable it was stored into: CPython keeps a local's object alive until the name is
        # rebound or the frame ends, so a backend must not release such a value sooner (set by the frontend,
        # carried by ``substitute`` and inlining; a value held by two names gets a holder of its own)
        self.holders: dict[Value, str] = {}
        self._next_label = 0
        self._binder = None

    @property
    def suspends(self) -> bool:
        """Whether a call returns a generator or coroutine that runs the blocks in pieces, not their result."""
        return self.generator or self.coroutine

    @property
    def entry(self) -> Block:
        return self.blocks[0]

    def new_block(self) -> Block:
        block = Block(self._next_label)
        self._next_label += 1
        self.blocks.append(block)
        return block

    def predecessors(self) -> dict[Block, list[Block]]:
        """Every block's predecessors (normal and exceptional), in block order, without duplicates."""
        preds: dict[Block, list[Block]] = {b: [] for b in self.blocks}
        for block in self.blocks:
            for succ in block.successors():
                if block not in preds[succ]:
                    preds[succ].append(block)
        return preds

    def values(self) -> Iterator[Value]:
        """Every value defined in the function: arguments, φs, ops and value-producing terminators."""
        yield from self.args
        for block in self.blocks:
            yield from block.phis
            yield from block.instructions()

    def users(self) -> dict[Value, list]:
        """Map each value to the φs and ops that use it."""
        users: dict[Value, list] = {}
        for block in self.blocks:
            for inst in [*block.phis, *block.instructions()]:
                for operand in inst.operands():
                    users.setdefault(operand, []).append(inst)
        return users

    def replace_all_uses(self, old: Value, new: Value) -> None:
        self.substitute({old: new})

    def hold(self, value: Value, name: str) -> None:
        """Note that the local ``name`` holds ``value`` (see ``holders``); arguments and constants are held by the
        caller and the code object, so only computed values are noted."""
        if not isinstance(value, (Op, Phi)):
            return
        held = self.holders.get(value)
        if held is None:
            self.holders[value] = name
        elif held != name:
            self.holders[value] = f"{held}+{name}#{id(value)}"     # held by two names: no other value's holder

    def substitute(self, replacements: dict) -> None:
        """Replace every use of each key by its value, following chains (a→b, b→c), in one sweep. What held a
        replaced value now holds its replacement (``holders``)."""
        if not replacements:
            return

        def resolve(value):
            while value in replacements:
                value = replacements[value]
            return value

        for old in replacements:
            if old in self.holders:
                self.hold(resolve(old), self.holders[old])

        for block in self.blocks:
            for inst in [*block.phis, *block.instructions()]:
                inst.map_operands(resolve)

    def bind(self, args, kwargs) -> list:
        """Bind a call's arguments to the parameters exactly as CPython does (defaults, *args, **kw, and the
        same TypeError messages), returning one value per ``Argument``."""
        if self._binder is None:
            self._binder = make_binder(self.signature, self.name, self.qualname)
        return self._binder(*args, **kwargs)

    def run(self, *args, **kwargs):
        """Execute the SSA with the reference interpreter: returns and raises what the plain function does (a
        generator function returns a generator, an ``async def`` a coroutine)."""
        from moshjit.ir.interpreter import run_async_generator, run_coroutine, run_function, run_generator
        run = (run_async_generator if self.generator and self.coroutine else run_generator if self.generator
               else run_coroutine if self.coroutine else run_function)
        return run(self, self.bind(args, kwargs))

    def __str__(self):
        from moshjit.ir.printer import format_function
        return format_function(self)


def make_binder(signature: inspect.Signature, name: str, qualname: str):
    """A real Python function with the same parameters that returns them as a list, so argument errors carry
    CPython's own messages. Built from parameter names only; defaults are attached as objects."""
    kinds = inspect.Parameter
    parameters = list(signature.parameters.values())
    last_positional_only = max((i for i, p in enumerate(parameters) if p.kind is kinds.POSITIONAL_ONLY), default=-1)
    params, defaults, kwdefaults = [], [], {}
    star_written = False
    for i, p in enumerate(parameters):
        if p.kind is kinds.VAR_POSITIONAL:
            params.append("*" + p.name)
            star_written = True
        elif p.kind is kinds.VAR_KEYWORD:
            params.append("**" + p.name)
        else:
            if p.kind is kinds.KEYWORD_ONLY and not star_written:
                params.append("*")
                star_written = True
            params.append(p.name)
            if p.default is not p.empty:
                if p.kind is kinds.KEYWORD_ONLY:
                    kwdefaults[p.name] = p.default
                else:
                    defaults.append(p.default)
        if i == last_positional_only:
            params.append("/")
    names = ", ".join(p.name for p in parameters)
    source = f"def binder({', '.join(params)}):\n    return [{names}]\n"
    namespace: dict = {}
    exec(compile(source, "<moshjit binder>", "exec"), namespace)
    binder = namespace["binder"]
    binder.__code__ = binder.__code__.replace(co_name=name, co_qualname=qualname)
    binder.__name__, binder.__qualname__ = name, qualname     # argument errors name the function by these
    binder.__defaults__ = tuple(defaults) or None
    binder.__kwdefaults__ = kwdefaults or None
    return binder

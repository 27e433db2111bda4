"""The vocabulary the per-version opcode tables (``opcodes_311``, ``opcodes_312``, ``opcodes_313``) are written in.

A table maps a CPython opcode name to a *rule*: ``rule(oparg, state)`` returns the neutral instructions the opcode
means, as ``(neutral op, operand)`` pairs — none for an opcode that only matters to CPython's interpreter loop,
several for one that does several things (``RETURN_CONST`` is ``LOAD_CONST`` then ``RETURN_VALUE``). The
decoder (``decode.py``) runs the rules; the rest of the frontend sees only the neutral instructions.
"""
from __future__ import annotations

import dis
import types
from typing import Callable, Sequence

Neutral = tuple[str, object]
Rule = Callable[[int | None, "DecodeState"], Sequence[Neutral]]


class DecodeState:
    """What decoding one code object carries from one instruction to the next."""

    __slots__ = ("code", "kwnames", "previous", "absorbs")

    def __init__(self, code: types.CodeType):
        self.code = code
        self.kwnames: tuple = ()         # KW_NAMES (3.11, 3.12): the keyword names of the next CALL
        self.previous = None             # the last neutral instruction emitted (an ``Instr``), or None
        self.absorbs: tuple[str, ...] = ()  # set by a rule: the opcodes that must follow and that it stands for


# ---- operands ---------------------------------------------------------------------------------------------------
def const(arg: int, state: DecodeState):
    return state.code.co_consts[arg]


def local(arg: int, state: DecodeState) -> str:
    return state.code._varname_from_oparg(arg)


def name(arg: int, state: DecodeState) -> str:
    return state.code.co_names[arg]


def raw(arg, state: DecodeState):
    return arg


def nothing(arg, state: DecodeState):
    return None


# ---- rules ------------------------------------------------------------------------------------------------------
def drop(arg, state: DecodeState) -> Sequence[Neutral]:
    """An instruction that only matters to CPython's interpreter loop (RESUME, NOP, CACHE, …)."""
    return ()


def same(neutral: str, operand=raw) -> Rule:
    """One neutral instruction whose operand is the oparg read through ``operand``."""
    return lambda arg, state: ((neutral, operand(arg, state)),)


def fixed(neutral: str, operand_value) -> Rule:
    """One neutral instruction with a fixed operand (``UNARY_NEGATIVE`` → ``UNARY 'neg'``)."""
    return lambda arg, state: ((neutral, operand_value),)


def then(*rules: Rule) -> Rule:
    """The neutral instructions of several rules applied to the same oparg, in order."""
    return lambda arg, state: tuple(item for rule in rules for item in rule(arg, state))


def passthrough(names) -> dict[str, Rule]:
    """Rules for opcodes whose neutral form has the same name and the operand kind of ``OPERANDS``."""
    return {op: same(op, OPERANDS.get(op, raw)) for op in names}


OPERANDS: dict[str, Callable] = {
    **{op: const for op in ("LOAD_CONST",)},
    **{op: local for op in ("LOAD_FAST", "STORE_FAST", "DELETE_FAST", "LOAD_DEREF", "STORE_DEREF", "DELETE_DEREF",
                            "LOAD_CLOSURE", "MAKE_CELL", "LOAD_FAST_AND_CLEAR")},
    **{op: name for op in ("LOAD_ATTR", "STORE_ATTR", "DELETE_ATTR", "LOAD_METHOD", "IMPORT_NAME", "IMPORT_FROM",
                           "STORE_GLOBAL", "DELETE_GLOBAL")},
}
"""Which table a neutral instruction's operand indexes (the rest take the oparg as it is)."""

BINARY_OPS = {i: (sym[:-1], True) if sym.endswith("=") else (sym, False) for i, (_, sym) in enumerate(dis._nb_ops)}
"""BINARY_OP's oparg → (operator, in-place?); '+=' is the in-place form of '+'."""


def binary_op(arg: int, state: DecodeState) -> Sequence[Neutral]:
    return (("BINARY_OP", BINARY_OPS[arg]),)


def compare(shift: int) -> Rule:
    """COMPARE_OP: the operator is ``dis.cmp_op[oparg >> shift]`` (the low bits are CPython's own business)."""
    return lambda arg, state: (("COMPARE", dis.cmp_op[arg >> shift]),)


def is_op(arg: int, state: DecodeState) -> Sequence[Neutral]:
    return (("COMPARE", "is not" if arg else "is"),)


def contains_op(arg: int, state: DecodeState) -> Sequence[Neutral]:
    return (("COMPARE", "not in" if arg else "in"),)


def format_value(arg: int, state: DecodeState) -> Sequence[Neutral]:
    """FORMAT_VALUE (3.11, 3.12): conversion in the low two bits, a format spec on the stack if bit 2 is set."""
    return (("FORMAT_VALUE", (("", "s", "r", "a")[arg & 3], bool(arg & 4))),)


def kw_names(arg: int, state: DecodeState) -> Sequence[Neutral]:
    """KW_NAMES (3.11, 3.12): the keyword names of the next CALL, a tuple constant."""
    state.kwnames = state.code.co_consts[arg]
    return ()


def call(arg: int, state: DecodeState) -> Sequence[Neutral]:
    names, state.kwnames = state.kwnames, ()
    return (("CALL", (arg, names)),)


def absorbing(rule: Rule, *following: str) -> Rule:
    """``rule``, for an opcode that begins a fixed sequence CPython always emits: the opcodes ``following`` it
    mean nothing of their own here, and the decoder checks and skips them."""
    def absorbing_rule(arg, state: DecodeState) -> Sequence[Neutral]:
        state.absorbs = following
        return rule(arg, state)
    return absorbing_rule


AWAIT_CONTEXTS = {0: None, 1: "__aenter__", 2: "__aexit__"}


def get_awaitable(arg: int, state: DecodeState) -> Sequence[Neutral]:
    """GET_AWAITABLE: oparg 0 is an ``await`` expression, 1 and 2 await what ``async with`` got from
    ``__aenter__``/``__aexit__`` (the neutral AWAIT names which: CPython's TypeError does)."""
    return (("AWAIT", AWAIT_CONTEXTS[arg]),)


def get_anext(arg, state: DecodeState) -> Sequence[Neutral]:
    """GET_ANEXT: the async iterator's ``__anext__()`` made awaitable (CPython's checks), then awaited."""
    return (("GET_ANEXT", None), ("AWAIT", "__anext__"))


def send(arg, state: DecodeState) -> Sequence[Neutral]:
    """SEND, the head of the delegation loop that follows YIELD_FROM or AWAIT (whose op does all of it): on to
    the loop's exit, the SEND's jump target."""
    if state.previous is None or state.previous.op not in ("YIELD_FROM", "AWAIT"):
        raise Refused("yield from / await")
    return (("JUMP", None),)


def load_global(null_after: bool) -> Rule:
    """LOAD_GLOBAL: name in ``oparg >> 1``; the low bit pushes a NULL for the CALL, before the global (3.11,
    3.12) or after it (3.13)."""
    def rule(arg: int, state: DecodeState) -> Sequence[Neutral]:
        load = ("LOAD_GLOBAL", state.code.co_names[arg >> 1])
        if not arg & 1:
            return (load,)
        return (load, ("PUSH_NULL", None)) if null_after else (("PUSH_NULL", None), load)
    return rule


def load_attr_or_method(arg: int, state: DecodeState) -> Sequence[Neutral]:
    """LOAD_ATTR (3.12+): name in ``oparg >> 1``; the low bit means a method load for the next CALL."""
    return (("LOAD_METHOD" if arg & 1 else "LOAD_ATTR", state.code.co_names[arg >> 1]),)


def load_super_attr(arg: int, state: DecodeState) -> Sequence[Neutral]:
    """LOAD_SUPER_ATTR (3.12+): ``super(cls, self).name`` with the global ``super``, ``cls`` and ``self`` on the
    stack; name in ``oparg >> 2``, bit 0 a method load, bit 1 the two-argument form."""
    return (("LOAD_SUPER_ATTR", (state.code.co_names[arg >> 2], bool(arg & 1), bool(arg & 2))),)


def both_locals(first: str, second: str) -> Rule:
    """The 3.13 super-instructions over two locals: ``first`` on ``oparg >> 4``, then ``second`` on ``oparg & 15``."""
    def rule(arg: int, state: DecodeState) -> Sequence[Neutral]:
        return ((first, local(arg >> 4, state)), (second, local(arg & 15, state)))
    return rule


class Refused(Exception):
    """Raised by a rule for an oparg moshjit refuses (e.g. an intrinsic for type parameters); the decoder turns it
    into ``UnsupportedError`` at the instruction's line."""

    def __init__(self, construct: str):
        super().__init__(construct)
        self.construct = construct

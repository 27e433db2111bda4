"""CPython 3.13's bytecode as neutral instructions, written as the changes from ``opcodes_312``.

The changes that matter here (``dis`` docs and "What's new in Python 3.13"):
- Super-instructions over two locals: ``LOAD_FAST_LOAD_FAST``, ``STORE_FAST_STORE_FAST``, ``STORE_FAST_LOAD_FAST``.
- ``TO_BOOL`` makes the truth value explicit before ``POP_JUMP_IF_*`` and ``UNARY_NOT`` (which accept only bools
  now); ``COMPARE_OP`` can do it itself (``oparg & 16``, operator in ``oparg >> 5``).
- ``CALL_KW`` takes the keyword names from the stack (no ``KW_NAMES``); the callable sits *below* its NULL
  (``LOAD_GLOBAL`` pushes the NULL after the global, ``PUSH_NULL`` follows the callable).
- f-strings: ``CONVERT_VALUE`` (``!s``/``!r``/``!a``, right after the value), ``FORMAT_SIMPLE``, ``FORMAT_WITH_SPEC``.
- ``MAKE_FUNCTION`` takes only the code; ``SET_FUNCTION_ATTRIBUTE`` adds defaults, keyword defaults, annotations
  and the closure one at a time, from the same stack layout as 3.11's flags.
- ``LOAD_CLOSURE`` is a pseudo-instruction: the cell is loaded with ``LOAD_FAST`` on its slot.
- An exhausted ``FOR_ITER`` jumps past the ``END_FOR`` *and* the ``POP_TOP`` that follows it.
"""
from __future__ import annotations

import dis

from moshjit.frontend import opcodes_312
from moshjit.frontend.opcode_rules import DecodeState, Refused, fixed, load_global, local, same

REMOVED = {"KW_NAMES", "FORMAT_VALUE", "LOAD_CLOSURE"}

CONVERSIONS = {1: "s", 2: "r", 3: "a"}


def load_fast(arg: int, state: DecodeState):
    """LOAD_FAST on a slot holding a cell (a cell or free variable of the code) loads the cell itself: 3.11's
    LOAD_CLOSURE (the cell's *contents* are read with LOAD_DEREF)."""
    name, code = local(arg, state), state.code
    return (("LOAD_CLOSURE" if name in code.co_cellvars or name in code.co_freevars else "LOAD_FAST", name),)


def load_fast_load_fast(arg: int, state: DecodeState):
    return (*load_fast(arg >> 4, state), *load_fast(arg & 15, state))


def store_fast_store_fast(arg: int, state: DecodeState):
    """STORE_FAST_STORE_FAST: the top of the stack goes to ``oparg >> 4``, the next one to ``oparg & 15``."""
    return (("STORE_FAST", local(arg >> 4, state)), ("STORE_FAST", local(arg & 15, state)))


def store_fast_load_fast(arg: int, state: DecodeState):
    return (("STORE_FAST", local(arg >> 4, state)), *load_fast(arg & 15, state))


def compare_op(arg: int, state: DecodeState):
    """COMPARE_OP: operator in ``oparg >> 5``; ``oparg & 16`` converts the result to bool (for a jump)."""
    compare = ("COMPARE", dis.cmp_op[arg >> 5])
    return (compare, ("TO_BOOL", None)) if arg & 16 else (compare,)


def make_function(arg, state: DecodeState):
    """MAKE_FUNCTION of the bare code: the flags are collected from the SET_FUNCTION_ATTRIBUTEs that follow."""
    return (("MAKE_FUNCTION", 0),)


def set_function_attribute(arg: int, state: DecodeState):
    """SET_FUNCTION_ATTRIBUTE always follows MAKE_FUNCTION (or another SET_FUNCTION_ATTRIBUTE) and takes its value
    from below the function, where 3.11's MAKE_FUNCTION took the same attribute: fold it into the flags."""
    previous = state.previous
    if previous is None or previous.op != "MAKE_FUNCTION":
        raise Refused("SET_FUNCTION_ATTRIBUTE that does not follow MAKE_FUNCTION")
    previous.arg |= arg
    return ()


RULES = {op: rule for op, rule in opcodes_312.RULES.items() if op not in REMOVED}
RULES.update({
    "LOAD_FAST": load_fast,
    "LOAD_FAST_LOAD_FAST": load_fast_load_fast,
    "STORE_FAST_STORE_FAST": store_fast_store_fast,
    "STORE_FAST_LOAD_FAST": store_fast_load_fast,
    "TO_BOOL": fixed("TO_BOOL", None),
    "COMPARE_OP": compare_op,
    "CALL_KW": same("CALL_KW"),
    "CONVERT_VALUE": lambda arg, state: (("CONVERT_VALUE", CONVERSIONS[arg]),),
    "FORMAT_SIMPLE": fixed("FORMAT_VALUE", ("", False)),
    "FORMAT_WITH_SPEC": fixed("FORMAT_VALUE", ("", True)),
    "MAKE_FUNCTION": make_function,
    "SET_FUNCTION_ATTRIBUTE": set_function_attribute,
    "LOAD_GLOBAL": load_global(null_after=True),
})

CONSTRUCTS = dict(opcodes_312.CONSTRUCTS)

FOR_ITER_EXIT_SKIPS = ("END_FOR", "POP_TOP")
"""An exhausted FOR_ITER pops the iterator and jumps over the END_FOR and POP_TOP at its target."""

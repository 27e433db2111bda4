"""CPython 3.12's bytecode as neutral instructions, written as the changes from ``opcodes_311``.

The changes that matter here (``dis`` docs and "What's new in Python 3.12"):
- PEP 709: list/set/dict comprehensions are inlined into the function. ``LOAD_FAST_AND_CLEAR`` saves the
  iteration variable's outer value (or its absence) and clears it, the loop runs in place, and the saved value is
  stored back after the loop and in a handler that re-raises. Generator expressions remain nested code objects.
- ``FOR_ITER`` on exhaustion pops the iterator and jumps *past* the ``END_FOR`` at its target.
- ``LOAD_ATTR`` absorbs ``LOAD_METHOD`` (low oparg bit); ``LOAD_SUPER_ATTR`` loads ``super().name`` directly.
- ``BINARY_SLICE``/``STORE_SLICE`` (``a[i:j]`` without a slice object on the stack), ``RETURN_CONST``,
  ``LOAD_FAST_CHECK`` (a local that may be unbound), ``CALL_INTRINSIC_1/2`` (former opcodes as intrinsics).
- No ``PRECALL``; conditional jumps are ``POP_JUMP_IF_*`` (forward only) and the ``JUMP_IF_*_OR_POP`` pair is gone
  (``COPY`` + ``POP_JUMP_IF_*`` + ``POP_TOP``); ``COMPARE_OP`` keeps the operator in ``oparg >> 4``.
"""
from __future__ import annotations

import dis

from moshjit.frontend import opcodes_311
from moshjit.frontend.opcode_rules import (DecodeState, Refused, compare, const, drop, fixed,
                                           load_attr_or_method, load_super_attr, local, same, then)

REMOVED = {
    "PRECALL", "LOAD_METHOD", "UNARY_POSITIVE", "LIST_TO_TUPLE", "ASYNC_GEN_WRAP", "PRINT_EXPR", "IMPORT_STAR",
    "PREP_RERAISE_STAR", "LOAD_CLASSDEREF", "JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP",
    *(f"POP_JUMP_{direction}_IF_{condition}" for direction in ("FORWARD", "BACKWARD")
      for condition in ("TRUE", "FALSE", "NONE", "NOT_NONE")),
}

# CALL_INTRINSIC_1's oparg names a function; those moshjit compiles become neutral instructions.
INTRINSIC_1 = {
    "INTRINSIC_UNARY_POSITIVE": ("UNARY", "pos"),
    "INTRINSIC_LIST_TO_TUPLE": ("LIST_TO_TUPLE", None),
    # the outermost handler of a generator's code: StopIteration escaping the body becomes RuntimeError
    "INTRINSIC_STOPITERATION_ERROR": ("STOPITERATION_ERROR", None),
}
INTRINSIC_CONSTRUCTS = {
    "INTRINSIC_PRINT": "interactive expression statement", "INTRINSIC_IMPORT_STAR": "from ... import *",
    "INTRINSIC_PREP_RERAISE_STAR": "except* (exception groups)",
    "INTRINSIC_TYPEALIAS": "type statement (PEP 695)",
}
_TYPE_PARAMETERS = "generic type parameters (PEP 695)"


def call_intrinsic(descriptions: str):
    """CALL_INTRINSIC_1/2: the intrinsic's name is ``getattr(dis, descriptions)[oparg]``."""
    def rule(arg: int, state: DecodeState):
        intrinsic = getattr(dis, descriptions)[arg]
        if intrinsic in INTRINSIC_1:
            return (INTRINSIC_1[intrinsic],)
        if intrinsic == "INTRINSIC_ASYNC_GEN_WRAP":        # as 3.11's ASYNC_GEN_WRAP: nothing to do in the IR
            return ()
        raise Refused(INTRINSIC_CONSTRUCTS.get(intrinsic, _TYPE_PARAMETERS))
    return rule


RULES = {op: rule for op, rule in opcodes_311.RULES.items() if op not in REMOVED}
RULES.update({
    "POP_JUMP_IF_TRUE": fixed("JUMP_IF", True), "POP_JUMP_IF_FALSE": fixed("JUMP_IF", False),
    "POP_JUMP_IF_NONE": fixed("JUMP_IF_NONE", True), "POP_JUMP_IF_NOT_NONE": fixed("JUMP_IF_NONE", False),
    "COMPARE_OP": compare(shift=4),
    "LOAD_ATTR": load_attr_or_method,
    "LOAD_SUPER_ATTR": load_super_attr,
    "BINARY_SLICE": then(fixed("BUILD_SLICE", 2), fixed("BINARY_SUBSCR", None)),
    "STORE_SLICE": then(fixed("BUILD_SLICE", 2), fixed("STORE_SUBSCR", None)),
    "RETURN_CONST": then(same("LOAD_CONST", const), fixed("RETURN_VALUE", None)),
    "LOAD_FAST_CHECK": same("LOAD_FAST", local),
    "LOAD_FAST_AND_CLEAR": same("LOAD_FAST_AND_CLEAR", local),
    "CALL_INTRINSIC_1": call_intrinsic("_intrinsic_1_descs"),
    "CALL_INTRINSIC_2": call_intrinsic("_intrinsic_2_descs"),
    # the delegation loop's exit pops the iterator (the YIELD_FROM/AWAIT instruction did); its handler for an
    # exception thrown in (CLEANUP_THROW, then a jump to the exit) is unreachable once the loop is one instruction
    "END_SEND": drop, "CLEANUP_THROW": drop,
})

CONSTRUCTS = {op: construct for op, construct in opcodes_311.CONSTRUCTS.items() if op not in REMOVED}
CONSTRUCTS.update({
    "LOAD_LOCALS": "class body code", "LOAD_FROM_DICT_OR_GLOBALS": "class body code",
    "LOAD_FROM_DICT_OR_DEREF": "class body code",
})

FOR_ITER_EXIT_SKIPS = ("END_FOR",)
"""An exhausted FOR_ITER pops the iterator and jumps over the END_FOR at its target."""

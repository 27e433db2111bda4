"""CPython 3.11's bytecode as neutral instructions: the table ``decode.py`` uses on 3.11.

``opcodes_312`` and ``opcodes_313`` are written as changes to this table, so each version's module reads as that
version's "What's new" for bytecode.
"""
from __future__ import annotations

from moshjit.frontend.opcode_rules import (absorbing, binary_op, call, compare, contains_op, drop, fixed,
                                           format_value, get_anext, get_awaitable, is_op, kw_names, load_global, passthrough,
                                           same, send)

# Opcodes whose neutral form has the same name and meaning (operand: see ``opcode_rules.OPERANDS``).
PASSTHROUGH = (
    "LOAD_FAST", "STORE_FAST", "DELETE_FAST", "LOAD_CONST", "POP_TOP", "PUSH_NULL", "COPY", "SWAP",
    "LOAD_DEREF", "STORE_DEREF", "DELETE_DEREF", "LOAD_CLOSURE", "MAKE_CELL",
    "BINARY_SUBSCR", "STORE_SUBSCR", "DELETE_SUBSCR", "BUILD_SLICE",
    "LOAD_ATTR", "STORE_ATTR", "DELETE_ATTR", "LOAD_METHOD", "CALL_FUNCTION_EX",
    "BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_MAP", "BUILD_CONST_KEY_MAP", "BUILD_STRING",
    "LIST_APPEND", "SET_ADD", "MAP_ADD", "LIST_EXTEND", "SET_UPDATE", "DICT_UPDATE", "DICT_MERGE",
    "LIST_TO_TUPLE", "UNPACK_SEQUENCE", "UNPACK_EX", "GET_ITER", "RETURN_VALUE", "RAISE_VARARGS",
    "RERAISE", "PUSH_EXC_INFO", "POP_EXCEPT", "CHECK_EXC_MATCH", "BEFORE_WITH", "WITH_EXCEPT_START",
    "MAKE_FUNCTION", "IMPORT_NAME", "IMPORT_FROM", "RETURN_GENERATOR", "YIELD_VALUE", "STORE_GLOBAL", "DELETE_GLOBAL",
)

RULES = {
    **passthrough(PASSTHROUGH),
    # only CPython's interpreter loop cares about these
    **{op: drop for op in ("CACHE", "EXTENDED_ARG", "RESUME", "NOP", "PRECALL", "COPY_FREE_VARS")},
    "KW_NAMES": kw_names,
    "CALL": call,
    "LOAD_GLOBAL": load_global(null_after=False),
    "BINARY_OP": binary_op,
    "UNARY_NEGATIVE": fixed("UNARY", "neg"), "UNARY_POSITIVE": fixed("UNARY", "pos"),
    "UNARY_INVERT": fixed("UNARY", "invert"), "UNARY_NOT": fixed("UNARY", "not"),
    "COMPARE_OP": compare(shift=0), "IS_OP": is_op, "CONTAINS_OP": contains_op,
    "LOAD_ASSERTION_ERROR": fixed("LOAD_CONST", AssertionError),
    "FORMAT_VALUE": format_value,
    # jumps (the decoder makes their targets absolute; forward/backward only changes CPython's encoding)
    "POP_JUMP_FORWARD_IF_TRUE": fixed("JUMP_IF", True), "POP_JUMP_BACKWARD_IF_TRUE": fixed("JUMP_IF", True),
    "POP_JUMP_FORWARD_IF_FALSE": fixed("JUMP_IF", False), "POP_JUMP_BACKWARD_IF_FALSE": fixed("JUMP_IF", False),
    "POP_JUMP_FORWARD_IF_NONE": fixed("JUMP_IF_NONE", True), "POP_JUMP_BACKWARD_IF_NONE": fixed("JUMP_IF_NONE", True),
    "POP_JUMP_FORWARD_IF_NOT_NONE": fixed("JUMP_IF_NONE", False),
    "POP_JUMP_BACKWARD_IF_NOT_NONE": fixed("JUMP_IF_NONE", False),
    "JUMP_IF_TRUE_OR_POP": fixed("JUMP_IF_OR_POP", True), "JUMP_IF_FALSE_OR_POP": fixed("JUMP_IF_OR_POP", False),
    **{op: fixed("JUMP", None) for op in ("JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT")},
    "FOR_ITER": fixed("FOR_ITER", None),
    # ``yield from x`` / ``await x``: GET_YIELD_FROM_ITER / GET_AWAITABLE 0, LOAD_CONST None, then the loop SEND,
    # YIELD_VALUE, RESUME, JUMP_BACKWARD_NO_INTERRUPT back to the SEND, which exits to after the loop: one
    # neutral instruction delegating to the iterator, and a jump to the SEND's exit
    "GET_YIELD_FROM_ITER": absorbing(fixed("YIELD_FROM", None), "LOAD_CONST"),
    "GET_AWAITABLE": absorbing(get_awaitable, "LOAD_CONST"),
    "BEFORE_ASYNC_WITH": fixed("BEFORE_WITH", True),
    # ``async for``: GET_AITER; each item is GET_ANEXT (then LOAD_CONST None and the await's SEND loop, as
    # GET_AWAITABLE) under a handler, END_ASYNC_FOR, that ends the loop on StopAsyncIteration
    "GET_AITER": fixed("GET_AITER", None),
    "GET_ANEXT": absorbing(get_anext, "LOAD_CONST"),
    "END_ASYNC_FOR": fixed("END_ASYNC_FOR", None),
    # an async generator's ``yield`` wraps its value so that the async generator's machinery tells it from an
    # await's inner yield; an IR yield in an async generator means that already
    "ASYNC_GEN_WRAP": drop,
    "SEND": absorbing(send, "YIELD_VALUE", "RESUME", "JUMP_BACKWARD_NO_INTERRUPT"),
    "LOAD_BUILD_CLASS": fixed("LOAD_BUILD_CLASS", None),
    # structural pattern matching: GET_LEN is len() of the top of the stack, which it keeps
    "MATCH_SEQUENCE": fixed("MATCH_SEQUENCE", None), "MATCH_MAPPING": fixed("MATCH_MAPPING", None),
    "MATCH_KEYS": fixed("MATCH_KEYS", None), "MATCH_CLASS": same("MATCH_CLASS"), "GET_LEN": fixed("GET_LEN", None),
}

# What each opcode that moshjit refuses means to a user. YIELD_VALUE and RETURN_GENERATOR also have rules: they
# are decoded inside generator expressions (inlined into their consumer) and refused in any other function.
CONSTRUCTS = {
    "YIELD_VALUE": "generator function (yield)", "RETURN_GENERATOR": "generator function (yield)",
    "LOAD_NAME": "module- or class-level code", "STORE_NAME": "module- or class-level code",
    "DELETE_NAME": "module- or class-level code", "LOAD_CLASSDEREF": "class body code",
    "SETUP_ANNOTATIONS": "annotations in a body",
    "IMPORT_STAR": "from ... import *", "PRINT_EXPR": "interactive expression statement",
    "CHECK_EG_MATCH": "except* (exception groups)", "PREP_RERAISE_STAR": "except* (exception groups)",
}

FOR_ITER_EXIT_SKIPS: tuple[str, ...] = ()
"""The instructions at a FOR_ITER's jump target that CPython skips when the iterator is exhausted (3.11: none;
the exhausted FOR_ITER pops the iterator itself)."""

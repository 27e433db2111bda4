"""The one place that knows CPython's bytecode: decode a code object into version-neutral instructions.

Everything version-specific (opcode names, NULL-pushing forms, relative jumps, caches, KW_NAMES, the exception
table) is handled here through per-version tables; the rest of the frontend sees only ``Instr`` records whose
``op`` names are listed in ``NEUTRAL_OPS``. Adding CPython 3.12 means adding a table, not touching the builder.
"""
from __future__ import annotations

import dis
import sys
import types
from dataclasses import dataclass

from moshjit._version import unsupported_python
from moshjit.errors import UnsupportedError


@dataclass(slots=True)
class Instr:
    """A version-neutral instruction. ``target`` is an instruction index for jumps (else None)."""
    index: int
    op: str
    arg: object
    line: int | None
    target: int | None = None
    offset: int = -1


@dataclass(slots=True)
class Handler:
    """An exception-table entry in instruction indices: [start, end) protected, jump to target with the stack
    cut to ``depth`` (then lasti pushed if ``lasti``), then the exception pushed."""
    start: int
    end: int
    target: int
    depth: int
    lasti: bool


def check_version() -> None:
    problem = unsupported_python(sys.version_info)            # the supported versions: moshjit._version
    if problem:
        raise UnsupportedError(problem)


# ---- CPython 3.11 ---------------------------------------------------------------------------------------------
# Instructions that vanish: they only matter to CPython's interpreter loop.
_DROP_311 = {"CACHE", "EXTENDED_ARG", "RESUME", "NOP", "PRECALL", "COPY_FREE_VARS"}

# Same meaning, same operand as in CPython (argval) → neutral name.
_SAME_311 = {
    name: name for name in (
        "LOAD_FAST", "STORE_FAST", "DELETE_FAST", "LOAD_CONST", "POP_TOP", "PUSH_NULL", "COPY", "SWAP",
        "LOAD_DEREF", "STORE_DEREF", "DELETE_DEREF", "LOAD_CLOSURE", "MAKE_CELL",
        "BINARY_SUBSCR", "STORE_SUBSCR", "DELETE_SUBSCR", "BUILD_SLICE",
        "LOAD_ATTR", "STORE_ATTR", "DELETE_ATTR", "LOAD_METHOD", "CALL_FUNCTION_EX",
        "BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_MAP", "BUILD_CONST_KEY_MAP", "BUILD_STRING",
        "LIST_APPEND", "SET_ADD", "MAP_ADD", "LIST_EXTEND", "SET_UPDATE", "DICT_UPDATE", "DICT_MERGE",
        "LIST_TO_TUPLE", "UNPACK_SEQUENCE", "UNPACK_EX", "GET_ITER", "RETURN_VALUE", "RAISE_VARARGS",
        "RERAISE", "PUSH_EXC_INFO", "POP_EXCEPT", "CHECK_EXC_MATCH", "BEFORE_WITH", "WITH_EXCEPT_START",
        "MAKE_FUNCTION", "IMPORT_NAME", "IMPORT_FROM", "RETURN_GENERATOR", "YIELD_VALUE",
    )
}

_UNARY_311 = {"UNARY_NEGATIVE": "neg", "UNARY_POSITIVE": "pos", "UNARY_INVERT": "invert", "UNARY_NOT": "not"}

# Conditional jumps: (neutral op, operand). Direction (forward/backward) only changes how CPython encodes them.
_COND_JUMPS_311 = {
    "POP_JUMP_FORWARD_IF_TRUE": ("JUMP_IF", True), "POP_JUMP_BACKWARD_IF_TRUE": ("JUMP_IF", True),
    "POP_JUMP_FORWARD_IF_FALSE": ("JUMP_IF", False), "POP_JUMP_BACKWARD_IF_FALSE": ("JUMP_IF", False),
    "POP_JUMP_FORWARD_IF_NONE": ("JUMP_IF_NONE", True), "POP_JUMP_BACKWARD_IF_NONE": ("JUMP_IF_NONE", True),
    "POP_JUMP_FORWARD_IF_NOT_NONE": ("JUMP_IF_NONE", False),
    "POP_JUMP_BACKWARD_IF_NOT_NONE": ("JUMP_IF_NONE", False),
    "JUMP_IF_TRUE_OR_POP": ("JUMP_IF_OR_POP", True), "JUMP_IF_FALSE_OR_POP": ("JUMP_IF_OR_POP", False),
}
_JUMPS_311 = {"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"}

# What each refused opcode means to a user.
_UNSUPPORTED_311 = {
    "YIELD_VALUE": "generator function (yield)", "RETURN_GENERATOR": "generator function (yield)",
    "SEND": "yield from / await", "GET_YIELD_FROM_ITER": "generator function (yield from)",
    "GET_AWAITABLE": "async function (await)", "GET_AITER": "async for", "GET_ANEXT": "async for",
    "END_ASYNC_FOR": "async for", "BEFORE_ASYNC_WITH": "async with", "ASYNC_GEN_WRAP": "async generator",
    "STORE_GLOBAL": "assignment to a global variable (global statement)",
    "DELETE_GLOBAL": "deletion of a global variable (global statement)",
    "LOAD_NAME": "module- or class-level code", "STORE_NAME": "module- or class-level code",
    "DELETE_NAME": "module- or class-level code", "LOAD_CLASSDEREF": "class body code",
    "LOAD_BUILD_CLASS": "class definition inside a function", "SETUP_ANNOTATIONS": "annotations in a body",
    "IMPORT_STAR": "from ... import *", "PRINT_EXPR": "interactive expression statement",
    "MATCH_CLASS": "match statement", "MATCH_MAPPING": "match statement", "MATCH_SEQUENCE": "match statement",
    "MATCH_KEYS": "match statement", "GET_LEN": "match statement", "COPY_DICT_WITHOUT_KEYS": "match statement",
    "CHECK_EG_MATCH": "except* (exception groups)", "PREP_RERAISE_STAR": "except* (exception groups)",
}

# BINARY_OP's argument → (operator, in-place?); '+=' is the in-place form of '+'.
_BINARY_OPS = {i: (sym[:-1], True) if sym.endswith("=") else (sym, False) for i, (_, sym) in enumerate(dis._nb_ops)}


# Operand decoding: which table an opcode's argument indexes.
_NAME_OPS = {"LOAD_ATTR", "STORE_ATTR", "DELETE_ATTR", "LOAD_METHOD", "IMPORT_NAME", "IMPORT_FROM",
             "STORE_GLOBAL", "DELETE_GLOBAL", "LOAD_NAME", "STORE_NAME", "DELETE_NAME"}
_LOCAL_OPS = {"LOAD_FAST", "STORE_FAST", "DELETE_FAST", "LOAD_DEREF", "STORE_DEREF", "DELETE_DEREF",
              "LOAD_CLOSURE", "MAKE_CELL", "LOAD_CLASSDEREF"}
_OPNAME = dis.opname
_CACHES = dis._inline_cache_entries          # CACHE code units after each opcode
_EXTENDED_ARG = dis.opmap["EXTENDED_ARG"]
_HAVE_ARGUMENT = dis.HAVE_ARGUMENT
_RELATIVE_JUMPS = frozenset(dis.hasjrel)
_BACKWARD_JUMPS = frozenset(op for op in dis.hasjrel if "JUMP_BACKWARD" in dis.opname[op])


def _raw_instructions(code: types.CodeType):
    """Yield (offset, opname, arg, jump target offset or None, line) for every instruction of ``co_code``.

    Reads the de-specialised bytes directly (``dis.get_instructions`` is ~10x slower): EXTENDED_ARG prefixes are
    yielded (a jump may target them) and folded into the next argument, CACHE entries are skipped, relative jumps
    become absolute offsets, and an instruction without a line number inherits the previous one.
    """
    co_code = code.co_code
    lines = [position[0] for position in code.co_positions()]
    line = code.co_firstlineno
    extended = 0
    offset, end = 0, len(co_code)
    while offset < end:
        op = co_code[offset]
        arg = (co_code[offset + 1] | extended) if op >= _HAVE_ARGUMENT else None
        extended = arg << 8 if op == _EXTENDED_ARG else 0
        following = offset + 2 + 2 * _CACHES[op]
        target = None
        if op in _RELATIVE_JUMPS:
            target = following - 2 * arg if op in _BACKWARD_JUMPS else following + 2 * arg
        line = lines[offset // 2] if lines[offset // 2] is not None else line
        yield offset, _OPNAME[op], arg, target, line
        offset = following


def first_refused_instruction(code: types.CodeType) -> tuple[str, int | None, int] | None:
    """The first instruction of a generator or coroutine that makes it one (``yield``, ``await``, ``async for``,
    …) as (construct, line, byte offset), for an error that points at it; None if only the code flags say so."""
    for offset, name, _, _, line in _raw_instructions(code):
        if name in _UNSUPPORTED_311 and name != "RETURN_GENERATOR":
            return _UNSUPPORTED_311[name], line, offset
    return None


def _argval(code: types.CodeType, name: str, arg):
    """The operand an instruction means, for those whose meaning is the same in the neutral form."""
    if name == "LOAD_CONST":
        return code.co_consts[arg]
    if name in _LOCAL_OPS:
        return code._varname_from_oparg(arg)
    if name in _NAME_OPS:
        return code.co_names[arg]
    return arg


def decode(code: types.CodeType) -> tuple[list[Instr], list[Handler]]:
    """Decode ``code.co_code`` (never the adaptive form) into neutral instructions and exception handlers."""
    check_version()
    index_of_offset: dict[int, int] = {}
    out: list[Instr] = []
    pending_kwnames: tuple = ()
    jump_offsets: list[tuple[Instr, int]] = []
    for offset, name, arg, target, line in _raw_instructions(code):
        index_of_offset[offset] = len(out)        # dropped instructions map to the next kept one
        if name in _DROP_311:
            continue
        if name == "KW_NAMES":
            pending_kwnames = code.co_consts[arg]
            continue
        if name in _UNSUPPORTED_311 and name not in ("YIELD_VALUE", "RETURN_GENERATOR"):
            raise UnsupportedError(_UNSUPPORTED_311[name], code.co_filename, line)
        new = Instr(len(out), name, None, line, offset=offset)
        if name in _SAME_311:
            new.arg = _argval(code, name, arg)
        elif name == "LOAD_GLOBAL":
            new.arg = (code.co_names[arg >> 1], bool(arg & 1))
        elif name == "CALL":
            new.arg = (arg, pending_kwnames)
            pending_kwnames = ()
        elif name == "BINARY_OP":
            new.arg = _BINARY_OPS[arg]
        elif name in _UNARY_311:
            new.op, new.arg = "UNARY", _UNARY_311[name]
        elif name == "COMPARE_OP":
            new.op, new.arg = "COMPARE", dis.cmp_op[arg]
        elif name == "IS_OP":
            new.op, new.arg = "COMPARE", "is not" if arg else "is"
        elif name == "CONTAINS_OP":
            new.op, new.arg = "COMPARE", "not in" if arg else "in"
        elif name == "LOAD_ASSERTION_ERROR":
            new.op, new.arg = "LOAD_CONST", AssertionError
        elif name == "FORMAT_VALUE":
            new.arg = (("", "s", "r", "a")[arg & 3], bool(arg & 4))
        elif name in _COND_JUMPS_311:
            new.op, new.arg = _COND_JUMPS_311[name]
            jump_offsets.append((new, target))
        elif name in _JUMPS_311:
            new.op = "JUMP"
            jump_offsets.append((new, target))
        elif name == "FOR_ITER":
            jump_offsets.append((new, target))
        else:
            raise UnsupportedError(f"bytecode instruction {name}", code.co_filename, line)
        out.append(new)
    end = len(out)
    for new, offset in jump_offsets:
        new.target = index_of_offset.get(offset, end)
    handlers = [Handler(index_of_offset.get(start, end), index_of_offset.get(stop, end),
                        index_of_offset.get(target, end), depth, lasti)
                for start, stop, target, depth, lasti in _exception_table(code)]
    return out, [h for h in handlers if h.start < h.end]


def _exception_table(code: types.CodeType) -> list[tuple[int, int, int, int, bool]]:
    """(start, end, target, depth, lasti) byte offsets of every entry, end exclusive."""
    return [(e.start, e.end, e.target, e.depth, e.lasti) for e in dis._parse_exception_table(code)]


NEUTRAL_OPS = frozenset(
    set(_SAME_311.values()) | {"LOAD_GLOBAL", "CALL", "BINARY_OP", "UNARY", "COMPARE", "FORMAT_VALUE",
                               "JUMP_IF", "JUMP_IF_NONE", "JUMP_IF_OR_POP", "JUMP", "FOR_ITER"})

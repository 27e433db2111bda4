"""Decode a code object into version-neutral instructions: the driver over one opcode table per CPython version.

What each opcode means is in the running version's table (``opcodes_311``, ``opcodes_312``, ``opcodes_313``,
written with ``opcode_rules``). This module reads ``co_code`` (the de-specialised form; the adaptive form holds
quickened opcodes), folds ``EXTENDED_ARG``, skips ``CACHE`` units, makes relative jumps absolute, applies the
table's rules, and maps jump targets and the exception table to instruction indices. The rest of the frontend sees
only ``Instr`` records whose ``op`` is one of ``NEUTRAL_OPS``; supporting a new CPython means writing its table.
"""
from __future__ import annotations

import dis
import importlib
import sys
import types
from dataclasses import dataclass

from moshjit._version import unsupported_python
from moshjit.errors import UnsupportedError
from moshjit.frontend.opcode_rules import DecodeState, Refused


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


NEUTRAL_OPS = frozenset({
    # locals, cells, constants, globals, the stack
    "LOAD_FAST", "STORE_FAST", "DELETE_FAST", "LOAD_FAST_AND_CLEAR", "LOAD_CONST", "LOAD_GLOBAL",
    "STORE_GLOBAL", "DELETE_GLOBAL",
    "LOAD_DEREF", "STORE_DEREF", "DELETE_DEREF", "LOAD_CLOSURE", "MAKE_CELL", "POP_TOP", "PUSH_NULL", "COPY", "SWAP",
    # operators, attributes, items
    "BINARY_OP", "UNARY", "COMPARE", "TO_BOOL", "BINARY_SUBSCR", "STORE_SUBSCR", "DELETE_SUBSCR", "BUILD_SLICE",
    "LOAD_ATTR", "STORE_ATTR", "DELETE_ATTR", "LOAD_METHOD", "LOAD_SUPER_ATTR",
    # calls, functions and classes
    "CALL", "CALL_KW", "CALL_FUNCTION_EX", "MAKE_FUNCTION", "LOAD_BUILD_CLASS",
    # displays and unpacking
    "BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_MAP", "BUILD_CONST_KEY_MAP", "BUILD_STRING", "FORMAT_VALUE",
    "CONVERT_VALUE", "LIST_APPEND", "SET_ADD", "MAP_ADD", "LIST_EXTEND", "SET_UPDATE", "DICT_UPDATE", "DICT_MERGE",
    "LIST_TO_TUPLE", "UNPACK_SEQUENCE", "UNPACK_EX",
    # imports
    "IMPORT_NAME", "IMPORT_FROM",
    # control flow
    "GET_ITER", "FOR_ITER", "JUMP", "JUMP_IF", "JUMP_IF_NONE", "JUMP_IF_OR_POP", "RETURN_VALUE",
    # exceptions and with
    "RAISE_VARARGS", "RERAISE", "PUSH_EXC_INFO", "POP_EXCEPT", "CHECK_EXC_MATCH", "BEFORE_WITH", "WITH_EXCEPT_START",
    # generators (generator functions, and generator expressions inlined into their consumer) and coroutines
    "RETURN_GENERATOR", "YIELD_VALUE", "YIELD_FROM", "AWAIT", "GET_AITER", "GET_ANEXT", "END_ASYNC_FOR",
    # structural pattern matching
    "MATCH_SEQUENCE", "MATCH_MAPPING", "MATCH_CLASS", "MATCH_KEYS", "GET_LEN",
})
"""The instruction set every table decodes to and ``translate.py`` simulates (one ``op_<NAME>`` method each)."""

JUMPS = frozenset({"JUMP", "JUMP_IF", "JUMP_IF_NONE", "JUMP_IF_OR_POP", "FOR_ITER"})
"""Neutral instructions with a ``target``: the raw instruction's jump target."""

GENERATOR_EXIT_HANDLER = "STOPITERATION_ERROR"
"""What 3.12+ writes at the handler around a generator's whole body (StopIteration escaping it becomes
RuntimeError), where 3.11 does the same in C. Handlers starting with it are dropped: a compiled generator function
converts StopIteration at its own boundary as every generator does (PEP 479), and inlined generator expressions
behave alike on every version (see "What is unsupported" in docs/architecture.md)."""


def check_version() -> None:
    """Raise one clear ``UnsupportedError`` on a CPython outside ``moshjit._version.SUPPORTED_PYTHONS``."""
    problem = unsupported_python()
    if problem is not None:
        raise UnsupportedError(problem)


class OpcodeTable:
    """The running CPython's opcode facts: its table's rules and refusals, plus cache sizes and jump encodings
    read from its own ``dis`` module."""

    def __init__(self, version: tuple[int, int]):
        table = importlib.import_module(f"moshjit.frontend.opcodes_{version[0]}{version[1]}")
        names = dis.opname
        self.rules = [table.RULES.get(name) for name in names]
        self.constructs = [table.CONSTRUCTS.get(name) for name in names]
        self.names = names
        self.for_iter_exit_skips = table.FOR_ITER_EXIT_SKIPS
        entries = dis._inline_cache_entries        # a list by opcode (3.11, 3.12) or a dict by name (3.13)
        by_opcode = entries if isinstance(entries, list) else [entries.get(name, 0) for name in names]
        self.caches = [by_opcode[op] if op < len(by_opcode) else 0 for op in range(len(names))]
        jumps = set(getattr(dis, "hasjump", dis.hasjrel))
        self.relative = [op in jumps for op in range(len(names))]
        self.backward = [op in jumps and "JUMP_BACKWARD" in name for op, name in enumerate(names)]
        self.extended_arg = dis.opmap["EXTENDED_ARG"]
        self.have_argument = dis.HAVE_ARGUMENT


_TABLE: OpcodeTable | None = None


def opcode_table() -> OpcodeTable:
    global _TABLE
    if _TABLE is None:
        check_version()
        _TABLE = OpcodeTable(sys.version_info[:2])
    return _TABLE


def _raw_instructions(code: types.CodeType, table: OpcodeTable):
    """Yield (offset, opcode, arg, jump target offset or None, line, next offset) for every instruction of
    ``co_code``.

    Reads the de-specialised bytes directly (``dis.get_instructions`` is ~10x slower): EXTENDED_ARG prefixes are
    yielded (a jump may target them) and folded into the next argument, CACHE entries are skipped, relative jumps
    become absolute offsets, and an instruction without a line number inherits the previous one.
    """
    co_code = code.co_code
    lines = [position[0] for position in code.co_positions()]
    line = code.co_firstlineno
    extended = 0
    caches, relative, backward = table.caches, table.relative, table.backward
    offset, end = 0, len(co_code)
    while offset < end:
        op = co_code[offset]
        arg = (co_code[offset + 1] | extended) if op >= table.have_argument else None
        extended = arg << 8 if op == table.extended_arg else 0
        following = offset + 2 + 2 * caches[op]
        target = None
        if relative[op]:
            target = following - 2 * arg if backward[op] else following + 2 * arg
        line = lines[offset // 2] if lines[offset // 2] is not None else line
        yield offset, op, arg, target, line, following
        offset = following


def first_refused_instruction(code: types.CodeType, kind: str) -> tuple[str, int | None, int] | None:
    """The first instruction refused in a generator or coroutine of a ``kind`` moshjit refuses (the ``yield``
    that makes it one: reported as ``kind``), as (construct, line, byte offset), for an error
    that points at it; None if only the code flags say so. The ``yield`` of an ``await``'s loop is not one."""
    table = opcode_table()
    previous = None
    for offset, op, _, _, line, _ in _raw_instructions(code, table):
        name = table.names[op]
        if name == "YIELD_VALUE" and previous != "SEND":
            return kind, line, offset
        if table.constructs[op] is not None and name not in ("RETURN_GENERATOR", "YIELD_VALUE"):
            return table.constructs[op], line, offset
        previous = name
    return None


def decode(code: types.CodeType) -> tuple[list[Instr], list[Handler]]:
    """Decode ``code.co_code`` (never the adaptive form) into neutral instructions and exception handlers."""
    table = opcode_table()
    state = DecodeState(code)
    index_of_offset: dict[int, int] = {}
    out: list[Instr] = []
    jump_offsets: list[tuple[Instr, int]] = []
    skips: dict[int, tuple[str, ...]] = {}          # offset → the opcodes expected from there, skipped
    for offset, op, arg, target, line, following in _raw_instructions(code, table):
        index_of_offset[offset] = len(out)        # dropped instructions map to the next kept one
        name = table.names[op]
        if offset in skips:
            expected = skips.pop(offset)
            if name != expected[0]:
                raise UnsupportedError(f"bytecode {name} where {expected[0]} was expected", code.co_filename, line)
            if expected[1:]:
                skips[following] = expected[1:]
            continue
        rule = table.rules[op]
        if rule is None:
            raise UnsupportedError(table.constructs[op] or f"bytecode instruction {name}", code.co_filename, line)
        try:
            neutral = rule(arg, state)
        except Refused as refused:
            raise UnsupportedError(refused.construct, code.co_filename, line) from None
        if state.absorbs:
            skips[following], state.absorbs = state.absorbs, ()
        for neutral_op, operand in neutral:
            instr = Instr(len(out), neutral_op, operand, line, offset=offset)
            out.append(instr)
            state.previous = instr
            if neutral_op in JUMPS:
                jump_offsets.append((instr, target))
                if neutral_op == "FOR_ITER" and table.for_iter_exit_skips:
                    skips[target] = table.for_iter_exit_skips
    end = len(out)
    for instr, offset in jump_offsets:
        instr.target = index_of_offset.get(offset, end)
    handlers = []
    for start, stop, target, depth, lasti in _exception_table(code):
        handler = Handler(index_of_offset.get(start, end), index_of_offset.get(stop, end),
                          index_of_offset.get(target, end), depth, lasti)
        converts_stop_iteration = handler.target < end and out[handler.target].op == GENERATOR_EXIT_HANDLER
        if handler.start < handler.end and not converts_stop_iteration:
            handlers.append(handler)
    return out, handlers


def _exception_table(code: types.CodeType) -> list[tuple[int, int, int, int, bool]]:
    """(start, end, target, depth, lasti) byte offsets of every entry, end exclusive."""
    return [(e.start, e.end, e.target, e.depth, e.lasti) for e in dis._parse_exception_table(code)]

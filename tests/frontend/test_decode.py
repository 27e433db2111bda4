"""The decoder on the running CPython: its opcode table names real opcodes, every sample decodes to neutral
instructions only, the translator simulates each of them, and the version-specific bytecode comes out in the
neutral form the rest of the frontend expects."""
from __future__ import annotations

import dis
import importlib
import sys
import types

import pytest

from moshjit.frontend import decode
from moshjit.frontend.translate import CodeUnit
from tests.frontend import samples  # noqa: F401  (registers the samples)
from tests.frontend.sample_support import SAMPLES

TABLE = importlib.import_module("moshjit.frontend.opcodes_{}{}".format(*sys.version_info[:2]))


def _codes(code: types.CodeType):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _ops(fn) -> list[str]:
    return [ins.op for ins in decode.decode(fn.__code__)[0]]


def test_the_table_names_opcodes_of_this_cpython():
    assert set(TABLE.RULES) <= set(dis.opmap)
    assert set(TABLE.CONSTRUCTS) <= set(dis.opmap)
    assert set(TABLE.FOR_ITER_EXIT_SKIPS) <= set(dis.opmap)


def test_every_neutral_instruction_is_simulated():
    assert [op for op in decode.NEUTRAL_OPS if not hasattr(CodeUnit, f"op_{op}")] == []


def test_every_sample_decodes_to_neutral_instructions():
    for sample in SAMPLES:
        fn = getattr(sample.fn, "__func__", sample.fn)
        for code in _codes(fn.__code__):
            instrs, handlers = decode.decode(code)
            reached = {h.target for h in handlers} | {i.target for i in instrs if i.target is not None}
            odd = {i.op for i in instrs if i.op not in decode.NEUTRAL_OPS}
            # a generator's StopIteration handler is decoded, then dropped with its exception-table entry
            assert odd <= {decode.GENERATOR_EXIT_HANDLER}, (sample.id, odd)
            assert not any(instrs[i].op in odd for i in reached if i < len(instrs)), sample.id


def _comprehension(xs):
    return [x * 2 for x in xs if x]


def _slices(xs, i, ys):
    xs[i:] = ys
    return xs[:i]


def _keywords(f, a):
    return f(a, key=a), f"{a!r:>{a}}", not a


def _defaults(a):
    def inner(x=a, *, y=2):
        return x + y
    return inner


def test_comprehensions_are_inlined_from_3_12():
    ops = _ops(_comprehension)
    if sys.version_info >= (3, 12):
        assert "LOAD_FAST_AND_CLEAR" in ops and "MAKE_FUNCTION" not in ops
    else:
        assert "LOAD_FAST_AND_CLEAR" not in ops and "MAKE_FUNCTION" in ops


def test_slices_become_a_slice_then_an_item_access():
    ops = _ops(_slices)
    assert ops.count("BUILD_SLICE") == 2
    assert ops[ops.index("BUILD_SLICE") + 1] == "STORE_SUBSCR"
    assert ops[len(ops) - 1 - ops[::-1].index("BUILD_SLICE") + 1] == "BINARY_SUBSCR"


def test_keyword_calls_conversions_and_truth_tests():
    ops = _ops(_keywords)
    if sys.version_info >= (3, 13):
        assert {"CALL_KW", "CONVERT_VALUE", "TO_BOOL"} <= set(ops)
    else:
        assert "CALL_KW" not in ops and "CONVERT_VALUE" not in ops
        assert any(ins.op == "CALL" and ins.arg[1] == ("key",) for ins in decode.decode(_keywords.__code__)[0])


def test_function_attributes_fold_into_make_function():
    (make,) = [ins for ins in decode.decode(_defaults.__code__)[0] if ins.op == "MAKE_FUNCTION"]
    assert make.arg == 0x01 | 0x02                   # defaults and keyword defaults, as 3.11's flags say


def _delegates(xs):
    try:
        got = yield from xs
    except ValueError:
        got = None
    return got


async def _awaits(x):
    return await x, await x


def test_yield_from_and_await_are_one_instruction_each():
    """The SEND loop (and 3.12+'s END_SEND and CLEANUP_THROW) is absorbed: the delegating instruction, then a jump
    to where the loop exits; no handler is left for the loop's own throw path."""
    instrs, handlers = decode.decode(_delegates.__code__)
    ops = [ins.op for ins in instrs]
    assert ops.count("YIELD_FROM") == 1 and "YIELD_VALUE" not in ops
    after = instrs[ops.index("YIELD_FROM") + 1]
    assert after.op == "JUMP" and instrs[after.target].op == "STORE_FAST"
    # the except clause and its cleanup only
    assert {instrs[h.target].op for h in handlers} == {"PUSH_EXC_INFO", "COPY"}
    ops = _ops(_awaits)
    assert ops.count("AWAIT") == 2 and "YIELD_VALUE" not in ops


def test_an_unexpected_opcode_inside_the_absorbed_loop_is_refused():
    code = _delegates.__code__
    raw = bytearray(code.co_code)
    send = next(i.offset for i in dis.get_instructions(code) if i.opname == "SEND")
    yield_value = next(i.offset for i in dis.get_instructions(code) if i.offset > send and i.opname == "YIELD_VALUE")
    raw[yield_value] = dis.opmap["NOP"]
    with pytest.raises(decode.UnsupportedError, match="bytecode NOP where YIELD_VALUE was expected"):
        decode.decode(code.replace(co_code=bytes(raw)))


@pytest.mark.parametrize("minor", [10, 14])
def test_the_decoder_refuses_other_versions(monkeypatch, minor):
    import moshjit._version
    monkeypatch.setattr(moshjit._version, "sys", types.SimpleNamespace(version_info=(3, minor, 0, "final", 0)))
    with pytest.raises(decode.UnsupportedError, match=f"this is 3.{minor}$"):
        decode.check_version()

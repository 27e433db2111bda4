"""A ``Summation`` of ints becomes an accumulator (``passes/int_sums.py``): on hand-built IR (a loop, left alone for
float items and when the total would flow into a handler), and differentially on jitted ``sum(generator)``s."""
from __future__ import annotations

import enum

from hypothesis import given, settings, strategies as st

from moshjit.cpython import COMPENSATED_FLOAT_SUM
from moshjit.ir import ops
from moshjit.ir.types import FLOAT, INT, ListType
from moshjit.ir.verifier import verify
from moshjit.passes.int_sums import int_sums
from moshjit.passes.typeinfer import infer_types
from moshjit.primitives.summation import Summation
from tests.cython.agree import jitted, same
from tests.ir.handmade import blocks, const, emit, new_function


def _summing_loop(item_type):
    """f(xs, start): s = Summation(start); for x in xs: s.add(x * 2); return s.result()."""
    fn = new_function("xs", "start")
    entry, header, body, done = blocks(fn, 4)
    iterator = emit(entry, ops.GetIter(fn.args[0]))
    summation = emit(entry, ops.Call(const(Summation), [fn.args[1]], ()))
    emit(entry, ops.Jump(header))
    item = emit(header, ops.ForIter(iterator, body, done))
    emit(body, ops.CallMethod(summation, [emit(body, ops.BinaryOp(item, const(2), "*", False))], "add", ()))
    emit(body, ops.Jump(header))
    emit(done, ops.Return(emit(done, ops.CallMethod(summation, [], "result", ()))))
    infer_types(fn, [ListType(item_type), INT])
    return fn


def _calls_summation(fn) -> bool:
    return any(isinstance(op, ops.Call) and op.func.value is Summation for block in fn.blocks for op in block.ops)


def test_an_int_loop_adds_into_a_phi():
    fn = _summing_loop(INT)
    assert int_sums(fn)
    verify(fn)
    assert not _calls_summation(fn)
    assert not any(isinstance(op, ops.CallMethod) for block in fn.blocks for op in block.ops)
    assert len(fn.blocks[1].phis) == 1
    assert fn.run([1, 2, 2 ** 70], 5) == 5 + 2 + 4 + 2 ** 71
    assert fn.run([], True) is True


def test_float_items_keep_the_summation():
    fn = _summing_loop(FLOAT)
    assert not int_sums(fn)
    assert _calls_summation(fn)


def test_a_total_read_in_a_handler_keeps_the_summation():
    """f(x): s = Summation(0); try: s.add(x) except: return s.result() — the handler needs the total."""
    fn = new_function("x")
    entry, protected, after, handler = blocks(fn, 4)
    summation = emit(entry, ops.Call(const(Summation), [const(0)], ()))
    emit(entry, ops.Jump(protected))
    protected.handler = handler
    emit(protected, ops.CallMethod(summation, [fn.args[0]], "add", ()))
    emit(protected, ops.Jump(after))
    emit(after, ops.Return(emit(after, ops.CallMethod(summation, [], "result", ()))))
    emit(handler, ops.CaughtException())
    emit(handler, ops.Return(emit(handler, ops.CallMethod(summation, [], "result", ()))))
    infer_types(fn, [INT])
    assert not int_sums(fn)
    assert _calls_summation(fn)
    verify(fn)


class Small(enum.IntEnum):
    ONE = 1
    TWO = 2


class FloatingInt(int):
    """An int whose ``+`` gives a float: the total leaves the int phase through it."""

    def __radd__(self, other):
        return float(other) + 0.5


def vowels(text):
    return sum(1 for c in text if c in "aeiou")


def scaled(values, k, start):
    return sum((v * k for v in values if v % 3), start)


def flags(values):
    return sum(v > 0 for v in values)


def plain_items(values, start):
    return sum((v for v in values), start)


ints = st.one_of(st.integers(-2 ** 66, 2 ** 66), st.integers(-3, 3), st.sampled_from([2 ** 63 - 1, -2 ** 63]))


@settings(max_examples=80, deadline=None)
@given(st.lists(ints, max_size=10), st.one_of(ints, st.booleans()), st.integers(-3, 3))
def test_int_sums_agree_with_cpython(values, start, k):
    same(scaled, values, k, start)
    same(flags, values)
    same(plain_items, values, start)
    same(plain_items, [bool(v) for v in values], start)


def test_int_subclasses_and_text_agree_with_cpython():
    same(vowels, "hello world abcdefghij" * 3)
    same(vowels, "")
    same(plain_items, [Small.ONE, Small.TWO], 0)
    same(plain_items, [FloatingInt(3), 1, 2 ** 70], 2 ** 62)
    same(plain_items, [1, FloatingInt(3), 0.25], 0)


def float_items(values):
    return sum(v * 0.5 for v in values)


def test_the_compiled_int_sum_has_no_summation():
    same(vowels, "abc")
    same(float_items, [1, 2])
    assert "Summation" not in jitted(vowels).inspect_types()
    assert ("Summation" in jitted(float_items).inspect_types()) == COMPENSATED_FLOAT_SUM

"""An inlined ``sum(generator)`` against CPython's ``sum`` on every kind of item: on 3.12+ the generated code runs
moshjit_rt's C ``Summation`` (compensated floats, the int→float switch, overflowing ints, then plain ``+``), on
3.11 plain additions. Results compare bit for bit (a float by its hex, so -0.0 and 0.0 differ), errors by type and
message; the int-only sums (accumulators since ``passes/int_sums.py``) also on the LLVM backend."""
from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings, strategies as st

import moshjit
from moshjit.cpython import COMPENSATED_FLOAT_SUM
from tests.cython.agree import jitted


def summed(values):
    return sum(v for v in values)


def summed_from(values, start):
    return sum((v for v in values), start)


def halves(values, start):
    return sum((v * 0.5 for v in values if v == v), start)


def counted(values):
    return sum(v < 0 for v in values)


def _outcome(fn, *args):
    try:
        value = fn(*args)
    except Exception as error:                 # noqa: BLE001 (the error is part of the behaviour compared)
        return "raise", type(error), str(error)
    if type(value) is float:
        return "float", _float_bits(value)
    if type(value) is complex:                 # a nan part makes equal complex values compare unequal
        return "complex", _float_bits(value.real), _float_bits(value.imag)
    return type(value), value


def _float_bits(value):
    """Compare floats by their bits, with every nan alike (nan != nan would fail equal results)."""
    return "nan" if math.isnan(value) else value.hex()


def _agree(fn, *args):
    assert _outcome(jitted(fn), *args) == _outcome(fn, *args)


floats = st.one_of(st.floats(), st.floats(-1e16, 1e16), st.sampled_from(
    [1e16, -1e16, 1.0, 0.1, 1e308, -1e308, 2.0 ** 63, -0.0, 0.0, math.inf, -math.inf, math.nan]))
ints = st.one_of(st.integers(-2 ** 70, 2 ** 70), st.integers(-5, 5), st.sampled_from([2 ** 63 - 1, -2 ** 63]))
numbers = st.one_of(floats, ints, st.booleans())
starts = st.one_of(floats, ints, st.booleans())


@settings(max_examples=150, deadline=None)
@given(st.lists(numbers, max_size=12), starts)
def test_numbers_agree_with_cpython(values, start):
    _agree(summed, values)
    _agree(summed_from, values, start)
    _agree(halves, values, start)
    _agree(counted, values)


others = st.sampled_from([Fraction(1, 3), Decimal("1.5"), "x", None, [1], (2,), 1 + 2j])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(numbers, others), max_size=8), st.one_of(starts, others, st.just([])))
def test_other_items_agree_or_raise_as_cpython(values, start):
    _agree(summed, values)
    _agree(summed_from, values, start)


def test_compensation_and_phase_switches_agree_with_cpython():
    for values, start in [([1e16, 1.0, -1e16], 0), ([0.1] * 10, 0), ([2 ** 62, 2 ** 62, 0.1, 0.2], 0),
                          ([1e308, 1e308, -1e308], 0.0), ([math.inf, 1.0, -0.0], -0.0), ([], -0.0),
                          ([1, 2.5, 2 ** 80, 0.5], 0), ([Fraction(1, 3), 0.5, 1], 0), ([Decimal(1), 0.5], 0),
                          ([0.5, Decimal(1)], 0), ([1, "x"], 0), ([0.5, "x"], 1.0), ([True, True], True)]:
        _agree(summed_from, values, start)
    _agree(summed, [0.5, 1])
    assert ("Summation" in jitted(summed).inspect_types()) == COMPENSATED_FLOAT_SUM


def int_total(n, k):
    return sum((i * k for i in range(n) if i % 3), -2 ** 62)


native_int_total = moshjit.jit(int_total, backend="llvm")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 50), st.one_of(st.integers(-3, 3), st.integers(2 ** 58, 2 ** 62)))
def test_int_sums_agree_on_the_llvm_backend(n, k):
    assert _outcome(native_int_total, n, k) == _outcome(int_total, n, k)

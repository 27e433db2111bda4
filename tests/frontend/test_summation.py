"""``Summation`` (what an inlined ``sum(generator)`` becomes on CPython 3.12+) against the running CPython's own
``sum``: the same result bit for bit and the same error, on any mix of ints, bools, big ints and floats."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, strategies as st

from moshjit.cpython import COMPENSATED_FLOAT_SUM
from moshjit.primitives.summation import Summation

pytestmark = pytest.mark.skipif(not COMPENSATED_FLOAT_SUM, reason="this CPython's sum() adds floats plainly")

items = st.one_of(st.integers(-2 ** 70, 2 ** 70), st.integers(-5, 5), st.booleans(), st.floats(),
                  st.floats(-1e16, 1e16), st.sampled_from([1e16, -1e16, 1.0, 0.1, 2.0 ** 63, -0.0]))
starts = st.one_of(st.integers(-2 ** 70, 2 ** 70), st.integers(-5, 5), st.floats(), st.just(True),
                   st.sampled_from([0, 0.0, -0.0, 2 ** 63 - 1]))


def _outcome(run):
    try:
        value = run()
    except Exception as error:                     # noqa: BLE001 (comparing errors is the point)
        return "raise", type(error).__name__, str(error)
    if isinstance(value, float):
        return "float", "nan" if math.isnan(value) else value.hex()
    return type(value).__name__, value


def _summed(values, start):
    summation = Summation(start)
    for value in values:
        summation.add(value)
    return summation.result()


@given(st.lists(items, max_size=12), starts)
def test_same_result_as_sum(values, start):
    assert _outcome(lambda: _summed(values, start)) == _outcome(lambda: sum(values, start))


@given(st.lists(st.one_of(items, st.sampled_from(["x", None, [1]])), max_size=8), starts)
def test_same_error_as_sum(values, start):
    assert _outcome(lambda: _summed(values, start)) == _outcome(lambda: sum(values, start))


def test_compensation_is_what_3_12_changed():
    assert _summed([1e16, 1.0, -1e16], 0) == sum([1e16, 1.0, -1e16]) == 1.0
    assert _summed([0.1] * 10, 0) == 1.0
    assert _summed([2 ** 62, 2 ** 62, 0.1, 0.2], 0) == sum([2 ** 62, 2 ** 62, 0.1, 0.2])    # ints overflow a C long

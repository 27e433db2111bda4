"""Every differential sample of the frontend (tests/frontend/samples.py), compiled by the Cython backend and
compared with CPython: same result, or same exception type, message and cause/context chain."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import moshjit
from tests.frontend import samples  # noqa: F401  (registers the samples)
from tests.frontend.sample_support import SAMPLES, example_arguments, outcome, sample_ids

_jitted: dict = {}


def jitted(sample):
    if sample.fn not in _jitted:
        _jitted[sample.fn] = moshjit.jit(sample.fn, backend="cython")
    return _jitted[sample.fn]


def assert_same_outcome(sample, args, kwargs):
    expected = outcome(sample.fn, args, kwargs)
    assert outcome(jitted(sample), args, kwargs) == expected, f"{sample.id}{args!r} {kwargs!r}"


@pytest.mark.parametrize("sample", SAMPLES, ids=sample_ids())
def test_explicit_examples(sample):
    for example in sample.examples:
        assert_same_outcome(sample, *example_arguments(example))


@pytest.mark.parametrize("sample", SAMPLES, ids=sample_ids())
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_random_inputs(sample, data):
    args = data.draw(sample.args, label="args")
    kwargs = data.draw(sample.kwargs, label="kwargs")
    assert_same_outcome(sample, args, kwargs)

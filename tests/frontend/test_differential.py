"""Differential tests: the SSA of every sample, run by the reference interpreter, returns and raises exactly what
CPython does (same result, or same exception type, message and cause/context chain; same argument mutations)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import moshjit
from moshjit.frontend import build_ssa
from moshjit.ir.verifier import verify
from moshjit.passes.pipeline import run_passes
from tests.frontend import samples  # noqa: F401  (registers the samples)
from tests.frontend.sample_support import SAMPLES, example_arguments, outcome, sample_ids

_translated: dict = {}


def translated(sample):
    """The optimised SSA of a sample, built once; the unoptimised form is verified on the way."""
    if sample.fn not in _translated:
        raw = build_ssa(sample.fn, optimize=False)
        verify(raw)
        _translated[sample.fn] = run_passes(raw, verify_each=True)
    return _translated[sample.fn]


def assert_same_outcome(sample, args, kwargs):
    expected = outcome(sample.fn, args, kwargs)
    actual = outcome(translated(sample).run, args, kwargs)
    assert actual == expected, f"{sample.id}{args!r} {kwargs!r}"


@pytest.mark.parametrize("sample", SAMPLES, ids=sample_ids())
def test_explicit_examples(sample):
    for example in sample.examples:
        assert_same_outcome(sample, *example_arguments(example))


@pytest.mark.parametrize("sample", SAMPLES, ids=sample_ids())
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_random_inputs(sample, data):
    args = data.draw(sample.args, label="args")
    kwargs = data.draw(sample.kwargs, label="kwargs")
    assert_same_outcome(sample, args, kwargs)


def test_public_entry_point_runs_the_pipeline():
    """``moshjit.to_ssa`` is the same translation, already optimised and verified."""
    ir = moshjit.to_ssa(samples.fibonacci)
    verify(ir)
    assert ir.run(10) == 55


def test_sample_count_meets_the_bar():
    assert len(SAMPLES) >= 120

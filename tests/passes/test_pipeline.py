"""The pass pipeline on every differential sample: verified after each pass, at a fixed point, and traced."""
from __future__ import annotations

import pytest

from moshjit.frontend import build_ssa
from moshjit.ir.printer import format_function
from moshjit.ir.verifier import verify
from moshjit.passes.pipeline import PIPELINE, run_passes
from tests.frontend import samples  # noqa: F401  (registers the samples)
from tests.frontend.sample_support import SAMPLES, sample_ids


@pytest.mark.parametrize("sample", SAMPLES, ids=sample_ids())
def test_pipeline_keeps_every_sample_verified_and_reaches_a_fixed_point(sample):
    ir = build_ssa(sample.fn, optimize=False)
    verify(ir)
    run_passes(ir, verify_each=True)
    once = format_function(ir)
    run_passes(ir, verify_each=True)
    assert format_function(ir) == once


def test_trace_yields_each_pass_in_order():
    ir = build_ssa(samples.wordpiece, optimize=False)
    names = [name for name, _ in run_passes(ir, trace=True)]
    order = [name for name, _ in PIPELINE]
    assert names[:len(order)] == order
    assert len(names) % len(order) == 0

"""The differential fuzzer in the suite: generated programs through the SSA interpreter, Cython, LLVM and ``auto``
against CPython (result, exception type and message, the list argument after the call).

A fixed budget of seeds runs in CI; ``MOSHJIT_STRESS=N`` adds ``N`` times as many batches with fresh seeds (printed,
so a failure can be replayed), and ``python -m tests.fuzz.hunt`` runs a long hunt. The construct distribution the
generator claims is asserted on the source text of many generated programs, and the share of native-flavour
programs the LLVM backend really compiled is asserted on the batches that ran, so neither can silently degrade.
Every difference fails (NaN-sign-only differences after an operation on two NaNs are counted apart, see below).
"""
from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from tests.fuzz.generator import CONSTRUCTS, census, generate
from tests.fuzz.hunt import BATCH_SIZE, run_seed, summary
from tests.fuzz.runner import describe

STRESS = int(os.environ.get("MOSHJIT_STRESS", "0"))
CI_SEEDS = {"native": [11], "general": [21]}       # one batch each: 8 native programs, 3 general ones

# Share of programs containing each construct, at least (what the generator promises, with some slack).
MINIMUM_SHARE = {
    "native": {"loop": 0.8, "break": 0.3, "continue": 0.3, "nested_loop": 0.2, "float_edge": 0.45, "mixed": 0.4,
               "raise": 0.25, "mutation": 0.4},
    "general": {"loop": 0.75, "break": 0.25, "continue": 0.25, "try": 0.6, "finally": 0.2, "float_edge": 0.45,
                "big_int": 0.45, "mixed": 0.4, "str": 0.6, "raise": 0.25, "mutation": 0.4, "closure": 0.25,
                "nonlocal": 0.15, "generator": 0.2, "genexpr": 0.2, "global": 0.2, "attribute": 0.25, "match": 0.4,
                "match_sequence": 0.2, "match_mapping": 0.08, "match_class": 0.15, "star_unpack": 0.25,
                "class_attribute": 0.07, "str_in_literals": 0.35, "char_list": 0.2, "float_chain_end": 0.25,
                "label_jump": 0.15, "closure_call_shapes": 0.08},
}


@pytest.mark.parametrize("flavour", ["native", "general"])
def test_generated_programs_contain_the_constructs_claimed(flavour):
    rng = random.Random(2024)
    programs = [generate(rng, flavour, f"p{i}_") for i in range(250)]
    counts = Counter()
    for body in programs:
        counts.update(census(body, flavour))
        compile("\n".join(["def f(a, b, x, s, xs):"] + body), "<generated>", "exec")     # valid Python
    shares = {name: counts[name] / len(programs) for name in CONSTRUCTS}
    print(f"{flavour} construct shares: {shares}")
    for name, minimum in MINIMUM_SHARE[flavour].items():
        assert shares[name] >= minimum, (name, shares)
    lengths = sorted(len(body) for body in programs)
    assert lengths[len(lengths) // 2] >= 15, lengths            # real programs, not five-liners
    if flavour == "native":
        assert shares["try"] == shares["str"] == shares["big_int"] == 0      # so the LLVM backend takes them
        assert not any(shares[name] for name in ("closure", "nonlocal", "generator", "genexpr", "global",
                                                 "attribute", "match", "star_unpack", "class_attribute",
                                                 "str_in_literals", "char_list", "float_chain_end", "label_jump",
                                                 "closure_call_shapes"))


def seeds(flavour):
    extra = []
    if STRESS:
        base = random.randrange(1 << 30)
        print(f"MOSHJIT_STRESS={STRESS}: {flavour} seeds from {base}")
        extra = [base + i for i in range(STRESS * len(CI_SEEDS[flavour]) * 4)]
    return CI_SEEDS[flavour] + extra


@pytest.mark.parametrize("flavour", ["native", "general"])
def test_generated_programs_agree_with_cpython_on_every_backend(flavour):
    from tests.fuzz.runner import Report
    report, constructs, programs = Report(), Counter(), Counter()
    for seed in seeds(flavour):
        part, counts, size = run_seed(seed, flavour)
        report.merge(part)
        constructs.update(counts)
        programs[flavour] += size
    print(summary(report, constructs, programs, 0))
    assert not report.failures, "\n".join(describe(f) for f in report.failures[:5])
    expected_backends = ("interpreter", "cython", "llvm", "auto") if flavour == "native" else \
        ("interpreter", "cython", "auto")
    assert all(report.calls[b] > 0 for b in expected_backends), report.calls
    if flavour == "native":                 # LLVM really takes them: both by name and as 'auto''s choice
        total = programs["native"]
        assert report.native_programs["llvm"] >= 0.8 * total, (report.native_programs, total)
        assert report.native_programs["auto"] >= 0.8 * total, (report.native_programs, total)


def test_cpython_itself_gives_two_signs_for_a_nan_times_a_nan():
    """Why NaN-sign-only differences have their own bucket (``runner.only_nan_signs_differ``): the same
    multiplication gives one sign in its first calls and the other once CPython has specialised it."""
    import math

    def multiply(a, b):
        return a * b
    signs = {math.copysign(1.0, multiply(-math.nan, math.nan)) for _ in range(32)}
    assert signs == {1.0, -1.0}


def test_outcomes_compare_ints_of_any_size_and_whole_exception_chains():
    """The runner's own comparison: a list argument holding an int beyond the 4,300-digit str limit (a generated
    program made one) is compared exactly, and exceptions differing only in their ``__context__`` differ."""
    from tests.fuzz.runner import outcome

    def grow(items):
        items.append(7 ** 6000)
        return len(items)
    assert outcome(grow, ([],)) == outcome(grow, ([],))
    def grow_other(items):
        items.append(7 ** 6000 + 1)
        return len(items)
    assert outcome(grow, ([],)) != outcome(grow_other, ([],))          # the same result; the lists differ

    def chained(items):
        try:
            raise KeyError("inner")
        except KeyError:
            raise ValueError("outer")

    def unchained(items):
        raise ValueError("outer")
    assert outcome(chained, ([],))[0][0] == "raise"
    assert outcome(chained, ([],)) != outcome(unchained, ([],))


def test_a_program_running_too_long_in_cpython_is_skipped():
    """The oracle's run is stopped after its time limit (a generated loop growing a big int without bound once
    stalled a whole hunt): ``oracle_outcome`` gives None, and the alarm is gone afterwards."""
    import signal
    import time

    from tests.fuzz.runner import oracle_outcome, outcome

    def runs_long(items):                  # about a minute in CPython: a broken limit fails, never hangs
        total = 0
        for i in range(2 * 10 ** 9):
            total += i
        return total

    def quick(items):
        items.append(1)
        return 2

    handler = signal.getsignal(signal.SIGALRM)
    started = time.monotonic()
    assert oracle_outcome(runs_long, ([],), seconds=0.3) is None
    assert time.monotonic() - started < 10
    assert oracle_outcome(quick, ([],), seconds=0.3) == outcome(quick, ([],))
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is handler

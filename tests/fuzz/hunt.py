"""The differential fuzzer's driver: batches of generated programs through every backend, a summary of what ran.

``python -m tests.fuzz.hunt --functions 5000 --jobs 2`` is the long hunt (each worker process compiles its own
batches; one cache directory is shared). The suite's ``tests/fuzz/test_differential_fuzz.py`` runs a fixed budget
of the same batches, more with ``MOSHJIT_STRESS=N``.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed

from tests.fuzz.generator import census, generate
from tests.fuzz.runner import ORACLE_SECONDS, Report, describe, run_batch

BATCH_SIZE = {"native": 8, "general": 3}        # programs per compiled function (Cython's time grows with size)

INT_ARGS = [0, 1, -1, 3, -7, 2 ** 31, 2 ** 53 + 1, 2 ** 62, 2 ** 63 - 1, -2 ** 63]
FLOAT_ARGS = [0.0, -0.0, 0.5, -1.5, 2.0 ** 53, 1e308, math.inf, -math.inf, math.nan, 9007199254740993.0]
STR_ARGS = ["", "a", "Hello", "ß", "x y", "12"]
LIST_ARGS = [[], [1, 2, 3], [0, -1], [5], [2 ** 62, -3]]


def argument_sets(rng: random.Random, flavour: str, count: int = 4) -> list[tuple]:
    """``count`` argument tuples: a plain one first (so most programs run to the end), then edge values."""
    sets = [(3, -2, 0.5) + (("ab",) if flavour == "general" else ()) + ([1, 2, 3],)]
    for _ in range(count - 1):
        values = (rng.choice(INT_ARGS), rng.choice(INT_ARGS), rng.choice(FLOAT_ARGS))
        if flavour == "general":
            values += (rng.choice(STR_ARGS),)
        sets.append(values + (list(rng.choice(LIST_ARGS)),))
    return sets


def run_seed(seed: int, flavour: str, batch_size: int | None = None) -> tuple[Report, Counter, int]:
    """One batch: (its report, construct counts, programs in it)."""
    rng = random.Random(seed)
    size = batch_size or BATCH_SIZE[flavour]
    programs = [generate(rng, flavour, f"p{i}_") for i in range(size)]
    constructs = Counter()
    for body in programs:
        constructs.update(census(body, flavour))
    return run_batch(programs, flavour, argument_sets(rng, flavour)), constructs, size


def summary(report: Report, constructs: Counter, programs: Counter, seconds: float) -> str:
    lines = [f"programs run: {dict(programs)} in {seconds:.0f} s",
             f"calls compared per backend: {dict(report.calls)}",
             f"programs compiled natively: {dict(report.native_programs)}",
             f"construct counts: {dict(sorted(constructs.items()))}",
             f"differences: {dict(report.buckets) or 'none'}",
             f"calls skipped (over {ORACLE_SECONDS:.0f} s in CPython): {report.skipped}"]
    return "\n".join(lines)


def _job(task):
    seed, flavour, size = task
    return run_seed(seed, flavour, size)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--functions", type=int, default=5000, help="programs to generate and run")
    parser.add_argument("--native-share", type=float, default=0.75, help="share of native-flavour programs")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--native-batch", type=int, default=BATCH_SIZE["native"], help="programs per native batch")
    options = parser.parse_args(argv)
    base = options.seed if options.seed is not None else random.randrange(1 << 30)
    tasks, planned, index = [], 0, 0
    while planned < options.functions:
        flavour = "native" if (index * 0.618) % 1 < options.native_share else "general"
        size = options.native_batch if flavour == "native" else BATCH_SIZE[flavour]
        tasks.append((base + index, flavour, size))
        planned += size
        index += 1
    print(f"seed base {base}: {len(tasks)} batches, {planned} programs", flush=True)
    start = time.time()
    report, constructs, programs = Report(), Counter(), Counter()
    with ProcessPoolExecutor(options.jobs) as pool:
        futures = {pool.submit(_job, task): task for task in tasks}
        for done, future in enumerate(as_completed(futures), 1):       # in completion order: a stopped hunt says
            seed, flavour, _ = futures[future]                         # how far it got
            part, counts, size = future.result()
            report.merge(part)
            constructs.update(counts)
            programs[flavour] += size
            for failure in part.failures:
                print(f"MISMATCH (seed {seed}, {flavour})\n{describe(failure)}", flush=True)
            if done % 10 == 0:
                print(f"{done}/{len(tasks)} batches, {sum(programs.values())} programs, "
                      f"{time.time() - start:.0f} s, {dict(report.buckets)}", flush=True)
    print(summary(report, constructs, programs, time.time() - start))
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""One construct of class-heavy library code at a time, jitted against CPython: where compiled code is slower than
the interpreter it replaces, per construct.

    python -m benchmarks.constructs.run [--rounds 25] [--n 2000] [--only fstring,with_statement]

``cases.py`` holds one function per construct (a ``with``, a caught ``KeyError``, an f-string, a keyword call,
``super().__init__``, ...), each looping ``n`` times over it. The run loads it twice: as it is, and as a copy whose
source carries ``@moshjit.jit(strict=True)`` where a user decorating every ``def`` and ``class`` would write it
(``benchmarks.libraries.run.decorate_with_jit``), compiled at the first call (``benchmarks.steady_state``). Each
function's result is checked against CPython's, then both copies run in turn, ``--rounds`` times, each call timed
with ``time.perf_counter``; the table gives the fastest call of each per iteration of its loop and the ratio
plain / jitted (above 1: the jitted copy is faster). Rows below 1.0 are marked: a compiled construct slower than
the interpreter is a defect (``docs/benchmarks.md`` records the runs).
"""
from __future__ import annotations

import argparse
import importlib.util
import math
import os
import sys
import tempfile
import time

from benchmarks.steady_state import compile_at_first_call

HERE = os.path.dirname(os.path.abspath(__file__))


def jitted_copy(directory: str):
    """``cases.py`` with ``@jit`` on every def and class, imported as its own module from ``directory``."""
    from benchmarks.libraries.run import JIT_DECORATOR, decorate_with_jit
    with open(os.path.join(HERE, "cases.py"), encoding="utf-8") as f:
        text, _ = decorate_with_jit(f.read(), JIT_DECORATOR)
    path = os.path.join(directory, "constructs_jitted.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location("constructs_jitted", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def fastest(plain, jitted, n: int, rounds: int) -> tuple[float, float]:
    """The fastest call of each, in seconds, the two called in turn."""
    best = [math.inf, math.inf]
    for _ in range(rounds):
        for which, fn in enumerate((plain, jitted)):
            start = time.perf_counter()
            fn(n)
            best[which] = min(best[which], time.perf_counter() - start)
    return best[0], best[1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--n", type=int, default=2000, help="iterations of each construct's loop per call")
    parser.add_argument("--only", default="", help="comma-separated construct names")
    args = parser.parse_args(argv)
    compile_at_first_call()
    from benchmarks.constructs import cases
    only = set(filter(None, args.only.split(",")))
    with tempfile.TemporaryDirectory() as directory:
        jitted = jitted_copy(directory)
        ratios, below = [], []
        print(f"{'construct':22s} {'CPython':>12s} {'@jit':>12s} {'× CPython':>10s}")
        for plain_fn in cases.CASES:
            name = plain_fn.__name__
            if only and name not in only:
                continue
            jitted_fn = getattr(jitted, name)
            expected, got = plain_fn(50), jitted_fn(50)
            if got != expected:
                print(f"{name:22s} DIFFERENT: {got!r} != {expected!r}")
                return 1
            fastest(plain_fn, jitted_fn, args.n, 3)                 # warm: compiled, caches filled
            plain_s, jitted_s = fastest(plain_fn, jitted_fn, args.n, args.rounds)
            ratio = plain_s / jitted_s
            ratios.append(ratio)
            if ratio < 1.0:
                below.append(name)
            print(f"{name:22s} {plain_s / args.n * 1e9:9.1f} ns {jitted_s / args.n * 1e9:9.1f} ns "
                  f"{ratio:9.2f}×{'  below CPython' if ratio < 1.0 else ''}")
    if ratios:
        geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"{len(ratios)} constructs, geometric mean {geomean:.2f}×, below CPython: {', '.join(below) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Compile latency per function and backend: what one promotion costs.

``python -m benchmarks.tiering.compile_latency``

For each backend (``llvm``, ``cython``, and ``auto``, the default) a fresh process with an empty cache compiles
typical functions one after another with ``f.compile(example arguments)`` (eager): the numeric kernels of
``benchmarks/kernels`` and the BERT helpers of ``benchmarks/bert/pipeline.py``. Printed: the first compile
(which imports the frontend, the backend and, for Cython, the Cython compiler), and the median and range of the
others, with how many the backend refused. Runtime support modules are prebuilt by the install.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

BACKENDS = ("llvm", "cython", "auto")


def functions():
    from benchmarks.bert import pipeline
    from benchmarks.kernels import kernels
    vocab = {"hello": 0, "##s": 1, "[UNK]": 2}
    return [
        (kernels.sieve, (1000,)), (kernels.collatz, (100,)), (kernels.integrate, (100,)),
        (kernels.mandelbrot, (8, 8)), (kernels.fannkuch, (5,)), (kernels.spectral_norm, (5,)),
        (pipeline.is_whitespace, ("a",)), (pipeline.is_punctuation, ("a",)), (pipeline.clean_text, ("a b",)),
        (pipeline.strip_accents, ("café",)), (pipeline.split_on_punctuation, ("a,b",)),
        (pipeline.wordpiece, ("hellos", vocab, "[UNK]", 100)),
    ]


def child(backend: str) -> None:
    import moshjit
    rows = []
    for fn, args in functions():
        start = time.perf_counter()
        try:
            moshjit.jit(fn, backend=backend, tier="eager").compile(*args)
            outcome = "ok"
        except moshjit.UnsupportedError:
            outcome = "refused"
        rows.append({"name": fn.__name__, "seconds": time.perf_counter() - start, "outcome": outcome})
    print(json.dumps(rows))


def median(values):
    values = sorted(values)
    return values[len(values) // 2] if values else float("nan")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        return child(sys.argv[2])
    print(f"# compile latency, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
          f"{os.getloadavg()[0]:.1f} (2 cores)")
    print("| backend | first compile (imports included) | median of the others | range | refused |")
    print("|---|---:|---:|---|---:|")
    for backend in BACKENDS:
        env = dict(os.environ, MOSHJIT_CACHE_DIR=tempfile.mkdtemp(prefix="moshjit-latency-"))
        proc = subprocess.run([sys.executable, "-m", "benchmarks.tiering.compile_latency", "--child", backend],
                              capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            print(f"| {backend} | failed: {proc.stderr.strip().splitlines()[-1]} | | | |")
            continue
        rows = json.loads(proc.stdout.strip().splitlines()[-1])
        compiled = [r for r in rows if r["outcome"] == "ok"]
        rest = [r["seconds"] for r in compiled[1:]]
        print(f"| {backend} | {compiled[0]['seconds'] * 1000:.0f} ms ({compiled[0]['name']}) | "
              f"{median(rest) * 1000:.0f} ms | {min(rest) * 1000:.0f}–{max(rest) * 1000:.0f} ms | "
              f"{len(rows) - len(compiled)} of {len(rows)} |", flush=True)


if __name__ == "__main__":
    main()

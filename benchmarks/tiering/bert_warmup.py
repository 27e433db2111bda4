"""BERT ``encode_batch`` from its first call: how long until it runs at native speed, tiered against eager.

``python -m benchmarks.tiering.bert_warmup [--seconds 60]``

Each engine runs in a fresh process with an empty cache (moshjit's runtime modules are prebuilt by the install):
``@jit`` on every function of ``benchmarks/bert/pipeline.py`` (as ``benchmarks.bert.engines`` does), then
``encode_batch`` is called on batches of 32 lines of ``tests/bert/data/corpus_slice.txt`` over and over. Printed
per engine: the first call's time, when ``encode_batch`` itself became native (tiered: from its ``stats``), and
the batches' times in the first seconds against the native time per batch measured at the end of the same
process (after every queued compile finished). Plain CPython's time per batch is measured in the same process
before moshjit is imported, so the ratios compare like with like.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "tests" / "bert" / "data"
BATCH = 32


def batches():
    lines = [line.rstrip("\n") for line in open(DATA / "corpus_slice.txt", encoding="utf-8") if line.strip()]
    return [lines[i:i + BATCH] for i in range(0, len(lines) - BATCH + 1, BATCH)]


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def child(seconds: float) -> None:
    from benchmarks.bert import engines, pipeline
    vocab = pipeline.load_vocab(DATA / "vocab.txt")
    work = batches()
    cpython_times, expected = [], []
    for texts in work:
        start = time.perf_counter()
        expected.append(pipeline.encode_batch(texts, vocab))
        cpython_times.append(time.perf_counter() - start)
    module = engines.jitted_pipeline("auto")
    from moshjit import background
    timeline, first = [], time.perf_counter()
    index = 0
    while time.perf_counter() - first < seconds:
        texts = work[index % len(work)]
        start = time.perf_counter()
        got = module.encode_batch(texts, vocab)
        end = time.perf_counter()
        assert got == expected[index % len(work)], "encode_batch differs from CPython"
        timeline.append((start - first, end - start, index % len(work)))
        index += 1
        if index >= len(work) and all(not s.get("tier") or s["tier"] in ("native", "failed")
                                      for s in module.encode_batch.stats.values()) and background.wait(0):
            break
    background.wait()
    native = [None] * len(work)
    for _ in range(3):
        for i, texts in enumerate(work):
            start = time.perf_counter()
            module.encode_batch(texts, vocab)
            took = time.perf_counter() - start
            native[i] = took if native[i] is None else min(native[i], took)
    stats = module.encode_batch.stats
    print(json.dumps({"timeline": timeline, "native": native, "cpython": cpython_times, "stats": {
        ", ".join(k): v for k, v in stats.items()}}))


def run(engine: str, seconds: float) -> dict:
    env = dict(os.environ, MOSHJIT_CACHE_DIR=tempfile.mkdtemp(prefix="moshjit-bert-warmup-"))
    env["MOSHJIT_TIER"] = engine
    proc = subprocess.run([sys.executable, "-m", "benchmarks.tiering.bert_warmup", "--child", str(seconds)],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr[-3000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def report(engine: str, out: dict) -> None:
    timeline, native, cpython = out["timeline"], out["native"], out["cpython"]
    first_start, first_s, _ = timeline[0]
    ratio_to_native = [(t, took / native[i]) for t, took, i in timeline]
    at_speed = next((t for t, r in ratio_to_native if r <= 1.25 and t > 0), None)
    native_after = [s.get("native_after_s") for s in out["stats"].values() if s.get("native_after_s") is not None]
    print(f"## {engine}")
    print(f"- first call: {first_s:.3f} s; native per batch {median(native) * 1000:.2f} ms, CPython per batch "
          f"{median(cpython) * 1000:.2f} ms ({median(cpython) / median(native):.2f}× faster native)")
    print(f"- encode_batch native after {min(native_after):.2f} s (stats)" if native_after
          else "- encode_batch: no native_after_s recorded (eager: native from the first call)")
    print(f"- first batch within 1.25× of native speed starts at {at_speed:.2f} s after the first call"
          if at_speed is not None else "- never within 1.25× of native speed in the window")
    for window in (0.1, 0.5, 1, 2, 5, 10, 20):
        done = [r for t, r in ratio_to_native if t < window]
        if done:
            print(f"  - batches started in the first {window:g} s: {len(done)}, "
                  f"median {median(done):.2f}× native time")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--child", type=float)
    args = parser.parse_args(argv)
    if args.child is not None:
        return child(args.child)
    print(f"# BERT encode_batch warm-up, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
          f"{os.getloadavg()[0]:.1f} (2 cores)")
    for engine in ("tiered", "eager"):
        report(engine, run(engine, args.seconds))


if __name__ == "__main__":
    main()

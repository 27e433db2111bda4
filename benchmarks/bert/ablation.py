"""What each compiler step gains on the BERT pipeline: ``@jit(backend="cython")`` with one step switched off at a
time, timed against plain CPython in the same child process.

Each variant runs in a fresh process with its own compile cache (a variant's generated code differs, so nothing is
shared by accident), compiles the pipeline on a warm-up pass, checks its output equals plain CPython's, then
times CPython and the variant interleaved (median of rounds). Steps are switched off by replacing the function
that performs them with one that does nothing, so the variants differ in exactly one step:

- ``inlining``: calls to small same-module helpers (``is_punctuation``, ``is_whitespace``, …) stay calls;
- ``char loops``: ``for ch in s`` over str/list/tuple stays a Python iterator loop instead of an index loop;
- ``char buffers``: lists of characters stay Python lists instead of ``CharBuffer``;
- ``coalescing``: every SSA value keeps a variable of its own;
- ``argument types``: inference starts from arguments of unknown type (it still types what literals, ``len``,
  ``ord``, ``str`` methods … produce, but a ``str`` argument's characters are objects, not ``Py_UCS4``).

    python -m benchmarks.bert.ablation [--limit 3000] [--rounds 5]
"""
import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

VARIANTS = {
    "all steps": None,
    "without inlining": "inlining",
    "without char loops": "char loops",
    "without char buffers": "char buffers",
    "without coalescing": "coalescing",
    "without argument types": "argument types",
}


def switch_off(step):
    """Replace the function performing ``step`` with one that does nothing (in this process only)."""
    from moshjit.backends.cython import emit
    from moshjit.passes import inline, typeinfer

    if step == "inlining":
        import moshjit.compiler  # noqa: F401  (binds inline_calls lazily: patch the module it is read from)
        inline.inline_calls = lambda ir, *args, **kwargs: None
    elif step == "char loops":
        emit.Emitter._plan_iterations = lambda self: None
    elif step == "char buffers":
        emit.Emitter._plan_char_buffers = lambda self: None
    elif step == "coalescing":
        emit.Emitter._share_variables = lambda self: {}
    elif step == "argument types":
        original = typeinfer.infer_types

        def objects_only(ir, arg_types, *args, **kwargs):
            from moshjit.ir.types import OBJECT
            return original(ir, [OBJECT] * len(arg_types), *args, **kwargs)
        typeinfer.infer_types = objects_only
    elif step is not None:
        raise ValueError(f"unknown step {step!r}")


def child(step, limit, rounds):
    """Time plain CPython and the jitted pipeline with ``step`` switched off; print one JSON line."""
    switch_off(step)
    from benchmarks.bert import bench, data, engines, pipeline

    vocab = pipeline.load_vocab(str(data.fetch_vocab()))
    lines = bench.spread_subset(data.build_corpus().read_text(encoding="utf-8").splitlines(), limit)
    batches = bench.batches_of(lines)
    module = engines.jitted_pipeline("cython")
    start = time.perf_counter()
    expected = bench.run_all(pipeline.encode_batch, batches, vocab)
    got = bench.run_all(module.encode_batch, batches, vocab)
    compile_s = time.perf_counter() - start
    if got != expected:
        raise SystemExit(f"{step}: output differs from CPython's")
    tokens = bench.real_tokens(expected)
    gc.collect()
    gc.freeze()               # what compiling left on the heap is never scanned again: rounds do not pay for it
    plain, jitted = [], []
    for _ in range(rounds):
        for run, times in ((pipeline.encode_batch, plain), (module.encode_batch, jitted)):
            start = time.thread_time()
            bench.run_all(run, batches, vocab)
            times.append(time.thread_time() - start)
    print(json.dumps({"cpython": statistics.median(plain), "jit": statistics.median(jitted), "tokens": tokens,
                      "warmup_s": compile_s}))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=3000, help="corpus lines (spread over the corpus)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        child(None if args.child == "" else args.child, args.limit, args.rounds)
        return
    print(f"{args.limit} corpus lines, median thread CPU time of {args.rounds} rounds, CPython timed in the same "
          f"process\n")
    print("| variant | × CPython | tokens/s | share of the full speed-up lost |")
    print("|---|---:|---:|---:|")
    full = None
    for label, step in VARIANTS.items():
        with tempfile.TemporaryDirectory() as cache:         # a cold cache: every variant compiles
            env = dict(os.environ, MOSHJIT_CACHE_DIR=os.path.join(cache, "moshjit"))
            done = subprocess.run([sys.executable, "-m", "benchmarks.bert.ablation", "--child", step or "",
                                   "--limit", str(args.limit), "--rounds", str(args.rounds)],
                                  capture_output=True, text=True, env=env)
        if done.returncode != 0:
            print(f"| {label} | failed: {done.stderr.strip().splitlines()[-1]} | | |")
            continue
        result = json.loads(done.stdout.strip().splitlines()[-1])
        ratio = result["cpython"] / result["jit"]
        full = ratio if full is None else full
        lost = "—" if step is None else f"{(full - ratio) / (full - 1):.0%}"
        print(f"| {label} | {ratio:.2f}× | {result['tokens'] / result['jit']:,.0f} | {lost} |")


if __name__ == "__main__":
    main()

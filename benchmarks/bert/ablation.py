"""What each compiler step gains on the BERT pipeline: ``@jit(backend="cython")`` with one step switched off at a
time, every variant timed against plain CPython in the same process, interleaved.

Each variant is a fresh copy of ``pipeline.py`` jitted while one step is switched off (the function performing
it temporarily replaced by one that does nothing), compiled by a warm-up pass over the data and checked against
plain CPython's output; then all variants and CPython are timed in interleaved rounds (median of thread CPU
time). One process and interleaving matter here: on this 2-vCPU virtual machine the same loop runs up to 1.5×
slower in one process than in the next, so ratios from separate processes are not comparable.

- ``inlining``: calls to small same-module helpers (``is_punctuation``, ``is_whitespace``, …) stay calls;
- ``char loops``: ``for ch in s`` over str/list/tuple stays a Python iterator loop instead of an index loop;
- ``char buffers``: lists of characters stay Python lists instead of ``CharBuffer``;
- ``coalescing``: every SSA value keeps a variable of its own;
- ``argument types``: inference starts from arguments of unknown type (it still types what literals, ``len``,
  ``ord``, ``str`` methods … produce, but a ``str`` argument's characters are objects, not ``Py_UCS4``);
- ``category codes``: ``unicodedata.category(ch) == "Zs"`` stays a comparison of strs (the pass
  ``category_codes`` is taken out of the pipeline);
- ``str views``: slices probed against a dict are built as strs (no ``MjStrView``);
- ``native dict index``: dicts get no native index (a run-time switch of ``moshjit_text``, set while this
  variant runs): lookups and view probes go to the dict itself (a view is built as a str first);
- ``list builds``: ``a + b`` and ``[x] * n`` build their intermediate lists as CPython does;
- ``found keys``: an accepted view is built as a new str instead of being the dict key its probe found, and strs
  whose hash is known are looked up in the native index instead of the dict, never in its table of recently
  found keys (a run-time switch of ``moshjit_text``, set while this variant runs);
- ``joined loops``: a loop over a joined character buffer reads the joined str, not the buffer.

    python -m benchmarks.bert.ablation [--limit 3000] [--rounds 7]
"""
import argparse
import contextlib
import gc
import statistics
import time
from benchmarks.steady_state import compile_at_first_call

STEPS = {
    "all steps": None,
    "without inlining": "inlining",
    "without char loops": "char loops",
    "without char buffers": "char buffers",
    "without coalescing": "coalescing",
    "without argument types": "argument types",
    "without category codes": "category codes",
    "without str views": "str views",
    "without native dict index": "native dict index",
    "without list builds": "list builds",
    "without found keys": "found keys",
    "without joined loops": "joined loops",
}
RUN_TIME_STEPS = ("native dict index", "found keys")          # switched off while the variant runs, not while it compiles


def _objects_only(original):
    def infer(ir, arg_types, *args, **kwargs):
        from moshjit.ir.types import OBJECT
        return original(ir, [OBJECT] * len(arg_types), *args, **kwargs)
    return infer


@contextlib.contextmanager
def switched_off(step):
    """Within the block, the function performing ``step`` does nothing (restored afterwards)."""
    from moshjit.backends.cython import plan
    from moshjit.passes import inline, pipeline, typeinfer

    if step is None:
        yield
        return
    if step in RUN_TIME_STEPS:
        from moshjit.runtime import moshjit_text
        switch = {"native dict index": moshjit_text.enable_vocab_indexes,
                  "found keys": moshjit_text.enable_found_keys}[step]
        previous = switch(False)
        try:
            yield
        finally:
            switch(previous)
        return
    if step == "category codes":
        saved = list(pipeline.PIPELINE)
        pipeline.PIPELINE[:] = [entry for entry in saved if entry[0] != "category_codes"]
        try:
            yield
        finally:
            pipeline.PIPELINE[:] = saved
        return
    owner, name, replacement = {
        "inlining": (inline, "inline_calls", lambda ir, *args, **kwargs: None),
        "char loops": (plan.EmissionPlan, "_plan_iterations", lambda self: None),
        "char buffers": (plan.EmissionPlan, "_plan_char_buffers", lambda self: None),
        "coalescing": (plan.EmissionPlan, "_share_variables", lambda self: {}),
        "argument types": (typeinfer, "infer_types", _objects_only(typeinfer.infer_types)),
        "str views": (plan.EmissionPlan, "_plan_views", lambda self: None),
        "list builds": (plan.EmissionPlan, "_plan_list_builds", lambda self: None),
        "joined loops": (plan.EmissionPlan, "_plan_joined_loops", lambda self: None),
    }[step]
    original = getattr(owner, name)
    setattr(owner, name, replacement)
    try:
        yield
    finally:
        setattr(owner, name, original)


def _run_switched_off(step, encode_batch):
    def run(batch, vocab):
        with switched_off(step):
            return encode_batch(batch, vocab)
    return run


def main(argv=None):
    compile_at_first_call()              # steady-state speed: see benchmarks/steady_state.py
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=3000, help="corpus lines (spread over the corpus)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--steps", help="comma-separated variants to build besides 'all steps' (default: all), "
                                        "e.g. 'without list builds'")
    args = parser.parse_args(argv)
    chosen = STEPS if not args.steps else {label: STEPS[label] for label in
                                           ["all steps"] + [name.strip() for name in args.steps.split(",")]}

    import moshjit
    from benchmarks.bert import bench, data, engines, pipeline

    vocab = pipeline.load_vocab(str(data.fetch_vocab()))
    lines = bench.spread_subset(data.build_corpus().read_text(encoding="utf-8").splitlines(), args.limit)
    batches = bench.batches_of(lines)
    expected = bench.run_all(pipeline.encode_batch, batches, vocab)
    runs = {"CPython": pipeline.encode_batch}
    for label, step in chosen.items():
        module = engines.pipeline_copy(f"bert_pipeline_ablation_{len(runs)}")
        for name in engines.module_functions(module):
            setattr(module, name, moshjit.jit(getattr(module, name), backend="cython", cache=False))
        with switched_off(step):
            start = time.perf_counter()
            if bench.run_all(module.encode_batch, batches, vocab) != expected:
                raise SystemExit(f"{label}: output differs from CPython's")
        print(f"compiled {label} in {time.perf_counter() - start:.1f} s", flush=True)
        runs[label] = module.encode_batch
        if step in RUN_TIME_STEPS:
            runs[label] = _run_switched_off(step, module.encode_batch)
    gc.collect()
    gc.freeze()               # what compiling left on the heap is never scanned again: rounds do not pay for it
    times = {label: [] for label in runs}
    for round_index in range(args.rounds):
        order = list(runs)[round_index % len(runs):] + list(runs)[:round_index % len(runs)]
        for label in order:
            start = time.thread_time()
            bench.run_all(runs[label], batches, vocab)
            times[label].append(time.thread_time() - start)
    tokens = bench.real_tokens(expected)
    cpython = statistics.median(times["CPython"])
    full = cpython / statistics.median(times["all steps"])
    print(f"\n{args.limit} corpus lines, {tokens:,} tokens; median thread CPU time of {args.rounds} interleaved "
          f"rounds\n")
    print("| variant | × CPython | tokens/s | share of the speed-up the step brings |")
    print("|---|---:|---:|---:|")
    for label in runs:
        seconds = statistics.median(times[label])
        ratio = cpython / seconds
        share = "—" if label in ("CPython", "all steps") else f"{(full - ratio) / (full - 1):.0%}"
        print(f"| {label} | {ratio:.2f}× | {tokens / seconds:,.0f} | {share} |")


if __name__ == "__main__":
    main()

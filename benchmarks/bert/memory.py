"""Peak memory of the BERT pipeline: plain CPython against ``@jit`` (backend ``auto``) on the same run.

Each engine runs in a fresh process: it loads the vocabulary and the corpus, builds the engine (moshjit with its
disk cache, filled by a first warm-up process, so compiling is not measured: a user's second run), runs
``encode_batch`` over every batch keeping the results (as ``bench.py`` does), and reports its peak resident set
size (``ru_maxrss``) and the resident size before the run. The native dict index moshjit builds for the
vocabulary is part of the jitted process's peak.

    python -m benchmarks.bert.memory [--full | --limit N]
"""
import argparse
import json
import resource
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ENGINES = ("cpython", "jit-auto")


def current_rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 2 ** 20


def child(engine_name: str, limit) -> None:
    from benchmarks.bert import bench, data, engines, pipeline

    vocab = pipeline.load_vocab(str(data.fetch_vocab()))
    lines = bench.spread_subset(data.read_corpus(), limit)
    batches = bench.batches_of(lines)
    engine = engines.build_engine(engine_name, vocab, lines[:bench.SAMPLE_SIZE])
    before = current_rss_mb()
    results = bench.run_all(engine.run, batches, vocab)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    compiler_loaded = "Cython.Compiler.Main" in sys.modules
    print(json.dumps({"engine": engine_name, "before_mb": before, "peak_mb": peak, "rows": len(lines),
                      "tokens": bench.real_tokens(results), "compiled_during_run": compiler_loaded}))


def run_child(engine_name: str, limit) -> dict:
    command = [sys.executable, "-m", "benchmarks.bert.memory", "--child", engine_name]
    command += ["--full"] if limit is None else ["--limit", str(limit)]
    proc = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=1800)
    if proc.returncode != 0:
        raise SystemExit(f"{engine_name} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="every corpus line (default: 20,000 spread lines)")
    parser.add_argument("--limit", type=int, default=20000)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    limit = None if args.full else args.limit
    if args.child:
        return child(args.child, limit)
    run_child("jit-auto", limit)                  # fills moshjit's disk cache: the measured run only loads
    reports = {name: run_child(name, limit) for name in ENGINES}
    base = reports["cpython"]["peak_mb"]
    rows = reports["cpython"]["rows"]
    print(f"\n{rows:,} corpus lines, results kept; one process per engine\n")
    print("| engine | RSS before the run (MB) | peak RSS (MB) | × CPython's peak |")
    print("|---|---:|---:|---:|")
    for name, report in reports.items():
        print(f"| {name} | {report['before_mb']:.0f} | {report['peak_mb']:.0f} | {report['peak_mb'] / base:.2f}× |")
    if reports["jit-auto"]["compiled_during_run"]:
        print("\n(the jitted process imported Cython's compiler: it compiled during the measured run)")


if __name__ == "__main__":
    main()

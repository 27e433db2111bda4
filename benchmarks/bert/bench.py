"""The BERT pipeline's ``encode_batch`` on every engine, side by side in one run, single-threaded.

Engines (``engines.py``): plain CPython; ``@jit`` on every function with ``backend='auto'``, ``'cython'`` and
``'llvm'``; the unchanged ``pipeline.py`` compiled by Cython; HuggingFace ``tokenizers`` (Rust, one thread);
Numba's ``@njit`` where it compiles. Every engine's output on the whole subset is first checked against
CPython's (exactly; ``tokenizers`` within the differences documented in ``docs/bert.md``). Then the engines run
interleaved, in a rotating order, for ``--rounds`` rounds; the table gives the median tokens/s (real tokens:
``[CLS]``/``[SEP]`` included, padding not) and the ratio to CPython. Compile time is the first call in a fresh
process with moshjit's disk cache off (Numba's too); cached load is the first call in another process that
finds the caches filled, imports included.

    python -m benchmarks.bert.bench                 # a spread subset of 5,000 corpus lines
    python -m benchmarks.bert.bench --full          # every line
    python -m benchmarks.bert.bench --limit 500 --rounds 3 --no-write

Writes its section of ``docs/benchmarks.md`` and ``docs/bert-benchmark.png`` unless ``--no-write``.
"""
import os

# tokenizers reads these when it is imported: one thread, no Rayon pool.
os.environ["RAYON_NUM_THREADS"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"

import argparse  # noqa: E402  (the environment above must be set before anything imports tokenizers)
import gc  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

from benchmarks.bert import data, engines, pipeline  # noqa: E402
from benchmarks.steady_state import compile_at_first_call

REPO = Path(__file__).resolve().parents[2]
DEFAULT_DOC = REPO / "docs" / "benchmarks.md"
DEFAULT_CHART = REPO / "docs" / "bert-benchmark.png"
# The CPython whose run fills section 1 of docs/benchmarks.md and draws the chart; a run on another supported
# version fills that version's own generated section (section 7), without a chart unless --chart asks for one.
REFERENCE_PYTHON = (3, 11)
ON_REFERENCE = sys.version_info[:2] == REFERENCE_PYTHON
DEFAULT_LIMIT = 5000
BATCH_SIZE = 32
SAMPLE_SIZE = 8
COLD_ENGINES = ("jit-auto", "jit-cython", "jit-llvm", "numba")
CACHED_ENGINES = ("jit-auto", "jit-cython", "jit-llvm", "cython-file", "tokenizers", "numba")


@dataclass
class Result:
    """What the benchmark found for one engine."""
    engine: engines.Engine
    check: str = ""                    # "equal", "equal except ...", or why it was not timed
    correct: bool = False
    seconds: list = field(default_factory=list)
    compile_s: float = None
    compile_note: str = ""
    later: list = field(default_factory=list)      # specialisations compiled after the first call
    cached_s: float = None
    cached_note: str = ""

    @property
    def median(self):
        return statistics.median(self.seconds) if self.seconds else None


def spread_subset(lines, limit):
    """``limit`` lines taken at even steps through ``lines`` (all of them if ``limit`` is None or larger)."""
    if limit is None or limit >= len(lines):
        return list(lines)
    step = len(lines) / limit
    return [lines[int(index * step)] for index in range(limit)]


def batches_of(lines, size=BATCH_SIZE):
    return [lines[start:start + size] for start in range(0, len(lines), size)]


def real_tokens(results):
    """Tokens in a list of ``encode_batch`` results, padding excluded."""
    return sum(sum(mask) for batch in results for mask in batch["attention_mask"])


def run_all(run, batches, vocab):
    return [run(batch, vocab) for batch in batches]


# ---------------------------------------------------------------------------------------------------------------
# Checking outputs
# ---------------------------------------------------------------------------------------------------------------

def unpadded_row(batch, row):
    """A row of a batch without its padding, as a tuple of the three model inputs."""
    length = sum(batch["attention_mask"][row])
    return tuple(tuple(batch[key][row][:length]) for key in ("input_ids", "token_type_ids", "attention_mask"))


def compare_with_reference(texts_batches, expected, got, explainer):
    """For HF ``tokenizers``: (unexplained row count, {reason: rows}) of rows that differ from CPython's.

    A row differs for a documented reason if ``verify.DifferenceExplainer`` explains its text; a row equal
    once padding is removed is excused when its batch holds such a row (the batch's longest row changed).
    """
    reasons = {}
    unexplained = 0
    for texts, ours, theirs in zip(texts_batches, expected, got):
        if ours == theirs:
            continue
        explained_rows = {}
        for row, text in enumerate(texts):
            if unpadded_row(ours, row) != unpadded_row(theirs, row):
                explained_rows[row] = explainer.explain_difference(text)
        for row in range(len(texts)):
            if row in explained_rows:
                key = " + ".join(explained_rows[row]) or "UNEXPLAINED"
            elif any(ours[k][row] != theirs[k][row] for k in ours):
                key = "padding of a batch holding a differing row" if explained_rows else "UNEXPLAINED"
            else:
                continue
            reasons[key] = reasons.get(key, 0) + 1
            unexplained += key == "UNEXPLAINED"
    return unexplained, reasons


def check_engine(engine, batches, expected, vocab, explainer):
    """Run ``engine`` on every batch and compare with CPython's output; returns (correct, description)."""
    try:
        got = run_all(engine.run, batches, vocab)
    except Exception as error:
        return False, f"FAILED: {type(error).__name__}: {engines.first_line(error)}"
    if engine.name in ("tokenizers", "nanotoken"):
        unexplained, reasons = compare_with_reference(batches, expected, got, explainer)
        if unexplained:
            return False, f"WRONG: {unexplained} rows differ for no documented reason ({reasons})"
        if reasons:
            return True, "equal except documented differences: " + ", ".join(
                f"{count} rows {reason}" for reason, count in sorted(reasons.items()))
        return True, "equal"
    if got == expected:
        return True, "equal"
    if engine.name in engines.APPROXIMATE_ENGINES:
        rows = sum(unpadded_row(ours, row) != unpadded_row(theirs, row)
                   for ours, theirs, texts in zip(expected, got, batches) for row in range(len(texts)))
        total = sum(len(texts) for texts in batches)
        return True, f"approximate: {rows:,} of {total:,} rows differ (timed anyway)"
    wrong = sum(ours != theirs for ours, theirs in zip(expected, got))
    return False, f"WRONG: {wrong} of {len(batches)} batches differ from CPython"


def class_style_reference(results, batches, vocab, expected):
    """The plain class-style tokenizer's output, and how many rows of it differ from the pipeline's."""
    plain = next((r.engine for r in results if r.engine.name == "classes-cpython" and r.engine.run), None)
    if plain is None:
        return None
    got = run_all(plain.run, batches, vocab)
    rows = sum(unpadded_row(ours, row) != unpadded_row(theirs, row)
               for ours, theirs, texts in zip(expected, got, batches) for row in range(len(texts)))
    return got, rows


def check_class_style(engine, batches, vocab, reference):
    """The class-style engines: the plain one is their reference; the jitted one must equal it exactly."""
    if reference is None:
        return False, "not timed: needs the classes-cpython engine as its reference"
    expected, rows_differing_from_pipeline = reference
    if engine.name == "classes-cpython":
        return True, (f"the class-style reference ({rows_differing_from_pipeline:,} rows differ from pipeline.py: "
                      f"Google's tokenizer, see benchmarks/bert/google/class_style.py)")
    try:
        got = run_all(engine.run, batches, vocab)
    except Exception as error:
        return False, f"FAILED: {type(error).__name__}: {engines.first_line(error)}"
    if got == expected:
        return True, "equal to classes-cpython"
    wrong = sum(ours != theirs for ours, theirs in zip(expected, got))
    return False, f"WRONG: {wrong} of {len(batches)} batches differ from classes-cpython"


# ---------------------------------------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------------------------------------

def time_rounds(results, batches, vocab, rounds, progress):
    """Interleaved timing: each round runs every engine once over all batches, the order rotating per round."""
    timed = [result for result in results if result.correct]
    bar = progress(total=rounds * len(timed), desc="timing rounds")
    for round_index in range(rounds):
        shift = round_index % len(timed)
        for result in timed[shift:] + timed[:shift]:
            bar.set_postfix_str(result.engine.name)
            gc.collect()
            start = time.process_time()            # CPU time: the machine is shared (see docs/benchmarks.md)
            run_all(result.engine.run, batches, vocab)
            result.seconds.append(time.process_time() - start)
            bar.update()
    bar.close()


def startup_in_subprocess(name, mode, vocab_path, sample, numba_functions=None):
    """Seconds to build engine ``name`` and make its first call in a new Python process.

    ``mode`` "cold": moshjit's and Numba's disk caches off (a real compile; moshjit's support modules, built once
    per machine, are loaded before the clock starts). "cached": caches on and already filled, imports included.
    Numba decorates only ``numba_functions``, the ones it compiled in this run (a user drops the others' decorators).
    Returns the child's JSON report (``seconds``, ``kind``, ``unavailable``, ``stats``).
    """
    request = json.dumps({"engine": name, "mode": mode, "vocab": str(vocab_path), "sample": sample,
                          "numba_functions": numba_functions})
    proc = subprocess.run([sys.executable, "-m", "benchmarks.bert.bench", "--startup-child"], input=request,
                          capture_output=True, text=True, cwd=REPO, timeout=900)
    if proc.returncode != 0:
        return {"error": engines.first_line(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else
                                            f"exit status {proc.returncode}")}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def startup_child():
    """The child side of ``startup_in_subprocess``: read the request on stdin, print one JSON line."""
    request = json.loads(sys.stdin.read())
    vocab = pipeline.load_vocab(request["vocab"])
    cold = request["mode"] == "cold"
    if cold and request["engine"].startswith("jit-"):
        import moshjit
        moshjit.jit(pipeline.is_cjk)               # loads the per-machine support modules
    start = time.perf_counter()
    engine = engines.build_engine(request["engine"], vocab, request["sample"], cache=not cold,
                                  numba_functions=request["numba_functions"])
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "kind": engine.first_call_kind, "unavailable": engine.unavailable,
                      "stats": engine.details.get("stats", {})}, default=str))


def cache_outcome(report):
    """"hit" / "miss" summary of the moshjit stats a child reported (empty for other engines)."""
    stats = report.get("stats") or {}
    return engines.cache_outcome(stats) if stats else ""


def measure_startup(results, vocab_path, sample, cold, progress):
    """Fill in compile and cached-load times, each from a fresh process."""
    for result in progress([r for r in results if r.engine.run is not None], desc="compile / load timings"):
        name = result.engine.name
        numba_functions = result.engine.details.get("compiled")
        if cold and name in COLD_ENGINES:
            report = startup_in_subprocess(name, "cold", vocab_path, sample, numba_functions)
            if "error" in report:
                result.compile_note = f"failed: {report['error']}"
            else:
                result.compile_s = report["seconds"]
        elif name == "cython-file":
            build = result.engine.details["build"]
            result.compile_s = build["cython_s"] + build["cc_s"]
            result.compile_note = "Cython + C compiler" + (", when it was built" if build["cached"] else "")
        elif name in COLD_ENGINES and result.engine.first_call_kind == "compile":
            result.compile_s = result.engine.first_call_s
        elif name in COLD_ENGINES:
            result.compile_note = "not measured: cache hit in this run"
        if name in CACHED_ENGINES:
            report = startup_in_subprocess(name, "cached", vocab_path, sample, numba_functions)
            if "error" in report:
                result.cached_note = f"failed: {report['error']}"
            else:
                result.cached_s = report["seconds"]
                outcome = cache_outcome(report)
                if outcome == "compile":
                    result.cached_note = "CACHE MISS: recompiled in the second process"
                elif name == "tokenizers":
                    result.cached_note = "setup, nothing to compile"


# ---------------------------------------------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------------------------------------------

def seconds_cell(value, note, later=()):
    text = note or "—" if value is None else f"{value:.2f}" + (f" ({note})" if note else "")
    return text + "".join(f"; then {specialization}" for specialization in later)


def table(results, tokens):
    """The markdown table: one row per engine, CPython's tokens/s as the 1.00× reference (a jitted class-style
    engine's row also gives its ratio to the plain class-style engine, the reference of issue 16's class target)."""
    base = next(r.median for r in results if r.engine.name == "cpython")
    plain_classes = next((r.median for r in results if r.engine.name == "classes-cpython"), None)
    lines = ["| engine | tokens/s | × CPython | compile, first call (s) | cached load, 2nd process (s) | output |",
             "|---|---:|---:|---|---|---|"]
    for result in results:
        if result.median is not None:
            speed, ratio = f"{tokens / result.median:,.0f}", f"{base / result.median:.2f}×"
        else:
            speed, ratio = "—", "—"
        check = (result.check or result.engine.unavailable).replace(f"{REPO}{os.sep}", "")
        if result.engine.name == "classes-jit" and result.median is not None and plain_classes is not None:
            check += f"; {plain_classes / result.median:.2f}× its plain self"
        lines.append(f"| {result.engine.label} | {speed} | {ratio} | {seconds_cell(result.compile_s, result.compile_note, result.later)}"
                     f" | {seconds_cell(result.cached_s, result.cached_note)} | {check} |")
    return "\n".join(lines)


def numba_notes(results):
    """Which functions Numba compiled and why it refused the others."""
    numba = next((r.engine for r in results if r.engine.name == "numba" and r.engine.run is not None), None)
    if numba is None:
        return ""
    refused = numba.details["refused"]
    lines = [f"Numba compiled {len(numba.details['compiled'])} of {len(numba.details['compiled']) + len(refused)} "
             f"functions reached by `encode_batch`: {', '.join(f'`{n}`' for n in numba.details['compiled'])}. "
             f"It refused:", ""]
    lines += [f"- `{name}`: {reason}" for name, reason in refused.items()]
    return "\n".join(lines)


def environment():
    """One line naming the machine and the versions measured."""
    import Cython
    import numba
    import tokenizers

    import moshjit
    anchors = ""
    for name, module in (("nanotoken", "nanotoken"), ("flash-tokenizer", "flash_tokenizer")):
        try:
            from importlib.metadata import version
            anchors += f", {name} {version(name)}"
        except Exception:          # not installed: its row says so
            pass
    return (f"{os.cpu_count()} cores (load average {os.getloadavg()[1]:.1f} over the last 5 minutes: other work "
            f"shares the machine), {platform.machine()}, Python {platform.python_version()}, moshjit "
            f"{moshjit.__version__}, Cython {Cython.__version__}, Numba {numba.__version__}, tokenizers "
            f"{tokenizers.__version__}{anchors}")


def write_chart(results, tokens, path):
    """A horizontal bar chart of tokens/s per engine, labelled with the ratio to CPython."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    base = next(r.median for r in results if r.engine.name == "cpython")
    rows = list(reversed(results))
    speeds = [tokens / r.median if r.median else 0 for r in rows]
    figure, axes = plt.subplots(figsize=(8, 0.55 * len(rows) + 1.2))
    colours = ["#888888" if r.engine.name == "cpython" else "#d9822b" if r.engine.name.startswith("jit") else
               "#4a7ab5" for r in rows]
    axes.barh([r.engine.label for r in rows], speeds, color=colours)
    for index, (result, speed) in enumerate(zip(rows, speeds)):
        text = f" {base / result.median:.2f}×" if result.median else " not available"
        axes.text(speed, index, text, va="center", fontsize=9)
    axes.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: f"{value / 1000:,.0f}k"))
    axes.set_xlabel("tokens per second, encode_batch, one thread (higher is better)")
    axes.set_xlim(0, max(speeds) * 1.18)
    axes.set_title("BERT preprocessing throughput")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


_ON = "" if ON_REFERENCE else " on Python {}.{}".format(*sys.version_info[:2])
BEGIN_MARK = f"<!-- generated by benchmarks/bert/bench.py{_ON}: begin -->"
END_MARK = f"<!-- generated by benchmarks/bert/bench.py{_ON}: end -->"


def write_document(path, section):
    """Put ``section`` between the generated-section marks of ``path``, keeping the hand-written text around them
    (a file without the marks gets them at its end; a new file holds just the section)."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if BEGIN_MARK in old and END_MARK in old:
        before, rest = old.split(BEGIN_MARK, 1)
        after = rest.split(END_MARK, 1)[1]
    elif old:
        before, after = old.rstrip("\n") + "\n\n", "\n"
    else:
        before, after = "# BERT preprocessing: moshjit against CPython, Cython, Rust and Numba\n\n", "\n"
    data.write_atomically(path, f"{before}{BEGIN_MARK}\n{section.strip()}\n{END_MARK}{after}".encode("utf-8"))


def document(results, tokens, lines, characters, rounds, command, chart=None):
    """The generated section of ``docs/benchmarks.md``: what was measured, the table, the chart, Numba."""
    chart_line = f"\n![tokens per second per engine]({chart.name})\n" if chart else ""
    return f"""Measured by `{command}` ({time.strftime('%Y-%m-%d')}; {environment()}).
Workload: `encode_batch` from `benchmarks/bert/pipeline.py` on {lines:,} corpus lines ({characters:,} characters,
{tokens:,} tokens) in batches of {BATCH_SIZE}, truncated to 512 ids and padded to each batch's longest row; one
thread; median of {rounds} rounds with the engines interleaved, each round timed by the process's CPU time (other
work shares this machine: wall-clock time would count the waits for a core). Every engine's output was checked
against plain CPython's before timing (exactly; HF `tokenizers` and nanotoken within the differences documented
in `docs/bert.md`; flash-tokenizer is timed although it differs, as its row says).

{table(results, tokens)}
{chart_line}
How each engine is built (`benchmarks/bert/engines.py`): `@jit` is applied to every function of a fresh copy of
the unchanged `pipeline.py`, as if each carried the decorator; "Cython on the unchanged .py" is what
`cythonize -i pipeline.py` gives (no type annotations; `python -m benchmarks.bert.cythonize_pipeline`, built with
CPython's own `-O3` flags); `tokenizers` is timed up to the same lists of ints the others return.
Compile time is the first call (on 8 lines) in a fresh process with the disk caches off (moshjit's
per-machine support modules, built once, excluded); "then ..." lists what moshjit compiled later in this run,
when the checking pass met new argument kinds (a one-character text is a `char`, not a `str`); cached load is
the first call in another process with the caches filled, imports included.

{numba_notes(results)}
"""


def main(argv=None):
    """Command line: check every engine, time them side by side, print and write the results."""
    compile_at_first_call()              # steady-state speed: see benchmarks/steady_state.py
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--startup-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--full", action="store_true", help="every corpus line")
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, help="lines in the spread subset")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--engines", default=",".join(engines.ENGINE_NAMES),
                        help="comma-separated subset of: " + ", ".join(engines.ENGINE_NAMES))
    parser.add_argument("--corpus", help="a corpus file, one document per line (default: the cached corpus)")
    parser.add_argument("--vocab", help="a vocab.txt (default: the cached bert-base-uncased vocab)")
    parser.add_argument("--no-cold", action="store_true",
                        help="skip the cold-compile processes (the compile column then shows this run's first "
                             "call if it compiled)")
    parser.add_argument("--no-write", action="store_true", help="print only; do not write docs/")
    parser.add_argument("--doc", type=Path, default=DEFAULT_DOC)
    parser.add_argument("--chart", type=Path, default=DEFAULT_CHART if ON_REFERENCE else None)
    args = parser.parse_args(argv)
    if args.startup_child:
        return startup_child()
    return run_benchmark(args, command="python -m benchmarks.bert.bench " + " ".join(argv or sys.argv[1:]))


def run_benchmark(args, command):
    """The benchmark proper (shared with ``demo.py``); returns the exit status: 1 if an engine is wrong."""
    from tqdm import tqdm

    from benchmarks.bert import verify

    names = [name.strip() for name in args.engines.split(",") if name.strip()]
    if "cpython" not in names:
        names.insert(0, "cpython")
    vocab_path = Path(args.vocab) if args.vocab else data.fetch_vocab()
    vocab = pipeline.load_vocab(vocab_path)
    lines = data.read_lines(args.corpus) if args.corpus else data.read_corpus()
    lines = spread_subset(lines, None if args.full else args.limit)
    batches = batches_of(lines)
    sample = lines[:SAMPLE_SIZE]
    characters = sum(len(line) for line in lines)
    print(f"Python {platform.python_version()}: {len(lines):,} lines, {characters:,} characters, {len(batches)} "
          f"batches of {BATCH_SIZE}")

    results = []
    for name in tqdm(names, desc="building engines"):
        results.append(Result(engines.build_engine(name, vocab, sample, progress=tqdm)))
    expected = run_all(pipeline.encode_batch, batches, vocab)
    tokens = real_tokens(expected)
    explainer = verify.DifferenceExplainer(vocab)
    class_reference = class_style_reference(results, batches, vocab, expected)
    for result in tqdm(results, desc="checking outputs"):
        if result.engine.name == "cpython":
            result.correct, result.check = True, "the reference"
        elif result.engine.name in engines.CLASS_ENGINES and result.engine.run is not None:
            result.correct, result.check = check_class_style(result.engine, batches, vocab, class_reference)
        elif result.engine.run is not None:
            result.correct, result.check = check_engine(result.engine, batches, expected, vocab, explainer)
            result.later = engines.later_specializations(result.engine)
    time_rounds(results, batches, vocab, args.rounds, tqdm)
    measure_startup(results, vocab_path, sample, not args.no_cold, tqdm)

    print()
    print(table(results, tokens))
    notes = numba_notes(results)
    if notes:
        print()
        print(notes)
    if not args.no_write:
        if args.chart:
            write_chart(results, tokens, args.chart)
        write_document(args.doc, document(results, tokens, len(lines), characters, args.rounds, command.strip(),
                                          args.chart))
        print(f"\nwrote {args.doc}" + (f" and {args.chart}" if args.chart else ""))
    wrong = [r.engine.name for r in results if r.engine.run is not None and not r.correct]
    if wrong:
        print(f"\nWRONG OUTPUT from: {', '.join(wrong)}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

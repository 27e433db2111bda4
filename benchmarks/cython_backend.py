"""Issue 3 targets, measured side by side in one run: the BERT functions under CPython, under Cython compiling the
unchanged pipeline.py, and under @jit(backend="cython"); plus compile and cached-load times.

    python -m benchmarks.cython_backend [--rounds 5] [--lines 483]

Prints a table of ratios vs CPython (median of interleaved rounds, CPU time) and the compile-time figures.
"""
from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from benchmarks.bert import pipeline as P  # noqa: E402
from benchmarks.steady_state import compile_at_first_call

DATA = os.path.join(ROOT, "tests", "bert", "data")


def cython_compiled_pipeline(workdir: str):
    """pipeline.py compiled unchanged by Cython (what a user gets from cythonize), imported as a module."""
    from Cython.Compiler import Main
    name = "pipeline_cythonized"
    source = os.path.join(workdir, name + ".py")
    with open(P.__file__, encoding="utf-8") as f, open(source, "w", encoding="utf-8") as g:
        g.write(f.read())
    c_file = os.path.join(workdir, name + ".c")
    options = Main.CompilationOptions(Main.default_options, output_file=c_file, language_level=3, quiet=True)
    Main.compile_single(source, options, full_module_name=name)
    so = os.path.join(workdir, name + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run(["gcc", "-O2", "-fPIC", "-shared", "-w", f"-I{sysconfig.get_paths()['include']}", c_file, "-o", so],
                   check=True)
    loader = importlib.machinery.ExtensionFileLoader(name, so)
    spec = importlib.util.spec_from_file_location(name, so, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def jitted_pipeline():
    """A fresh copy of pipeline.py with @jit(backend="cython") on every function, as a user would decorate it."""
    import moshjit
    spec = importlib.util.spec_from_file_location("pipeline_jitted", P.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, value in list(vars(module).items()):
        if callable(value) and getattr(value, "__module__", None) == module.__name__ and not isinstance(value, type):
            setattr(module, name, moshjit.jit(value, backend="cython"))
    return module


def drivers(module, vocab, lines, words):
    """One callable per benchmarked stage; ``wordpiece`` runs over pre-split words inside a jitted loop."""
    import moshjit
    wordpiece = module.wordpiece

    def wordpiece_all(words_, vocab_):
        return [wordpiece(w, vocab_, "[UNK]", 100) for w in words_]

    if hasattr(wordpiece, "py_func"):
        wordpiece_all = moshjit.jit(wordpiece_all, backend="cython")
    return {
        "wordpiece": lambda: wordpiece_all(words, vocab),
        "basic_tokenize": lambda: [module.basic_tokenize(line, P.SPECIAL_TOKENS) for line in lines],
        "encode": lambda: [module.encode(line, vocab, 128) for line in lines],
        "encode_batch": lambda: module.encode_batch(lines, vocab, 128),
    }


def cpu_time(run) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def measure_compile_times() -> dict:
    """Cold compile of a function after the first one in a process, and a cached load in a new process."""
    script = textwrap.dedent(f"""
        import random, sys, time; sys.path.insert(0, {ROOT!r})
        t0 = time.perf_counter()
        import moshjit
        from benchmarks.bert import pipeline as P
        namespace = {{}}      # a first function never compiled before (a cache hit would leave Cython cold)
        exec(f"def warm(cp):\\n    return cp > {{random.randrange(1 << 30)}}", namespace)
        warm = moshjit.jit(namespace["warm"], backend="cython"); warm(65)
        t1 = time.perf_counter()
        f = moshjit.jit(P.{{name}}, backend="cython")
        f(*{{args}})
        t2 = time.perf_counter()
        print(t1 - t0, t2 - t1, f.stats)
    """)
    cases = {"clean_text": "('a\\tb',)", "strip_accents": "('héllo',)", "split_on_punctuation": "('a,b',)"}
    out = {}
    with tempfile.TemporaryDirectory(prefix="moshjit-bench-cache-") as cache:
        env = dict(os.environ, MOSHJIT_CACHE_DIR=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)      # bytecode cached, as on users' machines
        for name, args in cases.items():
            code = script.replace("{name}", name).replace("{args}", args)
            cold = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            warm = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            cold_first, cold_compile = map(float, cold.stdout.split()[:2])
            warm_first, warm_load = map(float, warm.stdout.split()[:2])
            out[name] = {"first function incl. imports (cold)": cold_first, "compile after first": cold_compile,
                         "cached load in a new process": warm_load}
    return out


def main(argv=None) -> int:
    compile_at_first_call()              # steady-state speed: see benchmarks/steady_state.py
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--lines", type=int, default=483)
    parser.add_argument("--no-compile-times", action="store_true")
    args = parser.parse_args(argv)
    vocab = P.load_vocab(os.path.join(DATA, "vocab.txt"))
    with open(os.path.join(DATA, "corpus_slice.txt"), encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f][:args.lines]
    words = [w for line in lines for w in P.basic_tokenize(line, P.SPECIAL_TOKENS)]
    with tempfile.TemporaryDirectory(prefix="moshjit-bench-") as workdir:
        engines = {"cpython": P, "cython (unchanged .py)": cython_compiled_pipeline(workdir),
                   "moshjit cython": jitted_pipeline()}
        runs = {engine: drivers(module, vocab, lines, words) for engine, module in engines.items()}
        for stage in runs["cpython"]:
            reference = runs["cpython"][stage]()
            for engine in engines:
                if runs[engine][stage]() != reference:
                    raise SystemExit(f"{engine} gives a different result for {stage}")
        times: dict = {engine: {stage: [] for stage in runs[engine]} for engine in engines}
        for _ in range(args.rounds):                      # interleaved: every engine sees the same machine state
            for stage in runs["cpython"]:
                for engine in engines:
                    times[engine][stage].append(cpu_time(runs[engine][stage]))
    print(f"{len(lines)} lines, {len(words)} words; median CPU time of {args.rounds} interleaved rounds")
    print(f"{'stage':16s} {'cpython ms':>11s} {'cython .py':>11s} {'moshjit':>9s} {'moshjit/cython':>15s}")
    for stage in runs["cpython"]:
        base = statistics.median(times["cpython"][stage])
        cy = base / statistics.median(times["cython (unchanged .py)"][stage])
        mj = base / statistics.median(times["moshjit cython"][stage])
        print(f"{stage:16s} {base * 1e3:11.2f} {cy:10.2f}x {mj:8.2f}x {mj / cy:14.2f}x")
    if not args.no_compile_times:
        print("\ncompile and load times (seconds):")
        for name, figures in measure_compile_times().items():
            print(f"  {name:22s} " + "  ".join(f"{k}: {v:.3f}" for k, v in figures.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

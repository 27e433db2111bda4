"""The LLVM backend measured side by side with CPython and Numba, in one run.

    python -m benchmarks.kernels.run [--quick]

Prints, as ratios measured in this run:
- speed of the numeric kernels (``kernels.CASES``): moshjit (backend="llvm") vs Numba ``@njit`` and CPython,
  with the geometric mean of moshjit/Numba;
- speed of the four list-based BERT helpers (imported from ``benchmarks/bert/pipeline.py``) on realistic sizes,
  vs CPython and Numba (reflected lists);
- first-call compile time per function (the first function including imports is timed in a new process),
  against Numba's first call;
- call overhead of a trivial jitted function (dispatcher, raw native entry, plain Python, Numba);
- a new process loading 15 cached functions, against Numba loading its cache (``cache=True``);
- what ints beyond 64 bits cost: a call deoptimising every time, demoted, and the first deoptimisation of
  cached code in a new process, against CPython.
Times are the best of several repetitions (the kernels table in CPU time, the rest wall clock); the machine's load
average is printed with them.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import timeit
from benchmarks.steady_state import compile_at_first_call

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def best_of(function, args, repeat: int) -> float:
    """Fastest of ``repeat`` calls in the process's CPU time: other work sharing the machine preempts a long
    CPython run far more often than a sub-millisecond native one, so wall-clock ratios grow with the load."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        function(*args)
        times.append(time.process_time() - start)
    return min(times)


def per_call(function, args, number: int) -> float:
    return min(timeit.repeat(lambda: function(*args), number=number, repeat=5)) / number


def geomean(values) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values))


def numba_version(function, helpers=()):
    """Numba's @njit of ``function``, its module's ``helpers`` jitted too (Numba needs that for calls)."""
    import numba
    module = sys.modules[function.__module__]
    for name in helpers:
        setattr(module, name, numba.njit(getattr(module, name)))
    return numba.njit(function)


def restore(module, helpers, originals):
    for name in helpers:
        setattr(module, name, originals[name])


def kernels_table(quick: bool):
    import moshjit
    from benchmarks.kernels import kernels
    helpers = {"nqueens": ("queens",), "spectral_norm": ("eval_a",)}
    print("\n== numeric kernels: CPU time (best of 3), ratios measured in this run ==")
    print(f"{'kernel':15s} {'CPython':>10s} {'moshjit':>10s} {'Numba':>10s}  {'vs CPython':>10s} {'vs Numba':>9s}")
    ratios = []
    for kernel, args in kernels.CASES:
        jitted = moshjit.jit(kernel, backend="llvm")
        expected = kernel(*args) if not quick else None
        result = jitted(*args)
        names = helpers.get(kernel.__name__, ())
        originals = {n: getattr(kernels, n) for n in names}
        nb = numba_version(kernel, names)
        nb(*args)
        t_mosh = best_of(jitted, args, 3)
        t_numba = best_of(nb, args, 3)
        restore(kernels, names, originals)
        t_py = best_of(kernel, args, 3)
        if expected is not None:
            assert result == expected, (kernel.__name__, result, expected)
        ratios.append(t_numba / t_mosh)
        print(f"{kernel.__name__:15s} {t_py * 1e3:8.2f}ms {t_mosh * 1e3:8.3f}ms {t_numba * 1e3:8.3f}ms  "
              f"{t_py / t_mosh:9.1f}x {t_numba / t_mosh:8.2f}x")
    print(f"geometric mean speed moshjit/Numba: {geomean(ratios):.2f}  (>= 1.0: moshjit at least as fast)")


def bert_table():
    import moshjit
    from benchmarks.bert import pipeline
    rng = random.Random(7)
    ids_a = [rng.randrange(1000, 30000) for _ in range(100)]
    ids_b = [rng.randrange(1000, 30000) for _ in range(80)]
    cases = [(pipeline.pad, (ids_a, 128, 0)), (pipeline.truncate_pair, (ids_a, ids_b, 126)),
             (pipeline.build_attention_mask, (100, 128)), (pipeline.build_token_type_ids, (60, 68))]
    print("\n== BERT numeric helpers (lists of ints in and out, 128 tokens): time per call ==")
    print(f"{'helper':22s} {'CPython':>9s} {'moshjit':>9s} {'Numba':>9s}  {'moshjit vs CPython':>18s} "
          f"{'Numba vs CPython':>16s}")
    ratios = []
    import numba
    for helper, args in cases:
        jitted = moshjit.jit(helper, backend="llvm")
        assert jitted(*args) == helper(*args)
        nb = numba.njit(helper)
        try:
            nb(*args)
            t_numba = per_call(nb, args, 2000)
        except Exception as exc:           # Numba refuses some list code: report it
            t_numba = None
            print(f"  (Numba: {type(exc).__name__})")
        t_py = per_call(helper, args, 20000)
        t_mosh = per_call(jitted, args, 20000)
        ratios.append(t_py / t_mosh)
        numba_text = f"{t_numba * 1e9:7.0f}ns" if t_numba else "   failed"
        numba_ratio = f"{t_py / t_numba:15.2f}x" if t_numba else "              -"
        print(f"{helper.__name__:22s} {t_py * 1e9:7.0f}ns {t_mosh * 1e9:7.0f}ns {numba_text}  {t_py / t_mosh:17.2f}x "
              f"{numba_ratio}")
    print(f"geometric mean speed-up over CPython: {geomean(ratios):.2f}x (target >= 5x)")


FIRST_FUNCTION = textwrap.dedent("""
    import time
    start = time.perf_counter()
    import moshjit
    def first(n):
        total = 0
        for i in range(n):
            total += i * {salt}
        return total
    f = moshjit.jit(first, backend="llvm")
    f(10)
    print(time.perf_counter() - start)
""")
NUMBA_FIRST = textwrap.dedent("""
    import time
    start = time.perf_counter()
    import numba
    @numba.njit
    def first(n):
        total = 0
        for i in range(n):
            total += i * {salt}
        return total
    first(10)
    print(time.perf_counter() - start)
""")


def run_python(code: str, env=None) -> float:
    """Run ``code`` in a new interpreter and return the last number it prints. Bytecode caching is on, as on a
    user's machine (PYTHONDONTWRITEBYTECODE, set in some sandboxes, would recompile every imported module of
    moshjit and of Numba in every process)."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env=dict(environment, **(env or {})), timeout=600)
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    return float(done.stdout.strip().splitlines()[-1])


def compile_table():
    import moshjit
    from benchmarks.bert import pipeline
    from benchmarks.kernels import kernels
    salt = random.randrange(10 ** 9)
    print("\n== first-call compile time (cold cache entries, wall clock) ==")
    t_first = run_python(FIRST_FUNCTION.format(salt=salt))
    t_numba_first = run_python(NUMBA_FIRST.format(salt=salt))
    print(f"first function in a new process, imports included: moshjit {t_first * 1e3:.0f} ms, "
          f"Numba {t_numba_first * 1e3:.0f} ms (target <= 150 ms)")
    functions = [(pipeline.pad, ([1, 2], 5, 0)), (pipeline.truncate_pair, ([1, 2], [3], 2)),
                 (pipeline.build_attention_mask, (2, 4)), (pipeline.build_token_type_ids, (2, 3))]
    functions += [(kernel, args) for kernel, args in kernels.CASES]
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        os.environ["MOSHJIT_CACHE_DIR"] = cache
        for function, args in functions:
            small = _small_args(function, args)
            jitted = moshjit.jit(function, backend="llvm", cache=True)
            start, cpu = time.perf_counter(), time.process_time()
            jitted(*small)
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
            stats = list(jitted.stats.values())[0]
            rows.append((function.__name__, elapsed, cpu + stats.get("link_s", 0), stats))
        del os.environ["MOSHJIT_CACHE_DIR"]
    print(f"{'function':22s} {'wall':>7s} {'CPU':>7s}  (wall: frontend / lowering / LLVM optimise / codegen / link, ms)")
    for name, elapsed, cpu, stats in rows:
        parts = " / ".join(f"{stats.get(k, 0) * 1e3:.0f}" for k in ("frontend_s", "lower_s", "optimise_s",
                                                                    "codegen_s", "link_s"))
        print(f"{name:22s} {elapsed * 1e3:5.0f}ms {cpu * 1e3:5.0f}ms  ({parts})")
    print(f"median first-call compile: {statistics.median(r[1] for r in rows) * 1e3:.0f} ms wall, "
          f"{statistics.median(r[2] for r in rows) * 1e3:.0f} ms CPU (+ link wall) "
          f"(target <= 40 ms per function after the first)")


def _small_args(function, args):
    small = {"nbody": (1, 3), "spectral_norm": (5,), "fannkuch": (5,), "sieve": (100,), "mandelbrot": (5, 5),
             "collatz": (10,), "nqueens": (4,), "integrate": (10,)}
    return small.get(function.__name__, args)


def overhead_table():
    import numba

    import moshjit

    def trivial(x):
        return x

    jitted = moshjit.jit(trivial, backend="llvm")
    jitted(1)
    entry = jitted._entries[("int64",)]
    nb = numba.njit(trivial)
    nb(1)
    loop = min(timeit.repeat("pass", number=2_000_000, repeat=7)) / 2_000_000
    print("\n== call overhead of a trivial function (f(1), loop overhead subtracted) ==")
    for name, function in (("moshjit dispatcher", jitted), ("native entry itself", entry),
                           ("plain Python function", trivial), ("Numba dispatcher", nb)):
        t = min(timeit.repeat("f(1)", globals={"f": function}, number=2_000_000, repeat=7)) / 2_000_000 - loop
        print(f"{name:24s} {t * 1e9:6.0f} ns")
    print("(target <= 60 ns for the moshjit dispatcher)")


LOAD_15 = textwrap.dedent("""
    import time
    start = time.perf_counter()
    import moshjit
    from benchmarks.kernels import kernels
    from benchmarks.bert import pipeline
    from tests.llvm import samples
    functions = [(k, a) for k, a in [(kernels.sieve, (10,)), (kernels.collatz, (5,)), (kernels.integrate, (5,)),
                 (kernels.mandelbrot, (3, 3)), (kernels.fannkuch, (4,)), (kernels.spectral_norm, (3,)),
                 (kernels.nbody, (1, 2)), (kernels.nqueens, (4,))]]
    functions += [(pipeline.pad, ([1], 3, 0)), (pipeline.truncate_pair, ([1], [2], 1)),
                  (pipeline.build_attention_mask, (1, 2)), (pipeline.build_token_type_ids, (1, 1)),
                  (samples.fib, (5,)), (samples.c_loops, (5,)), (samples.i_add, (1, 2))]
    for function, args in functions:
        moshjit.jit(function, backend="llvm")(*args)
    print(time.perf_counter() - start)
""")
NUMBA_LOAD = textwrap.dedent("""
    import time
    start = time.perf_counter()
    import numba
    from benchmarks.kernels import kernels
    for name, args in [("sieve", (10,)), ("collatz", (5,)), ("integrate", (5,)), ("mandelbrot", (3, 3)),
                       ("fannkuch", (4,)), ("nbody", (1, 2))]:
        numba.njit(cache=True)(getattr(kernels, name))(*args)
    print(time.perf_counter() - start)
""")
# (Numba 0.68 crashes loading cached functions that call other cached jitted functions, so only the
# self-contained kernels are loaded on its side.)


LOAD_15_INDEX_FIRST = LOAD_15.replace("""for function, args in functions:
    moshjit.jit(function, backend="llvm")(*args)""", """import functools
from moshjit.compiler import load_cached
from moshjit.dispatcher import _cache
from moshjit.typeof import key_of
for function, args in functions:
    artifact = load_cached(function, tuple(map(key_of, args)), "llvm", _cache(), functools.partial(function))
    artifact.entry(*args)""")
assert LOAD_15_INDEX_FIRST != LOAD_15


def cache_table():
    print("\n== a new process loading cached functions (imports included, interpreter start excluded) ==")
    with tempfile.TemporaryDirectory() as cache:
        env = {"MOSHJIT_CACHE_DIR": cache, "MOSHJIT_PURE_DISPATCH": "1"}
        run_python(LOAD_15, env)                          # compiles and fills the cache
        t_load = min(run_python(LOAD_15, env) for _ in range(3))
        t_index = min(run_python(LOAD_15_INDEX_FIRST, env) for _ in range(3))
        numba_env = {"NUMBA_CACHE_DIR": cache}
        run_python(NUMBA_LOAD, numba_env)
        t_numba = min(run_python(NUMBA_LOAD, numba_env) for _ in range(3))
    print(f"moshjit, 15 cached functions through @jit: {t_load * 1e3:.0f} ms (target <= 50 ms)")
    print(f"moshjit, 15 cached functions, index asked first (moshjit.compiler.load_cached): "
          f"{t_index * 1e3:.0f} ms")
    print(f"Numba, 6 cached functions: {t_numba * 1e3:.0f} ms")


DEOPT_FIRST = textwrap.dedent("""
    import time
    import moshjit
    from benchmarks.kernels import kernels
    fact = moshjit.jit(kernels.factorial)
    fact(10)
    start = time.perf_counter()
    fact(30)
    print(time.perf_counter() - start)
""")


def deopt_table():
    """What an int beyond 64 bits costs: a call that deoptimises every time (the continuation runs in the SSA
    interpreter), the same key once demoted to the generic specialisation, and the first deoptimisation in a new
    process (the typed SSA is rebuilt), against CPython."""
    import moshjit
    from benchmarks.kernels import kernels
    print("\n== deoptimisation: ints beyond 64 bits (per call; CPython measured in the same run) ==")
    print(f"{'call':26s} {'CPython':>9s} {'native, deoptimising':>21s} {'demoted (generic)':>18s}")
    cases = (("factorial(25)", (25,)), ("factorial(60)", (60,)))
    os.environ["MOSHJIT_DEOPT_BUDGET"] = "1e9"                 # stay native: every call deoptimises
    native = moshjit.jit(kernels.factorial, backend="llvm")
    t_native = [per_call(native, args, 200) for _, args in cases]
    os.environ["MOSHJIT_DEOPT_BUDGET"] = "0"                   # demoted at the first deoptimisation (the shared
    demoted = moshjit.jit(kernels.factorial)                    # object is the same: measured native first)
    demoted(*cases[0][1])
    assert list(demoted.stats.values())[0].get("demoted"), demoted.stats
    del os.environ["MOSHJIT_DEOPT_BUDGET"]
    for (label, args), t_deopt in zip(cases, t_native):
        assert native(*args) == demoted(*args) == kernels.factorial(*args)
        t_demoted, t_py = per_call(demoted, args, 2000), per_call(kernels.factorial, args, 2000)
        print(f"{label:26s} {t_py * 1e6:7.2f}µs {t_deopt * 1e6:19.2f}µs {t_demoted * 1e6:16.2f}µs")
    with tempfile.TemporaryDirectory() as cache:
        env = {"MOSHJIT_CACHE_DIR": cache}
        run_python(DEOPT_FIRST, env)                            # compiles and fills the cache
        t_first = min(run_python(DEOPT_FIRST, env) for _ in range(3))
    print(f"first deoptimisation in a new process (cached code, the SSA rebuilt): {t_first * 1e3:.0f} ms")


def main():
    compile_at_first_call()              # steady-state speed: see benchmarks/steady_state.py
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="skip the CPython result check of the kernels")
    options = parser.parse_args()
    sys.path.insert(0, ROOT)
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; Python {sys.version.split()[0]}")
    kernels_table(options.quick)
    bert_table()
    overhead_table()
    compile_table()
    cache_table()
    deopt_table()


if __name__ == "__main__":
    main()

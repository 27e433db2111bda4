"""Class-heavy and object-heavy public programs under ``@jit``, measured side by side with CPython and Numba.

    python -m benchmarks.general.run [--rounds 5] [--only richards,float] [--no-numba] [--warm] [--per-method] [-v]

Each program of ``programs/`` (pyperformance 1.14.0, MIT, copied unchanged but for the pyperf runner's
command-line glue) is loaded once per engine: plain (CPython), with moshjit's ``@jit`` applied as a user would —
``jit(cls)`` on every class and ``jit(fn)`` on every function the program defines (``auto`` backend, default
options except ``fallback=True``, so that a refused function runs as plain Python and is reported instead of
stopping the program) — and with Numba's ``@njit`` on the same functions and methods. The run that compiles is
timed apart ("first run"); then the engines run in turn, round after round, each round's result and standard
output compared with CPython's, and the median times give the ratios. A program "compiles strictly" when no
function it called fell back.

The cache starts empty (a fresh ``MOSHJIT_CACHE_DIR``) so the first run includes compiling; ``--warm`` keeps the
cache directory of the environment instead.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import math
import os
import statistics
import sys
import tempfile
import time
import types
import warnings
from benchmarks.steady_state import compile_at_first_call

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")


def ensure_pyperf() -> None:
    """The programs ``import pyperf`` for their timing helpers; without pyperf installed they get its clock."""
    try:
        import pyperf  # noqa: F401
    except ImportError:
        sys.modules["pyperf"] = types.SimpleNamespace(perf_counter=time.perf_counter)


def load(name: str, engine: str) -> types.ModuleType:
    """A fresh copy of ``programs/bm_<name>.py`` as its own module (its state is private to one engine)."""
    module_name = f"benchmarks.general.programs.bm_{name}_{engine}"
    spec = importlib.util.spec_from_file_location(module_name, os.path.join(PROGRAMS, f"bm_{name}.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def defined_here(module, value) -> bool:
    return getattr(value, "__module__", None) == module.__name__


def apply_everywhere(module, decorate_function, decorate_class=None) -> dict:
    """Decorate every function and every class (or, without ``decorate_class``, every plain method of it) that
    ``module`` defines; returns {qualified name: the decorated function} for the report."""
    decorated = {}
    for name, value in list(vars(module).items()):
        if isinstance(value, types.FunctionType) and defined_here(module, value):
            decorated[value.__qualname__] = decorate_function(value)
            setattr(module, name, decorated[value.__qualname__])
        elif isinstance(value, type) and defined_here(module, value):
            if decorate_class is not None:
                setattr(module, name, decorate_class(value))
            for attribute, member in list(vars(value).items()):
                if decorate_class is None and isinstance(member, types.FunctionType) and defined_here(module, member):
                    setattr(value, attribute, decorate_function(member))
                    member = vars(value)[attribute]
                for function in (member, getattr(member, "__func__", None), getattr(member, "fget", None),
                                 getattr(member, "fset", None)):
                    if hasattr(function, "py_func"):
                        decorated[function.py_func.__qualname__] = function
    return decorated


def moshjit_engine(name: str, per_method: bool = False):
    import moshjit
    module = load(name, "moshjit")
    jit = moshjit.jit

    def decorate(function_or_class):
        return jit(function_or_class, fallback=True)

    return module, apply_everywhere(module, decorate, None if per_method else decorate)


def numba_engine(name: str):
    import numba
    module = load(name, "numba")
    return module, apply_everywhere(module, numba.njit)


def run_once(workload, module):
    """(seconds, (result, standard output)) of one run."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        start = time.perf_counter()
        result = workload.run(module)
        seconds = time.perf_counter() - start
    return seconds, (result, out.getvalue())


def function_report(decorated: dict) -> tuple[dict, list[str]]:
    """Counts of compiled / fell back / not called functions, and one line per fallback with its reason."""
    counts = {"cython": 0, "llvm": 0, "fell back": 0, "not called": 0}
    fallbacks = []
    for qualname, dispatcher in decorated.items():
        failed = getattr(dispatcher, "_failed", {})
        artifacts = getattr(dispatcher, "_artifacts", {})
        if failed:
            counts["fell back"] += 1
            reason = str(next(iter(failed.values()))).splitlines()[0]
            fallbacks.append(f"    {qualname}: {reason}")
        elif artifacts:
            for backend in {a.backend for a in artifacts.values()}:
                counts[backend] = counts.get(backend, 0) + 1
        else:
            counts["not called"] += 1
    return counts, fallbacks


def geomean(values) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values)) if values else float("nan")


def main() -> None:
    compile_at_first_call()              # steady-state speed: see benchmarks/steady_state.py
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default="", help="comma-separated program names")
    parser.add_argument("--no-numba", action="store_true")
    parser.add_argument("--warm", action="store_true", help="keep $MOSHJIT_CACHE_DIR (default: an empty cache)")
    parser.add_argument("--per-method", action="store_true",
                        help="jit each method instead of each class (the only way before jit(cls) existed)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every function's fallback reason")
    options = parser.parse_args()
    if not options.warm:
        os.environ["MOSHJIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="moshjit-general-")
    sys.path.insert(0, ROOT)
    ensure_pyperf()
    from benchmarks.general.workloads import WORKLOADS
    only = set(filter(None, options.only.split(",")))
    use_numba = not options.no_numba
    if use_numba:
        try:
            import numba  # noqa: F401
        except ImportError:
            use_numba = False

    print(f"median of {options.rounds} interleaved rounds; ratios = CPython time / engine time (higher is faster); "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'program':<14}{'CPython s':>10}{'moshjit':>9}{'Numba':>9}{'strict':>8}{'first run s':>12}  functions")
    ratios, details = [], []
    for workload in WORKLOADS:
        if only and workload.name not in only:
            continue
        engines = {"cpython": (load(workload.source, "cpython"), {})}
        engines["moshjit"] = moshjit_engine(workload.source, options.per_method)
        if use_numba:
            engines["numba"] = numba_engine(workload.source)
        times = {engine: [] for engine in engines}
        first, broken, expected = {}, {}, None
        for engine, (module, _) in engines.items():
            try:
                if workload.setup:
                    workload.setup(module)
            except Exception as exc:
                broken[engine] = f"{type(exc).__name__} in setup"
        for round_ in range(options.rounds + 1):
            for engine, (module, _) in list(engines.items()):
                if engine in broken:
                    continue
                try:
                    seconds, output = run_once(workload, module)
                except Exception as exc:
                    broken[engine] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:150]
                    continue
                if engine == "cpython":
                    expected = output
                elif output != expected:
                    broken[engine] = f"output differs from CPython's in round {round_}"
                    continue
                if round_ == 0:
                    first[engine] = seconds
                else:
                    times[engine].append(seconds)
        base = statistics.median(times["cpython"])
        cells = {}
        for engine in ("moshjit", "numba"):
            if engine not in engines:
                cells[engine] = "—"
            elif engine in broken:
                cells[engine] = "fails"
            else:
                cells[engine] = f"{base / statistics.median(times[engine]):.2f}x"
        counts, fallbacks = function_report(engines["moshjit"][1])
        strict = "moshjit" not in broken and counts["fell back"] == 0
        if "moshjit" not in broken:
            ratios.append(base / statistics.median(times["moshjit"]))
        summary = ", ".join(f"{n} {what}" for what, n in counts.items() if n)
        first_run = f"{first['moshjit']:.2f}" if "moshjit" in first else "—"
        print(f"{workload.name:<14}{base:>10.3f}{cells['moshjit']:>9}{cells['numba']:>9}"
              f"{'yes' if strict else 'no':>8}{first_run:>12}  {summary}", flush=True)
        for engine, why in broken.items():
            details.append(f"  {workload.name} / {engine}: {why}")
        if fallbacks:
            details.append(f"  {workload.name}: {len(fallbacks)} function(s) fell back")
            details.extend(fallbacks if options.verbose else fallbacks[:3])
            if len(fallbacks) > 3 and not options.verbose:
                details.append(f"    … ({len(fallbacks) - 3} more; -v lists them)")
    print(f"geometric mean moshjit vs CPython: {geomean(ratios):.2f}x over {len(ratios)} programs; "
          f"slowest {min(ratios):.2f}x" if ratios else "no program ran under moshjit")
    if details:
        print("details:")
        print("\n".join(details))


if __name__ == "__main__":
    main()

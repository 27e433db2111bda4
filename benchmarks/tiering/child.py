"""Run one program of ``benchmarks/general/programs`` once, as plain CPython or with ``@jit`` on every def.

``python -m benchmarks.tiering.child PROGRAM ENGINE [SCALE]`` — ENGINE is ``cpython`` or ``jit``; ``jit`` wraps
every function defined at the top level of the program and every plain method of its classes with
``moshjit.jit(...)`` (options from ``MOSHJIT_BENCH_JIT_OPTIONS``, a Python dict literal; default: none, the
configuration a user gets), exactly as if each carried ``@jit``. Prints one JSON line: the program's own
run time and its result's repr (so the parent can check the engines agree).
"""
from __future__ import annotations

import ast
import importlib.util
import json
import os
import sys
import time
import types

PROGRAMS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "general", "programs")


class StubRunner:
    """What the programs' own functions use of ``pyperf.Runner``: run the benchmark function once."""

    def __init__(self, *args, **kwargs):
        self.metadata = {}
        self.result = None

    def bench_func(self, name, function, *args):
        self.result = function(*args)

    def bench_time_func(self, name, function, *args):
        self.result = function(1, *args)


def install_pyperf_stub() -> None:
    """The programs import ``pyperf`` for ``perf_counter`` (and chaos's ``main`` for a runner)."""
    sys.modules["pyperf"] = types.SimpleNamespace(perf_counter=time.perf_counter, Runner=StubRunner)


def load_program(name: str):
    install_pyperf_stub()
    spec = importlib.util.spec_from_file_location(name, os.path.join(PROGRAMS_DIR, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def jit_every_def(module, options: dict) -> int:
    """Replace every function and plain method defined in ``module`` by its ``@jit`` version; how many."""
    import moshjit
    count = 0
    for name, value in list(vars(module).items()):
        if isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
            setattr(module, name, moshjit.jit(value, **options))
            count += 1
        elif isinstance(value, type) and value.__module__ == module.__name__:
            for attr, member in list(vars(value).items()):
                if isinstance(member, types.FunctionType) and member.__module__ == module.__name__:
                    setattr(value, attr, moshjit.jit(member, **options))
                    count += 1
    return count


# What each program runs, sized so plain CPython takes 2 s or more on this machine (SCALE multiplies the size).
ENTRIES = {
    "bm_raytrace": lambda m, s: m.bench_raytrace(1, int(200 * s), int(200 * s), None) and None,   # returns a time
    "bm_richards": lambda m, s: m.Richards().run(int(25 * s)),
    "bm_nbody": lambda m, s: m.bench_nbody(1, "sun", int(300_000 * s)) and m.report_energy(),
    "bm_chaos": lambda m, s: chaos(m, s),
    "bm_float": lambda m, s: [m.benchmark(100_000) for _ in range(int(14 * s))][-1].x,
    "bm_spectral_norm": lambda m, s: [m.bench_spectral_norm(1) for _ in range(int(14 * s))] and None,
    "bm_fannkuch": lambda m, s: [m.fannkuch(9) for _ in range(int(3 * s))][-1],
    "bm_nqueens": lambda m, s: [m.bench_n_queens(8) for _ in range(int(14 * s))] and None,
}


def chaos(module, scale):
    runner = StubRunner()
    args = types.SimpleNamespace(thickness=0.25, width=256, height=256, iterations=int(90_000 * scale),
                                 filename=None, rng_seed=1234)
    module.main(runner, args)
    return runner.result


def main(argv) -> None:
    name, engine = argv[0], argv[1]
    scale = float(argv[2]) if len(argv) > 2 else 1.0
    module = load_program(name)
    jitted = 0
    if engine == "jit":
        options = ast.literal_eval(os.environ.get("MOSHJIT_BENCH_JIT_OPTIONS", "{}"))
        jitted = jit_every_def(module, options)
    start = time.perf_counter()
    result = ENTRIES[name](module, scale)
    run_s = time.perf_counter() - start
    print(json.dumps({"run_s": run_s, "result": repr(result)[:200], "jitted": jitted}))


if __name__ == "__main__":
    main(sys.argv[1:])

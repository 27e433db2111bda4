"""Cold start: whole programs with ``@jit`` on every def, end to end in a fresh process, against plain CPython.

``python -m benchmarks.tiering.cold_start [--programs bm_richards,...] [--engines cpython,tiered,eager,warm]``

Each row runs the program (``benchmarks/general/programs``, pyperformance 1.14.0, sized to take 2 s or more in
CPython) in a new process per engine, one engine after the other, and times the process's wall clock (start-up,
imports, compiling and the program: what a user waits for):

- ``cpython``: the plain program;
- ``tiered``: ``@jit`` on every def, the default configuration, with an empty cache (``MOSHJIT_CACHE_DIR`` is a
  new temporary directory; moshjit's per-machine runtime modules are prebuilt by the install, so they are not
  part of the time);
- ``eager``: the same with ``MOSHJIT_TIER=eager`` (every signature compiles at its first call: moshjit before
  issue 15);
- ``warm``: ``@jit`` again, in a second process whose cache the ``eager`` run filled (everything it compiled is
  loaded from the cache at its first call).

Engines for measuring the design (not run by default): ``interpreted`` (``@jit`` tiered with thresholds nothing
reaches: every call stays in tier 0 behind its counting entry — the cost of the call path plus tier 0,
nothing compiled) and ``thread`` (tiered with ``MOSHJIT_BUILD_WORKER=0``:
Cython and gcc run on the compile thread inside the program's process instead of the worker process).

Every child reads moshjit's modules, the benchmark's and the program's from ``.pyc`` files, as after a ``pip
install`` (which compiles them): the files are written once, before the first row, into a temporary
``PYTHONPYCACHEPREFIX`` directory the children share, since this machine's environment sets
``PYTHONDONTWRITEBYTECODE`` and the editable install has none (each child would otherwise compile moshjit from
source, ~60 ms of a first call; benchmarks.md §12.12). ``--no-pyc`` keeps the environment as it is.

Results are checked equal to CPython's (where the program returns one). Machine load is printed: other work
shares the 2 cores, so each cell also gives the CPU time of the process and everything it waited for (the build
worker, gcc): under load, wall time is mostly waiting for a core.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

from benchmarks.tiering.child import ENTRIES

ENGINES = ("cpython", "tiered", "eager", "warm")
EXTRA_ENV = {"eager": {"MOSHJIT_TIER": "eager"}, "thread": {"MOSHJIT_BUILD_WORKER": "0"},
             "interpreted": {"MOSHJIT_HOT_CALLS": "1e15", "MOSHJIT_HOT_MS": "1e15"}}


def run_child(program: str, engine: str, cache_dir: str, scale: float, timeout: float) -> dict:
    env = dict(os.environ, MOSHJIT_CACHE_DIR=cache_dir, **CHILD_ENV)
    for name in ("MOSHJIT_TIER", "MOSHJIT_BUILD_WORKER", "MOSHJIT_HOT_CALLS", "MOSHJIT_HOT_MS"):
        env.pop(name, None)
    env.update(EXTRA_ENV.get(engine, {}))
    mode = "cpython" if engine == "cpython" else "jit"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "-m", "benchmarks.tiering.child", program, mode, str(scale)],
                              capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"wall_s": None, "error": f"timed out after {timeout:.0f} s"}
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return {"wall_s": None, "error": last[:160]}
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["wall_s"], out["cpu_s"] = wall, cpu
    return out


def measure(program: str, engines, scale: float, timeout: float) -> dict:
    row = {}
    scratch = tempfile.mkdtemp(prefix="moshjit-coldstart-")
    try:
        for engine in engines:
            cache = os.path.join(scratch, "eager" if engine in ("eager", "warm") else engine)
            os.makedirs(cache, mode=0o700, exist_ok=True)
            row[engine] = run_child(program, engine, cache, scale, timeout)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return row


def cell(row: dict, engine: str) -> str:
    result = row.get(engine)
    if result is None:
        return "—"
    if result["wall_s"] is None:
        return f"failed: {result['error']}"
    base = row["cpython"]["wall_s"] if row.get("cpython", {}).get("wall_s") else None
    text = f"{result['wall_s']:.2f} s"
    if base and engine != "cpython":
        text += f" ({result['wall_s'] / base:.2f}×)"
    text += f", CPU {result['cpu_s']:.2f} s"
    if base and engine != "cpython":
        text += f" ({result['cpu_s'] / row['cpython']['cpu_s']:.2f}×)"
        if result.get("result") != row["cpython"].get("result"):
            text += " RESULT DIFFERS"
    return text


CHILD_ENV: dict = {}                    # set by ``precompiled``: what every child gets on top of os.environ


def precompiled(prefix: str) -> str:
    """Write the ``.pyc`` of moshjit, the benchmarks and the programs under ``prefix`` and have the children read
    them from there (``PYTHONPYCACHEPREFIX``); the description for the header line."""
    import compileall
    import moshjit
    roots = [os.path.dirname(moshjit.__file__), os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    previous, sys.pycache_prefix = sys.pycache_prefix, prefix
    try:
        for root in roots:
            compileall.compile_dir(root, quiet=1)
    finally:
        sys.pycache_prefix = previous
    CHILD_ENV["PYTHONPYCACHEPREFIX"] = prefix
    return ".pyc of moshjit, the benchmarks and the programs precompiled (as a pip install does)"


def bytecode_cache() -> str:
    """Whether the children read moshjit's modules from ``.pyc`` files: with ``PYTHONDONTWRITEBYTECODE`` and no
    ``.pyc`` (an editable install), every process compiles them from source, some of it on the compile thread
    holding the GIL (benchmarks.md §12.12), which an installed wheel does not."""
    if sys.pycache_prefix:
        return f".pyc under {sys.pycache_prefix}"
    return ".pyc writing off (PYTHONDONTWRITEBYTECODE)" if sys.dont_write_bytecode else ".pyc on"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", default=",".join(ENTRIES))
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--no-pyc", action="store_true", help="children compile moshjit from source if the "
                        "environment says so (PYTHONDONTWRITEBYTECODE), as an editable install without .pyc does")
    args = parser.parse_args(argv)
    engines = args.engines.split(",")
    pyc_dir = None if args.no_pyc else tempfile.mkdtemp(prefix="moshjit-coldstart-pyc-")
    try:
        bytecode = bytecode_cache() if pyc_dir is None else precompiled(pyc_dir)
        run_table(args, engines, bytecode)
    finally:
        if pyc_dir is not None:
            shutil.rmtree(pyc_dir, ignore_errors=True)


def run_table(args, engines, bytecode: str) -> None:
    print(f"# cold start, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
          f"{os.getloadavg()[0]:.1f} (2 cores), Python {sys.version.split()[0]}, {bytecode}")
    print("| program | " + " | ".join(engines) + " |")
    print("|---|" + "---:|" * len(engines))
    ratios = {engine: [] for engine in engines}
    cpu_ratios = {engine: [] for engine in engines}
    for program in args.programs.split(","):
        row = measure(program, engines, args.scale, args.timeout)
        print(f"| {program} | " + " | ".join(cell(row, e) for e in engines) + " |", flush=True)
        for engine in engines:
            if row[engine]["wall_s"] and row.get("cpython", {}).get("wall_s"):
                ratios[engine].append(row[engine]["wall_s"] / row["cpython"]["wall_s"])
                cpu_ratios[engine].append(row[engine]["cpu_s"] / row["cpython"]["cpu_s"])
    for label, table in (("wall", ratios), ("CPU", cpu_ratios)):
        medians = {e: sorted(r)[len(r) // 2] for e, r in table.items() if r and e != "cpython"}
        print(f"median × CPython ({label}): " + ", ".join(f"{e} {m:.2f}×" for e, m in medians.items()))
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

"""Which functions of public benchmark programs moshjit's frontend compiles with ``strict=True``.

For each program (pyperformance's ``bm_*/run_benchmark.py``, MIT licence, read from where pyperformance is
unpacked; nothing is copied here), every module-level function and every method of a module-level class is put
through ``moshjit.to_ssa`` — the step that raises ``UnsupportedError`` for a construct moshjit refuses — and the
refusals are counted by construct. Run it on two checkouts to see what a change made compile:

    python -m benchmarks.coverage.compile_coverage [--root DIR] [--programs richards,go,...] [--verbose]

Programs are imported with a stand-in for ``pyperf`` (only its name is needed at import; nothing is timed), and
their ``__main__`` blocks do not run.
"""
from __future__ import annotations

import argparse
import collections
import importlib.util
import inspect
import sys
import types
from pathlib import Path

import moshjit

DEFAULT_ROOT = "/tmp/mj/pyperf/pyperformance/data-files/benchmarks"
# The CPU-bound programs of the issue (object-heavy and numeric), plus a few that use generators and closures.
DEFAULT_PROGRAMS = ("richards", "raytrace", "deltablue", "go", "hexiom", "nbody", "float", "chaos", "fannkuch",
                    "spectral_norm", "nqueens", "unpack_sequence", "generators", "coroutines", "comprehensions",
                    "meteor_contest", "pyflate", "scimark", "richards_super", "deepcopy", "pidigits")


def _fake_pyperf() -> types.ModuleType:
    module = types.ModuleType("pyperf")
    module.perf_counter = lambda: 0.0
    module.Runner = object
    return module


def load_program(path: Path) -> types.ModuleType:
    sys.modules.setdefault("pyperf", _fake_pyperf())
    name = "mj_coverage_" + path.parent.name
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def functions_of(module: types.ModuleType):
    """(qualified name, function) for the module's own functions and its classes' methods."""
    for name, value in vars(module).items():
        if inspect.isfunction(value) and value.__module__ == module.__name__:
            yield name, value
        elif inspect.isclass(value) and value.__module__ == module.__name__:
            for attr, member in vars(value).items():
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if inspect.isfunction(member):
                    yield f"{name}.{attr}", member


def check(fn) -> str | None:
    """None when the frontend compiles ``fn``; else the construct it refuses."""
    try:
        moshjit.to_ssa(fn)
    except moshjit.UnsupportedError as exc:
        return exc.construct
    return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=DEFAULT_ROOT)
    parser.add_argument("--programs", default=",".join(DEFAULT_PROGRAMS))
    parser.add_argument("--verbose", action="store_true", help="list every refused function")
    options = parser.parse_args(argv)
    totals = collections.Counter()
    reasons = collections.Counter()
    print(f"{'program':18} {'functions':>9} {'compile':>8}  refused")
    for program in options.programs.split(","):
        path = Path(options.root) / f"bm_{program}" / "run_benchmark.py"
        if not path.exists():
            print(f"{program:18} (not found at {path})")
            continue
        try:
            module = load_program(path)
        except Exception as exc:                   # a program needing a package this machine lacks
            print(f"{program:18} (cannot import: {type(exc).__name__}: {exc})")
            continue
        found = list(functions_of(module))
        refused = [(name, check(fn)) for name, fn in found]
        refused = [(name, why) for name, why in refused if why is not None]
        totals["functions"] += len(found)
        totals["compiled"] += len(found) - len(refused)
        totals["programs"] += 1
        totals["all compile"] += not refused
        reasons.update(why for _, why in refused)
        summary = "; ".join(sorted({why for _, why in refused})) or "-"
        print(f"{program:18} {len(found):9} {len(found) - len(refused):8}  {summary}")
        if options.verbose:
            for name, why in refused:
                print(f"    {name}: {why}")
    print(f"\n{totals['compiled']} of {totals['functions']} functions compile; {totals['all compile']} of "
          f"{totals['programs']} programs compile entirely (Python {sys.version.split()[0]})")
    for why, count in reasons.most_common():
        print(f"  {count:4}  {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

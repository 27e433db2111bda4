"""The cache never serves native code compiled against an old dependency. Each case compiles in one process, a
dependency changes (a default, a keyword-only default, a helper reached as a module attribute, an imported jitted
helper, a helper behind a closure cell, a helper's helper), and a new process must compute CPython's new answer;
an unchanged third process loads every entry from the cache (the key is not just always different)."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from moshjit.cache import function_fingerprint, uncovered

MAIN = '''
from moshjit import jit
import othermod
from jitted import jhelper


def scaled(x, k={k}):
    return x * k


def shifted(x, *, j={j}):
    return x + j


def outer(x):
    return inner(x) + 1


def inner(x, k={k}):
    return x - k


def make(helper):
    @jit(backend="{backend}")
    def closure(x):
        return helper(x) + 1
    return closure


@jit(backend="{backend}")
def default_(x):
    return scaled(x)


@jit(backend="{backend}")
def kwonly_default(x):
    return shifted(x)


@jit(backend="{backend}")
def module_attribute(x):
    return othermod.helper(x)


@jit(backend="{backend}")
def imported_jitted(x):
    return jhelper(x)


@jit(backend="{backend}")
def transitive(x):
    return outer(x)


closure = make(scaled)
CASES = ["default_", "kwonly_default", "module_attribute", "imported_jitted", "transitive", "closure"]
'''

OTHER = '''
def helper(x, k={k}):
    return x * k + {j}
'''

JITTED = '''
from moshjit import jit


def step(x, k={k}):
    return x * k


@jit(backend="{backend}")
def jhelper(x):
    return step(x) + {j}
'''

PROBE = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, sys.argv[1])
    import main
    out = {}
    for name in main.CASES:
        fn = getattr(main, name)
        out[name] = {"native": fn(10), "python": fn.py_func(10), "cache": list(fn.stats.values())[0]["cache"],
                     "backend": list(fn.stats.values())[0]["backend"]}
    print(json.dumps(out))
""")


def write(directory, backend, k, j):
    for name, text in (("main", MAIN), ("othermod", OTHER), ("jitted", JITTED)):
        (directory / f"{name}.py").write_text(text.format(k=k, j=j, backend=backend))
    for stale in (directory / "__pycache__").glob("*"):
        stale.unlink()                # rewritten within one second: never import an old pyc


def probe(directory, cache_dir):
    env = dict(os.environ, MOSHJIT_CACHE_DIR=str(cache_dir), MOSHJIT_PURE_DISPATCH="1")
    done = subprocess.run([sys.executable, "-c", PROBE, str(directory)], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    for name, entry in report.items():
        assert entry["native"] == entry["python"], (name, entry)
        assert entry["backend"] == "llvm", (name, entry)          # else the case would not test the index
    return report


@pytest.mark.parametrize("backend", ["auto", "llvm"])
def test_a_changed_dependency_is_never_served_from_the_cache(tmp_path, backend):
    module_dir, cache_dir = tmp_path / "module", tmp_path / "cache"
    module_dir.mkdir()
    write(module_dir, backend, k=3, j=1)
    first = probe(module_dir, cache_dir)
    assert {e["cache"] for e in first.values()} == {"miss"}
    write(module_dir, backend, k=4, j=2)
    second = probe(module_dir, cache_dir)
    for name in first:
        assert second[name]["python"] != first[name]["python"], name       # the case really changed something
        assert second[name]["cache"] == "miss", name
    third = probe(module_dir, cache_dir)
    assert {name: e["cache"] for name, e in third.items()} == dict.fromkeys(first, "hit")


def test_the_key_reaches_what_compiled_code_may_bake_in():
    import math

    def helper(x, k=3):
        return math.floor(x) * k

    def caller(x):
        return helper(x)

    before = function_fingerprint(caller)
    helper.__defaults__ = (4,)
    assert function_fingerprint(caller) != before
    helper.__kwdefaults__ = {"j": 1}
    changed = function_fingerprint(caller)
    assert function_fingerprint(caller) == changed                  # stable for the same state
    assert uncovered(caller, [helper, math, math.floor]) == []
    assert uncovered(caller, [json.dumps]) == [json.dumps]          # nothing in caller reaches it


def test_huge_int_defaults_do_not_break_the_key():
    def f(x, big=7 ** 100_000):
        return x

    assert function_fingerprint(f) != function_fingerprint(lambda x: x)


def small(x):
    return x + 1


def big(x):
    for i in range(40):
        x = (x * 3 + i) % 1000003
        x = (x * 5 + i) % 1000033
        x = (x * 7 + i) % 1000037
        x = (x * 11 + i) % 1000039
        x = (x * 13 + i) % 1000081
        x = (x * 17 + i) % 1000099
        x = (x * 19 + i) % 1000117
        x = (x * 23 + i) % 1000121
        x = (x * 29 + i) % 1000133
    return x


def uses_both(x):
    return small(x) + big(x) + len(str(x))


def test_the_passes_report_what_they_bake_in():
    from moshjit.compiler import DriverContext, typed_ssa
    from moshjit.dispatcher import helper_dispatcher
    from moshjit.ir.types import INT64
    ctx = DriverContext(uses_both, make_dispatcher=helper_dispatcher)
    typed_ssa(uses_both, [INT64], ctx)
    baked = list(ctx.dependencies.values())
    assert small in baked and big in baked and len in baked and str in baked      # inlined, compiled apart, builtins
    assert uncovered(uses_both, baked) == []

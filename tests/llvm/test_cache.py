"""Native code is cached on disk: a second process loads the shared objects recorded in the index without
compiling, and without importing llvmlite at all."""
import json
import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import json, sys
    import moshjit
    from tests.llvm import samples
    results, stats = [], {}
    for fn, args in [(samples.fib, (15,)), (samples.pad, ([1, 2], 5, 0)), (samples.l_floats, ([0.5, 1.5],))]:
        jitted = moshjit.jit(fn, backend="llvm")
        results.append(jitted(*args))
        stats[fn.__name__] = list(jitted.stats.values())[0]
    print(json.dumps({"results": results, "stats": stats, "llvmlite": "llvmlite" in sys.modules}))
""")


def run(cache_dir):
    env = dict(os.environ, MOSHJIT_CACHE_DIR=str(cache_dir), MOSHJIT_PURE_DISPATCH="1")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=root, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_second_process_loads_without_compiling(tmp_path):
    first = run(tmp_path)
    second = run(tmp_path)
    assert first["results"] == second["results"] == [610, [1, 2, 0, 0, 0], [1.0, 2.0, 1.5, [1.0, 3.0]]]
    assert all(s["cache"] == "miss" and "optimise_s" in s for s in first["stats"].values())
    assert all(s["cache"] == "hit" and "optimise_s" not in s for s in second["stats"].values())
    assert first["llvmlite"] and not second["llvmlite"]


def test_corrupt_shared_object_is_rebuilt(tmp_path):
    run(tmp_path)
    for name in os.listdir(tmp_path / "llvm"):
        if name.endswith(".so"):
            with open(tmp_path / "llvm" / name, "r+b") as f:
                f.seek(100)
                f.write(b"\xff" * 8)
    again = run(tmp_path)
    assert again["results"][0] == 610
    assert all(s["cache"] == "miss" for s in again["stats"].values())

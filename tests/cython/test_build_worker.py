"""Builds run in a worker process, eager compiles included, so the program's heap never holds Cython's compiler
(its scanner's state machine made every full garbage collection ~45 ms slower; ``runtime/build_worker.py``)."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from moshjit.runtime import build_worker

PROBE = textwrap.dedent("""
    import json, sys
    import moshjit

    @moshjit.jit(backend="cython")
    def total(n):
        s = 0
        for i in range(n):
            s += i * i
        return s

    result = total(10)
    (stats,) = total.stats.values()
    print(json.dumps({"result": result, "compiled": stats.get("backend"), "worker_s": "build_worker_s" in stats,
                      "cython_in_program": "Cython.Compiler.Main" in sys.modules}))
""")


def run_probe(tmp_path, **env):
    environment = dict(os.environ, MOSHJIT_CACHE_DIR=str(tmp_path / "cache"), MOSHJIT_TIER="eager", **env)
    out = subprocess.run([sys.executable, "-c", PROBE], env=environment, capture_output=True, text=True,
                         timeout=600, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_an_eager_compile_leaves_no_cython_compiler_in_the_program(tmp_path):
    facts = run_probe(tmp_path)
    assert facts == {"result": 285, "compiled": "cython", "worker_s": True, "cython_in_program": False}


def test_without_the_worker_the_build_runs_in_process(tmp_path):
    facts = run_probe(tmp_path, MOSHJIT_BUILD_WORKER="0")
    assert facts == {"result": 285, "compiled": "cython", "worker_s": False, "cython_in_program": True}


def test_eager_builds_use_the_worker_at_the_programs_priority():
    assert build_worker._eager_worker.background is False and build_worker._worker.background is True
    assert not build_worker.in_background()
    with build_worker.offloading():
        assert build_worker.in_background()


FORK_PROBE = textwrap.dedent("""
    import json, os, random
    from moshjit import jit
    from moshjit.runtime import build_worker

    def fresh_function():
        namespace = {}
        exec(f"def fresh(n):\\n    return n * {random.getrandbits(60)} + 1\\n", namespace)
        return jit(namespace["fresh"], backend="cython")

    assert fresh_function()(2) > 0
    parent_worker = build_worker._eager_worker._process.pid
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            fresh_function()(3)
            os.write(write_end, json.dumps(build_worker._eager_worker._process.pid).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    child_worker = json.loads(os.read(read_end, 100))
    os.waitpid(child, 0)
    assert fresh_function()(4) > 0
    print(json.dumps({"parent": parent_worker, "child": child_worker,
                      "parent_after": build_worker._eager_worker._process.pid}))
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")
def test_a_forked_child_starts_its_own_worker(tmp_path):
    """The parent's pipe belongs to the parent: a child writing to it would mix its requests into the parent's.
    Forked from a fresh single-threaded interpreter (forking the test process, which has threads, risks a
    deadlock in the child)."""
    environment = dict(os.environ, MOSHJIT_CACHE_DIR=str(tmp_path / "cache"), MOSHJIT_TIER="eager")
    out = subprocess.run([sys.executable, "-c", FORK_PROBE], env=environment, capture_output=True, text=True,
                         timeout=600, check=True)
    workers = json.loads(out.stdout.strip().splitlines()[-1])
    assert workers["child"] != workers["parent"] == workers["parent_after"]

"""Builds run in a worker process, eager compiles included, so the program's heap never holds Cython's compiler
(its scanner's state machine made every full garbage collection ~45 ms slower; ``runtime/build_worker.py``)."""
import json
import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from moshjit.errors import BuildCancelled, BuildError
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


TRIPLE = "def triple(n):\n    return n * 3\n"


def build_triple(worker, tmp_path, name, head=""):
    """Build a one-function module (after ``head``) with ``worker``, load it, call it."""
    from moshjit.runtime.toolchain import EXT_SUFFIX, load_extension
    pyx = tmp_path / f"{name}.pyx"
    pyx.write_text(head + TRIPLE)
    so = tmp_path / f"{name}{EXT_SUFFIX}"
    worker.build(str(pyx), name, str(tmp_path / f"{name}.c"), str(so), "-O0")
    return load_extension(str(so), name).triple(5)


@pytest.fixture
def idle_worker(monkeypatch):
    """A worker that leaves after 0.3 s without a request."""
    monkeypatch.setenv("MOSHJIT_BUILD_WORKER_IDLE", "0.3")
    worker = build_worker.BuildWorker()
    yield worker
    worker.stop()


def test_an_idle_worker_exits_and_the_next_build_starts_another(idle_worker, tmp_path):
    """Its memory (Cython's compiler: ~200 MB) goes back to the system; builds go on as before."""
    assert build_triple(idle_worker, tmp_path, "mj_test_idle_a") == 15
    first = idle_worker._process
    assert first.wait(timeout=60) == build_worker.IDLE_EXIT_STATUS
    assert build_triple(idle_worker, tmp_path, "mj_test_idle_b") == 15
    assert idle_worker._process is not first


@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
def test_a_request_that_meets_the_worker_leaving_is_sent_to_a_new_one(idle_worker, tmp_path, monkeypatch):
    """The worker may decide to leave just as a request arrives: it reads nothing once it has decided, so the
    request is sent again to a new worker, once, instead of failing the build."""
    assert build_triple(idle_worker, tmp_path, "mj_test_idle_c") == 15
    gone = idle_worker._process
    assert gone.wait(timeout=60) == build_worker.IDLE_EXIT_STATUS
    monkeypatch.setattr(gone, "poll", lambda: None)          # the client has not noticed that it left
    assert build_triple(idle_worker, tmp_path, "mj_test_idle_d") == 15
    assert idle_worker._process is not gone
    assert gone.stdin.closed and gone.stdout.closed          # nothing left to fail when it is collected


@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
def test_a_worker_that_dies_is_reported_not_sent_the_request_again(tmp_path, monkeypatch):
    worker = build_worker.BuildWorker()
    try:
        assert build_triple(worker, tmp_path, "mj_test_died_a") == 15
        dead = worker._process
        dead.kill()
        dead.wait()
        monkeypatch.setattr(dead, "poll", lambda: None)
        with pytest.raises(BuildError, match="exited"):
            build_triple(worker, tmp_path, "mj_test_died_b")
        assert dead.stdin.closed and dead.stdout.closed
    finally:
        worker.stop()


@pytest.mark.parametrize("value, expected", [("2.5", 2.5), ("0", None), ("-1", None), ("inf", None), ("nan", None),
                                             ("soon", 60.0)])
def test_the_idle_time_setting(monkeypatch, value, expected):
    monkeypatch.setenv("MOSHJIT_BUILD_WORKER_IDLE", value)
    assert build_worker.idle_seconds() == expected


def test_warming_leaves_the_worker_ready_for_a_build(tmp_path):
    """A warm request only cythonizes; the build after it (a generated module: the same cimports) gets its own
    reply, not the warm one's."""
    from moshjit.backends.cython.build import WARM_BODY
    from moshjit.backends.cython.prelude import PRELUDE
    worker = build_worker.BuildWorker()
    try:
        pyx = tmp_path / "mj_warm_probe.pyx"
        pyx.write_text(PRELUDE + WARM_BODY)
        timings = worker.warm(str(pyx), "mj_warm_probe", str(tmp_path / "mj_warm_probe.c"))
        assert set(timings) == {"cython_s"} and (tmp_path / "mj_warm_probe.c").exists()
        assert build_triple(worker, tmp_path, "mj_test_after_warm", PRELUDE + WARM_BODY) == 15
    finally:
        worker.stop()


def test_a_toolchain_warms_its_worker_once_and_not_without_one(tmp_path, monkeypatch):
    import threading

    from moshjit.backends.cython import build
    from moshjit.cache import DiskCache
    started, real_thread = [], threading.Thread
    monkeypatch.setattr(build.threading, "Thread",
                        lambda target, **kw: started.append(target) or real_thread(target=lambda: None))
    monkeypatch.setenv("MOSHJIT_BUILD_WORKER", "0")
    toolchain = build.CythonToolchain(DiskCache(str(tmp_path / "cache")))
    toolchain.warm()
    assert started == []
    monkeypatch.setenv("MOSHJIT_BUILD_WORKER", "1")
    toolchain.warm()
    toolchain.warm()
    assert len(started) == 1


def live_members(group: int) -> list:
    """The processes of a process group that have not exited (zombies left out), from ``/proc``."""
    members = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            members.append(int(entry))
    return members


def long_build(tmp_path, functions: int):
    """A build of a module with ``functions`` functions started on a thread of its own: (the worker, the thread,
    the BuildErrors it ended in), once the worker process exists."""
    pyx = tmp_path / "mj_test_long.pyx"
    pyx.write_text("".join(f"def f{i}(x):\n    return [x * k for k in range({i})]\n" for i in range(functions)))
    worker = build_worker.BuildWorker()
    outcome = []

    def build():
        try:
            worker.build(str(pyx), "mj_test_long", str(tmp_path / "mj_test_long.c"), str(tmp_path / "long.so"), "-O2")
        except BuildError as exc:
            outcome.append(exc)
    thread = threading.Thread(target=build)
    thread.start()
    while worker._process is None:
        time.sleep(0.001)
    return worker, thread, outcome


def test_stopping_the_build_worker_mid_build_cancels_the_build(tmp_path):
    """At exit the worker is stopped; the build it was running ends in BuildCancelled, not a BuildError to report."""
    worker, thread, outcome = long_build(tmp_path, 300)
    worker.stop()
    thread.join(120)
    assert len(outcome) == 1 and isinstance(outcome[0], BuildCancelled), outcome


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads process groups from /proc")
def test_stopping_the_worker_ends_the_c_compiler_it_runs(tmp_path):
    """At exit a gcc still compiling must not outlive the program (it held the CPU and the program's standard
    error open: a parent reading the program's output waited for the build)."""
    worker, thread, outcome = long_build(tmp_path, 400)
    group = worker._process.pid
    while len(live_members(group)) < 2 and thread.is_alive():      # the worker and the gcc it started
        time.sleep(0.01)
    assert thread.is_alive(), "the build ended before the C compiler was seen"
    worker.stop()
    thread.join(120)
    deadline = time.monotonic() + 60
    while live_members(group) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert live_members(group) == []
    assert len(outcome) == 1 and isinstance(outcome[0], BuildCancelled), outcome


def test_a_stopped_worker_starts_no_new_process(tmp_path):
    """A compile thread's job after the exit handlers ran is cancelled, not given a worker that outlives the
    program."""
    worker = build_worker.BuildWorker()
    worker.stop()
    with pytest.raises(BuildCancelled, match="interpreter is exiting"):
        build_triple(worker, tmp_path, "mj_test_after_stop")
    assert worker._process is None

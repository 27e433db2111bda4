"""Compiled code never crashes on deep recursion: with ``sys.setrecursionlimit(1_000_000)`` a depth CPython reaches
(300,000) either returns or raises ``RecursionError`` before the C stack runs out, also on a thread with a small
stack (before and after the main thread's), on a thread whose stack takes the place of an exited thread's, and on
the pure-Python call path. In subprocesses: the failure guarded against kills the interpreter."""
import os
import subprocess
import sys
import textwrap

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DEPTH = textwrap.dedent("""
    import sys, threading
    from moshjit import jit

    @jit(backend="cython")
    def depth(n):
        if n == 0:
            return 0
        return 1 + depth(n - 1)
""")

SCRIPT = DEPTH + textwrap.dedent("""
    sys.setrecursionlimit(1_000_000)

    @jit(backend="cython")
    def ping(n):
        return 0 if n == 0 else pong(n - 1) + 1

    @jit(backend="cython")
    def pong(n):
        return 0 if n == 0 else ping(n - 1) + 1

    def run(fn, n):
        try:
            return fn(n) == n
        except RecursionError as exc:
            return str(exc)

    class Callable:                                   # plain CPython: recursion through an object's __call__
        def __call__(self, n):
            return 0 if n == 0 else callable_depth(n - 1) + 1
    callable_depth = Callable()

    out = [run(depth, 50), run(depth, 300_000), run(ping, 300_000), run(depth, 2_000), run(callable_depth, 2_000)]
    threading.stack_size(512 * 1024)
    worker = threading.Thread(target=lambda: out.append(run(depth, 300_000)))
    worker.start()
    worker.join()
    out.append(run(depth, 300_000))                  # the main thread again, after the worker's stack was checked
    print(out)
""")


@pytest.mark.parametrize("pure", ["0", "1"], ids=["compiled-call-path", "pure-call-path"])
def test_deep_recursion_returns_or_raises_recursion_error(pure):
    env = dict(os.environ, MOSHJIT_PURE_DISPATCH=pure)
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300, cwd=REPO,
                          env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = eval(proc.stdout.strip().splitlines()[-1])
    assert results[0] is True                                           # shallow recursion is untouched
    # 2,000 levels: CPython runs them in plain functions. The pure call path is an object with __call__, which
    # 3.12 counts against its C recursion limit as it does for any such object: it gets as far as CPython
    # gets through one (results[4]); the compiled path counts like a Python frame on every version.
    assert results[3] is True if pure == "0" else (results[3] is True) == (results[4] is True)
    for deep in results[1:3] + results[5:]:
        assert deep is True or deep.startswith("maximum recursion depth exceeded"), deep


REUSED_STACK = DEPTH + textwrap.dedent("""
    sys.setrecursionlimit(10_000_000)

    def run(n):
        try:
            print(depth(n) == n)
        except RecursionError as exc:
            print(str(exc))

    depth(10)
    for size, n in ((256 * 1024 * 1024, 50), (64 * 1024 * 1024, 5_000_000)):
        threading.stack_size(size)      # a big stack, unmapped at exit; then a smaller one mapped in its place
        worker = threading.Thread(target=run, args=(n,))
        worker.start()
        worker.join()
""")


def test_a_thread_on_the_stack_of_an_exited_one_stops_at_its_own_floor():
    """The check's fast path keeps one thread's usable range; a new thread whose stack is mapped where an exited
    thread's was, with another floor, must still stop at its own (this crashed when the range was any thread's)."""
    proc = subprocess.run([sys.executable, "-c", REUSED_STACK], capture_output=True, text=True, timeout=300,
                          cwd=REPO)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.split("\n")[:2] == ["True", "maximum recursion depth exceeded"], proc.stdout

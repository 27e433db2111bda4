"""A build worker process: Cython and the C compiler for generated modules, run beside the program, not inside it.

Cython's code generation is pure Python: run on a compile thread it holds the GIL for ~0.2 s per module (over a
second for the first, which imports Cython) and slows the program it runs beside. Background compiles therefore
hand the written .pyx to one long-lived worker (``python -m moshjit.runtime.build_worker``, started at the first
build, Cython kept warm in it) that cythonizes it and runs gcc; the compile thread waits on a pipe without the
GIL. Requests and replies are JSON lines; the worker's own standard output goes to standard error, so nothing
Cython or gcc prints can corrupt the protocol. ``MOSHJIT_BUILD_WORKER=0`` builds in-process (as eager
compiles always do).
"""
from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import subprocess
import sys
import threading
import time

from moshjit.errors import BuildCancelled, BuildError

log = logging.getLogger("moshjit")

_offloading = threading.local()
BACKGROUND_NICENESS = 10        # added to the niceness of the worker and its gcc runs


def lower_priority() -> None:
    """Make the worker process yield the CPU to the program: it should use an idle core, not take one from the
    program. It gets ``BACKGROUND_NICENESS`` more than the program; gcc runs inherit it. Not the compile thread:
    it holds the program's GIL while it runs Python, and descheduled in favour of other work it stalls the program
    (benchmarks.md §12.12). Where that is not allowed, nothing changes."""
    try:
        os.setpriority(os.PRIO_PROCESS, 0, min(os.getpriority(os.PRIO_PROCESS, os.getppid())
                                               + BACKGROUND_NICENESS, 19))
    except (AttributeError, OSError) as exc:
        log.debug("the build worker keeps the program's priority: %s", exc)


@contextlib.contextmanager
def offloading():
    """Builds on this thread, inside the block, go to the worker process (the compile thread's jobs)."""
    _offloading.active = True
    try:
        yield
    finally:
        _offloading.active = False


def active() -> bool:
    """Whether a build on this thread should go to the worker."""
    return getattr(_offloading, "active", False) and os.environ.get("MOSHJIT_BUILD_WORKER", "1") not in ("0", "")


class BuildWorker:
    """The client side: one worker process, one request at a time, restarted if it died."""

    def __init__(self):
        self._process = None
        self._lock = threading.Lock()
        self._stopped = False
        atexit.register(self.stop)

    def stop(self) -> None:
        """End the worker (at exit: a module still being built is not needed any more)."""
        self._stopped = True
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
        if process is not None:
            process.stdin.close()
            process.stdout.close()

    def build(self, pyx_path: str, module_name: str, c_path: str, so_path: str, optimize: str) -> dict:
        """Cythonize ``pyx_path`` to ``c_path`` and compile it to ``so_path``; returns the worker's timings."""
        request = json.dumps({"pyx": pyx_path, "module": module_name, "c": c_path, "so": so_path,
                              "optimize": optimize}) + "\n"
        with self._lock:
            process = self._started()
            try:
                process.stdin.write(request)
                process.stdin.flush()
                line = process.stdout.readline()
            except OSError:
                line = ""
            if not line:
                self._process = None
                if self._stopped:
                    raise BuildCancelled(f"{module_name} was still being built when the interpreter exited")
                raise BuildError(f"moshjit's build worker exited (status {process.poll()}) while building "
                                 f"{module_name}")
        reply = json.loads(line)
        if "error" in reply:
            raise BuildError(reply["error"])
        return reply["timings"]

    def _started(self):
        if self._process is None or self._process.poll() is not None:
            from moshjit.runtime.toolchain import PACKAGE_ROOT
            path = [PACKAGE_ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
            env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
            self._process = subprocess.Popen([sys.executable, "-m", "moshjit.runtime.build_worker"],
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        return self._process


_worker = BuildWorker()


def build(pyx_path: str, module_name: str, c_path: str, so_path: str, optimize: str) -> dict:
    """Build one generated module in the worker process (see ``BuildWorker.build``)."""
    return _worker.build(pyx_path, module_name, c_path, so_path, optimize)


def build_here(pyx_path: str, module_name: str, c_path: str, so_path: str, optimize: str) -> dict:
    """What the worker does for one request (also what an in-process build does): Cython, then gcc."""
    from moshjit.runtime.toolchain import compile_c, cythonize_file, rewrite_c, with_user_frames
    start = time.perf_counter()
    cythonize_file(pyx_path, module_name, c_path)
    rewrite_c(c_path, lambda c: with_user_frames(c, module_name))
    middle = time.perf_counter()
    compile_c(c_path, so_path, optimize)
    return {"cython_s": round(middle - start, 4), "cc_s": round(time.perf_counter() - middle, 4)}


def serve() -> None:
    """The worker's loop: one JSON request per line on standard input, one reply per line (until end of input)."""
    lower_priority()
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)                         # what Cython or gcc print goes to standard error
    sys.stdout = sys.stderr
    for line in sys.stdin:
        request = json.loads(line)
        try:
            reply = {"timings": build_here(request["pyx"], request["module"], request["c"], request["so"],
                                           request["optimize"])}
        except Exception as exc:          # BuildError, or a Cython crash: the client raises it as a BuildError
            reply = {"error": str(exc)}
        try:
            replies.write(json.dumps(reply) + "\n")
            replies.flush()
        except BrokenPipeError:           # the program exited while we built: nobody needs the module
            return


if __name__ == "__main__":
    serve()

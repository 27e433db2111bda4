"""A build worker process: Cython and the C compiler for generated modules, run beside the program, not inside it.

Cython's code generation is pure Python: run on a compile thread it holds the GIL for ~0.2 s per module (over a
second for the first, which imports Cython) and slows the program it runs beside. And whatever thread runs it,
Cython leaves its compiler in the program's heap for good: its scanner's state machine alone is a dict of
~146,000 entries whose values are dicts, which every full garbage collection of the program then traverses
(+45 ms per collection on this machine, against 6 ms for a program holding 100,000 instances; benchmarks.md
§9.12). So every build is handed to a long-lived worker (``python -m moshjit.runtime.build_worker``, started at
the first build, Cython kept warm in it) that cythonizes the written .pyx and runs gcc; the caller waits on a
pipe without the GIL. Background compiles and eager ones use two workers: the background one runs at a lower
priority, the eager one at the program's, since the program waits for it. Requests and replies are JSON lines;
the worker's own standard output goes to standard error, so nothing Cython or gcc prints can corrupt the
protocol. ``MOSHJIT_BUILD_WORKER=0`` builds in-process instead.
"""
from __future__ import annotations

import atexit
import contextlib
import json
import logging
import math
import os
import select
import signal
import subprocess
import sys
import threading
import time

from moshjit.errors import BuildCancelled, BuildError

log = logging.getLogger("moshjit")

_offloading = threading.local()
BACKGROUND_NICENESS = 10        # added to the niceness of the worker and its gcc runs
DEFAULT_IDLE_SECONDS = 60       # a worker exits after this long without a request (``idle_seconds``)
IDLE_EXIT_STATUS = 75           # its exit status then, so the client tells it from a crash


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
    """Builds on this thread, inside the block, are background work (the compile thread's jobs): they go to the
    lower-priority worker."""
    _offloading.active = True
    try:
        yield
    finally:
        _offloading.active = False


def enabled() -> bool:
    """Whether builds go to a worker process (``MOSHJIT_BUILD_WORKER=0``: in-process)."""
    return os.environ.get("MOSHJIT_BUILD_WORKER", "1") not in ("0", "")


def in_background() -> bool:
    """Whether a build on this thread is background work."""
    return getattr(_offloading, "active", False)


class BuildWorker:
    """The client side: one worker process, one request at a time, restarted if it died; a process forked from
    the program starts its own (the parent's pipe is the parent's)."""

    def __init__(self, background: bool = True):
        self.background = background
        self._process = None
        self._lock = threading.Lock()        # one request at a time
        self._spawning = threading.Lock()    # starting a worker against stopping: never one after ``stop``
        self._stopped = False
        atexit.register(self.stop)
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._forget_parents_worker)

    def _forget_parents_worker(self) -> None:
        self._process, self._lock, self._spawning = None, threading.Lock(), threading.Lock()

    def stop(self) -> None:
        """End the worker and the C compiler it may be running (at exit: a module still being built is not needed
        any more). The worker leads its own process group, so one signal ends both: a gcc left running would keep
        the CPU and the program's standard error open after the program exits (a shell pipeline or a parent reading
        its output would wait for the build)."""
        with self._spawning:
            self._stopped = True
            process, self._process = self._process, None
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.kill()
            process.wait()
        if process is not None:
            process.stdin.close()
            process.stdout.close()

    def build(self, pyx_path: str, module_name: str, c_path: str, so_path: str, optimize: str,
              headers_root: str | None = None) -> dict:
        """Cythonize ``pyx_path`` to ``c_path`` and compile it to ``so_path``; returns the worker's timings."""
        return self._request({"pyx": pyx_path, "module": module_name, "c": c_path, "so": so_path,
                              "optimize": optimize, "headers": headers_root}, module_name)

    def warm(self, pyx_path: str, module_name: str, c_path: str) -> dict:
        """Cythonize ``pyx_path`` only, for what it leaves warm in the worker: Cython imported, its compile context
        made, the runtime's and Cython's .pxd files parsed (~0.5 s the first build would otherwise wait for)."""
        return self._request({"warm": True, "pyx": pyx_path, "module": module_name, "c": c_path}, module_name)

    def _request(self, request: dict, module_name: str) -> dict:
        line = json.dumps(request) + "\n"
        with self._lock:
            for attempt in range(2):
                process = self._started(module_name)
                try:
                    process.stdin.write(line)
                    process.stdin.flush()
                    reply = process.stdout.readline()
                except OSError:
                    reply = ""
                if reply:
                    break
                self._process = None
                self._discard(process)
                if self._stopped:
                    raise BuildCancelled(f"{module_name} was still being built when the interpreter exited")
                status = process.wait()
                if status != IDLE_EXIT_STATUS or attempt:
                    raise BuildError(f"moshjit's build worker exited (status {status}) while building {module_name}")
                # it left, idle, as the request arrived (it reads nothing once it decided to go): a new one
        reply = json.loads(reply)
        if "error" in reply:
            raise BuildError(reply["error"])
        return reply["timings"]

    @staticmethod
    def _discard(process) -> None:
        """Close the pipes of a worker that left: the request buffered for it would otherwise fail again when the
        pipe is collected, printed as an ignored BrokenPipeError on the program's standard error."""
        for pipe in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                pipe.close()

    def _started(self, module_name: str):
        """The running worker, or a new one; none once stopped (at exit a compile thread's next job must not start a
        worker that outlives the program)."""
        with self._spawning:
            if self._stopped:
                raise BuildCancelled(f"{module_name} was not built: the interpreter is exiting")
            if self._process is None or self._process.poll() is not None:
                self._process = self._spawn()
            return self._process

    def _spawn(self):
        """A new worker process, leading a process group of its own (``stop`` ends its gcc runs with it)."""
        from moshjit.runtime.toolchain import PACKAGE_ROOT
        path = [PACKAGE_ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
        command = [sys.executable, "-m", "moshjit.runtime.build_worker"] + (["--background"] * self.background)
        return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                                process_group=0)


_worker = BuildWorker(background=True)
_eager_worker = BuildWorker(background=False)


def build(pyx_path: str, module_name: str, c_path: str, so_path: str, optimize: str,
          headers_root: str | None = None) -> dict:
    """Build one generated module in a worker process (see ``BuildWorker.build``): the background one for the
    compile thread's jobs, the eager one for compiles the program waits for."""
    worker = _worker if in_background() else _eager_worker
    return worker.build(pyx_path, module_name, c_path, so_path, optimize, headers_root)


def warm(pyx_path: str, module_name: str, c_path: str) -> dict:
    """Warm Cython in the background worker (``BuildWorker.warm``), starting it if needed."""
    return _worker.warm(pyx_path, module_name, c_path)


def build_here(pyx_path: str, module_name: str, c_path: str, so_path: str, optimize: str,
               headers_root: str | None = None) -> dict:
    """What the worker does for one request (also what an in-process build does): Cython, then gcc (with the
    precompiled Python.h kept under ``headers_root``, when given)."""
    from moshjit.runtime.toolchain import (compile_c, cythonize_file, rewrite_c, with_coroutine_messages,
                                           with_handled_exceptions_kept, with_native_coroutines_sent,
                                           with_owned_scopes, with_private_abi, with_run_once_code_unoptimised,
                                           with_user_frames)
    start = time.perf_counter()
    cythonize_file(pyx_path, module_name, c_path)
    rewrite_c(c_path, lambda c: with_run_once_code_unoptimised(with_native_coroutines_sent(with_owned_scopes(
        with_private_abi(with_handled_exceptions_kept(with_coroutine_messages(with_user_frames(c, module_name))))))))
    middle = time.perf_counter()
    compile_c(c_path, so_path, optimize, headers_root)
    return {"cython_s": round(middle - start, 4), "cc_s": round(time.perf_counter() - middle, 4)}


def warm_here(pyx_path: str, module_name: str, c_path: str) -> dict:
    """What the worker does for a warm request: Cython only (``BuildWorker.warm``)."""
    from moshjit.runtime.toolchain import cythonize_file
    start = time.perf_counter()
    cythonize_file(pyx_path, module_name, c_path)
    return {"cython_s": round(time.perf_counter() - start, 4)}


def idle_seconds() -> float | None:
    """How long a worker waits for its next request before it exits, giving its memory back (~200 MB with
    Cython's compiler loaded): ``MOSHJIT_BUILD_WORKER_IDLE`` seconds, default 60; 0 or less, or inf: never.
    The client starts a new one at its next build."""
    try:
        seconds = float(os.environ.get("MOSHJIT_BUILD_WORKER_IDLE", DEFAULT_IDLE_SECONDS))
    except ValueError:
        log.warning("moshjit: MOSHJIT_BUILD_WORKER_IDLE=%r is not a number of seconds; using %s",
                    os.environ.get("MOSHJIT_BUILD_WORKER_IDLE"), DEFAULT_IDLE_SECONDS)
        seconds = DEFAULT_IDLE_SECONDS
    return seconds if 0 < seconds < math.inf else None


def serve(background: bool) -> None:
    """The worker's loop: one JSON request per line on standard input, one reply per line (until end of input,
    or ``idle_seconds`` without a request: then it exits with ``IDLE_EXIT_STATUS``)."""
    if background:
        lower_priority()
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)                         # what Cython or gcc print goes to standard error
    sys.stdout = sys.stderr
    idle = idle_seconds()
    while True:
        # one request at a time, each answered before the client sends the next: nothing waits in stdin's buffer
        if idle is not None and not select.select([sys.stdin], [], [], idle)[0]:
            sys.exit(IDLE_EXIT_STATUS)
        line = sys.stdin.readline()
        if not line:
            return
        request = json.loads(line)
        try:
            if request.get("warm"):
                timings = warm_here(request["pyx"], request["module"], request["c"])
            else:
                timings = build_here(request["pyx"], request["module"], request["c"], request["so"],
                                     request["optimize"], request.get("headers"))
            reply = {"timings": timings}
        except Exception as exc:          # BuildError, or a Cython crash: the client raises it as a BuildError
            reply = {"error": str(exc)}
        try:
            replies.write(json.dumps(reply) + "\n")
            replies.flush()
        except BrokenPipeError:           # the program exited while we built: nobody needs the module
            return


if __name__ == "__main__":
    serve(background="--background" in sys.argv[1:])

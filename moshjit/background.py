"""moshjit's compile thread: promotions of hot specialisations, compiled one after another, off the caller's thread.

One daemon thread (not ``concurrent.futures``: its worker threads are joined when the interpreter exits, so a
program that has finished would wait for compiles nobody needs any more). Jobs run by priority, the
specialisation whose interpreted calls took longest first: a call's time includes its callees', so an outer
function — whose native code inlines or calls its callees natively — goes before the helpers that got hot during
its calls (measured on the BERT pipeline: in arrival order ``encode_batch`` waited behind its helpers for 117 s).
Generated Cython modules are cythonized and C-compiled by the build worker process
(``moshjit.runtime.build_worker``) while this thread waits without the GIL, so on two cores the program keeps
one core to itself; only the frontend, typing and code emission share the interpreter with it. The worker and
its gcc runs have a lower priority (``build_worker.lower_priority``), so under load they take CPU time the program
leaves, not the program's; this thread keeps the program's priority, since it holds the GIL while it runs.

While a job runs, the interpreter's switch interval is shortened (``COMPILE_SWITCH_INTERVAL``, restored when the
job ends unless the program changed it meanwhile). Each time this thread releases the GIL — every ctypes call into
LLVM, every wait for the build worker, every file operation — it waits for a busy program thread to hand it back,
which CPython asks for only after a whole switch interval (5 ms by default): an LLVM compile of ~50 ms took
1.8 s beside spectral_norm's running loop, ending after the program did; with 0.5 ms it took 0.24-0.31 s.
The program loses nothing it did not lose before: the two threads still alternate while both want the GIL.
"""
from __future__ import annotations

import heapq
import itertools
import logging
import sys
import threading

log = logging.getLogger("moshjit")
_jobs: list = []                            # heap of (-priority, arrival, job)
_arrival = itertools.count()
_changed = threading.Condition()
_pending = 0                                # queued or running
_thread: threading.Thread | None = None
COMPILE_SWITCH_INTERVAL = 0.0005            # seconds; see the module's docstring


def submit(job, priority: float = 0.0) -> None:
    """Run ``job()`` on the compile thread (started at the first submission), after queued jobs of higher
    ``priority`` (equal ones in arrival order)."""
    global _thread, _pending
    with _changed:
        _pending += 1
        heapq.heappush(_jobs, (-priority, next(_arrival), job))
        if _thread is None:
            _thread = threading.Thread(target=_run, name="moshjit-compile", daemon=True)
            _thread.start()
        _changed.notify_all()


def _run() -> None:
    from moshjit.runtime import build_worker
    global _pending
    while True:
        with _changed:
            _changed.wait_for(lambda: _jobs)
            job = heapq.heappop(_jobs)[2]
        try:
            with build_worker.offloading(), short_switch_interval():
                job()
        except Exception:               # a job reports its own failures; this is a moshjit bug, keep the thread
            log.exception("moshjit: background compile failed")
        finally:
            with _changed:
                _pending -= 1
                _changed.notify_all()


class short_switch_interval:
    """Shorten the interpreter's switch interval to ``COMPILE_SWITCH_INTERVAL`` for a ``with`` block; put the
    previous one back after it, unless somebody set another one meanwhile."""

    def __enter__(self):
        self.previous = sys.getswitchinterval()
        self.shortened = self.previous > COMPILE_SWITCH_INTERVAL
        if self.shortened:
            sys.setswitchinterval(COMPILE_SWITCH_INTERVAL)
        self.ours = sys.getswitchinterval()         # as CPython rounds it
        return self

    def __exit__(self, *exc_info):
        if self.shortened and sys.getswitchinterval() == self.ours:
            sys.setswitchinterval(self.previous)
        return False


def wait(timeout: float | None = None) -> bool:
    """Block until every queued compile has finished (tests, benchmarks); False on timeout."""
    with _changed:
        return _changed.wait_for(lambda: _pending == 0, timeout)

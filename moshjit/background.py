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

Its calls into LLVM run with a short switch interval (``moshjit.switching``).
"""
from __future__ import annotations

import heapq
import itertools
import logging
import threading

from moshjit import switching

log = logging.getLogger("moshjit")
_jobs: list = []                            # heap of (-priority, arrival, job)
_arrival = itertools.count()
_changed = threading.Condition()
_pending = 0                                # queued or running
_thread: threading.Thread | None = None


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
    switching.mark_compile_thread()
    while True:
        with _changed:
            _changed.wait_for(lambda: _jobs)
            job = heapq.heappop(_jobs)[2]
        try:
            with build_worker.offloading():
                job()
        except Exception:               # a job reports its own failures; this is a moshjit bug, keep the thread
            log.exception("moshjit: background compile failed")
        finally:
            with _changed:
                _pending -= 1
                _changed.notify_all()


def wait(timeout: float | None = None) -> bool:
    """Block until every queued compile has finished (tests, benchmarks); False on timeout."""
    with _changed:
        return _changed.wait_for(lambda: _pending == 0, timeout)

"""The interpreter's switch interval while moshjit's compile thread makes many calls that let the GIL go.

A thread that releases the GIL (every ctypes call into LLVM does) must wait to take it back from a busy program
thread, which CPython asks to let go only after a whole switch interval (5 ms by default). An LLVM compile makes
hundreds of such calls: beside spectral_norm's running loop, a compile of ~50 ms took 1.8 s and ended after the
program (benchmarks.md §12.16). ``releasing_often`` shortens the interval to ``SHORT_INTERVAL`` for such a
stretch, on the compile thread only (``mark_compile_thread``): elsewhere the caller is the program itself, which
has nobody to wait for. The program's own interval is put back afterwards, unless it set another one meanwhile; a
shorter one is left alone. A background compile asks for it from its start while LLVM may take the signature (all
arguments have a native form): frontend, typing and the LLVM backend, whose imports and file writes let the GIL go
too (around the ctypes calls alone the compile still took 1.27 s); ``back_to_normal`` ends it where Cython takes
over. Cython builds do without: they wait for the build worker once, and a short interval for their whole job gave
the compile thread more of the GIL than short programs pay back (richards and float at scale 1: 1.37-1.56x
CPython -> 1.47-1.78x).
"""
from __future__ import annotations

import sys
import threading

SHORT_INTERVAL = 0.0005                  # seconds
_thread_state = threading.local()
_lock = threading.Lock()


def mark_compile_thread() -> None:
    """Say that the calling thread is moshjit's compile thread (``moshjit.background``)."""
    _thread_state.compile_thread = True


def on_compile_thread() -> bool:
    """Whether the calling thread is moshjit's compile thread."""
    return getattr(_thread_state, "compile_thread", False)


class releasing_often:
    """A ``with`` block run with a short switch interval if this is the compile thread (see the module's
    docstring); ``end()`` puts the program's interval back before the block ends."""

    def __enter__(self):
        self.previous = self.ours = None
        if on_compile_thread():
            with _lock:
                previous = sys.getswitchinterval()
                if previous > SHORT_INTERVAL:
                    sys.setswitchinterval(SHORT_INTERVAL)
                    self.previous, self.ours = previous, sys.getswitchinterval()   # as CPython rounds it
                    _thread_state.active = self
        return self

    def end(self) -> None:
        with _lock:
            if self.previous is not None and sys.getswitchinterval() == self.ours:
                sys.setswitchinterval(self.previous)
            self.previous = None
            if getattr(_thread_state, "active", None) is self:
                _thread_state.active = None

    def __exit__(self, *exc_info):
        self.end()
        return False


def back_to_normal() -> None:
    """End this thread's short interval now, if it has one: what follows (a Cython build) needs none."""
    active = getattr(_thread_state, "active", None)
    if active is not None:
        active.end()

"""A progress line on standard error while compiling (``MOSHJIT_PROGRESS=1``): long eager warm-ups — a first call
compiling a whole pipeline, ``signatures=``, ``moshjit.precompile`` — show what is being compiled and for how long.
"""
from __future__ import annotations

import os
import sys
import threading

_lock = threading.Lock()
_done = {"count": 0, "seconds": 0.0}


def enabled() -> bool:
    return os.environ.get("MOSHJIT_PROGRESS", "") not in ("", "0")


def compiled(name: str, backend: str, seconds: float) -> None:
    """Note one finished compile: rewrites the line on a terminal, adds one line otherwise."""
    if not enabled():
        return
    with _lock:
        _done["count"] += 1
        _done["seconds"] += seconds
        line = (f"moshjit: {_done['count']} compiled, {_done['seconds']:.1f} s compiling (last: {name} with "
                f"{backend}, {seconds:.2f} s)")
        stream = sys.stderr
        stream.write(f"\r{line}\x1b[K" if stream.isatty() else line + "\n")
        stream.flush()

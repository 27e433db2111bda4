"""Benchmarks of compiled speed time the steady state, so their jitted functions compile at the first call.

Under the default tiers (``docs/tiers.md``) a function runs as plain Python until it is hot and is then compiled
in the background; the code it is promoted to is the code ``MOSHJIT_TIER=eager`` compiles at the first call. A
benchmark that times rounds of warm calls therefore asks for eager compilation, so no round is timed while a
promotion is pending (and its compile-time columns keep meaning "the first call"); the cold-start benchmark
(``benchmarks/tiering/cold_start.py``) measures the default tiers. An explicit ``MOSHJIT_TIER`` wins.
"""
from __future__ import annotations

import os


def compile_at_first_call() -> None:
    """Make every ``@jit`` decorated after this compile at its first call (inherited by child processes)."""
    os.environ.setdefault("MOSHJIT_TIER", "eager")

"""moshjit's version, in a module of its own so that any layer can read it without importing the public API."""
from __future__ import annotations

import sys

__version__ = "0.1.0"

SUPPORTED_PYTHONS = ((3, 11), (3, 12), (3, 13))
"""The CPython versions moshjit compiles for: the one list (the frontend's opcode tables, CI and the version
gate at decoration time all read it)."""


def unsupported_python(version_info=None) -> str | None:
    """One line saying that this interpreter is outside ``SUPPORTED_PYTHONS``, or None when it is supported."""
    major, minor = (version_info or sys.version_info)[:2]
    if (major, minor) in SUPPORTED_PYTHONS:
        return None
    names = [f"{a}.{b}" for a, b in SUPPORTED_PYTHONS]
    return f"moshjit supports CPython {', '.join(names[:-1])} and {names[-1]}; this is {major}.{minor}"

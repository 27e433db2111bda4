"""moshjit's version and the CPython versions it compiles for, in a module of their own so that any layer can read
them without importing the public API. ``SUPPORTED_PYTHONS`` is the one list: the frontend's opcode tables, the
decoration-time check, CI (.ci/pythons.py) and pyproject's ``requires-python`` (checked by
tests/usability/test_api.py) all follow it."""
from __future__ import annotations

import sys

__version__ = "0.1.0"
SUPPORTED_PYTHONS = ((3, 11), (3, 12), (3, 13))


def unsupported_python(version_info=None) -> str | None:
    """One line saying that this interpreter is outside ``SUPPORTED_PYTHONS``, or None when it is supported."""
    major, minor = (version_info or sys.version_info)[:2]
    if (major, minor) in SUPPORTED_PYTHONS:
        return None
    names = [f"{a}.{b}" for a, b in SUPPORTED_PYTHONS]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"moshjit supports CPython {listed}; this is {major}.{minor}"

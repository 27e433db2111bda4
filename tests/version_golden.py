"""Golden files per CPython version. ``<dir>/<name>`` holds what CPython 3.11 (the reference) gives; where another
version's bytecode makes the output differ, ``<dir>/py3XX/<name>`` holds that version's. Updating on a version
writes only its own file, and removes it again when the output agrees with the reference."""
from __future__ import annotations

import sys
from pathlib import Path

REFERENCE_PYTHON = (3, 11)


def own_path(path: Path, version: tuple[int, int] | None = None) -> Path | None:
    """Where the running (or the given) CPython keeps its own expectation for ``path``; None for the reference."""
    major, minor = version or sys.version_info[:2]
    if (major, minor) == REFERENCE_PYTHON:
        return None
    return path.parent / f"py{major}{minor}" / path.name


def expected(path: Path) -> str:
    """What the running CPython must produce for the golden file ``path``."""
    own = own_path(path)
    return (own if own is not None and own.exists() else path).read_text(encoding="utf-8")


def update(path: Path, text: str) -> None:
    """Accept ``text`` as the running CPython's output for ``path``."""
    own = own_path(path)
    if own is None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    elif path.exists() and path.read_text(encoding="utf-8") == text:
        own.unlink(missing_ok=True)
    else:
        own.parent.mkdir(parents=True, exist_ok=True)
        own.write_text(text, encoding="utf-8")

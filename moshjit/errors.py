"""The two public error types: what cannot be compiled, and what we fell back on."""
from __future__ import annotations


class UnsupportedError(Exception):
    """A construct moshjit cannot compile, located at file:line of the user's source."""

    def __init__(self, construct: str, filename: str | None = None, lineno: int | None = None,
                 hint: str | None = None):
        self.construct = construct
        self.filename = filename
        self.lineno = lineno
        self.hint = hint
        where = f"{filename or '<unknown>'}:{lineno if lineno is not None else '?'}: " if filename or lineno else ""
        message = f"{where}unsupported: {construct}"
        if hint:
            message += f"\n  hint: {hint}"
        super().__init__(message)


class MoshjitWarning(UserWarning):
    """Emitted when a jitted function falls back to the plain Python function."""

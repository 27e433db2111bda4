"""LLVM backend (being built): until it exists, 'auto' always uses the Cython backend."""
from __future__ import annotations

from moshjit.errors import UnsupportedError


def compile_llvm(ir, py_function, key, cache, fallback, required: bool):
    """Return an Artifact, or None to let 'auto' use Cython; with ``required``, refuse clearly."""
    if required:
        raise UnsupportedError("backend='llvm' is not available yet", ir.filename, ir.firstlineno)
    return None

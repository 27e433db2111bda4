"""moshjit: compile plain Python functions to native code through a bytecode-derived SSA IR.

Public names: ``jit``, ``precompile``, ``to_ssa``, ``UnsupportedError``, ``MoshjitWarning``, ``__version__``.
Everything heavy (the frontend, Cython, llvmlite) is imported lazily so that ``import moshjit`` stays cheap.
"""
from __future__ import annotations

from moshjit._version import __version__
from moshjit.errors import MoshjitWarning, UnsupportedError

__all__ = ["jit", "precompile", "to_ssa", "UnsupportedError", "MoshjitWarning", "__version__"]
_LAZY = {"jit", "precompile"}            # from moshjit.dispatcher, imported at first use


def to_ssa(fn):
    """Translate ``fn``'s CPython bytecode into a verified SSA ``moshjit.ir.Function``."""
    from moshjit.frontend import build_ssa
    return build_ssa(fn)


def load_ipython_extension(ipython):
    """``%load_ext moshjit``: syntax extensions in cells and the ``%%moshjit`` magics."""
    from moshjit.notebook import load_ipython_extension as load
    load(ipython)


def unload_ipython_extension(ipython):
    from moshjit.notebook import unload_ipython_extension as unload
    unload(ipython)


def __getattr__(name):
    if name in _LAZY:
        from moshjit import dispatcher
        return getattr(dispatcher, name)
    raise AttributeError(f"module 'moshjit' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _LAZY)

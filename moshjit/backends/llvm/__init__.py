"""The LLVM backend: typed SSA → LLVM IR (φ kept) → native code cached on disk → a builtin per specialisation.

Its interface is the backends' common one, ``compile(ir, ctx)`` and ``load_cached(ctx)`` (``backend.py``); the
lowering lives in ``lower.py`` and the modules it uses, the entry wrapper in ``entry.py``, the cache index in
``store.py``. See docs/llvm-backend.md.
"""
from moshjit.backends.llvm.backend import compile, load_cached

__all__ = ["compile", "load_cached"]

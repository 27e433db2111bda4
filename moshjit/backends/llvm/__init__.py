"""The LLVM backend: typed SSA → LLVM IR (φ kept) → native code cached on disk → a builtin per specialisation.

Its interface is the backends' common one, ``compile(ir, ctx)`` and ``load_cached(ctx)`` (``backend.py``,
imported at the first use, not when the driver imports this package); the lowering lives in ``lower.py`` and the
modules it uses, the entry wrapper in ``entry.py``, the cache index in ``store.py``. See docs/llvm-backend.md.
"""


def compile(ir, ctx):
    """The LLVM artifact of ``ir``, or None when the function has no native form (``backend.compile``)."""
    from moshjit.backends.llvm.backend import compile as compile_typed_ssa
    return compile_typed_ssa(ir, ctx)


def load_cached(ctx):
    """The artifact the cache index records for ``ctx``'s function and signature, or None
    (``backend.load_cached``)."""
    from moshjit.backends.llvm.backend import load_cached as load_recorded
    return load_recorded(ctx)


def takes_arguments(key) -> bool:
    """Whether every argument of signature ``key`` has a native form (``backend.takes_arguments``)."""
    from moshjit.backends.llvm.backend import takes_arguments as all_native
    return all_native(key)


__all__ = ["compile", "load_cached", "takes_arguments"]

"""The Cython backend: typed SSA → out-of-SSA → structured statements → typed .pyx → extension module.

Its interface is the backends' common one, ``compile(ir, ctx)`` and ``load_cached(ctx)``; ``backend.py`` holds
``compile``, imported at the first compile, so a program whose functions all stay in tier 0 or load from the
cache never imports this backend's modules (each import adds objects every full garbage collection traverses).
``generate.py`` drives ``out_of_ssa.py``, ``structure.py``, ``coalesce.py``, ``plan.py`` and ``emit.py``;
``build.py`` compiles and loads generated modules with the toolchain of ``moshjit.runtime``.
"""


def compile(ir, ctx):
    """The Cython artifact of ``ir`` (``backend.compile``)."""
    from moshjit.backends.cython.backend import compile as compile_typed_ssa
    return compile_typed_ssa(ir, ctx)


def warm(cache) -> None:
    """Get the toolchain's build worker ready for a first build that may come soon (``CythonToolchain.warm``)."""
    from moshjit.backends.cython.build import toolchain_for
    toolchain_for(cache).warm()


def load_cached(ctx) -> None:
    """Nothing: a generated module is found in the cache by its text, which needs the typed SSA."""
    return None


__all__ = ["compile", "load_cached", "warm"]

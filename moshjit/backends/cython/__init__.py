"""The Cython backend: typed SSA → out-of-SSA → structured statements → typed .pyx → extension module.

Its interface is the backends' common one, ``compile(ir, ctx)`` and ``load_cached(ctx)`` (``backend.py``).
``generate.py`` drives ``out_of_ssa.py``, ``structure.py``, ``coalesce.py``, ``plan.py`` and ``emit.py``;
``build.py`` compiles and loads generated modules with the toolchain of ``moshjit.runtime``.
"""
from moshjit.backends.cython.backend import compile, load_cached

__all__ = ["compile", "load_cached"]

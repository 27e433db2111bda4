"""The runtime every compiled function uses (mypyc's ``lib-rt`` is the model): Cython support modules compiled
when moshjit is installed (or, failing that, once per machine into the cache) — the helpers generated code cimports (``moshjit_rt.pyx``/``.pxd``, with the Unicode tables of
``unicode_tables.py``) and the C call path of ``@jit`` functions (``moshjit_dispatch.pyx``) — and the toolchain
that builds them and the Cython backend's modules (``toolchain.py``, ``support.py``).

It sits below the backends and the dispatcher: both use it; it imports neither.
"""
from __future__ import annotations


def ensure_support(cache) -> None:
    """Build (once per machine, kept in ``cache``) and import the support modules."""
    from moshjit.runtime.support import support_for
    support_for(cache).ensure()


def compiled_dispatcher_core(cache) -> type:
    """``moshjit_dispatch.DispatcherCore``: the call path of ``@jit`` functions in C (built if needed)."""
    ensure_support(cache)
    from moshjit.runtime import moshjit_dispatch
    return moshjit_dispatch.DispatcherCore

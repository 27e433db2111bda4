"""The runtime every compiled function uses (mypyc's ``lib-rt`` is the model): Cython support modules compiled
when moshjit is installed (or, failing that, once per machine into the cache) — the helpers generated code cimports (``moshjit_rt.pyx``/``.pxd``, with the Unicode tables of
``unicode_tables.py``) and the C call path of ``@jit`` functions (``moshjit_dispatch.pyx``) — and the toolchain
that builds them and the Cython backend's modules (``toolchain.py``, ``support.py``).

It sits below the backends and the dispatcher: both use it; it imports neither.
"""
from __future__ import annotations


def compiled_dispatcher_core(cache) -> type:
    """``moshjit_dispatch.DispatcherCore``: the call path of ``@jit`` functions in C (built, once per machine and
    kept in ``cache``, if needed). Only the call path's modules are imported: the helpers generated code uses
    wait for the first generated module."""
    from moshjit.runtime.support import CALL_PATH_MODULES, support_for
    support_for(cache).ensure(CALL_PATH_MODULES)
    from moshjit.runtime import moshjit_dispatch
    return moshjit_dispatch.DispatcherCore

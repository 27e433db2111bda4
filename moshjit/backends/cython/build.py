"""Turn generated .pyx text into a loaded extension module, with the runtime's support modules in place first.

Cython and gcc are driven by ``moshjit.runtime.toolchain``; generated modules are compiled at ``GENERATED_OPT``
and use Cython's shared utility module and the ``moshjit_rt`` helpers (``moshjit.runtime.support``).
"""
from __future__ import annotations

import logging
import os
import threading
import time

from moshjit.backends.cython.prelude import PRELUDE
from moshjit.cache import DiskCache, scratch
from moshjit.runtime import build_worker
from moshjit.runtime.support import support_for
from moshjit.runtime.toolchain import EXT_SUFFIX, GENERATED_OPT

log = logging.getLogger("moshjit")
_lock = threading.RLock()
HEADERS = "headers"                       # the cache's namespace for precompiled headers (toolchain.compile_c)
WARM_MODULE = "_mj_warm"                  # the module ``warm`` cythonizes (never compiled or loaded)
WARM_BODY = "\n\ncdef int _mj_set_constants(tuple constants) except -1:\n    return 0\n"     # what the prelude's _mj_setup calls


class CythonToolchain:
    """Builds generated modules against the support modules of one cache directory."""

    def __init__(self, cache: DiskCache):
        self.cache = cache
        self.support = support_for(cache)
        self._warming = False

    @property
    def fingerprint(self) -> str:
        return self.support.fingerprint

    def ensure_support(self) -> None:
        self.support.ensure()

    def warm(self) -> None:
        """Start the background build worker and warm Cython in it, on a thread of its own, once per toolchain:
        what the first build would otherwise wait for (~0.5 s: Cython's compiler imported, the .pxd files every
        generated module cimports parsed) then happens while the compile thread runs the frontend and typing.
        Nothing with in-process builds. A failure here is only logged: the build itself reports its own."""
        with _lock:
            if self._warming or not build_worker.enabled():
                return
            self._warming = True
        threading.Thread(target=self._warm, name="moshjit-warm", daemon=True).start()

    def _warm(self) -> None:
        try:
            with scratch() as workdir:
                pyx_path = os.path.join(workdir, WARM_MODULE + ".pyx")
                with open(pyx_path, "w", encoding="utf-8") as f:
                    f.write(PRELUDE + WARM_BODY)
                timings = build_worker.warm(pyx_path, WARM_MODULE, os.path.join(workdir, WARM_MODULE + ".c"))
            log.debug("moshjit: build worker warm in %.3f s", timings["cython_s"])
        except Exception as exc:          # BuildCancelled at exit, a worker that died: the next build reports
            log.debug("moshjit: warming the build worker failed: %s", exc)

    def build(self, pyx_text: str, module_name: str) -> tuple[bytes, dict]:
        """Compile a generated module; returns the shared object's bytes and the time spent per step. Cython and
        gcc run in a build worker process, away from the program's GIL and its heap (``build_worker``)."""
        self.ensure_support()
        with scratch() as workdir:
            pyx_path = os.path.join(workdir, module_name + ".pyx")
            with open(pyx_path, "w", encoding="utf-8") as f:
                f.write(pyx_text)
            c_path = os.path.join(workdir, module_name + ".c")
            so_path = os.path.join(workdir, module_name + EXT_SUFFIX)
            start = time.perf_counter()
            in_worker = build_worker.enabled()
            build = build_worker.build if in_worker else build_worker.build_here
            timings = build(pyx_path, module_name, c_path, so_path, GENERATED_OPT, self.cache.directory(HEADERS))
            if in_worker:
                timings["build_worker_s"] = round(time.perf_counter() - start, 4)
            with open(so_path, "rb") as f:
                data = f.read()
        return data, timings


_toolchains: dict[str, CythonToolchain] = {}


def toolchain_for(cache: DiskCache) -> CythonToolchain:
    """One toolchain per cache directory, shared by every compilation in the process."""
    with _lock:
        if cache.root not in _toolchains:
            _toolchains[cache.root] = CythonToolchain(cache)
        return _toolchains[cache.root]

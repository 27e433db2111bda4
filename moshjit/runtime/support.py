"""The support modules every compiled function uses, built once per machine and kept in the on-disk cache:
Cython's shared utility code (``moshjit_cyshared``, which makes every generated module's C a third smaller and
gcc correspondingly faster), the runtime helpers (``moshjit_rt``, cimported by generated code through
``moshjit_rt.pxd``) and the call path of ``@jit`` functions (``moshjit_dispatch``).
"""
from __future__ import annotations

import hashlib
import logging
import os
import sys
import time

from moshjit.cache import DiskCache, scratch
from moshjit.runtime.toolchain import (NAMESPACE, RUNTIME_DIR, SHARED_MODULE, SUPPORT_OPT, EXT_SUFFIX, BuildError,
                                       compile_to_bytes, cython_options, cythonize_file, load_extension, lock,
                                       toolchain_fingerprint)

log = logging.getLogger("moshjit")
RUNTIME_MODULE = "moshjit_rt"
DISPATCH_MODULE = "moshjit_dispatch"


class SupportModules:
    """The support modules for one cache directory: built if the cache lacks them, then imported."""

    def __init__(self, cache: DiskCache):
        self.cache = cache
        self._ready = False
        self._fingerprint = None

    @property
    def fingerprint(self) -> str:
        if self._fingerprint is None:
            self._fingerprint = toolchain_fingerprint()
        return self._fingerprint

    def ensure(self) -> None:
        """Build (once per machine) and import the shared utility module, the runtime helpers and the call path."""
        with lock:
            if self._ready:
                return
            for name, builder in ((SHARED_MODULE, _build_shared), (RUNTIME_MODULE, _build_runtime),
                                  (DISPATCH_MODULE, _build_dispatch)):
                if name in sys.modules:
                    continue
                key = hashlib.sha256(f"{name};{self.fingerprint}".encode()).hexdigest()[:40]
                with self.cache.lock(NAMESPACE, key):
                    entry = self.cache.load(NAMESPACE, key, EXT_SUFFIX)
                    if entry is None:
                        start = time.perf_counter()
                        data = builder()
                        self.cache.store(NAMESPACE, key, EXT_SUFFIX, data, {"module": name,
                                                                            "toolchain": self.fingerprint})
                        log.info("built %s in %.1f s", name, time.perf_counter() - start)
                        entry = self.cache.load(NAMESPACE, key, EXT_SUFFIX)
                load_extension(entry[0], name)
            self._ready = True


def _build_shared() -> bytes:
    from Cython.Build.SharedModule import generate_shared_module
    from Cython.Compiler import Errors
    with scratch() as workdir:
        c_path = os.path.join(workdir, SHARED_MODULE + ".c")
        options = cython_options(c_path, False, SHARED_MODULE)
        options.shared_c_file_path = c_path
        options.shared_utility_qualified_name = None
        Errors.init_thread()
        err, _ = generate_shared_module(options)
        if err:
            raise BuildError(f"Cython could not generate its shared utility module: {err}")
        return compile_to_bytes(c_path, workdir, SHARED_MODULE, SUPPORT_OPT)


def _build_runtime() -> bytes:
    from moshjit.runtime.unicode_tables import HEADER_NAME, generate_header
    with scratch() as workdir:
        with open(os.path.join(workdir, HEADER_NAME), "w", encoding="ascii") as f:
            f.write(generate_header())
        c_path = os.path.join(workdir, RUNTIME_MODULE + ".c")
        cythonize_file(os.path.join(RUNTIME_DIR, RUNTIME_MODULE + ".pyx"), RUNTIME_MODULE, c_path)
        return compile_to_bytes(c_path, workdir, RUNTIME_MODULE, SUPPORT_OPT)


def _build_dispatch() -> bytes:
    with scratch() as workdir:
        c_path = os.path.join(workdir, DISPATCH_MODULE + ".c")
        cythonize_file(os.path.join(RUNTIME_DIR, DISPATCH_MODULE + ".pyx"), DISPATCH_MODULE, c_path)
        return compile_to_bytes(c_path, workdir, DISPATCH_MODULE, SUPPORT_OPT)


_support: dict[str, SupportModules] = {}


def support_for(cache: DiskCache) -> SupportModules:
    """One set of support modules per cache directory, shared by every compilation in the process."""
    with lock:
        if cache.root not in _support:
            _support[cache.root] = SupportModules(cache)
        return _support[cache.root]

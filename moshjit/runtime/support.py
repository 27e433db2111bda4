"""The support modules every compiled function uses: Cython's shared utility code (``moshjit_cyshared``, which
makes every generated module's C a third smaller and gcc correspondingly faster), the runtime helpers
(``moshjit_rt``, cimported by generated code through ``moshjit_rt.pxd``), str views, native dict indexes and lists
built in one go (``moshjit_text``, through ``moshjit_text.pxd``) and the call path of ``@jit`` functions
(``moshjit_dispatch``), all submodules of ``moshjit.runtime``.

An installed moshjit carries them compiled (``setup.py`` builds them with ``generate_c`` below and records their
``runtime_fingerprint`` in ``prebuilt.<cache tag>.json``, one record per interpreter, since a source tree holds the
modules of every CPython installed from it side by side). They are used when that record matches the current fingerprint;
otherwise — the runtime's sources were edited after an editable install, or Cython was changed after installing —
they are built once into the on-disk cache, so generated modules always compile against the runtime in use.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import logging
import os
import sys
import time

from moshjit.cache import DiskCache, scratch
from moshjit.runtime.toolchain import (EXT_SUFFIX, NAMESPACE, RUNTIME_DIR, RUNTIME_PACKAGE, SHARED_MODULE,
                                       SUPPORT_OPT, BuildError, compile_to_bytes, cython_options, cythonize_file,
                                       load_extension, lock, rewrite_c, runtime_fingerprint,
                                       toolchain_fingerprint, with_handled_exceptions_kept,
                                       with_native_coroutines_sent, with_owned_scopes, with_private_abi,
                                       without_frames)

log = logging.getLogger("moshjit")
RUNTIME_MODULE = f"{RUNTIME_PACKAGE}.moshjit_rt"
DISPATCH_MODULE = f"{RUNTIME_PACKAGE}.moshjit_dispatch"
TEXT_MODULE = f"{RUNTIME_PACKAGE}.moshjit_text"
SUPPORT_MODULES = (SHARED_MODULE, RUNTIME_MODULE, TEXT_MODULE, DISPATCH_MODULE)      # in import order
CALL_PATH_MODULES = (SHARED_MODULE, DISPATCH_MODULE)      # what the C call path of ``@jit`` functions imports
PREBUILT_RECORD = os.path.join(RUNTIME_DIR, f"prebuilt.{sys.implementation.cache_tag}.json")


def short_name(module: str) -> str:
    return module.rpartition(".")[2]


def generate_c(module: str, workdir: str) -> str:
    """Write the C of support module ``module`` (and any header it includes) into ``workdir``; its path.
    The one recipe for the runtime's C, used by ``setup.py`` and by builds on demand."""
    os.makedirs(workdir, exist_ok=True)
    c_path = os.path.join(workdir, short_name(module) + ".c")
    if module == SHARED_MODULE:
        from Cython.Build.SharedModule import generate_shared_module
        from Cython.Compiler import Errors
        options = cython_options(c_path, False, SHARED_MODULE)
        options.shared_c_file_path = c_path
        options.shared_utility_qualified_name = None
        with lock:
            Errors.init_thread()
            err, _ = generate_shared_module(options)
        if err:
            raise BuildError(f"Cython could not generate its shared utility module: {err}")
        rewrite_c(c_path, with_private_abi)
        return c_path
    if module == RUNTIME_MODULE:
        from moshjit.runtime.unicode_tables import HEADER_NAME, generate_header
        with open(os.path.join(workdir, HEADER_NAME), "w", encoding="ascii") as f:
            f.write(generate_header())
    cythonize_file(os.path.join(RUNTIME_DIR, short_name(module) + ".pyx"), module, c_path)
    rewrite_c(c_path, lambda c: with_native_coroutines_sent(with_owned_scopes(with_private_abi(
        with_handled_exceptions_kept(without_frames(c))))))
    return c_path


def prebuilt_fingerprint() -> str | None:
    """The runtime fingerprint recorded when the installed support modules were compiled, or None."""
    try:
        with open(PREBUILT_RECORD, encoding="utf-8") as f:
            return json.load(f).get("fingerprint")
    except (OSError, ValueError, AttributeError):
        return None


class SupportModules:
    """The support modules for one cache directory: the installed ones when they match, else built into the
    cache if it lacks them; then imported. ``origin`` says which ('prebuilt' or 'cache')."""

    def __init__(self, cache: DiskCache):
        self.cache = cache
        self._imported: set[str] = set()
        self._fingerprint = None
        self.origin = None

    @property
    def fingerprint(self) -> str:
        """The toolchain fingerprint generated modules are keyed by (it includes the runtime's)."""
        if self._fingerprint is None:
            self._fingerprint = toolchain_fingerprint()
        return self._fingerprint

    def ensure(self, modules: tuple[str, ...] = SUPPORT_MODULES) -> None:
        """Import ``modules`` (by default all: the shared utility module, the runtime helpers and the call path),
        building them if needed. The call path alone (``CALL_PATH_MODULES``) is what a program whose functions
        stay in tier 0 needs; generated modules need the rest, imported at the first Cython build or load."""
        with lock:
            wanted = tuple(name for name in SUPPORT_MODULES if name in modules and name not in self._imported)
            if not wanted:
                return
            if all(name in sys.modules for name in wanted):
                self.origin = self.origin or "loaded"
            elif prebuilt_fingerprint() == runtime_fingerprint():
                for name in wanted:
                    importlib.import_module(name)
                self.origin = "prebuilt"
            else:
                self._load_from_cache(wanted)
                self.origin = "cache"
            self._imported.update(wanted)

    def _load_from_cache(self, modules: tuple[str, ...]) -> None:
        recorded = prebuilt_fingerprint()
        for name in modules:
            if name in sys.modules:
                continue
            key = hashlib.sha256(f"{name};{self.fingerprint}".encode()).hexdigest()[:40]
            with self.cache.lock(NAMESPACE, key):
                entry = self.cache.load(NAMESPACE, key, EXT_SUFFIX)
                if entry is None:
                    log.warning("moshjit: building its runtime module %s (once per machine%s)", short_name(name),
                                "; the installed one was built from other sources or another Cython"
                                if recorded else "")
                    start = time.perf_counter()
                    with scratch() as workdir:
                        data = compile_to_bytes(generate_c(name, workdir), workdir, name, SUPPORT_OPT)
                    self.cache.store(NAMESPACE, key, EXT_SUFFIX, data, {"module": short_name(name),
                                                                        "toolchain": self.fingerprint})
                    log.info("built %s in %.1f s", name, time.perf_counter() - start)
                    entry = self.cache.load(NAMESPACE, key, EXT_SUFFIX)
            load_extension(entry[0], name)


_support: dict[str, SupportModules] = {}


def support_for(cache: DiskCache) -> SupportModules:
    """One set of support modules per cache directory, shared by every compilation in the process."""
    with lock:
        if cache.root not in _support:
            _support[cache.root] = SupportModules(cache)
        return _support[cache.root]

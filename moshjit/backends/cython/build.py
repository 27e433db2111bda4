"""Turn generated .pyx text into a loaded extension module: Cython in-process (kept warm), gcc called directly.

No setuptools, pyximport or cython.inline (importing those alone costs about a second). Two support modules are
built once per machine and cached: Cython's shared utility code (``moshjit_cyshared``, which makes every
generated module's C a third smaller and gcc correspondingly faster) and our runtime helpers (``moshjit_rt``).
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import logging
import os
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time

from moshjit.cache import DiskCache, versions

log = logging.getLogger("moshjit")
_lock = threading.RLock()
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
CFLAGS = ["-fPIC", "-fwrapv", "-fno-strict-aliasing", "-DNDEBUG", "-w"]
# Generated modules are compiled at -O1: measured against -O2 on the BERT pipeline and the eight numeric kernels
# their code runs equally fast (within 2%; it is mostly calls into the C API), while gcc takes ~40% less time
# (0.40 s instead of 0.69 s for strip_accents), which is most of a first call's compile. The support modules
# are built once per machine, so they get -O2.
GENERATED_OPT, SUPPORT_OPT = "-O1", "-O2"
SHARED_MODULE = "moshjit_cyshared"
RUNTIME_MODULE = "moshjit_rt"
DISPATCH_MODULE = "moshjit_dispatch"
RUNTIME_DIR = os.path.join(os.path.dirname(__file__), "runtime")
NAMESPACE = "cython"


class BuildError(RuntimeError):
    """Cython or the C compiler rejected generated code (a moshjit bug: the message has the details)."""


def _compiler() -> list[str]:
    cc = os.environ.get("MOSHJIT_CC") or sysconfig.get_config_var("CC") or "gcc"
    return cc.split()


def toolchain_fingerprint() -> str:
    """What the support modules and every generated module depend on besides their own text."""
    import unicodedata

    import Cython
    digest = hashlib.sha256()
    for path in (os.path.join(RUNTIME_DIR, RUNTIME_MODULE + ".pyx"), os.path.join(RUNTIME_DIR, RUNTIME_MODULE + ".pxd"),
                 os.path.join(RUNTIME_DIR, DISPATCH_MODULE + ".pyx"),
                 os.path.join(os.path.dirname(__file__), "unicode_tables.py")):
        with open(path, "rb") as f:
            digest.update(f.read())
    digest.update(" ".join(_compiler() + CFLAGS + [GENERATED_OPT, SUPPORT_OPT]).encode())
    return (f"{versions()};cython-{Cython.__version__};unicode-{unicodedata.unidata_version};"
            f"{digest.hexdigest()[:16]}")


def _options(c_path: str, shared: bool, module_name: str):
    from Cython.Compiler import Main
    return Main.CompilationOptions(
        Main.default_options, output_file=c_path, language_level=3, quiet=True, module_name=module_name,
        include_path=[RUNTIME_DIR], shared_utility_qualified_name=SHARED_MODULE if shared else None)


def cythonize_file(pyx_path: str, module_name: str, c_path: str) -> None:
    from Cython.Compiler import Errors, Main
    options = _options(c_path, True, module_name)
    with _lock:                                   # Cython's compiler keeps global state
        Errors.init_thread()
        try:
            result = Main.compile_single(pyx_path, options, full_module_name=module_name)
        except Exception as exc:                  # Cython reports some errors as exceptions
            raise BuildError(f"Cython failed on {pyx_path}: {exc}") from exc
    if result is None or result.num_errors:
        raise BuildError(f"Cython reported errors in {pyx_path}")


def compile_c(c_path: str, so_path: str, optimize: str) -> None:
    include = sysconfig.get_paths()["include"]
    command = _compiler() + [optimize] + CFLAGS + ["-shared", f"-I{include}", f"-I{os.path.dirname(c_path)}", c_path,
                                      "-o", so_path]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"C compiler failed on {c_path}:\n{proc.stderr[-4000:]}")


def load_extension(so_path: str, module_name: str):
    """Load an extension module from a file and register it in sys.modules under its name."""
    loader = importlib.machinery.ExtensionFileLoader(module_name, so_path)
    spec = importlib.util.spec_from_file_location(module_name, so_path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        loader.exec_module(module)
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    return module


class CythonToolchain:
    """Builds and loads generated modules, with the support modules in place first."""

    def __init__(self, cache: DiskCache):
        self.cache = cache
        self._support_ready = False
        self._fingerprint = None

    @property
    def fingerprint(self) -> str:
        if self._fingerprint is None:
            self._fingerprint = toolchain_fingerprint()
        return self._fingerprint

    def ensure_support(self) -> None:
        """Build (once per machine) and import the shared utility module and the runtime helpers."""
        with _lock:
            if self._support_ready:
                return
            for name, builder in ((SHARED_MODULE, self._build_shared), (RUNTIME_MODULE, self._build_runtime),
                                  (DISPATCH_MODULE, self._build_dispatch)):
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
            self._support_ready = True

    def _build_shared(self) -> bytes:
        from Cython.Build.SharedModule import generate_shared_module
        from Cython.Compiler import Errors
        with tempfile.TemporaryDirectory(prefix="moshjit-build-") as workdir:
            c_path = os.path.join(workdir, SHARED_MODULE + ".c")
            options = _options(c_path, False, SHARED_MODULE)
            options.shared_c_file_path = c_path
            options.shared_utility_qualified_name = None
            Errors.init_thread()
            err, _ = generate_shared_module(options)
            if err:
                raise BuildError(f"Cython could not generate its shared utility module: {err}")
            return self._compile_to_bytes(c_path, workdir, SHARED_MODULE, SUPPORT_OPT)

    def _build_runtime(self) -> bytes:
        from moshjit.backends.cython.unicode_tables import HEADER_NAME, generate_header
        with tempfile.TemporaryDirectory(prefix="moshjit-build-") as workdir:
            with open(os.path.join(workdir, HEADER_NAME), "w", encoding="ascii") as f:
                f.write(generate_header())
            c_path = os.path.join(workdir, RUNTIME_MODULE + ".c")
            cythonize_file(os.path.join(RUNTIME_DIR, RUNTIME_MODULE + ".pyx"), RUNTIME_MODULE, c_path)
            return self._compile_to_bytes(c_path, workdir, RUNTIME_MODULE, SUPPORT_OPT)

    def _build_dispatch(self) -> bytes:
        with tempfile.TemporaryDirectory(prefix="moshjit-build-") as workdir:
            c_path = os.path.join(workdir, DISPATCH_MODULE + ".c")
            cythonize_file(os.path.join(RUNTIME_DIR, DISPATCH_MODULE + ".pyx"), DISPATCH_MODULE, c_path)
            return self._compile_to_bytes(c_path, workdir, DISPATCH_MODULE, SUPPORT_OPT)

    @staticmethod
    def _compile_to_bytes(c_path: str, workdir: str, name: str, optimize: str) -> bytes:
        so_path = os.path.join(workdir, name + EXT_SUFFIX)
        compile_c(c_path, so_path, optimize)
        with open(so_path, "rb") as f:
            return f.read()

    def build(self, pyx_text: str, module_name: str) -> tuple[bytes, dict]:
        """Compile a generated module; returns the shared object's bytes and the time spent per step."""
        self.ensure_support()
        timings = {}
        with tempfile.TemporaryDirectory(prefix="moshjit-build-") as workdir:
            pyx_path = os.path.join(workdir, module_name + ".pyx")
            with open(pyx_path, "w", encoding="utf-8") as f:
                f.write(pyx_text)
            c_path = os.path.join(workdir, module_name + ".c")
            start = time.perf_counter()
            cythonize_file(pyx_path, module_name, c_path)
            timings["cython_s"] = round(time.perf_counter() - start, 4)
            start = time.perf_counter()
            data = self._compile_to_bytes(c_path, workdir, module_name, GENERATED_OPT)
            timings["cc_s"] = round(time.perf_counter() - start, 4)
        return data, timings


_toolchains: dict[str, CythonToolchain] = {}


def toolchain_for(cache: DiskCache) -> CythonToolchain:
    """One toolchain per cache directory, shared by every compilation in the process."""
    with _lock:
        if cache.root not in _toolchains:
            _toolchains[cache.root] = CythonToolchain(cache)
        return _toolchains[cache.root]

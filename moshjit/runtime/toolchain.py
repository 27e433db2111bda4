"""Cython and the C compiler, driven directly: a .pyx file → C → a shared object → a loaded extension module.

No setuptools, pyximport or cython.inline (importing those alone costs about a second): Cython runs in-process
(imported once, kept warm) and gcc is called on the C it writes. Used to build the runtime's support modules
(``support.py``) and the Cython backend's generated modules.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import sysconfig
import threading

from moshjit.cache import versions

lock = threading.RLock()                  # Cython's compiler keeps global state
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
CFLAGS = ["-fPIC", "-fwrapv", "-fno-strict-aliasing", "-DNDEBUG", "-w"]
# Generated modules are compiled at -O1: measured against -O2 on the BERT pipeline and the eight numeric kernels
# their code runs equally fast (within 2%; it is mostly calls into the C API), while gcc takes ~40% less time
# (0.40 s instead of 0.69 s for strip_accents), which is most of a first call's compile. The support modules
# are built once per machine, so they get -O2.
GENERATED_OPT, SUPPORT_OPT = "-O1", "-O2"
RUNTIME_DIR = os.path.dirname(os.path.abspath(__file__))     # the .pyx/.pxd of the support modules
SHARED_MODULE = "moshjit_cyshared"        # Cython's utility code, shared by every generated module
NAMESPACE = "cython"                      # where built modules live in the on-disk cache


class BuildError(RuntimeError):
    """Cython or the C compiler rejected generated code (a moshjit bug: the message has the details)."""


def compiler_command() -> list[str]:
    """The C compiler: ``MOSHJIT_CC``, else the one CPython was built with."""
    cc = os.environ.get("MOSHJIT_CC") or sysconfig.get_config_var("CC") or "gcc"
    return cc.split()


def toolchain_fingerprint() -> str:
    """What the support modules and every generated module depend on besides their own text."""
    import unicodedata

    import Cython
    digest = hashlib.sha256()
    for name in ("moshjit_rt.pyx", "moshjit_rt.pxd", "moshjit_dispatch.pyx", "unicode_tables.py", "moshjit_text.pyx",
                 "moshjit_text.pxd"):
        with open(os.path.join(RUNTIME_DIR, name), "rb") as f:
            digest.update(f.read())
    digest.update(" ".join(compiler_command() + CFLAGS + [GENERATED_OPT, SUPPORT_OPT]).encode())
    return (f"{versions()};cython-{Cython.__version__};unicode-{unicodedata.unidata_version};"
            f"{digest.hexdigest()[:16]}")


def cython_options(c_path: str, shared: bool, module_name: str):
    """Cython's options for one module: C written to ``c_path``, the runtime's .pxd files on the include path,
    and (``shared``) utility code taken from the shared module."""
    from Cython.Compiler import Main
    return Main.CompilationOptions(
        Main.default_options, output_file=c_path, language_level=3, quiet=True, module_name=module_name,
        include_path=[RUNTIME_DIR], shared_utility_qualified_name=SHARED_MODULE if shared else None)


def cythonize_file(pyx_path: str, module_name: str, c_path: str) -> None:
    from Cython.Compiler import Errors, Main
    options = cython_options(c_path, True, module_name)
    with lock:
        Errors.init_thread()
        try:
            result = Main.compile_single(pyx_path, options, full_module_name=module_name)
        except Exception as exc:                  # Cython reports some errors as exceptions
            raise BuildError(f"Cython failed on {pyx_path}: {exc}") from exc
    if result is None or result.num_errors:
        raise BuildError(f"Cython reported errors in {pyx_path}")


def compile_c(c_path: str, so_path: str, optimize: str) -> None:
    include = sysconfig.get_paths()["include"]
    command = compiler_command() + [optimize] + CFLAGS + ["-shared", f"-I{include}", f"-I{os.path.dirname(c_path)}",
                                                          c_path, "-o", so_path]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"C compiler failed on {c_path}:\n{proc.stderr[-4000:]}")


def compile_to_bytes(c_path: str, workdir: str, name: str, optimize: str) -> bytes:
    """The shared object built from ``c_path`` in ``workdir``, as bytes (for the cache)."""
    so_path = os.path.join(workdir, name + EXT_SUFFIX)
    compile_c(c_path, so_path, optimize)
    with open(so_path, "rb") as f:
        return f.read()


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

"""Cython and the C compiler, driven directly: a .pyx file → C → a shared object → a loaded extension module.

No setuptools, pyximport or cython.inline (importing those alone costs about a second): Cython runs in-process
(imported once, kept warm) and gcc is called on the C it writes. Used to build the runtime's support modules
(``support.py``) and the Cython backend's generated modules.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import logging
import os
import re
import subprocess
import sys
import sysconfig
import threading

from moshjit.cache import versions

log = logging.getLogger("moshjit")
lock = threading.RLock()                  # Cython's compiler keeps global state
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
CFLAGS = ["-fPIC", "-fwrapv", "-fno-strict-aliasing", "-DNDEBUG", "-w"]
# Generated modules are compiled at -O1: measured against -O2 on the BERT pipeline and the eight numeric kernels
# their code runs equally fast (within 2%; it is mostly calls into the C API), while gcc takes ~40% less time
# (0.40 s instead of 0.69 s for strip_accents), which is most of a first call's compile. The support modules
# are built once per machine, so they get -O2.
GENERATED_OPT, SUPPORT_OPT = "-O1", "-O2"
RUNTIME_DIR = os.path.dirname(os.path.abspath(__file__))     # the .pyx/.pxd of the support modules
PACKAGE_ROOT = os.path.dirname(os.path.dirname(RUNTIME_DIR))   # holds moshjit/: Cython finds moshjit/runtime/*.pxd
RUNTIME_PACKAGE = "moshjit.runtime"
SHARED_MODULE = f"{RUNTIME_PACKAGE}.moshjit_cyshared"   # Cython's utility code, shared by every generated module
RUNTIME_SOURCES = ("moshjit_rt.pyx", "moshjit_rt.pxd", "moshjit_dispatch.pyx", "unicode_tables.py", "support.py",
                   "toolchain.py")     # what the runtime is built from, recipe included
NAMESPACE = "cython"                      # where built modules live in the on-disk cache


class BuildError(RuntimeError):
    """Cython or the C compiler rejected generated code (a moshjit bug: the message has the details), or there
    is no C compiler to run."""


def compiler_command() -> list[str]:
    """The C compiler: ``MOSHJIT_CC``, else the one CPython was built with."""
    cc = os.environ.get("MOSHJIT_CC") or sysconfig.get_config_var("CC") or "gcc"
    return cc.split()


def runtime_fingerprint() -> str:
    """What makes support modules interchangeable: Python, moshjit and Cython versions (generated modules take
    their utility code from ``moshjit_cyshared``, whose ABI is Cython's), the Unicode data and the runtime's
    sources. A prebuilt runtime records it; generated modules are only ever built against a runtime whose
    fingerprint is the current one."""
    import unicodedata

    import Cython
    digest = hashlib.sha256()
    for name in RUNTIME_SOURCES:
        with open(os.path.join(RUNTIME_DIR, name), "rb") as f:
            digest.update(f.read())
    return (f"{versions()};cython-{Cython.__version__};unicode-{unicodedata.unidata_version};"
            f"{digest.hexdigest()[:16]}")


def toolchain_fingerprint() -> str:
    """What every generated module depends on besides its own text: the runtime and how C is compiled."""
    flags = " ".join(compiler_command() + CFLAGS + [GENERATED_OPT, SUPPORT_OPT])
    return f"{runtime_fingerprint()};{hashlib.sha256(flags.encode()).hexdigest()[:12]}"


def cython_options(c_path: str, shared: bool, module_name: str):
    """Cython's options for one module: C written to ``c_path``, the runtime's .pxd files on the include path,
    and (``shared``) utility code taken from the shared module."""
    from Cython.Compiler import Main
    return Main.CompilationOptions(
        Main.default_options, output_file=c_path, language_level=3, quiet=True, module_name=module_name,
        include_path=[PACKAGE_ROOT], shared_utility_qualified_name=SHARED_MODULE if shared else None)


def cythonize_file(pyx_path: str, module_name: str, c_path: str) -> None:
    """Cython on one file. On generated modules its messages are moshjit's business, not the user's: they go to
    a listing file (``.lis`` beside the .pyx), then warnings to the debug log and errors into the BuildError.
    (The runtime's own .pyx, compiled when installing, reports as Cython does.)"""
    from Cython.Compiler import Errors, Main
    options = cython_options(c_path, True, module_name)
    if os.path.dirname(os.path.abspath(pyx_path)) != RUNTIME_DIR:
        options.use_listing_file, options.errors_to_stderr = True, False
    listing = os.path.splitext(pyx_path)[0] + ".lis"
    with lock:
        Errors.init_thread()
        try:
            result = Main.compile_single(pyx_path, options, full_module_name=module_name)
            failed = None if result is not None and not result.num_errors else "Cython reported errors"
        except Exception as exc:                  # Cython reports some errors as exceptions
            failed = f"Cython failed: {exc}"
        finally:
            Errors.close_listing_file()
    messages = ""
    if os.path.exists(listing):
        with open(listing, encoding="utf-8", errors="replace") as f:
            messages = f.read()
    if failed:
        raise BuildError(f"{failed} on {pyx_path}:\n{messages[-4000:]}")
    if messages:
        log.debug("Cython on %s:\n%s", pyx_path, messages)


# Cython's C records a traceback entry per function an exception leaves: the .pyx line (``__PYX_ERR(file index,
# line, label)``, ``__PYX_MARK_ERR_POS``), the file (``__pyx_f``) and the function (``__Pyx_AddTraceback``).
_ADD_TRACEBACK = re.compile(r'__Pyx_AddTraceback\("([^"]*)", ([^;]*)\);')
_ERROR_POSITION = re.compile(r"\b(__PYX_ERR|__PYX_MARK_ERR_POS)\(0, (\d+)\b")
_FILE_TABLE = re.compile(r'(static const char\* const __pyx_f\[\] = \{\s*)"[^"]*"')


def c_string(text: str) -> str:
    """A C string literal holding ``text`` as UTF-8."""
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        out.append(char if 32 <= byte < 127 and char not in '"\\?' else f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def without_frames(c_text: str) -> str:
    """The C of a runtime module whose functions add no traceback entries: its helpers and the call path are
    part of the operation that used them, and CPython shows no frame for an unpacking or for calling a function."""
    return _ADD_TRACEBACK.sub("/* moshjit: no traceback entry for the runtime */", c_text)


def with_user_frames(c_text: str, filename: str, function: str, module_name: str, lines: dict[int, int],
                     default_line: int) -> str:
    """The C of a generated module whose traceback entries name the user's file, function and line (``lines``:
    .pyx line → source line), as CPython's own frame for the function would."""
    c_text = _FILE_TABLE.sub(lambda m: m.group(1) + c_string(filename), c_text, count=1)
    c_text = _ERROR_POSITION.sub(lambda m: f"{m.group(1)}(0, {lines.get(int(m.group(2)), default_line)}", c_text)

    def name(m):
        qualified = m.group(1)
        shown = function if qualified.startswith(module_name + ".") else qualified.rpartition(".")[2]
        return f"__Pyx_AddTraceback({c_string(shown)}, {m.group(2)});"
    return _ADD_TRACEBACK.sub(name, c_text)


def rewrite_c(c_path: str, rewrite) -> None:
    with open(c_path, encoding="utf-8") as f:
        text = f.read()
    with open(c_path, "w", encoding="utf-8") as f:
        f.write(rewrite(text))


def compile_c(c_path: str, so_path: str, optimize: str) -> None:
    include = sysconfig.get_paths()["include"]
    command = compiler_command() + [optimize] + CFLAGS + ["-shared", f"-I{include}", f"-I{os.path.dirname(c_path)}",
                                                          c_path, "-o", so_path]
    try:
        proc = subprocess.run(command, capture_output=True, text=True)
    except OSError as exc:                    # no such program, or not executable
        source = "MOSHJIT_CC" if os.environ.get("MOSHJIT_CC") else "the compiler Python was built with"
        raise BuildError(f"no usable C compiler: {command[0]!r} ({source}) cannot be run ({exc.strerror}); "
                         f"install gcc, or set MOSHJIT_CC to a C compiler") from None
    if proc.returncode != 0:
        raise BuildError(f"C compiler failed on {c_path}:\n{proc.stderr[-4000:]}")


def compile_to_bytes(c_path: str, workdir: str, name: str, optimize: str) -> bytes:
    """The shared object built from ``c_path`` in ``workdir``, as bytes (for the cache)."""
    so_path = os.path.join(workdir, name.rpartition(".")[2] + EXT_SUFFIX)
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

"""LLVM IR text → optimised machine code → a shared object in the cache → builtin functions in this process.

The module is optimised with the new pass manager (llvmlite 0.50 has no legacy pass manager and needs no
``llvm.initialize()``), emitted as position-independent object code for the host CPU and linked into a shared
object with the system linker. By default the pass list is short (``QUICK_PASSES``) and instruction selection runs
at level 1: the first tier's compile is what a hot function waits for, and on the kernels and BERT helpers this
halves optimisation plus code generation (median 64–123 → 27–40 ms) for the same speed on seven of eight kernels
(sieve 14% slower: no LICM or induction-variable passes); without NewGVN (see below) nbody, spectral_norm and
fannkuch lost another 11–16% (docs/benchmarks.md §9.36). ``MOSHJIT_LLVM_OPT=full`` runs LLVM's O2 pipeline and
level-2 instruction selection instead (docs/benchmarks.md §12). The shared object is what the cache keeps
(namespace "llvm", keyed by the IR text, the runtime helpers, llvmlite/LLVM versions and the target), so a new
process loads it with ``dlopen`` without importing llvmlite at all.
"""
from __future__ import annotations

import ctypes
import functools
import os
import sys
import threading
import time

from moshjit.backends.llvm.store import pipeline
from moshjit.cache import DiskCache, make_key
from moshjit.errors import UnsupportedError

NAMESPACE = "llvm"
SUFFIX = ".so"
FULL_OPT_LEVEL = 2            # O3, vectorisation and unrolling cost compile time for no measured gain here
# No NewGVN (the only GVN llvmlite's pass manager offers): LLVM's own pipelines do not use it, and the assertion
# build llvmlite ships aborts the process in it on some functions (a fuzz program, tests/llvm/test_pass_list.py).
QUICK_PASSES = ("always_inliner", "sroa", "instruction_combine", "simplify_cfg", "sccp",
                "instruction_combine", "simplify_cfg", "dead_code_elimination", "global_dead_code_eliminate")
_lock = threading.RLock()
_libraries: dict[str, ctypes.CDLL] = {}


class Toolchain:
    """The host target machine, the pass pipeline and the runtime helpers (set up once per process)."""

    def __init__(self):
        import llvmlite
        import llvmlite.binding as llvm

        from moshjit.backends.llvm.runtime import RUNTIME_FINGERPRINT, RUNTIME_IR
        self.llvm = llvm
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        self.triple = llvm.get_process_triple()
        self.cpu = llvm.get_host_cpu_name()
        self.features = llvm.get_host_cpu_features().flatten()
        target = llvm.Target.from_triple(self.triple)
        self.full = pipeline() == "full"
        self.machine = target.create_target_machine(cpu=self.cpu, features=self.features,
                                                    opt=FULL_OPT_LEVEL if self.full else 1,
                                                    reloc="pic", codemodel="default")
        self.data_layout = str(self.machine.target_data)
        self.runtime = llvm.parse_assembly(RUNTIME_IR)
        self.fingerprint = make_key(RUNTIME_FINGERPRINT, llvmlite.__version__, llvm.llvm_version_info, self.triple,
                                    self.cpu, self.features, "O2" if self.full else QUICK_PASSES)
        import shutil
        self.linker = shutil.which(os.environ.get("MOSHJIT_LD", "ld"))

    def object_code(self, text: str) -> tuple[bytes, dict]:
        """Parse, link the runtime helpers in, verify, optimise and emit object code."""
        llvm = self.llvm
        start = time.perf_counter()
        module = llvm.parse_assembly(text)
        module.link_in(self.runtime, preserve=True)
        module.verify()
        parsed = time.perf_counter()
        self._optimise(module)
        optimised = time.perf_counter()
        data = self.machine.emit_object(module)
        emitted = time.perf_counter()
        return data, {"parse_s": round(parsed - start, 4), "optimise_s": round(optimised - parsed, 4),
                      "codegen_s": round(emitted - optimised, 4)}

    def _optimise(self, module) -> None:
        llvm = self.llvm
        options = llvm.create_pipeline_tuning_options(speed_level=FULL_OPT_LEVEL if self.full else 0)
        options.loop_vectorization = options.slp_vectorization = options.loop_unrolling = False
        builder = llvm.create_pass_builder(self.machine, options)
        if self.full:
            builder.getModulePassManager().run(module, builder)
            return
        passes = llvm.create_new_module_pass_manager()
        for name in QUICK_PASSES:
            getattr(passes, f"add_{name}_pass")()
        passes.run(module, builder)

    def link(self, object_code: bytes, work_dir: str) -> bytes:
        """Link object code into a shared object with the system linker, in the (private) ``work_dir``;
        spawned directly rather than through ``subprocess`` (which alone costs tens of ms to import)."""
        if self.linker is None:
            raise UnsupportedError("the LLVM backend needs a system linker ('ld', from binutils) to build shared "
                                   "objects; set MOSHJIT_LD to its path")
        stem = os.path.join(work_dir, f".link-{os.getpid()}-{threading.get_ident()}")
        obj, out, errors = stem + ".o", stem + ".so", stem + ".err"
        try:
            with open(obj, "wb") as f:
                f.write(object_code)
            error_fd = os.open(errors, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                pid = os.posix_spawn(self.linker, [self.linker, "-shared", "-o", out, obj], os.environ,
                                     file_actions=[(os.POSIX_SPAWN_DUP2, error_fd, 2)])
            finally:
                os.close(error_fd)
            status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            if status != 0:
                with open(errors, encoding="utf-8", errors="replace") as f:
                    raise RuntimeError(f"moshjit: linking LLVM object code failed ({status}): {f.read()}")
            with open(out, "rb") as f:
                return f.read()
        finally:
            for path in (obj, out, errors):
                if os.path.exists(path):
                    os.unlink(path)


@functools.lru_cache(maxsize=None)
def toolchain() -> Toolchain:
    return Toolchain()


def shared_object(text: str, cache: DiskCache, stats: dict) -> tuple[str, str]:
    """(path, key) of the cached shared object for module ``text``, building it on a miss."""
    tools = toolchain()
    key = make_key(text, tools.fingerprint)
    with _lock, cache.lock(NAMESPACE, key):
        found = cache.load(NAMESPACE, key, SUFFIX)
        if found is not None:
            stats["cache"] = "hit"
            return found[0], key
        stats["cache"] = "miss"
        code, timings = tools.object_code(text)
        start = time.perf_counter()
        data = tools.link(code, cache.directory(NAMESPACE))
        timings["link_s"] = round(time.perf_counter() - start, 4)
        stats.update(timings)
        return cache.store(NAMESPACE, key, SUFFIX, data, {"triple": tools.triple, "cpu": tools.cpu}), key


def load_library(path: str) -> ctypes.CDLL:
    with _lock:
        library = _libraries.get(path)
        if library is None:
            library = _libraries[path] = ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_LOCAL)
        return library


def make_builtin(library: ctypes.CDLL, method_def_symbol: str, fallback, module_name: str | None, py_function=None,
                 global_names=(), bindings=(), on_rebound=None):
    """A builtin function object for the PyMethodDef ``method_def_symbol``, calling ``fallback`` on a miss; an
    entry reading module globals or checking bindings gets ``(fallback, py_function's globals, bindings,
    on_rebound, *names)`` as its ``self`` (``entry.BINDINGS_AT``)."""
    target = fallback
    if global_names or bindings:
        target = (fallback, py_function.__globals__, tuple(bindings), on_rebound,
                  *(sys.intern(name) for name in global_names))
    return _new_builtin(ctypes.addressof(ctypes.c_char.in_dll(library, method_def_symbol)), target, module_name)


def rebind(entry, fallback):
    """Another builtin for the same native entry as ``entry`` (made by ``make_builtin``) with another
    fallback: the PyMethodDef is read from the builtin, the shared object stays loaded."""
    from moshjit.backends.llvm.layout import CFUNCTION_METHOD_DEF
    address = ctypes.c_void_p.from_address(id(entry) + CFUNCTION_METHOD_DEF).value
    target = entry.__self__
    target = (fallback, *target[1:]) if type(target) is tuple else fallback
    return _new_builtin(address, target, entry.__module__)


def _new_builtin(address: int, fallback, module_name: str | None):
    new = ctypes.pythonapi.PyCMethod_New
    new.restype = ctypes.c_void_p
    new.argtypes = [ctypes.c_void_p, ctypes.py_object, ctypes.py_object, ctypes.c_void_p]
    pointer = new(address, fallback, module_name, None)
    if not pointer:
        raise RuntimeError("moshjit: PyCMethod_New failed")
    builtin = ctypes.cast(pointer, ctypes.py_object).value
    ctypes.pythonapi.Py_DecRef(ctypes.c_void_p(pointer))     # the cast took its own reference
    return builtin

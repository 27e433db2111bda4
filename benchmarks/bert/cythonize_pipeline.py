"""The unchanged ``pipeline.py`` compiled by Cython into an extension module: the "Cython, no edits" engine.

This is what a user gets from ``cythonize -i pipeline.py`` without adding a single type: Cython in-process
(``Cython.Compiler.Main``), then the C compiler called directly with CPython's own optimisation flags (the ones
setuptools would use, minus debug info and warnings), no setuptools. The module is cached under
``<data dir>/cython-pipeline/`` keyed by the source, Cython, Python and the compiler command, with the build
times in a JSON file beside it. Run ``python -m benchmarks.bert.cythonize_pipeline`` to build it ahead of time.
"""
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from benchmarks.bert import data, pipeline

MODULE_NAME = "bert_pipeline_cython"
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def compiler_command():
    """CPython's C compiler and its release flags (``-O3 -fwrapv -DNDEBUG``), for a shared object."""
    cc = (sysconfig.get_config_var("CC") or "gcc").split()
    flags = [flag for flag in (sysconfig.get_config_var("CFLAGS") or "-O3").split()
             if flag in ("-fwrapv", "-DNDEBUG") or flag.startswith("-O")]
    return cc + flags + ["-fPIC", "-shared", "-w"]


def build_key(source):
    """Cache key: the pipeline's source, the Cython and Python versions, and the compiler command."""
    import Cython

    digest = hashlib.sha256(source)
    digest.update(f"{Cython.__version__};{sys.version};{' '.join(compiler_command())}".encode())
    return digest.hexdigest()[:24]


def cache_dir():
    """Where the compiled module and its build facts are kept."""
    return data.data_dir() / "cython-pipeline"


def build(source_path, so_path):
    """Cython ``source_path`` to C in-process, then compile the C into ``so_path``; returns the seconds of each."""
    from Cython.Compiler import Errors, Main

    with tempfile.TemporaryDirectory(prefix="bert-cython-") as workdir:
        c_path = os.path.join(workdir, MODULE_NAME + ".c")
        options = Main.CompilationOptions(Main.default_options, output_file=c_path, language_level=3, quiet=True,
                                          module_name=MODULE_NAME)
        start = time.perf_counter()
        Errors.init_thread()
        result = Main.compile_single(str(source_path), options, full_module_name=MODULE_NAME)
        if result is None or result.num_errors:
            raise RuntimeError(f"Cython reported errors compiling {source_path}")
        cython_s = time.perf_counter() - start
        start = time.perf_counter()
        tmp_so = os.path.join(workdir, MODULE_NAME + EXT_SUFFIX)
        command = compiler_command() + [f"-I{sysconfig.get_paths()['include']}", c_path, "-o", tmp_so]
        proc = subprocess.run(command, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"the C compiler failed on Cython's output for {source_path}:\n{proc.stderr[-3000:]}")
        cc_s = time.perf_counter() - start
        so_path.parent.mkdir(parents=True, exist_ok=True)
        os.replace(tmp_so, so_path)
    return {"cython_s": round(cython_s, 3), "cc_s": round(cc_s, 3)}


def ensure_built(source_path=pipeline.__file__):
    """Path of the compiled module and its build facts (``cython_s``, ``cc_s``, ``cached``), building if needed."""
    source_path = Path(source_path)
    key = build_key(source_path.read_bytes())
    so_path = cache_dir() / key / (MODULE_NAME + EXT_SUFFIX)
    facts_path = so_path.with_name("build.json")
    if so_path.exists() and facts_path.exists():
        return so_path, dict(json.loads(facts_path.read_text()), cached=True)
    facts = build(source_path, so_path)
    data.write_atomically(facts_path, json.dumps(facts).encode())
    return so_path, dict(facts, cached=False)


def load(so_path):
    """Import the compiled pipeline from ``so_path`` (once per process; later calls return the same module)."""
    if MODULE_NAME in sys.modules:
        return sys.modules[MODULE_NAME]
    loader = importlib.machinery.ExtensionFileLoader(MODULE_NAME, str(so_path))
    spec = importlib.util.spec_from_file_location(MODULE_NAME, so_path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    sys.modules[MODULE_NAME] = module
    return module


def compiled_pipeline():
    """The Cython-compiled pipeline module, built on first use."""
    so_path, _ = ensure_built()
    return load(so_path)


def main():
    """Command line: build (or find) the compiled module and say where it is."""
    so_path, facts = ensure_built()
    how = "cached" if facts["cached"] else "built"
    print(f"{how}: {so_path} (Cython {facts['cython_s']:.2f} s, C compiler {facts['cc_s']:.2f} s)")


if __name__ == "__main__":
    main()

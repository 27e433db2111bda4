"""``python -m moshjit info`` and ``%moshjit_info``: versions of everything moshjit depends on, and the cache."""
from __future__ import annotations

import importlib.metadata
import platform
import sys


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def describe() -> str:
    from moshjit._version import __version__
    from moshjit.cache import default_root
    lines = [
        f"moshjit {__version__}",
        f"python {platform.python_version()} ({sys.implementation.name}, {platform.machine()})",
        f"cython {_version('cython')}",
        f"llvmlite {_version('llvmlite')}",
        f"bytecode {_version('bytecode')}",
        f"cache directory {default_root()}",
        f"runtime {_runtime()}",
    ]
    return "\n".join(lines)


def _runtime() -> str:
    """Whether the compiled support modules installed with moshjit are the ones it will use."""
    from moshjit.runtime.support import RUNTIME_DIR, prebuilt_fingerprint
    from moshjit.runtime.toolchain import runtime_fingerprint
    recorded = prebuilt_fingerprint()
    if recorded is None:
        return "not installed compiled: built into the cache at the first @jit (once per machine)"
    if recorded != runtime_fingerprint():
        return ("installed for other sources or another Cython: rebuilt into the cache at the first @jit (once "
                "per machine)")
    return f"compiled, installed in {RUNTIME_DIR}"

"""The LLVM backend's index in the on-disk cache: what was decided for a function and dispatch key.

Shared objects are cached by their LLVM IR (see ``engine``), but producing the IR means inferring and lowering.
The index records, per function and argument kinds, whether the function is native and if so which shared
object and entry hold it (with the typed SSA and IR text for introspection), so another process loads the code
directly. Its key covers the function's bytecode and the globals it resolves (``cache.code_fingerprint``,
``dependencies_fingerprint``), the dispatch key, the compiler's own sources and the host CPU.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os

from moshjit.cache import (DiskCache, code_fingerprint, compiler_fingerprint, dependencies_fingerprint,
                           location_fingerprint, make_key)
from moshjit.typeof import describe_signature

NAMESPACE = "llvm-index"
SUFFIX = ".index"


@functools.lru_cache(maxsize=None)
def host_fingerprint() -> str:
    """The machine code targets the host CPU, so the index says which CPU it was built for."""
    system = os.uname()
    flags = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith(("flags", "Features", "model name")):
                    flags += line
                if line.strip() == "":
                    break
    except OSError:
        flags = system.version
    return f"{system.sysname}-{system.machine}-{hashlib.sha256(flags.encode()).hexdigest()[:16]}"


def index_key(py_function, key: tuple) -> str:
    code = py_function.__code__
    return make_key("llvm-index", compiler_fingerprint(), host_fingerprint(), code_fingerprint(code),
                    location_fingerprint(code),       # the machine code names file:line in errors and tracebacks
                    dependencies_fingerprint(code, py_function.__globals__), py_function.__qualname__,
                    describe_signature(key))


def lookup(cache: DiskCache, key: str) -> dict | None:
    found = cache.load(NAMESPACE, key, SUFFIX)
    if found is None:
        return None
    with open(found[0], encoding="utf-8") as f:
        return json.load(f)


def record(cache: DiskCache, key: str, entry: dict) -> None:
    cache.store(NAMESPACE, key, SUFFIX, json.dumps(entry, sort_keys=True).encode(), {})

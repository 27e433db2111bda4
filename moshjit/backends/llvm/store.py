"""The LLVM backend's index in the on-disk cache: what was decided for a function and dispatch key.

Shared objects are cached by their LLVM IR (see ``engine``), but producing the IR means inferring and lowering.
The index records, per function and argument kinds, whether the function is native and if so which shared
object and entry hold it (with the typed SSA and IR text for introspection), so another process loads the code
directly. Its key covers every input of the machine code: the function and everything it may bake in from its
surroundings (``cache.function_fingerprint``: code, line locations, defaults, closure cells, the functions,
module attributes and classes its globals resolve to, transitively), the dispatch key, the compiler's own
sources, the host CPU and the optimisation pipeline (``pipeline``). A malformed index entry is one warning and a
rebuild.
"""
from __future__ import annotations

import functools
import hashlib
import json
import logging
import os

from moshjit.cache import DiskCache, compiler_fingerprint, function_fingerprint, make_key
from moshjit.typeof import describe_signature

log = logging.getLogger("moshjit")
NAMESPACE = "llvm-index"
SUFFIX = ".index"
PIPELINES = ("quick", "full")


def pipeline() -> str:
    """``MOSHJIT_LLVM_OPT``: ``quick`` (the default) or ``full``, the pass list ``engine`` optimises with; here
    because the index keys on it and this module must not import ``engine`` (ctypes) for a lookup."""
    chosen = os.environ.get("MOSHJIT_LLVM_OPT", "") or "quick"
    if chosen not in PIPELINES:
        log.warning("moshjit: MOSHJIT_LLVM_OPT=%r is not one of %s; optimising quick", chosen, ", ".join(PIPELINES))
        return "quick"
    return chosen


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
    return make_key("llvm-index", compiler_fingerprint(), host_fingerprint(), pipeline(),
                    function_fingerprint(py_function), describe_signature(key))


# The fields of a record, by whether the function is native: what ``backend`` reads from it.
NATIVE_FIELDS = {"so_key": str, "method_def": str, "code_text": str, "ir_text": str, "arg_types": list,
                 "globals": list, "positions": list, "bindings": list}
REFUSED_FIELDS = {"reason": str}


def lookup(cache: DiskCache, key: str) -> dict | None:
    """The record stored under ``key``, or None; a malformed record is reported once (and then rebuilt)."""
    found = cache.load(NAMESPACE, key, SUFFIX)
    if found is None:
        return None
    try:
        with open(found[0], encoding="utf-8") as f:
            entry = json.load(f)
    except (OSError, ValueError) as exc:
        cache.reject(found[0], f"unreadable index ({exc})")
        return None
    problem = _malformed(entry)
    if problem is not None:
        cache.reject(found[0], f"malformed index ({problem})")
        return None
    return entry


def _malformed(entry) -> str | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("native"), bool):
        return "not a record with a 'native' flag"
    for field, kind in (NATIVE_FIELDS if entry["native"] else REFUSED_FIELDS).items():
        if not isinstance(entry.get(field), kind):
            return f"'{field}' is not a {kind.__name__}"
    if entry["native"] and not (all(isinstance(name, str) for name in entry["globals"])
                                and all(type(p) is int and p >= 0 for p in entry["positions"])):
        return "'globals' or 'positions' hold the wrong kind of item"
    if not entry["native"] and not (entry.get("line") is None or type(entry.get("line")) is int):
        return "'line' is not an int"
    return None


def record(cache: DiskCache, key: str, entry: dict) -> None:
    cache.store(NAMESPACE, key, SUFFIX, json.dumps(entry, sort_keys=True).encode(), {})

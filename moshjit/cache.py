"""The on-disk compile cache: keys, a private directory, atomic writes under a lock, checked loads.

The cache holds native code that gets loaded into the user's process, so it is treated as a security boundary:
the directory is created 0700 and must belong to the current user; an entry that is not ours, is writable by
others, or whose checksum does not match is refused with a warning and rebuilt. Metadata is JSON, never pickle.
"""
from __future__ import annotations

import contextlib
import functools
import fcntl
import hashlib
import json
import logging
import os
import shutil
import stat
import struct
import sys
import tempfile
import threading
import types
import warnings

from moshjit._version import __version__
from moshjit.errors import MoshjitWarning
from moshjit.functions import jitted_function

log = logging.getLogger("moshjit")
FORMAT_VERSION = 1


def default_root() -> str:
    explicit = os.environ.get("MOSHJIT_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "moshjit")


def _private_dir(path: str) -> bool:
    """Create ``path`` 0700 if missing; True if it is a directory of ours, writable by us and by nobody else."""
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        info = os.stat(path)
    except OSError:                  # cannot be created (a file in the way, no permission): not usable
        return False
    return (stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and os.access(path, os.W_OK | os.X_OK)
            and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


class _EntryLock:
    """This process's hold on one entry's lock file: a re-entrant thread lock, the ``flock``ed fd, the depth."""

    def __init__(self):
        self.thread_lock = threading.RLock()
        self.fd = -1
        self.depth = 0


_entry_locks: dict[str, _EntryLock] = {}
_entry_locks_guard = threading.Lock()


def _forget_entry_locks_in_child() -> None:
    """A forked child starts with no holds: the threads that held them are not in it (their ``flock``s stay the
    parent's, released when the parent unlocks), so inherited thread locks would make it wait forever."""
    global _entry_locks, _entry_locks_guard
    _entry_locks, _entry_locks_guard = {}, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_entry_locks_in_child)


class DiskCache:
    """Entries are ``<root>/<namespace>/<key>.<ext>`` plus ``<key>.json`` (checksum and facts)."""

    def __init__(self, root: str | None = None):
        self.root = os.path.abspath(root or default_root())
        self._rejected: set[str] = set()          # bad entries already reported in this process
        if not _private_dir(self.root):
            self._fall_back(f"moshjit cache directory {self.root} is not usable or not private to this user "
                            f"(owner or permissions)")

    def _fall_back(self, problem: str) -> None:
        """Use a fresh private directory for the rest of this process (removed at exit), and say so."""
        fallback = scratch_directory("moshjit-cache-", keep_until_exit=True)
        warnings.warn(f"{problem}; using {fallback} for this process instead", MoshjitWarning, stacklevel=4)
        self.root = fallback

    def directory(self, namespace: str) -> str:
        path = os.path.join(self.root, namespace)
        if not _private_dir(path):
            self._fall_back(f"moshjit cache directory {path} is not usable or not private to this user")
            path = os.path.join(self.root, namespace)
            os.makedirs(path, mode=0o700, exist_ok=True)
        return path

    def paths(self, namespace: str, key: str, ext: str) -> tuple[str, str]:
        directory = self.directory(namespace)
        return os.path.join(directory, f"{key}{ext}"), os.path.join(directory, f"{key}.json")

    @contextlib.contextmanager
    def lock(self, namespace: str, key: str):
        """An exclusive lock per entry, so two processes never build or write the same entry at once. Within a
        process it is a re-entrant thread lock around one ``flock``: two ``flock``s on one file from one process
        exclude each other, so a thread taking the lock again would wait for itself forever."""
        path = os.path.join(self.directory(namespace), f"{key}.lock")
        with _entry_locks_guard:
            entry = _entry_locks.setdefault(path, _EntryLock())
        with entry.thread_lock:
            if entry.depth == 0:
                entry.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
                try:
                    fcntl.flock(entry.fd, fcntl.LOCK_EX)
                except BaseException:
                    os.close(entry.fd)
                    raise
            entry.depth += 1
            try:
                yield
            finally:
                entry.depth -= 1
                if entry.depth == 0:
                    fcntl.flock(entry.fd, fcntl.LOCK_UN)
                    os.close(entry.fd)

    def load(self, namespace: str, key: str, ext: str) -> tuple[str, dict] | None:
        """(artifact path, metadata) of a valid entry, else None (a bad entry is reported once)."""
        artifact, meta_path = self.paths(namespace, key, ext)
        if not os.path.lexists(artifact) or not os.path.lexists(meta_path):
            return None
        try:
            problem = _check_file(artifact) or _check_file(meta_path)
            if problem is None:
                with open(meta_path, encoding="utf-8") as f:
                    meta = json.load(f)
                if not isinstance(meta, dict) or meta.get("format") != FORMAT_VERSION or meta.get("key") != key:
                    problem = "metadata does not match the entry"
                elif _sha256(artifact) != meta.get("sha256"):
                    problem = "checksum mismatch (corrupt or truncated)"
        except (OSError, ValueError) as exc:
            problem = f"unreadable entry ({exc})"
        if problem is not None:
            self.reject(artifact, problem)
            return None
        return artifact, meta

    def reject(self, artifact: str, problem: str) -> None:
        """Report a bad entry, once per process (it is asked for again before it is rebuilt); ``problem`` says
        why. Also for readers of an entry whose contents turn out malformed (an index that is not a record)."""
        if artifact not in self._rejected:
            self._rejected.add(artifact)
            warnings.warn(f"moshjit ignores cache entry {artifact}: {problem}; recompiling", MoshjitWarning,
                          stacklevel=4)

    def store(self, namespace: str, key: str, ext: str, data: bytes, meta: dict) -> str:
        """Write the artifact and its metadata atomically (temp file + rename); returns the artifact path.
        Whatever is in the way (a directory, a link) is removed first: the namespace directory is ours."""
        artifact, meta_path = self.paths(namespace, key, ext)
        meta = dict(meta, format=FORMAT_VERSION, key=key, sha256=hashlib.sha256(data).hexdigest())
        for path in (artifact, meta_path):
            if os.path.lexists(path) and not (os.path.isfile(path) and not os.path.islink(path)):
                _remove(path)
        _atomic_write(artifact, data)
        _atomic_write(meta_path, json.dumps(meta, indent=1, sort_keys=True, default=str).encode())
        return artifact


def scratch_directory(prefix: str, keep_until_exit: bool = False) -> str:
    """A new private temporary directory ``<prefix><pid>-<random>``, removed at exit when ``keep_until_exit``
    (else the caller removes it: ``scratch``). Directories of ours with this prefix left by a process that no
    longer runs (killed during a build) are removed first, so nothing piles up in the temp dir."""
    base = tempfile.gettempdir()
    with contextlib.suppress(OSError):
        for name in os.listdir(base):
            pid, dash, _ = name[len(prefix):].partition("-")
            if name.startswith(prefix) and dash and pid.isdigit() and not _running(int(pid)):
                path = os.path.join(base, name)
                with contextlib.suppress(OSError):
                    if os.lstat(path).st_uid == os.getuid() and stat.S_ISDIR(os.lstat(path).st_mode):
                        shutil.rmtree(path, ignore_errors=True)
    directory = tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-")
    if keep_until_exit:
        import atexit
        atexit.register(shutil.rmtree, directory, True)
    return directory


@contextlib.contextmanager
def scratch(prefix: str = "moshjit-build-"):
    """A scratch directory for one build (``scratch_directory``), removed when the block ends, also on error."""
    directory = scratch_directory(prefix)
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:                   # exists, but another user's
        return True
    return True


def _remove(path: str) -> None:
    """Remove a file, link or directory tree at ``path`` if there is one (best effort: a later store retries)."""
    with contextlib.suppress(OSError):
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)


def _check_file(path: str) -> str | None:
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if info.st_uid != os.getuid():
        return "not owned by the current user"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "writable by other users"
    return None


def _sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _atomic_write(path: str, data: bytes) -> None:
    """Other processes see the old file or the whole new one (temp file + rename). No ``fsync``: after a system
    crash a file can be empty or partial, which ``DiskCache.load`` refuses (checksum, JSON) and the entry is
    rebuilt, never read corrupt; the ``fsync``s cost 4 ms or more per compile (benchmarks.md §12.12)."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# ---- keys ----------------------------------------------------------------------------------------------------
def code_fingerprint(code: types.CodeType, digest=None) -> str:
    """A hash of everything in a code object that affects compilation (not its file name or line numbers)."""
    top = digest is None
    digest = digest or hashlib.sha256()
    for part in (code.co_code, repr(code.co_names).encode(), repr(code.co_varnames).encode(),
                 repr(code.co_freevars).encode(), repr(code.co_cellvars).encode(), code.co_qualname.encode(),
                 repr((code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount, code.co_flags)).encode(),
                 code.co_exceptiontable):
        digest.update(part)
        digest.update(b"\0")
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            code_fingerprint(const, digest)
        else:
            digest.update(f"{type(const).__qualname__}:{const!r}".encode())
        digest.update(b"\1")
    return digest.hexdigest() if top else ""


def location_fingerprint(code: types.CodeType) -> str:
    """A hash of where a code object's lines are: its file name, first line and line table (nested code
    included). Native code that names ``file:line`` in its errors and tracebacks must be keyed by it."""
    digest = hashlib.sha256()
    pending = [code]
    while pending:
        current = pending.pop()
        digest.update(f"{current.co_filename}\0{current.co_firstlineno}\0".encode())
        digest.update(current.co_linetable)
        pending.extend(const for const in current.co_consts if isinstance(const, types.CodeType))
    return digest.hexdigest()


def _global_names(code: types.CodeType) -> set:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


_SCALARS = (type(None), bool, int, str, bytes, complex)     # with float, tuple, frozenset: compared by value
_MISSING = object()


def value_fingerprint(value, names: set, seen: set) -> str:
    """Identity of a value compiled code may have baked in: scalars (and tuples of them) by value, functions by
    their code, defaults, closure cells, location and what their globals resolve to (transitively), modules by
    name plus the attributes ``names`` may reach, classes by name, other data by type. ``names`` is the set of
    names the referring code uses (``co_names``): an attribute access ``mod.helper`` is among them."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"int:{value:x}"                   # hex: decimal conversion of huge ints is limited and slow
    if isinstance(value, _SCALARS):
        return f"{type(value).__name__}:{value!r}"
    if isinstance(value, float):                    # repr hides -0.0 vs 0.0 only for nan signs: use the bits
        return f"float:{struct.pack('<d', value).hex()}"
    if isinstance(value, (tuple, frozenset)):
        items = value if isinstance(value, tuple) else sorted(value, key=repr)
        return f"{type(value).__name__}:(" + ",".join(value_fingerprint(v, names, seen) for v in items) + ")"
    seen.add(id(value))                             # a reached object (see ``uncovered``)
    py_func = jitted_function(value)
    if py_func is not None:                               # a jitted function: its options choose its backend
        options = (getattr(value, "backend", None), getattr(value, "fallback", None))
        return f"jit{options}:{_function_fingerprint(py_func, seen)}"
    if isinstance(value, types.FunctionType):
        return _function_fingerprint(value, seen)
    if isinstance(value, types.ModuleType):
        reached = []
        for name in sorted(names):
            if name in vars(value) and (id(value), name) not in seen:
                seen.add((id(value), name))          # each attribute once: modules may reach each other
                attribute = vars(value)[name]
                if not isinstance(attribute, _SCALARS + (float,)):      # data attributes are read at call time
                    reached.append(f"{name}={value_fingerprint(attribute, names, seen)}")
        return f"module:{value.__name__}:[{';'.join(reached)}]"
    if isinstance(value, (type, types.BuiltinFunctionType)):
        return f"{type(value).__name__}:{getattr(value, '__module__', '')}.{value.__qualname__}"
    return f"data:{type(value).__module__}.{type(value).__qualname__}"


def _function_fingerprint(function: types.FunctionType, seen: set) -> str:
    if ("function", id(function)) in seen:
        return f"function:{function.__qualname__}:seen"
    seen.update((("function", id(function)), id(function)))
    code = function.__code__
    names = _global_names(code)
    cells = []
    for cell in function.__closure__ or ():
        try:
            cells.append(value_fingerprint(cell.cell_contents, names, seen))
        except ValueError:                          # an empty cell
            cells.append("empty")
    return ":".join((f"function:{function.__module__}.{function.__qualname__}", code_fingerprint(code),
                     location_fingerprint(code), value_fingerprint(function.__defaults__, names, seen),
                     value_fingerprint(tuple(sorted((function.__kwdefaults__ or {}).items())), names, seen),
                     "cells(" + ",".join(cells) + ")", _globals_fingerprint(code, function.__globals__, seen)))


def _globals_fingerprint(code: types.CodeType, globals_: dict, seen: set) -> str:
    from moshjit.functions import builtins_of
    builtins_ = builtins_of(globals_)
    names = _global_names(code)
    digest = hashlib.sha256()
    for name in sorted(names):
        value = globals_.get(name, builtins_.get(name, _MISSING))
        if value is _MISSING:
            digest.update(f"{name}=unbound;".encode())
        elif isinstance(value, _SCALARS + (float, tuple, frozenset)):
            digest.update(f"{name}=data:{type(value).__qualname__};".encode())     # read at call time
        else:
            digest.update(f"{name}={value_fingerprint(value, names, seen)};".encode())
    return digest.hexdigest()


def function_fingerprint(function) -> str:
    """A hash over every input of the machine code compiled for ``function`` besides the dispatch signature and
    the compiler itself: its code and where its lines are, its defaults and keyword-only defaults, its closure
    cells, and — transitively — every function, module attribute and class its globals resolve to, with the
    same facts about each function reached (what ``resolve_globals``, ``inline`` and ``direct_calls`` may bake
    in). Data globals count by type only: they are read at call time, and their assumed types are checked on
    entry. The LLVM index is keyed by it; a Cython module is keyed by its generated text, which spells all of
    it out (the objects themselves are handed to the module when it is loaded)."""
    return hashlib.sha256(value_fingerprint(function, set(), set()).encode()).hexdigest()


def uncovered(function, dependencies) -> list:
    """The objects among ``dependencies`` (what the passes reported baking in) that ``function_fingerprint``
    does not reach: code depending on them must not be cached under that key."""
    reached: set = set()
    value_fingerprint(function, set(), reached)
    return [obj for obj in dependencies if id(obj) not in reached]


@functools.lru_cache(maxsize=None)
def compiler_fingerprint() -> str:
    """A hash of moshjit's sources: any change to the compiler may change the code it generates."""
    root = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha256(sys.version.encode())
    for directory, subdirectories, files in sorted(os.walk(root)):
        subdirectories.sort()
        for name in sorted(files):
            if name.endswith((".py", ".pyx", ".pxd")):
                with open(os.path.join(directory, name), "rb") as f:
                    digest.update(name.encode() + b"\0" + f.read())
    return digest.hexdigest()


def versions() -> str:
    return f"python-{sys.version_info[0]}.{sys.version_info[1]}.{sys.version_info[2]};moshjit-{__version__}"


def make_key(*parts) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(str(part).encode())
        digest.update(b"\0")
    return digest.hexdigest()[:40]


# ---- the signatures each function was compiled for, so a service can warm up before its first call -------------
SIGNATURES = "signatures"


def _function_key(py_function) -> str:
    return make_key(versions(), py_function.__module__, py_function.__qualname__, py_function.__code__.co_filename)


def recorded_signatures(cache: DiskCache, py_function) -> list[list[str]]:
    """The signatures (lists of kind names) ``py_function`` was compiled for in earlier runs."""
    entry = cache.load(SIGNATURES, _function_key(py_function), ".sigs")
    if entry is None:
        return []
    try:
        with open(entry[0], encoding="utf-8") as f:
            found = json.load(f)
    except (OSError, ValueError):
        return []
    return [kinds for kinds in found if isinstance(kinds, list) and all(isinstance(k, str) for k in kinds)] \
        if isinstance(found, list) else []


def record_signature(cache: DiskCache, py_function, kinds: list[str]) -> None:
    """Remember that ``py_function`` was compiled for the signature named by ``kinds``."""
    name = _function_key(py_function)
    with cache.lock(SIGNATURES, name):
        known = recorded_signatures(cache, py_function)
        if kinds not in known:
            cache.store(SIGNATURES, name, ".sigs", json.dumps(known + [kinds]).encode(),
                        {"function": f"{py_function.__module__}.{py_function.__qualname__}"})

"""The on-disk compile cache. End to end, in fresh processes sharing one temporary cache: a second process loads
without compiling; corrupt, truncated, group/other-writable or foreign entries are warned about and rebuilt; a
changed function body or a changed helper (inlined or not) is never served stale. In process: ``DiskCache``'s
checks, fallbacks, atomic writes and locks, and that nothing read from the cache is ever unpickled; one build
serves the same code bound to several namespaces."""
from __future__ import annotations

import glob
import hashlib
import json
import os
import pickle
import shutil
import stat
import subprocess
import sys
import textwrap
import threading
import time
import warnings

import pytest

from moshjit.cache import DiskCache
from moshjit.errors import MoshjitWarning

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ---- end to end, across processes ------------------------------------------------------------------------------
PROBE = textwrap.dedent("""
    import json, os, sys, time, warnings
    sys.path.insert(0, sys.argv[1])

    import pickle, _pickle
    def refuse(*args, **kwargs):
        raise AssertionError("something was unpickled")
    for module in (pickle, _pickle):
        for name in ("load", "loads", "Unpickler"):
            setattr(module, name, refuse)
    if os.environ.get("PROBE_NO_BUILD"):
        from moshjit.backends.cython import build
        from moshjit.backends.llvm import engine
        from moshjit.runtime import build_worker, toolchain
        def no_build(*args, **kwargs):
            raise AssertionError("compiled although the cache holds the entry")
        build.cythonize_file = toolchain.compile_c = engine.Toolchain.object_code = engine.Toolchain.link = no_build
        build_worker.build = no_build

    import moshjit
    from moshjit import compiler
    import cached

    out = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for name, args in cached.CALLS:
            fn = getattr(cached, name)
            start = time.perf_counter()
            result = fn(*args)
            seconds = time.perf_counter() - start
            (artifact,) = fn._artifacts.values()
            out[name] = {"result": result, "expected": fn.py_func(*args), "stats": list(fn.stats.values())[0],
                         "file": sys.modules[artifact.entry.__module__].__file__, "seconds": seconds}
        for plain, implicit in compiler._helper_dispatchers.items():      # whichever backend 'auto' chose for it
            out["implicit " + plain.__name__] = {"stats": list(implicit.stats.values())[0]}
    print(json.dumps({"functions": out,
                      "warnings": [str(w.message) for w in caught if issubclass(w.category, moshjit.MoshjitWarning)]}))
""")

MODULE = '''
from moshjit import jit


def helper(x):                      # small: inlined into its caller
    return x + {helper_delta}


def big_helper(x):                  # too big to inline: compiled on its own behind an implicit dispatcher
{big_body}    return x + {big_delta}


@jit(backend="cython")
def body(n):
    total = 0
    for i in range(n):
        total += i * {body_factor}
    return total


@jit(backend="cython")
def uses_helper(n):
    return helper(n) * 2


@jit(backend="cython")
def uses_big(n):
    return big_helper(n) + 1


CALLS = [("body", (10,)), ("uses_helper", (5,)), ("uses_big", (7,))]
'''

BUILD_STEPS = {"cython_s", "cc_s", "parse_s", "optimise_s", "codegen_s", "link_s"}
BIG_BODY = "".join(f"    x = (x * {i % 5 + 2} + {i}) % 1000003\n" for i in range(120))


@pytest.fixture(scope="module")
def two_process_cache(tmp_path_factory):
    """A fresh cache holding only the support modules when this install has no usable prebuilt ones (copied from
    the shared test cache: building them takes half a minute and is not what is tested here), and a directory for
    the user module."""
    from moshjit.dispatcher import _cache
    from moshjit.runtime.support import SUPPORT_MODULES, short_name, support_for
    from moshjit.runtime.toolchain import NAMESPACE
    support_modules = {short_name(name) for name in SUPPORT_MODULES}
    shared = _cache()
    support = support_for(shared)
    support.ensure()
    root = tmp_path_factory.mktemp("two-process") / "cache"
    target = root / NAMESPACE
    os.makedirs(target, mode=0o700)
    copied = set()
    for meta_path in glob.glob(os.path.join(shared.root, NAMESPACE, "*.json")):
        with open(meta_path, encoding="utf-8") as f:
            meta = json.load(f)
        if meta.get("module") in support_modules and meta.get("toolchain") == support.fingerprint:
            for path in glob.glob(meta_path[:-len(".json")] + ".*"):
                if not path.endswith(".lock"):
                    shutil.copy2(path, target)
            copied.add(meta["module"])
    from moshjit.runtime.support import prebuilt_fingerprint
    from moshjit.runtime.toolchain import runtime_fingerprint
    assert copied == support_modules or prebuilt_fingerprint() == runtime_fingerprint()
    return str(root), tmp_path_factory.mktemp("module")


def write_module(directory, body_factor=2, helper_delta=1, big_delta=0):
    path = os.path.join(directory, "cached.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(MODULE.format(body_factor=body_factor, helper_delta=helper_delta, big_delta=big_delta,
                              big_body=BIG_BODY))
    for stale in glob.glob(os.path.join(directory, "__pycache__", "*")):
        os.unlink(stale)              # the module changes within one second: never import an old pyc


def probe(cache_root, module_dir, **env):
    env = {**os.environ, "MOSHJIT_CACHE_DIR": cache_root, **env}
    proc = subprocess.run([sys.executable, "-c", PROBE, str(module_dir)], capture_output=True, text=True,
                          timeout=600, env=env, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout)
    for name, entry in report["functions"].items():
        if "expected" in entry:
            assert entry["result"] == entry["expected"], name
    return report


def caches(report):
    return {name: entry["stats"]["cache"] for name, entry in report["functions"].items()}


def meta_of(artifact):
    from moshjit.runtime.toolchain import EXT_SUFFIX
    return artifact[:-len(EXT_SUFFIX)] + ".json"


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_two_processes_then_bad_entries_then_changed_code(two_process_cache):
    root, module_dir = two_process_cache
    names = ["body", "uses_helper", "uses_big", "implicit big_helper"]

    write_module(module_dir)
    first = probe(root, module_dir)
    assert caches(first) == dict.fromkeys(names, "miss") and first["warnings"] == []
    assert all("cc_s" in first["functions"][n]["stats"] for n in names[:3])

    # (a) a second process: every entry is loaded, nothing is compiled (the probe fails on any compile)
    second = probe(root, module_dir, PROBE_NO_BUILD="1")
    assert caches(second) == dict.fromkeys(names, "hit") and second["warnings"] == []
    for name in names:
        assert not set(second["functions"][name]["stats"]) & BUILD_STEPS
    files = {name: first["functions"][name]["file"] for name in names[:3]}
    assert all(second["functions"][name]["file"] == files[name] for name in files)

    # (b, e) a truncated entry, an entry writable by others, and one owned by someone else (root can arrange
    # that) or else with garbage for metadata
    with open(files["body"], "r+b") as f:
        f.truncate(os.path.getsize(files["body"]) // 2)
    os.chmod(files["uses_helper"], 0o666)
    if os.geteuid() == 0:
        os.chown(files["uses_big"], 4242, -1)
        third_problem = "not owned by the current user"
    else:
        with open(meta_of(files["uses_big"]), "w") as f:
            f.write("\x00not json")
        third_problem = "unreadable entry"
    third = probe(root, module_dir)
    assert caches(third) == {"body": "miss", "uses_helper": "miss", "uses_big": "miss", "implicit big_helper": "hit"}
    problems = "\n".join(third["warnings"])
    assert len(third["warnings"]) == 3
    assert "checksum mismatch" in problems and "writable by other users" in problems and third_problem in problems
    for name in files:                                    # rebuilt in place: private, owned, checksum right
        info = os.stat(files[name])
        assert info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        with open(meta_of(files[name]), encoding="utf-8") as f:
            assert json.load(f)["sha256"] == sha256(files[name])

    # (c, d) a changed body, a changed inlined helper and a changed big helper: new behaviour, new entries
    write_module(module_dir, body_factor=3, helper_delta=7, big_delta=5)
    fourth = probe(root, module_dir)
    for name, (before, after) in {"body": (90, 135), "uses_helper": (12, 24)}.items():
        assert (first["functions"][name]["result"], fourth["functions"][name]["result"]) == (before, after)
        assert fourth["functions"][name]["file"] != files[name] and os.path.exists(files[name])
    assert fourth["functions"]["uses_big"]["result"] == first["functions"]["uses_big"]["result"] + 5
    assert fourth["functions"]["implicit big_helper"]["stats"]["cache"] == "miss"
    assert fourth["warnings"] == []


# ---- DiskCache in process --------------------------------------------------------------------------------------
@pytest.fixture
def cache(tmp_path):
    return DiskCache(str(tmp_path / "root"))


def stored(cache, key="k", data=b"native code"):
    path = cache.store("ns", key, ".so", data, {"module": "m"})
    return path, path[:-len(".so")] + ".json"


def load_warnings(cache, key="k"):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        entry = cache.load("ns", key, ".so")
    return entry, [str(w.message) for w in caught if issubclass(w.category, MoshjitWarning)]


def test_store_then_load(cache):
    path, meta_path = stored(cache)
    assert load_warnings(cache) == ((path, {"format": 1, "key": "k", "module": "m",
                                            "sha256": hashlib.sha256(b"native code").hexdigest()}), [])
    for p in (cache.root, os.path.dirname(path)):
        assert stat.S_IMODE(os.stat(p).st_mode) == 0o700
    for p in (path, meta_path):
        assert stat.S_IMODE(os.stat(p).st_mode) == 0o600
    assert sorted(os.listdir(os.path.dirname(path))) == ["k.json", "k.so"]     # no temp files left
    assert cache.load("ns", "other", ".so") is None


@pytest.mark.parametrize("damage, problem", [
    (lambda path, meta: open(path, "r+b").truncate(3), "checksum mismatch"),
    (lambda path, meta: open(path, "ab").write(b"!"), "checksum mismatch"),
    (lambda path, meta: open(path, "wb").close(), "checksum mismatch"),         # what a crash can leave unsynced
    (lambda path, meta: open(meta, "wb").close(), "unreadable entry"),
    (lambda path, meta: open(meta, "w").write('{"format": 1, "key": "k"'), "unreadable entry"),
    (lambda path, meta: open(meta, "wb").write(b"\xff\xfe\x00"), "unreadable entry"),
    (lambda path, meta: open(meta, "w").write("[]"), "metadata does not match"),
    (lambda path, meta: open(meta, "w").write('{"format": 1, "key": "other", "sha256": ""}'),
     "metadata does not match"),
    (lambda path, meta: os.chmod(path, 0o602), "writable by other users"),
    (lambda path, meta: os.chmod(meta, 0o620), "writable by other users"),
], ids=["truncated", "appended", "emptied", "emptied-json", "truncated-json", "binary-json", "json-list", "wrong-key",
        "o+w", "meta-g+w"])
def test_a_bad_entry_is_a_miss_with_a_warning(cache, damage, problem):
    path, meta_path = stored(cache)
    damage(path, meta_path)
    entry, messages = load_warnings(cache)
    assert entry is None and len(messages) == 1 and problem in messages[0] and path in messages[0]
    stored(cache)                                          # rebuilding replaces the bad entry
    assert load_warnings(cache)[0] is not None


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_an_entry_owned_by_someone_else_is_refused(cache):
    path, _ = stored(cache)
    os.chown(path, 4242, -1)
    entry, messages = load_warnings(cache)
    assert entry is None and "not owned by the current user" in messages[0]


def test_nothing_read_from_the_cache_is_unpickled(cache, monkeypatch):
    path, meta_path = stored(cache)

    def refuse(*args, **kwargs):
        raise AssertionError("the cache unpickled something")
    for name in ("load", "loads", "Unpickler"):
        monkeypatch.setattr(pickle, name, refuse)
    assert load_warnings(cache)[0] is not None
    with open(meta_path, encoding="utf-8") as f:
        assert json.load(f)["key"] == "k"


@pytest.mark.parametrize("spoil", [lambda root: os.chmod(root, 0o777), lambda root: os.chmod(root, 0o720)],
                         ids=["o+w", "g+w"])
def test_a_root_writable_by_others_falls_back_with_a_warning(tmp_path, spoil):
    root = tmp_path / "shared-root"
    root.mkdir()
    spoil(root)
    with pytest.warns(MoshjitWarning, match="not private to this user"):
        cache = DiskCache(str(root))
    assert cache.root != str(root) and stat.S_IMODE(os.stat(cache.root).st_mode) == 0o700
    stored(cache)
    assert load_warnings(cache)[0] is not None
    assert os.listdir(root) == []                         # nothing was written into the unsafe directory


def test_a_root_that_cannot_be_created_falls_back_with_a_warning(tmp_path):
    (tmp_path / "a-file").write_text("in the way")
    with pytest.warns(MoshjitWarning, match="not usable"):
        cache = DiskCache(str(tmp_path / "a-file" / "cache"))
    path, _ = stored(cache)
    assert path.startswith(cache.root) and load_warnings(cache)[0] is not None


def test_a_namespace_directory_made_unsafe_later_falls_back_with_a_warning(cache):
    path, _ = stored(cache)
    os.chmod(os.path.dirname(path), 0o777)
    entry, messages = load_warnings(cache)
    assert entry is None and len(messages) == 1 and "not private" in messages[0]
    stored(cache)
    assert load_warnings(cache)[0] is not None and not load_warnings(cache)[0][0].startswith(os.path.dirname(path))


def test_a_relative_root_is_made_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cache = DiskCache("relative-cache")
    assert cache.root == str(tmp_path / "relative-cache")


def test_a_failed_write_leaves_the_old_entry_and_no_temporary(cache):
    path, _ = stored(cache, data=b"first")
    with pytest.raises(TypeError):
        cache.store("ns", "k", ".so", "not bytes", {})
    assert load_warnings(cache)[0][1]["sha256"] == hashlib.sha256(b"first").hexdigest()
    assert sorted(os.listdir(os.path.dirname(path))) == ["k.json", "k.so"]


def test_the_entry_lock_is_exclusive(cache):
    order = []
    attempt = threading.Event()

    def second():
        attempt.set()
        with cache.lock("ns", "k"):
            order.append("second")

    with cache.lock("ns", "k"):
        thread = threading.Thread(target=second)
        thread.start()
        attempt.wait(10)
        thread.join(0.2)                                   # it must still be waiting for the lock
        order.append("first")
    thread.join(10)
    assert order == ["first", "second"]


def test_the_entry_lock_is_reentrant_in_one_thread_and_shared_by_cache_objects(cache):
    """Taking an entry's lock again on the same thread (through any DiskCache of the same root) must not wait for
    itself; the lock file is released once the outermost hold ends, so another process can take it."""
    done = []

    def nested():
        with cache.lock("ns", "k"), DiskCache(cache.root).lock("ns", "k"):
            done.append("inner")
    thread = threading.Thread(target=nested, daemon=True)
    thread.start()
    thread.join(20)
    assert done == ["inner"]
    probe = ("import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR); "
             "fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB); print('free')")
    lock_file = os.path.join(cache.directory("ns"), "k.lock")
    assert subprocess.run([sys.executable, "-c", probe, lock_file], capture_output=True, text=True).stdout == "free\n"


def test_scratch_directories_of_killed_processes_are_swept(tmp_path, monkeypatch):
    from moshjit.cache import scratch, scratch_directory
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    killed = subprocess.run([sys.executable, "-c", "import os, signal, tempfile; tempfile.tempdir = os.sys.argv[1];"
                             "from moshjit.cache import scratch_directory as s; s('moshjit-build-'); "
                             "s('moshjit-cache-', keep_until_exit=True); os.kill(os.getpid(), signal.SIGKILL)",
                             str(tmp_path)], cwd=REPO)
    assert killed.returncode < 0
    assert len(os.listdir(tmp_path)) == 2
    (tmp_path / "moshjit-build-notapid").mkdir()                     # not ours to judge: left alone
    with scratch() as workdir:
        assert os.path.isdir(workdir)
        alive = scratch_directory("moshjit-cache-")
    assert sorted(os.listdir(tmp_path)) == sorted(["moshjit-build-notapid", os.path.basename(alive)])
    with pytest.raises(RuntimeError), scratch() as workdir:            # a refused build cleans up too
        raise RuntimeError("gcc failed")
    assert not os.path.exists(workdir)


def test_an_entry_path_taken_by_a_directory_is_replaced(cache):
    path, meta_path = cache.paths("ns", "k", ".so")
    os.makedirs(os.path.join(path, "inside"))
    os.makedirs(meta_path)
    entry, messages = load_warnings(cache)
    assert entry is None and len(messages) == 1 and "not a regular file" in messages[0]
    assert load_warnings(cache) == (None, [])                           # reported once per process
    stored(cache)
    assert load_warnings(cache)[0][0] == path


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_child_forked_while_a_thread_holds_an_entry_lock_can_take_it_once_released(cache):
    """The holding thread is not in the child: the child must not wait on its thread lock forever."""
    held, release = threading.Event(), threading.Event()

    def holder():
        with cache.lock("ns", "forked"):
            held.set()
            release.wait(30)
    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(30)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)     # fork with threads: what the test is about
        pid = os.fork()
    if pid == 0:
        try:
            with cache.lock("ns", "forked"):                     # waits for the parent's flock, then takes it
                os._exit(0)
        finally:
            os._exit(1)
    release.set()
    thread.join(30)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        raise AssertionError("the forked child waited for a lock no thread of it holds")
    assert os.waitstatus_to_exitcode(status) == 0


# ---- one build, several instances --------------------------------------------------------------------------------
INSTANCE_SOURCE = textwrap.dedent("""
    SCALE = None
    calls = []

    def scaled(xs):
        calls.append(len(xs))
        return [x * SCALE for x in xs]
""")


def test_the_same_code_in_another_namespace_reuses_the_build_with_its_own_state(tmp_path, monkeypatch):
    """The same function text in three namespaces (a module executed again, a class defined in a loop) is built
    once; each further instance is a copy of that build whose module state is its own: its globals, not the
    first namespace's (globals of the same types: a global's type is part of the generated code)."""
    import moshjit
    import moshjit.backends.cython.build as build

    monkeypatch.setenv("MOSHJIT_CACHE_DIR", str(tmp_path))
    builds = []
    original = build.CythonToolchain.build
    monkeypatch.setattr(build.CythonToolchain, "build",
                        lambda self, text, name: builds.append(name) or original(self, text, name))
    namespaces, results = [], []
    for scale in (2, 3, -1):
        namespace = {"__name__": f"instance_{len(namespaces)}"}
        exec(compile(INSTANCE_SOURCE, "instances.py", "exec"), namespace)
        namespace["SCALE"] = scale
        namespace["scaled"] = moshjit.jit(namespace["scaled"], backend="cython")
        namespaces.append(namespace)
    for namespace in namespaces + namespaces[::-1]:
        results.append(namespace["scaled"]([1, 2]))
    assert results == [[2, 4], [3, 6], [-1, -2], [-1, -2], [3, 6], [2, 4]]
    assert [namespace["calls"] for namespace in namespaces] == [[2, 2]] * 3
    assert len(builds) == 1, builds
    stats = [next(iter(namespace["scaled"].stats.values())) for namespace in namespaces]
    assert [s["backend"] for s in stats] == ["cython"] * 3

"""Native code is cached on disk: a second process loads the shared objects recorded in the index without
compiling, and without importing llvmlite at all."""
import json
import os
import subprocess
import sys
import textwrap
import warnings

import pytest

SCRIPT = textwrap.dedent("""
    import json, sys, warnings
    import moshjit
    from tests.llvm import samples
    results, stats = [], {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for fn, args in [(samples.fib, (15,)), (samples.pad, ([1, 2], 5, 0)), (samples.l_floats, ([0.5, 1.5],))]:
            jitted = moshjit.jit(fn, backend="llvm")
            results.append(jitted(*args))
            stats[fn.__name__] = list(jitted.stats.values())[0]
    print(json.dumps({"results": results, "stats": stats, "llvmlite": "llvmlite" in sys.modules,
                      "warnings": [str(w.message) for w in caught if issubclass(w.category, moshjit.MoshjitWarning)]}))
""")


def run(cache_dir, warnings_out=False, **extra_env):
    env = dict(os.environ, MOSHJIT_CACHE_DIR=str(cache_dir), MOSHJIT_PURE_DISPATCH="1", **extra_env)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=root, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert warnings_out or report["warnings"] == []
    return report


def test_second_process_loads_without_compiling(tmp_path):
    first = run(tmp_path)
    second = run(tmp_path)
    assert first["results"] == second["results"] == [610, [1, 2, 0, 0, 0], [1.0, 2.0, 1.5, [1.0, 3.0]]]
    assert all(s["cache"] == "miss" and "optimise_s" in s for s in first["stats"].values())
    assert all(s["cache"] == "hit" and "optimise_s" not in s for s in second["stats"].values())
    assert first["llvmlite"] and not second["llvmlite"]


def test_the_full_pipeline_is_its_own_cache_entry_with_the_same_results(tmp_path):
    """``MOSHJIT_LLVM_OPT=full`` (LLVM's O2 instead of the quick pass list) compiles anew, not from the quick
    pipeline's cache entries, and computes the same results; the default is the quick pipeline."""
    quick = run(tmp_path)
    full = run(tmp_path, MOSHJIT_LLVM_OPT="full")
    again = run(tmp_path, MOSHJIT_LLVM_OPT="quick")
    assert quick["results"] == full["results"] == again["results"]
    assert all(s["cache"] == "miss" for s in full["stats"].values())
    assert all(s["cache"] == "hit" for s in again["stats"].values())


def test_corrupt_shared_object_is_rebuilt(tmp_path):
    run(tmp_path)
    for name in os.listdir(tmp_path / "llvm"):
        if name.endswith(".so"):
            with open(tmp_path / "llvm" / name, "r+b") as f:
                f.seek(100)
                f.write(b"\xff" * 8)
    again = run(tmp_path, warnings_out=True)
    assert again["results"][0] == 610
    assert all(s["cache"] == "miss" for s in again["stats"].values())
    assert len(again["warnings"]) == 3 and all("checksum mismatch" in w for w in again["warnings"])


def _rewrite_entry(cache, key, data: bytes):
    """Replace an index entry's contents keeping its metadata consistent: what a bug or another moshjit version
    could leave, which the checksum cannot catch."""
    import hashlib
    from moshjit.backends.llvm import store
    path, meta_path = cache.paths(store.NAMESPACE, key, store.SUFFIX)
    with open(path, "wb") as f:
        f.write(data)
    with open(meta_path, encoding="utf-8") as f:
        meta = json.load(f)
    meta["sha256"] = hashlib.sha256(data).hexdigest()
    with open(meta_path, "w", encoding="utf-8") as f:
        json.dump(meta, f)


@pytest.mark.parametrize("data", [b"{not json", b"[1, 2]", b'{"native": true}', b'{"native": "yes"}',
                                  b'{"native": false, "reason": 3}', b'\xff\xfe',
                                  b'{"native": true, "so_key": "k", "method_def": "m", "code_text": "", '
                                  b'"ir_text": "", "arg_types": [], "globals": [1], "positions": []}'],
                         ids=["json", "list", "no-fields", "flag-type", "reason-type", "binary", "globals-items"])
def test_a_malformed_index_record_is_one_warning_and_a_miss(tmp_path, data):
    from moshjit.backends.llvm import store
    from moshjit.cache import DiskCache
    from moshjit.errors import MoshjitWarning
    cache = DiskCache(str(tmp_path))
    store.record(cache, "k", {"native": False, "reason": "r", "line": 3})
    assert store.lookup(cache, "k") == {"native": False, "reason": "r", "line": 3}
    _rewrite_entry(cache, "k", data)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert store.lookup(cache, "k") is None and store.lookup(cache, "k") is None
    messages = [str(w.message) for w in caught if issubclass(w.category, MoshjitWarning)]
    assert len(messages) == 1 and "index" in messages[0], messages
    store.record(cache, "k", {"native": False, "reason": "r", "line": None})      # the rebuild replaces it
    assert store.lookup(cache, "k")["reason"] == "r"


def test_a_directory_in_place_of_an_entry_is_one_warning_then_replaced(tmp_path):
    from moshjit.backends.llvm import store
    from moshjit.cache import DiskCache
    from moshjit.errors import MoshjitWarning
    cache = DiskCache(str(tmp_path))
    path, meta_path = cache.paths(store.NAMESPACE, "k", store.SUFFIX)
    os.makedirs(path)
    os.makedirs(meta_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            assert store.lookup(cache, "k") is None
    assert len([w for w in caught if issubclass(w.category, MoshjitWarning)]) == 1
    assert "not a regular file" in str(caught[0].message)
    store.record(cache, "k", {"native": False, "reason": "r"})
    assert store.lookup(cache, "k") == {"native": False, "reason": "r"}


def test_malformed_records_in_a_second_process_give_one_warning_each_and_right_answers(tmp_path):
    first = run(tmp_path)
    index_dir = tmp_path / "llvm-index"
    names = sorted(n[:-len(".index")] for n in os.listdir(index_dir) if n.endswith(".index"))
    from moshjit.cache import DiskCache
    cache = DiskCache(str(tmp_path))
    for i, key in enumerate(names):
        _rewrite_entry(cache, key, [b"{not json", b'{"native": true}', b"[]"][i % 3])
    again = run(tmp_path, warnings_out=True)
    assert again["results"] == first["results"]
    assert len(again["warnings"]) == len(names) and all("index" in w for w in again["warnings"])
    assert run(tmp_path)["results"] == first["results"]


def test_an_unknown_pipeline_name_is_reported_and_the_quick_one_used(monkeypatch, caplog):
    from moshjit.backends.llvm.store import pipeline
    monkeypatch.setenv("MOSHJIT_LLVM_OPT", "fastest")
    with caplog.at_level("WARNING", logger="moshjit"):
        assert pipeline() == "quick"
    assert "MOSHJIT_LLVM_OPT='fastest' is not one of quick, full" in caplog.text
    monkeypatch.setenv("MOSHJIT_LLVM_OPT", "full")
    assert pipeline() == "full"

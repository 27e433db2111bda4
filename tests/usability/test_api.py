"""The public API's first hour: options checked at decoration time, the Python version gate, eager compilation
and warm start, printable introspection, a missing C compiler named, ``dir(moshjit)``."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import moshjit
from moshjit import _version, dispatcher

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def twice(text):
    return text + text


def test_public_names_are_listed():
    assert {"jit", "precompile", "to_ssa", "UnsupportedError", "MoshjitWarning"} <= set(dir(moshjit))
    assert set(moshjit.__all__) <= set(dir(moshjit))
    assert all(getattr(moshjit, name) is not None for name in moshjit.__all__)


def test_conflicting_options_are_refused_when_decorating():
    with pytest.raises(ValueError, match="strict=True and fallback=True contradict each other"):
        moshjit.jit(strict=True, fallback=True)
    with pytest.raises(ValueError, match="backend must be one of"):
        moshjit.jit(twice, backend="gcc")
    assert moshjit.jit(twice, fallback=True).fallback and not moshjit.jit(twice, strict=False).strict


@pytest.fixture
def python_314(monkeypatch):
    monkeypatch.setattr(sys, "version_info", (3, 14, 0, "final", 0))
    monkeypatch.setattr(dispatcher, "_dispatcher_class", None)     # nothing may be built for it
    monkeypatch.setattr(dispatcher, "_core_class", lambda: pytest.fail("the runtime was asked for"))


def test_unsupported_python_is_refused_at_decoration_in_one_line(python_314):
    with pytest.raises(moshjit.UnsupportedError) as info:
        moshjit.jit(twice)
    assert str(info.value) == "unsupported: moshjit supports CPython 3.11, 3.12 and 3.13; this is 3.14"


def test_unsupported_python_with_fallback_runs_the_plain_function(python_314):
    with pytest.warns(moshjit.MoshjitWarning,
                      match="supports CPython 3.11, 3.12 and 3.13; this is 3.14: twice runs as plain"):
        f = moshjit.jit(twice, fallback=True)
    assert f is twice


def test_supported_pythons_are_declared_exactly():
    import tomllib
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
        requires = tomllib.load(f)["project"]["requires-python"]
    versions = sorted(_version.SUPPORTED_PYTHONS)
    low, high = versions[0], versions[-1]
    assert requires == f">={low[0]}.{low[1]},<{high[0]}.{high[1] + 1}"
    assert len(versions) == high[1] - low[1] + 1                 # a range without holes


def test_introspection_prints_well_before_and_after_compiling():
    f = moshjit.jit(twice)
    before = f.inspect_types()
    assert "twice has not been compiled yet" in before and "twice.compile(" in repr(before)
    assert "<i>" in before._repr_html_()
    assert f.compile("ab") is f and f.signatures == [("str",)]
    types_ = f.inspect_types()
    assert repr(types_) == str(types_) and "\n" in repr(types_)             # not an escaped one-line literal
    assert types_.startswith("# signature (str) -> backend cython\n")
    html = f.inspect_code()._repr_html_()
    assert html.startswith("<details open><summary><b>signature (str) (cython)</b>") and "def twice(" in html
    assert "has no compiled signature ('int64',)" in f.inspect_code(("int64",))


def test_signatures_compile_when_decorating():
    def add(a, b):
        return a + b
    f = moshjit.jit(add, signatures=[(int, int), "str, str", ("float", float)])
    assert f.signatures == [("int64", "int64"), ("str", "str"), ("float", "float")]
    assert f(1, 2) == 3 and f.stats[("int64", "int64")]["backend"] == "llvm"


def test_compile_raises_what_a_call_would():
    def uses_frame(n):
        return super()
    with pytest.raises(moshjit.UnsupportedError, match="super"):
        moshjit.jit(uses_frame).compile(1)


def test_a_missing_c_compiler_is_named(tmp_path):
    code = textwrap.dedent("""
        import moshjit
        def twice(text):
            return text + text
        try:
            moshjit.jit(twice, backend="cython", cache=False)("ab")
        except Exception as exc:
            print(type(exc).__name__, exc)
    """)
    env = {**os.environ, "MOSHJIT_CC": "/nonexistent/cc", "PYTHONPATH": REPO}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert proc.stdout.startswith("BuildError no usable C compiler: '/nonexistent/cc' (MOSHJIT_CC) cannot be run")
    assert "set MOSHJIT_CC to a C compiler" in proc.stdout


def test_precompile_warms_a_module_from_the_cache(tmp_path):
    (tmp_path / "service.py").write_text(textwrap.dedent("""
        import moshjit

        @moshjit.jit
        def normalise(text):
            return text.strip().lower()

        @moshjit.jit
        def total(xs):
            s = 0
            for x in xs:
                s += x
            return s
    """))
    probe = textwrap.dedent("""
        import json, sys
        import moshjit, service
        if sys.argv[1] == "serve":
            service.normalise(" A "), service.total([1, 2])
        warmed = moshjit.precompile(service) if sys.argv[1] == "start" else {}
        stats = {name: {str(k): v for k, v in getattr(service, name).stats.items()} for name in ("normalise", "total")}
        print(json.dumps({"warmed": warmed, "stats": stats}, default=str))
    """)
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{REPO}",
           "MOSHJIT_CACHE_DIR": os.environ.get("MOSHJIT_CACHE_DIR", str(tmp_path / "cache"))}

    def run(mode):
        import json
        proc = subprocess.run([sys.executable, "-c", probe, mode], capture_output=True, text=True, env=env,
                              timeout=300, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)
    run("serve")
    started = run("start")
    assert started["warmed"] == {"normalise": [["str"]], "total": [["list"]]}
    normalise = started["stats"]["normalise"]["('str',)"]
    assert normalise["backend"] == "cython" and normalise["cache"] == "hit"
    assert started["stats"]["total"]["('list',)"]["cache"] == "hit"

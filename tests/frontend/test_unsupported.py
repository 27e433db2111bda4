"""Every construct moshjit refuses raises ``UnsupportedError`` naming it, with the file and line of the source
line that uses it (marked by a trailing comment in ``unsupported_samples.py``)."""
from __future__ import annotations

import importlib
import inspect
import re
import types

import pytest

import moshjit
import moshjit._version
from tests.frontend import unsupported_samples

MARKER = re.compile(r"#\s*unsupported:\s*(.+)$")


def _marked_cases():
    """(function name, expected line, expected words) for every marked line, in file order."""
    source_lines = inspect.getsource(unsupported_samples).splitlines()
    functions = {f.__code__.co_firstlineno: name for name, f in vars(unsupported_samples).items()
                 if isinstance(f, types.FunctionType) and not name.startswith("_")}
    cases = []
    for lineno, text in enumerate(source_lines, start=1):
        found = MARKER.search(text)
        if found:
            owner = max(line for line in functions if line <= lineno)
            cases.append(pytest.param(functions[owner], lineno, found.group(1).strip(), id=functions[owner]))
    return cases


CASES = _marked_cases()


def test_every_sample_function_is_marked():
    marked = {case.values[0] for case in CASES}
    functions = {name for name, f in vars(unsupported_samples).items()
                 if isinstance(f, types.FunctionType) and not name.startswith("_")}
    assert functions == marked


@pytest.mark.parametrize("name, line, words", CASES)
def test_unsupported_construct_is_reported_at_its_line(name, line, words):
    fn = getattr(unsupported_samples, name)
    with pytest.raises(moshjit.UnsupportedError) as info:
        moshjit.to_ssa(fn)
    error = info.value
    assert words in error.construct
    assert error.filename == unsupported_samples.__file__
    assert error.lineno == line
    assert str(error).startswith(f"{unsupported_samples.__file__}:{line}: unsupported: {error.construct}")


@pytest.mark.parametrize("minor", [10, 14])
def test_version_gate(monkeypatch, minor):
    """A CPython outside SUPPORTED_PYTHONS gets one line, at decoration time and from the frontend."""
    monkeypatch.setattr(moshjit._version, "sys", types.SimpleNamespace(version_info=(3, minor, 0, "final", 0)))
    expected = f"moshjit supports CPython 3.11, 3.12 and 3.13; this is 3.{minor}"
    for attempt in (lambda: moshjit.jit(lambda x: x), lambda: moshjit.to_ssa(lambda x: x)):
        with pytest.raises(moshjit.UnsupportedError) as info:
            attempt()
        assert str(info.value) == f"unsupported: {expected}"
        assert info.value.construct == expected


def test_supported_versions_have_a_table():
    for major, minor in moshjit._version.SUPPORTED_PYTHONS:
        table = importlib.import_module(f"moshjit.frontend.opcodes_{major}{minor}")
        assert table.RULES and table.CONSTRUCTS


class _Callable:
    def __call__(self, x):
        return x


@pytest.mark.parametrize("obj, kind", [(len, "builtin_function_or_method"), (42, "int"), (_Callable, "type"),
                                       (_Callable(), "_Callable"), ("def f(): pass", "str")])
def test_non_functions_are_refused_clearly(obj, kind):
    with pytest.raises(moshjit.UnsupportedError) as info:
        moshjit.to_ssa(obj)
    assert str(info.value).startswith(f"unsupported: {kind} object ")
    assert "moshjit compiles Python functions only" in str(info.value)


def test_methods_and_wrappers_translate_their_function():
    class Holder:
        def method(self, x):
            return x + 1

        @staticmethod
        def static(x):
            return x * 2

        @classmethod
        def klass(cls, x):
            return (cls.__name__, x)

    assert moshjit.to_ssa(Holder().method).run(Holder(), 1) == 2
    assert moshjit.to_ssa(Holder.__dict__["static"]).run(4) == 8
    assert moshjit.to_ssa(Holder.__dict__["klass"]).run(Holder, 3) == ("Holder", 3)

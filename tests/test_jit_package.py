"""``benchmarks.libraries.run.jit_package``, the stand-in for a user writing ``@jit`` on every ``def`` of a library:
a function a decorator wraps (a wrapper made elsewhere: ``@contextmanager``, a recursion helper of the package's
own) is jitted under the decorator, in the wrapper's cell, and the module keeps the wrapper."""
from __future__ import annotations

import importlib
import sys
import textwrap

from benchmarks.libraries.run import jit_package

HELPERS = '''
def recurse(f):
    def wrapped(items):
        for item in items:
            if isinstance(item, list):
                wrapped(item)
        f(items)
    return wrapped
'''

WORK = '''
import contextlib
from .helpers import recurse


@recurse
def mark(items):
    items.append(len(items))


@contextlib.contextmanager
def tagged(log, tag):
    log.append(("open", tag))
    yield tag
    log.append(("close", tag))


def plain(x):
    return x + 1


short = plain
'''


def _closure_of(function) -> dict:
    return dict(zip(function.__code__.co_freevars, (cell.cell_contents for cell in function.__closure__)))


def _is_jitted(value) -> bool:
    return hasattr(value, "py_func")


def test_decorated_functions_are_jitted_under_their_decorator(tmp_path, monkeypatch):
    package = tmp_path / "decorated_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text(textwrap.dedent(HELPERS))
    (package / "work.py").write_text(textwrap.dedent(WORK))
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("decorated_pkg.work")
    try:
        jit_package("decorated_pkg")
        work = sys.modules["decorated_pkg.work"]
        assert _is_jitted(work.plain) and work.short is work.plain
        assert not _is_jitted(work.mark) and _is_jitted(_closure_of(work.mark)["f"])
        assert not _is_jitted(work.tagged) and _is_jitted(_closure_of(work.tagged)["func"])
        items = [[1], 2]
        work.mark(items)
        assert items == [[1, 1], 2, 2]
        log = []
        with work.tagged(log, "t") as tag:
            log.append(("in", tag))
        assert log == [("open", "t"), ("in", "t"), ("close", "t")]
    finally:
        for name in [n for n in sys.modules if n.startswith("decorated_pkg")]:
            del sys.modules[name]

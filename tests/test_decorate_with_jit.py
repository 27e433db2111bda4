"""``benchmarks.libraries.run.decorate_with_jit``, the stand-in for a user writing ``@jit`` on every ``def`` of a
library: module-level functions are jitted under their other decorators (``@contextmanager``, a recursion helper of
the package's own), classes after theirs — also a class made inside a function — and what the module builds while it
is imported (a table of functions, a default instance) holds the jitted objects."""
from __future__ import annotations

import importlib
import sys
import textwrap

from benchmarks.libraries.run import JIT_DECORATOR, decorate_with_jit

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
"""The module's docstring stays its docstring."""
import contextlib
import dataclasses
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


if True:
    def conditional(x):
        return x * 2


TABLE = {"plain": plain}


@dataclasses.dataclass
class Point:
    x: int
    y: int = 0

    def norm(self):
        return abs(self.x) + abs(self.y)

    class Inner:
        pass


def make_class(base):
    class Made(base):
        def twice(self):
            return 2 * self.norm()
    return Made


DEFAULT = Point(3, 4)
'''


def _closure_of(function) -> dict:
    return dict(zip(function.__code__.co_freevars, (cell.cell_contents for cell in function.__closure__)))


def _is_jitted(value) -> bool:
    from moshjit.dispatcher import DispatcherBase
    return isinstance(value, DispatcherBase)


def test_the_decorator_goes_where_a_user_would_write_it():
    text, count = decorate_with_jit(textwrap.dedent(WORK), "jit")
    assert count == 7            # mark, tagged, plain, conditional, Point, make_class, Made (not norm, Inner)
    assert "@recurse\n@jit\ndef mark" in text and "@contextlib.contextmanager\n@jit\ndef tagged" in text
    assert "@jit\n@dataclasses.dataclass\nclass Point" in text
    assert "    @jit\n    def conditional" in text and "    @jit\n    class Made" in text
    assert "@jit\n    def norm" not in text and "@jit\n    class Inner" not in text


def test_tabs_form_feeds_and_line_separators_in_strings_keep_their_lines():
    text = ('x = "a\x0cb\u2028c"\n\x0c\nclass C:\n\tdef f(self):\n\t\treturn 1\n\ndef g():\n\tpass\n'
            'if x:\n\tdef h():\n\t\tpass\n')
    decorated, count = decorate_with_jit(text, "jit")
    assert count == 3
    assert decorated == (text.replace("class C", "@jit\nclass C").replace("def g", "@jit\ndef g")
                         .replace("\tdef h", "\t@jit\n\tdef h"))
    compile(decorated, "<decorated>", "exec")


def test_the_decorated_package_holds_jitted_code(tmp_path, monkeypatch):
    package = tmp_path / "decorated_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text(textwrap.dedent(HELPERS))
    (package / "work.py").write_text(decorate_with_jit(textwrap.dedent(WORK), JIT_DECORATOR)[0])
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        work = importlib.import_module("decorated_pkg.work")
        assert work.__doc__ == "The module's docstring stays its docstring."
        assert _is_jitted(work.plain) and work.TABLE["plain"] is work.plain and _is_jitted(work.conditional)
        assert not _is_jitted(work.mark) and _is_jitted(_closure_of(work.mark)["f"])
        assert not _is_jitted(work.tagged) and _is_jitted(_closure_of(work.tagged)["func"])
        items = [[1], 2]
        work.mark(items)
        assert items == [[1, 1], 2, 2]
        log = []
        with work.tagged(log, "t") as tag:
            log.append(("in", tag))
        assert log == [("open", "t"), ("in", "t"), ("close", "t")]
        assert work.DEFAULT.norm() == 7 and _is_jitted(vars(work.Point)["norm"])
        made = work.make_class(work.Point)
        assert made(1, 2).twice() == 6 and _is_jitted(vars(made)["twice"])
    finally:
        for name in [n for n in sys.modules if n.startswith("decorated_pkg")]:
            del sys.modules[name]

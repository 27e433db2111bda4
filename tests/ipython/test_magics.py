"""``%%moshjit``, ``%moshjit_ssa`` and ``%moshjit_info``, in-process through IPython's own test shell."""
from __future__ import annotations

import re
import warnings

import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

import moshjit
from moshjit.dispatcher import DispatcherBase
from moshjit.errors import MoshjitWarning, UnsupportedError
from moshjit.info import describe
from tests.ipython.helpers import run


@pytest.fixture
def html_shell(shell):
    """The test shell formats text/html too (it formats only text/plain by default)."""
    kept = list(shell.display_formatter.active_types)
    shell.display_formatter.active_types = [*kept, "text/html"]
    yield shell
    shell.display_formatter.active_types = kept


def test_functions_the_cell_defines_are_replaced_by_lazy_jitted_versions(shell):
    run(shell, "def helper(x):\n    return x + 1\n\ndef redefined():\n    return 'old'\n")
    helper = shell.user_ns["helper"]
    cell = """%%moshjit
import functools
from os.path import join
import os.path

def count_vowels(text):
    n = 0
    for ch in text:
        if ch in "aeiou":
            n += 1
    return n

def redefined():
    return 'new'

square = lambda x: x * x
alias = helper
number = 3

class Token:
    def length(self):
        return 1

@functools.lru_cache(maxsize=None)
def cached(x):
    return x
"""
    assert run(shell, cell).success
    ns = shell.user_ns
    jitted = {name for name, value in ns.items() if isinstance(value, DispatcherBase)}
    assert {"count_vowels", "redefined", "square"} <= jitted
    assert not {"helper", "alias", "join", "Token", "cached", "number", "os"} & jitted
    assert ns["alias"] is helper and ns["number"] == 3
    assert ns["redefined"].py_func() == "new"
    assert ns["count_vowels"].signatures == []          # lazy: nothing compiled before the first call
    assert run(shell, "vowels = count_vowels('moshjit compiles cells')").success
    assert ns["vowels"] == ns["count_vowels"].py_func("moshjit compiles cells") == 6
    assert ns["count_vowels"].signatures == [("str",)]


def test_options_reach_jit(shell):
    assert run(shell, "%%moshjit\ndef f(x):\n    return x\n").success
    f = shell.user_ns["f"]
    assert (f.backend, f.strict, f.fallback) == ("auto", True, False)
    assert run(shell, "%%moshjit --backend cython --fallback\ndef f(x):\n    return x\n").success
    f = shell.user_ns["f"]
    assert (f.backend, f.fallback) == ("cython", True)
    assert run(shell, "%%moshjit --fallback --strict --backend llvm\ndef f(x):\n    return x\n").success
    f = shell.user_ns["f"]
    assert (f.backend, f.strict, f.fallback) == ("llvm", True, False)


def test_strict_raises_at_the_first_call_and_fallback_runs_plain_python(shell):
    refused = "def countdown(n):\n    try:\n        n = int(n)\n    except* ValueError:\n        pass\n    return list(range(n, 0, -1))\n"
    assert run(shell, "%%moshjit\n" + refused).success
    result = run(shell, "countdown(3)")
    assert isinstance(result.error_in_exec, UnsupportedError)
    assert "except*" in str(result.error_in_exec)
    assert run(shell, "%%moshjit --fallback\n" + refused).success
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert run(shell, "counted = list(countdown(3))").success
    assert shell.user_ns["counted"] == [3, 2, 1]
    assert any(issubclass(w.category, MoshjitWarning) for w in caught)


def test_bad_options_are_usage_errors_and_the_cell_does_not_run(shell):
    shell.user_ns.pop("ran", None)
    result = run(shell, "%%moshjit --backend numba\nran = True\n")
    assert isinstance(result.error_in_exec, UsageError)
    assert "ran" not in shell.user_ns


def test_pragmas_in_the_cell_apply_to_it_and_to_later_cells(shell):
    assert run(shell, "%%moshjit\n# +pipeline\ndef shout(s):\n    return s | str.upper\n").success
    assert shell.user_ns["shout"].py_func("ab") == "AB"
    assert run(shell, "later = 'ab' | list\n").success and shell.user_ns["later"] == ["a", "b"]
    run(shell, "# -pipeline\n")


def test_the_value_of_a_last_expression_is_shown(shell):
    result = run(shell, "%%moshjit\ndef twice(x):\n    return 2 * x\n\ntwice(21)\n")
    assert result.success and result.result == 42
    assert isinstance(shell.user_ns["twice"], DispatcherBase)


def test_syntax_errors_name_the_cell_line_and_nothing_is_jitted(shell, capsys):
    shell.user_ns.pop("before_error", None)
    cell = "%%moshjit\n# +pattern-matching\ndef before_error(s):\n    with match(s):\n        if (a, a):\n            pass\n"
    result = run(shell, cell)
    error = result.error_in_exec
    assert isinstance(error, SyntaxError) and error.lineno == 5
    assert "multiple assignments to name 'a' in pattern" in error.msg
    out = capsys.readouterr().out
    assert re.search(r"Cell In\[\d+\], line 5", out) and "if (a, a):" in out
    assert "pattern_matching.py" not in out                 # no frames of the rewriter
    assert "before_error" not in shell.user_ns
    result = run(shell, "%%moshjit\ndef broken(x):\n    return x +\n")
    assert isinstance(result.error_in_exec, SyntaxError) and result.error_in_exec.lineno == 3
    assert re.search(r"Cell In\[\d+\], line 3", capsys.readouterr().out)
    run(shell, "# -pattern-matching\n")


def test_errors_while_the_cell_runs_propagate_and_nothing_is_jitted(shell, capsys):
    result = run(shell, "%%moshjit\ndef g(x):\n    return x\n\nboom = 1 / 0\n")
    assert isinstance(result.error_in_exec, ZeroDivisionError)
    assert re.search(r"Cell In\[\d+\], line 5", capsys.readouterr().out)
    assert not isinstance(shell.user_ns["g"], DispatcherBase)


def test_annotate_shows_one_html_view_per_function(html_shell):
    cell = """%%moshjit -a
def count_alnum(text: str) -> int:
    count = 0
    for ch in text:
        if ch.isalnum():
            count += 1
    return count

def tally(words):
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return counts

def countdown(n):
    yield super()
"""
    with capture_output() as captured:
        assert run(html_shell, cell).success
    pages = [output.data["text/html"] for output in captured.outputs]
    assert len(pages) == 2
    alnum, tally = pages
    assert "moshjit annotation: count_alnum" in alnum and "text: str" in alnum
    assert "<html" not in alnum and 'class="moshjit-annotate"' in alnum
    assert re.search(r"   4     for ch in text:</code> <small>\(0 object ops\)", alnum)   # cell line numbers
    assert "words: object" in tally
    assert re.search(r"counts\[w\] = counts.get\(w, 0\) \+ 1</code> <small>\([1-9]\d* object ops?\)", tally)
    assert "no annotation for countdown" in captured.stderr and "super()" in captured.stderr
    assert isinstance(html_shell.user_ns["countdown"], DispatcherBase)


def test_moshjit_ssa_prints_the_ssa_of_plain_and_jitted_functions(shell, capsys):
    run(shell, "def plain(a, b):\n    return a * b + 1\n")
    run(shell, "%%moshjit\ndef jitted(s):\n    return s.lower()\n")
    capsys.readouterr()
    for name in ("plain", "jitted"):
        assert run(shell, f"%moshjit_ssa {name}").success
        assert capsys.readouterr().out == f"{moshjit.to_ssa(shell.user_ns[name])}\n"


def test_moshjit_ssa_usage_errors(shell, capsys):
    for line, message in [("", "needs a function"), ("no_such_name", "NameError"),
                          ("42", "compiles Python functions only")]:
        result = run(shell, f"%moshjit_ssa {line}")
        assert isinstance(result.error_in_exec, UsageError), line
        assert message in str(result.error_in_exec)


def test_moshjit_info_prints_versions_and_the_cache(shell, capsys):
    assert run(shell, "%moshjit_info").success
    assert capsys.readouterr().out == describe() + "\n"


def test_unloading_removes_the_magics():
    from tests.ipython.helpers import ipython_test_shell
    ip = ipython_test_shell()
    ip.run_line_magic("load_ext", "moshjit")
    assert ip.find_cell_magic("moshjit") and ip.find_line_magic("moshjit_ssa") and ip.find_line_magic("moshjit_info")
    ip.run_line_magic("unload_ext", "moshjit")
    assert ip.find_cell_magic("moshjit") is None
    assert ip.find_line_magic("moshjit_ssa") is None and ip.find_line_magic("moshjit_info") is None

"""The syntax half of ``%load_ext moshjit``, in-process through IPython's own test shell."""
from __future__ import annotations

import re

from moshjit import notebook as moshjit_notebook
from tests.ipython.helpers import ipython_test_shell, run


def test_pragmas_switch_extensions_for_this_and_later_cells(shell):
    assert run(shell, "# +pipeline\nfirst = [2, 1] | sorted\n").success
    assert shell.user_ns["first"] == [1, 2]
    assert run(shell, "second = 'ab' | list\n").success  # still on: no header needed
    assert shell.user_ns["second"] == ["a", "b"]
    assert run(shell, "# -pipeline\nthird = 6 | 1\n").success
    assert shell.user_ns["third"] == 7


def test_pattern_matching_and_quick_lambdas_in_cells(shell):
    cell = """
# +pattern-matching
# +quick-lambda
def shape(s):
    with match(s):
        if (a, *rest):
            return list(map(_ * a, rest))
        if _:
            return None
answer = shape((2, 3, 4))
"""
    assert run(shell, cell).success
    assert shell.user_ns["answer"] == [6, 8]
    assert [k for k in shell.user_ns if k.startswith("_mj_")] == ["_mj_rt0"]  # the runtime module only
    run(shell, "# -pattern-matching\n# -quick-lambda\n")


def test_extended_syntax_errors_are_normal_syntax_errors_and_keep_the_transformer(shell, capsys):
    result = run(shell, "# +pattern-matching\nwith match(1):\n    if (a, a):\n        pass\n")
    error = result.error_before_exec
    assert isinstance(error, SyntaxError) and error.lineno == 3
    assert "multiple assignments to name 'a' in pattern" in error.msg
    out = capsys.readouterr().out
    assert "SyntaxError" in out and re.search(r"Cell In\[\d+\], line 3\n\s+if \(a, a\):", out), out
    syntax = moshjit_notebook._shells[id(shell)]
    assert syntax.ast_transformer in shell.ast_transformers
    assert syntax.input_transformer in shell.input_transformers_post
    # the failed cell did not switch anything on; a later cell still gets rewritten
    assert run(shell, "# +pipeline\nvalue = 3 | str\n").success and shell.user_ns["value"] == "3"
    run(shell, "# -pipeline\n")


def test_tracebacks_name_the_cell_line(shell, capsys):
    result = run(shell, "# +pipeline\nx = 1\nboom = 0 | (lambda v: 1 / v)\n")
    assert isinstance(result.error_in_exec, ZeroDivisionError)
    out = capsys.readouterr().out
    assert "boom = 0 | (lambda v: 1 / v)" in out
    run(shell, "# -pipeline\n")


def test_unload_stops_rewriting_and_load_is_idempotent():
    ip = ipython_test_shell()
    ip.run_line_magic("load_ext", "moshjit.notebook")
    moshjit_notebook.load_ipython_extension(ip)
    syntax = moshjit_notebook._shells[id(ip)]
    assert ip.ast_transformers.count(syntax.ast_transformer) == 1
    ip.run_line_magic("unload_ext", "moshjit.notebook")
    assert syntax.ast_transformer not in ip.ast_transformers
    result = ip.run_cell("# +pipeline\nplain = 6 | 1\n")
    assert result.success and ip.user_ns["plain"] == 7

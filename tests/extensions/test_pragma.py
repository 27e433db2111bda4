"""The ``# moshmosh?`` header, switch comments, parameters and the state carried between notebook cells."""
from __future__ import annotations

import math

import pytest

from moshjit.extensions import rewrite, rewrite_source
from moshjit.extensions.pragma import has_header, scan


@pytest.mark.parametrize("source, expected", [
    ("# moshmosh?\nx = 1\n", True),
    ("#!/usr/bin/env python\n# moshmosh?\n", True),
    ("# -*- coding: utf-8 -*-\n# moshmosh?\n", True),
    ("#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n# moshmosh?\n", True),
    ("\n# moshmosh?\n", False),
    ("x = 1\n# moshmosh?\n", False),
    ("# moshmosh\n", False),
    ("'# moshmosh?'\n", False),
])
def test_header_detection(source, expected):
    assert has_header(source) is expected


def test_switches_make_line_ranges_with_parameters():
    source = ("# moshmosh?\n# +pipeline\nx = 1\n# -pipeline\ny = 2\n# +pattern-matching(case)\n"
              "s = '# +quick-lambda'\n    # +pipeline\n")
    result = scan(source, "f.py")
    assert result.activation("pipeline").ranges == [(2, 4, {}), (8, math.inf, {})]
    assert result.activation("pattern-matching").ranges == [(6, math.inf, {"token": "case"})]
    assert not result.activation("quick-lambda")  # inside a string, not a comment
    assert result.active_at_end == {"pipeline": {}, "pattern-matching": {"token": "case"}}


def test_changing_parameters_splits_the_range():
    result = scan("# +pattern-matching(token=case)\nx\n# +pattern-matching\n", "f.py")
    assert result.activation("pattern-matching").ranges == [(1, 3, {"token": "case"}),
                                                            (3, math.inf, {"token": "match"})]


@pytest.mark.parametrize("line, message", [
    ("# +pipline", "unknown syntax extension 'pipline'"),
    ("# +pipeline(x)", "takes at most 0 parameter(s)"),
    ("# +pattern-matching(keyword=case)", "unknown parameter 'keyword'"),
    ("# -pipeline(x)", "# -pipeline takes no parameters"),
])
def test_bad_switches_are_syntax_errors_at_their_line(line, message):
    with pytest.raises(SyntaxError, match=message.replace("(", r"\(").replace(")", r"\)")) as error:
        scan(f"x = 1\n{line}\n", "mod.py")
    assert (error.value.filename, error.value.lineno, error.value.offset) == ("mod.py", 2, 1)


def test_initially_active_extensions_carry_over_like_notebook_cells():
    first = rewrite_source("# +pipeline\na = 1 | str\n", "<cell1>", {})
    assert first.active_at_end == {"pipeline": {}}
    second = rewrite_source("b = 2 | str\n# -pipeline\n", "<cell2>", first.active_at_end)
    assert second.active_at_end == {}
    namespace: dict = {}
    exec(compile(second.tree, "<cell2>", "exec"), namespace)
    assert namespace["b"] == "2"


def test_files_without_the_header_are_never_touched():
    source = "# +pipeline\nx = 1 | str\n"
    assert rewrite(source, "plain.py") == source
    assert rewrite("# moshmosh?\n" + source, "ext.py") == "x = str(1)\n"

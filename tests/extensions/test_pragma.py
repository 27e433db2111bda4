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


@pytest.mark.parametrize("line, expected", [
    ("# +pattern-matching  # on from here", {"pattern-matching": {"token": "match"}}),
    ("#+pattern-matching(case) # the keyword is 'case'", {"pattern-matching": {"token": "case"}}),
    ("# +quick-lambda('it)')  # a ')' inside the parameters", {"quick-lambda": {"token": "it)"}}),
])
def test_switches_may_end_with_a_comment(line, expected):
    assert scan(f"# moshmosh?\n{line}\n", "f.py").active_at_end == expected


@pytest.mark.parametrize("line", [
    "# +pattern-matching on",
    "# + pattern-matching",
    "# -pipeline is off from here",
    "# +pattern-matching(case",
])
def test_malformed_switches_of_known_extensions_are_syntax_errors(line):
    with pytest.raises(SyntaxError, match="malformed pragma") as error:
        scan(f"x = 1\n{line}\n", "mod.py")
    assert (error.value.filename, error.value.lineno, error.value.offset) == ("mod.py", 2, 1)


def test_comments_that_only_start_like_a_switch_stay_comments():
    source = "# moshmosh?\n# -not a switch, just prose\n# +1 for this\n# - item\nx = 1\n"
    assert scan(source, "f.py").activations == {}


@pytest.mark.parametrize("source, line", [
    ('"""Module docstring."""\n# moshmosh?\n# +pattern-matching\n', 2),
    ("import os\n\n# moshmosh?\n", 3),
])
def test_a_misplaced_header_is_a_syntax_error_not_a_silently_plain_file(source, line):
    with pytest.raises(SyntaxError, match="must be the file's first line") as error:
        rewrite(source, "late.py")
    assert (error.value.filename, error.value.lineno) == ("late.py", line)


def test_the_header_text_inside_a_string_is_not_a_header():
    source = 'HELP = """\n# moshmosh?\n"""\n'
    assert rewrite(source, "doc.py") == source

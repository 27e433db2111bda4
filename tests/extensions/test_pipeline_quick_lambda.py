"""Pipelines, quick lambdas, how they combine with each other and with pattern matching, and pragma ranges."""
from __future__ import annotations

import functools

import pytest

from moshjit.extensions import rewrite_source
from tests.extensions.helpers import run_extended


def test_pipeline_chains_left_to_right_as_nested_calls():
    ns = run_extended("""
        result = [3, 1, 2] | sorted | reversed | list
        words = "b a" | str.split | sorted
    """, active={"pipeline": {}})
    assert ns["result"] == [3, 2, 1] and ns["words"] == ["a", "b"]


def test_pipe_keeps_its_meaning_outside_active_regions():
    ns = run_extended("""
        # moshmosh?
        # +pipeline
        applied = 3 | str
        # -pipeline
        bits = 3 | 4
        # +pipeline
        again = 4 | str
    """, active={})
    assert (ns["applied"], ns["bits"], ns["again"]) == ("3", 7, "4")


@pytest.mark.parametrize("expression, expected", [
    ("list(map(_ + 1, [1, 2]))", [2, 3]),
    ("list(map(_.upper(), ['a', 'b']))", ["A", "B"]),
    ("list(map(_[0], [(1, 2), (3, 4)]))", [1, 3]),
    ("list(map(divmod(_, 2), [5, 6]))", [(2, 1), (3, 0)]),
    ("functools.reduce(_0 * 10 + _1, [1, 2, 3])", 123),
    ("sorted([(1, 'b'), (2, 'a')], key=_[1])", [(2, "a"), (1, "b")]),
    ("list(map(lambda _: _ * 2, [1, 2]))", [2, 4]),
    ("list(map(_1 - _0, [1], [5]))", [4]),
])
def test_quick_lambda_forms(expression, expected):
    ns = run_extended(f"value = {expression}", {"functools": functools}, active={"quick-lambda": {}})
    assert ns["value"] == expected


def test_placeholders_outside_call_arguments_keep_their_meaning():
    ns = run_extended("""
        _ = 5
        plain = _ + 1
        printed = str(_)
    """, active={"quick-lambda": {}})
    assert (ns["plain"], ns["printed"]) == (6, "5")


def test_pipeline_stage_with_a_placeholder_receives_the_value_there():
    ns = run_extended("""
        doubled = [1, 2] | map(_ * 2, _) | list
        text = 5 | divmod(_, 2) | str
    """)
    assert ns["doubled"] == [2, 4] and ns["text"] == "(2, 1)"
    tree = rewrite_source("x = [1] | map(str, _) | list\n", "f.py", {"pipeline": {}, "quick-lambda": {}}).tree
    assert "lambda" not in __import__("ast").unparse(tree)  # no closure: exactly the nested calls


def test_a_pipeline_stage_uses_the_value_once():
    with pytest.raises(SyntaxError, match="exactly one '_'") as error:
        rewrite_source("x = 2 | pow(_, _1)\n", "f.py", {"pipeline": {}, "quick-lambda": {}})
    assert (error.value.lineno, error.value.offset) == (1, 9)


def test_quick_lambda_does_not_touch_pattern_wildcards():
    ns = run_extended("""
        def f(s):
            with match(s):
                if (_, x):
                    return list(map(_ + x, [1, 2]))
                if _:
                    return None
    """)
    assert ns["f"](("ignored", 10)) == [11, 12] and ns["f"](1) is None


def test_extension_order_is_declared():
    from moshjit.extensions import registry
    names = [extension.name for extension in registry.ordered()]
    assert names.index("pattern-matching") < names.index("pipeline") < names.index("quick-lambda")

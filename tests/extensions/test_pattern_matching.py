"""Semantics of the pattern-matching rewrite beyond the PEP 634 differential: Moshmosh's additions,
binding only on success, single evaluation, hygiene, scopes and error positions."""
from __future__ import annotations

import traceback
import types

import pytest

from moshjit.extensions import MatchError, rewrite_source, runtime
from tests.extensions.helpers import run_extended

PM = {"pattern-matching": {}}


def test_no_case_matching_raises_match_error_with_subject_repr():
    ns = run_extended("""
        def f(s):
            with match(s):
                if 1:
                    return "one"
    """, active=PM)
    with pytest.raises(MatchError, match=r"no case matched \[1, 2\]") as error:
        ns["f"]([1, 2])
    assert error.value.subject == [1, 2]


def test_names_are_bound_only_when_the_case_matches():
    ns = run_extended("""
        def f(s):
            with match(s):
                if (a, 1):
                    return "first"
                if (b, c) and when(c > 10):
                    return "second"
                if _:
                    return sorted(k for k in locals() if not k.startswith("_mj_") and k != "s")
    """, active=PM)
    assert ns["f"]((5, 2)) == []
    assert ns["f"]((5, 20)) == "second"


def test_subject_is_evaluated_once():
    ns = run_extended("""
        calls = []
        def subject():
            calls.append(1)
            return (1, 2)
        def f():
            with match(subject()):
                if [3, _]:
                    return 0
                if (x, 3):
                    return 1
                if (x, y):
                    return x + y
    """, active=PM)
    assert ns["f"]() == 3 and ns["calls"] == [1]


def test_guards_read_captures_and_or_patterns_bind_the_same_names():
    ns = run_extended("""
        def f(s):
            with match(s):
                if ((x, 0) or [0, x]) and when(x > 1, x < 5):
                    return ("small", x)
                if (x, 0) or [0, x]:
                    return ("other", x)
                if _:
                    return None
    """, active=PM)
    assert ns["f"]((3, 0)) == ("small", 3)
    assert ns["f"]([0, 4]) == ("small", 4)
    assert ns["f"]([0, 9]) == ("other", 9)
    assert ns["f"]("x") is None


def test_pin_compares_with_a_value_in_scope_and_isinstance_tests_types():
    ns = run_extended("""
        def f(s, limit):
            with match(s):
                if pin(limit * 2):
                    return "double"
                if isinstance(int, float) and n:
                    return ("number", n)
                if _:
                    return "else"
    """, active=PM)
    assert ns["f"](6, 3) == "double"
    assert ns["f"](2.5, 3) == ("number", 2.5)
    assert ns["f"]("x", 3) == "else"


RECOGNISERS = """
    class Pair:
        @classmethod
        def __match__(cls, n, value):
            if n == 2:
                return (value, value)
            return None

    class GreaterThan:
        def __init__(self, bound):
            self.bound = bound
        def __match__(self, n, value):
            if n == 0 and isinstance(value, int) and value > self.bound:
                return ()
            return None

    def f(s):
        with match(s):
            if GreaterThan(42)():
                return "big"
            if Pair(Pair(a, b), c):
                return (a, b, c)
"""


def test_moshmosh_recognisers_defined_in_the_module():
    ns = run_extended(RECOGNISERS, active=PM)
    assert ns["f"](100) == "big"
    assert ns["f"](7) == (7, 7, 7)


def test_recognisers_reached_through_a_dotted_name_use_the_runtime_check():
    library = run_extended(RECOGNISERS, active=PM)
    ns = run_extended("""
        def f(s):
            with match(s):
                if lib.Pair(a, b):
                    return (a, b)
    """, {"lib": types.SimpleNamespace(Pair=library["Pair"])}, active=PM)
    assert ns["f"]("v") == ("v", "v")


def test_missing_attribute_means_no_match_like_cpython():
    ns = run_extended("""
        class Flaky:
            __match_args__ = ("gone",)
            @property
            def gone(self):
                raise AttributeError("computed lazily")
        class Plain:
            pass
        def f(s):
            with match(s):
                if Flaky(v):
                    return ("flaky", v)
                if Plain(attr=v):
                    return ("plain", v)
                if _:
                    return "no attribute"
    """, active=PM)
    assert ns["f"](ns["Flaky"]()) == "no attribute"
    assert ns["f"](ns["Plain"]()) == "no attribute"
    plain = ns["Plain"]()
    plain.attr = 3
    assert ns["f"](plain) == ("plain", 3)


def test_bad_match_args_raise_cpythons_type_error():
    ns = run_extended("""
        class Two:
            __match_args__ = ("a",)
            a = 1
        def f(s):
            with match(s):
                if Two(x, y):
                    return x
    """, active=PM)
    with pytest.raises(TypeError, match=r"Two\(\) accepts 1 positional sub-pattern \(2 given\)"):
        ns["f"](ns["Two"]())


def test_module_and_class_level_matches_leak_no_temporaries():
    ns = run_extended("""
        with match([1, (2, 3)]):
            if [a, (b, c)]:
                total = a + b + c
        class Holder:
            with match({"k": 5}):
                if {"k": v}:
                    value = v
    """, active=PM)
    assert ns["total"] == 6 and ns["Holder"].value == 5
    hidden = [k for k in ns if k.startswith("_mj_")]
    assert len(hidden) == 1 and ns[hidden[0]] is runtime  # the runtime module, imported once
    assert not [k for k in vars(ns["Holder"]) if k.startswith("_mj_")]


def test_shadowed_builtins_do_not_change_the_generated_tests():
    ns = run_extended("""
        def len(x):
            return 0
        def f(s, type=None, isinstance=None):
            with match(s):
                if [a, b]:
                    return a + b
                if Box(v):
                    return v
                if _:
                    return None
        class Box:
            __match_args__ = ("v",)
            def __init__(self, v):
                self.v = v
    """, active=PM)
    assert ns["f"]([1, 2]) == 3
    assert ns["f"](ns["Box"](7)) == 7


def test_break_and_continue_in_case_bodies_refer_to_the_users_loop():
    ns = run_extended("""
        def f(items):
            seen = []
            for item in items:
                with match(item):
                    if "skip":
                        continue
                    if "stop":
                        break
                    if other:
                        seen.append(other)
            return seen
    """, active=PM)
    assert ns["f"](["a", "skip", "b", "stop", "c"]) == ["a", "b"]


def test_multiple_subjects_form_a_tuple_and_the_keyword_can_be_renamed():
    ns = run_extended("""
        def f(a, b):
            with case(a, b):
                if (0, y):
                    return y
                if _:
                    return -1
    """, active={"pattern-matching": {"token": "case"}})
    assert ns["f"](0, 5) == 5 and ns["f"](1, 5) == -1


def test_nested_matches_in_case_bodies():
    ns = run_extended("""
        def f(s):
            with match(s):
                if (tag, body):
                    with match(body):
                        if [x, *_]:
                            return (tag, x)
                        if _:
                            return (tag, None)
    """, active=PM)
    assert ns["f"](("t", [1, 2])) == ("t", 1)
    assert ns["f"](("t", {})) == ("t", None)


def test_tracebacks_show_the_original_lines(tmp_path):
    source = "def f(s):\n    with match(s):\n        if [x]:\n            return 1 / x\n"
    ns = run_extended(source, active=PM, filename=str(tmp_path / "orig.py"))
    (tmp_path / "orig.py").write_text(source)
    with pytest.raises(ZeroDivisionError) as error:
        ns["f"]([0])
    frame = traceback.extract_tb(error.value.__traceback__)[-1]
    assert (frame.lineno, frame.line) == (4, "return 1 / x")


@pytest.mark.parametrize("body, message, line, column", [
    ("with match(s):\n    x = 1\n", "holds only 'if <pattern>:' cases", 3, 5),
    ("with match(s):\n    if 1:\n        pass\n    else:\n        pass\n", "a case has no elif/else", 5, 5),
    ("with match(s):\n    if 1:\n        pass\n\n    elif 2:\n        pass\n", "a case has no elif/else", 6, 5),
    ("with match(s):\n    if 1:\n        pass\n    else:  # comment\n        pass\n", "a case has no elif/else", 5, 5),
    ("with match(s):\n    if x > 0:\n        pass\n", "unsupported pattern 'x > 0' (use when(...)", 3, 8),
    ("with match(s):\n    if (*a, *b):\n        pass\n", "multiple starred names in sequence pattern", 3, 13),
    ("with match(s):\n    if (a, a):\n        pass\n", "multiple assignments to name 'a' in pattern", 3, 12),
    ("with match(s):\n    if (a, 1) or (b, 2):\n        pass\n", "alternative patterns bind different names", 3, 8),
    ("with match(s):\n    if x:\n        pass\n    if 1:\n        pass\n",
     "name capture 'x' makes remaining patterns unreachable", 3, 8),
    ("with match(s) as m:\n    if 1:\n        pass\n", "takes exactly one subject and no 'as'", 2, 1),
])
def test_syntax_errors_point_at_the_extended_syntax(body, message, line, column):
    source = "# moshmosh?\n" + body
    with pytest.raises(SyntaxError) as error:
        rewrite_source(source, "shapes.py", PM)
    assert message in error.value.msg
    assert (error.value.filename, error.value.lineno, error.value.offset) == ("shapes.py", line, column)
    assert error.value.text == source.splitlines()[line - 1]


STATIC_CLASSES = """
    from dataclasses import KW_ONLY, InitVar, dataclass, field
    from typing import ClassVar

    @dataclass
    class Fields:
        a: int
        b: int = field(init=False, default=9)
        tag: ClassVar[str] = "t"
        c: InitVar[int] = 0
        _: KW_ONLY
        d: int = 4

    @dataclass(match_args=False)
    class NoArgs:
        a: int

    class Literal:
        __match_args__ = ("second", "first")
        def __init__(self, first, second):
            self.first, self.second = first, second
"""


@pytest.mark.parametrize("ours, pep, subject", [
    ("Fields(x, y)", "Fields(x, y)", "Fields(1)"),
    ("Fields(x, y, z)", "Fields(x, y, z)", "Fields(1)"),
    ("NoArgs(x)", "NoArgs(x)", "NoArgs(1)"),
    ("Literal(x, y)", "Literal(x, y)", "Literal(1, 2)"),
    ("Literal(x, second=y)", "Literal(x, second=y)", "Literal(1, 2)"),
])
def test_match_args_read_from_the_source_agree_with_the_runtime(ours, pep, subject):
    source = STATIC_CLASSES + f"""
    def run(fn):
        try:
            return fn()
        except Exception as error:
            return (type(error), str(error))
    def ours():
        with match({subject}):
            if {ours}:
                return sorted(k for k in locals() if k != "_mj")
            if _:
                return None
    def theirs():
        match {subject}:
            case {pep}:
                return sorted(k for k in locals() if k != "_mj")
            case _:
                return None
    result = (run(ours), run(theirs))
    """
    ns = run_extended(source, active=PM)
    ours_result, theirs_result = ns["result"]
    if isinstance(ours_result, list):
        ours_result = [k for k in ours_result if not k.startswith("_mj_")]
    assert ours_result == theirs_result


def test_shared_leading_tests_still_fall_through_to_later_cases():
    ns = run_extended("""
        class A:
            def __init__(self, x):
                self.x = x
        def f(s):
            with match(s):
                if A(x=1):
                    return "one"
                if A(x=2):
                    return "two"
                if A(x=[_, *_]):
                    return "list"
                if _:
                    return "other"
        def g(s):
            out = []
            with match(s):
                if A(x=1):
                    out.append("one")
                if A(x=x):
                    out.append(x)
            return out
    """, active=PM)
    assert [ns["f"](ns["A"](v)) for v in (1, 2, [0], 3)] == ["one", "two", "list", "other"]
    assert ns["g"](ns["A"](1)) == ["one"] and ns["g"](ns["A"](5)) == [5]

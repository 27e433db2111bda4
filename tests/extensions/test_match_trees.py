"""The decision trees: each test made at most once per match, ``__match_args__`` read once per match, guards in
order, the shape of the trees on tiny examples, the generated code (no ``__import__``, ``try`` only around
attribute loads, loads by name for classes known statically, also from an imported module), and the same
results when the builder may not split."""
from __future__ import annotations

import ast
import collections
import collections.abc
import importlib
import itertools
import re
import sys
import textwrap

import pytest

from moshjit.extensions import decision_tree as T
from moshjit.extensions import patterns as P
from moshjit.extensions import class_dispatch, pattern_matching, rewrite, rewrite_source
from moshjit.extensions.class_facts import ModuleFacts
from tests.extensions.helpers import forget_module, run_extended, write_module

PM = {"pattern-matching": {}}


# -- instrumented values: every observable operation is logged ------------------------------------------
class Log(list):
    def count(self, entry):  # noqa: A003  (list.count with a clearer failure)
        return sum(1 for e in self if e == entry)


LOG = Log()


class Counting(type):
    """A metaclass logging ``isinstance`` checks and reads of ``__match_args__``."""

    def __instancecheck__(cls, instance):
        LOG.append(("isinstance", cls.__name__, id(instance)))
        return type.__instancecheck__(cls, instance)

    def __getattribute__(cls, name):
        if name == "__match_args__":
            LOG.append(("__match_args__", type.__getattribute__(cls, "__name__")))
        return type.__getattribute__(cls, name)


class Node(metaclass=Counting):
    __match_args__ = ("kind", "value")

    def __init__(self, kind, value):
        self.kind, self.value = kind, value

    def __getattribute__(self, name):
        if not name.startswith("__"):
            LOG.append(("attribute", name, id(self)))
        return object.__getattribute__(self, name)


class Leaf(Node):
    pass


class Tag:
    """A value whose ``==`` is logged."""

    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        LOG.append(("==", self.name, other))
        return self.name == other

    __hash__ = None


class Items(collections.abc.Sequence):
    """A sequence whose length and items are logged."""

    def __init__(self, *items):
        self.items = items

    def __len__(self):
        LOG.append(("len",))
        return len(self.items)

    def __getitem__(self, index):
        LOG.append(("getitem", index))
        return self.items[index]

    def __iter__(self):
        LOG.append(("iter",))
        return iter(self.items)


OVERLAPPING = """
    def f(s):
        with match(s):
            if Node("a", 1):
                return 1
            if Node("a", [x]) and when(x > 10):
                return 2
            if Node("b", v):
                return 3
            if Node("a", [x, *rest]):
                return 4
            if [Node(k, _), "end"]:
                return 5
            if [a, b, c]:
                return 6
            if _:
                return 7
"""


def _duplicates(log) -> dict:
    return {entry: n for entry, n in collections.Counter(log).items() if n > 1}


@pytest.mark.parametrize("subject, expected", [
    (lambda: Leaf(Tag("a"), Items(3)), 4),
    (lambda: Leaf(Tag("c"), Items(3)), 7),
    (lambda: Leaf(Tag("a"), Items(30)), 2),
    (lambda: Leaf(Tag("a"), Items(3, 4)), 4),
    (lambda: Leaf(Tag("b"), 9), 3),
    (lambda: Items(Leaf(Tag("q"), 0), "end"), 5),
    (lambda: Items(1, 2, 3), 6),
])
def test_each_test_and_fetch_is_made_at_most_once_per_match(subject, expected):
    ns = run_extended(OVERLAPPING, {"Node": Node}, active=PM)
    value = subject()
    del LOG[:]
    assert ns["f"](value) == expected
    assert _duplicates(LOG) == {}, LOG


def test_match_args_are_read_once_per_match_and_again_at_the_next_match():
    ns = run_extended("""
        class Pair(metaclass=Counting):
            __match_args__ = ("left", "right")
            def __init__(self, left, right):
                self.left, self.right = left, right
        def f(s):
            with match(s):
                if Pair(0, y):
                    return ("zero", y)
                if Pair(x, 0):
                    return ("zero right", x)
                if Pair(x, y) and when(x == y):
                    return ("same", x)
                if Pair(x, y):
                    return (x, y)
    """, {"Counting": Counting}, active=PM)
    pair = ns["Pair"](1, 2)
    del LOG[:]
    assert ns["f"](pair) == (1, 2)
    assert LOG.count(("__match_args__", "Pair")) == 1
    ns["Pair"].__match_args__ = ("right", "left")  # a later match sees the change
    assert ns["f"](pair) == (2, 1)
    del ns["Pair"].__match_args__
    with pytest.raises(TypeError, match=r"Pair\(\) accepts 0 positional sub-patterns \(2 given\)"):
        ns["f"](pair)


def test_guards_run_in_case_order_and_an_or_pattern_commits_to_its_first_alternative():
    ns = run_extended("""
        log = []
        def g(name, value):
            log.append((name, value))
            return value > 0
        def f(s):
            with match(s):
                if ([x, *_] or [*_, x]) and when(g("first", x)):
                    return ("first", x)
                if [_, y] and when(g("second", y)):
                    return ("second", y)
                if _:
                    return None
    """, active=PM)
    assert ns["f"]([-1, 2]) == ("second", 2)  # [x, *_] matched with x=-1: [*_, x] is not tried (PEP 634)
    assert ns["log"] == [("first", -1), ("second", 2)]


def test_bindings_are_made_only_when_the_case_matches_also_with_direct_fetches():
    ns = run_extended("""
        class P:
            __match_args__ = ("a", "b")
            def __init__(self, a, b=None):
                self.a = a
                if b is not None:
                    self.b = b
        def f(s):
            with match(s):
                if P(a, b):
                    return ("both", a, b)
                if _:
                    return sorted(k for k in locals() if not k.startswith("_mj_") and k != "s")
    """, active=PM)
    assert ns["f"](ns["P"](1, 2)) == ("both", 1, 2)
    assert ns["f"](ns["P"](1)) == []  # 'a' was fetched, 'b' missing: neither is bound


def test_items_are_read_once_even_when_a_later_case_needs_a_star_list():
    ns = run_extended("""
        def f(s):
            with match(s):
                if [x] and when(x > 10):
                    return ("one", x)
                if [x, *rest]:
                    return ("star", x, rest)
    """, active=PM)
    del LOG[:]
    assert ns["f"](Items(3)) == ("star", 3, [])
    assert LOG == [("len",), ("iter",)]  # the star list is built from the item unpacked for case 0
    assert ns["f"](Items(30)) == ("one", 30) and ns["f"](Items(1, 2, 3)) == ("star", 1, [2, 3])


def test_a_missing_attribute_continues_with_the_cases_that_do_not_need_it():
    ns = run_extended("""
        class P:
            def __init__(self, **attributes):
                self.__dict__.update(attributes)
        def f(s):
            with match(s):
                if P(a=0, b=b):
                    return ("zero", b)
                if P(a=a) and when(a != 9):
                    return ("a", a)
                if P(b=b):
                    return ("b", b)
                if _:
                    return None
        def g(s):  # case bodies that complete: the tree then needs flags to find its way
            with match(s):
                if P(a=0, b=b):
                    result = ("zero", b)
                if P(a=a) and when(a != 9):
                    result = ("a", a)
                if P(b=b):
                    result = ("b", b)
                if _:
                    result = None
            return result
    """, active=PM)
    P = ns["P"]
    subjects = [{"a": 0, "b": 1}, {"a": 5, "b": 1}, {"a": 5}, {"b": 2}, {"a": 9, "b": 3}, {}]
    expected = [("zero", 1), ("a", 5), ("a", 5), ("b", 2), ("b", 3), None]
    assert [ns["f"](P(**kw)) for kw in subjects] == expected
    assert [ns["g"](P(**kw)) for kw in subjects] == expected


# -- trees on tiny examples -------------------------------------------------------------------------------
class _Context:
    filename = "<tiny>"

    def error(self, node, message):
        return SyntaxError(message)


def tree_of(*cases: str) -> T.Node:
    source = "\n".join(f"if {case}:\n    pass" for case in cases)
    compiler = P.CaseCompiler(_Context(), ModuleFacts(ast.parse(""), None), itertools.count())
    rows = [compiler.row(i, stmt) for i, stmt in enumerate(ast.parse(source).body)]
    return T.build(rows, T.Facts(), budget=1000)


def shape(node) -> str:
    """A compact rendering: tests and fetches by their kind, leaves by case number."""
    if isinstance(node, T.Fail):
        return "fail"
    if isinstance(node, T.Leaf):
        return f"case {node.row.index}"
    if isinstance(node, T.Do):
        return f"{type(node.step).__name__}; {shape(node.next)}"
    if isinstance(node, T.Join):
        return f"({shape(node.first)}) then ({shape(node.then)})"
    step = node.step
    name = type(step).__name__
    if isinstance(step, P.LengthIs):
        name = f"len{'>=' if step.at_least else '=='}{step.count}"
    return f"{name}? [{shape(node.yes)}] [{shape(node.no)}]"


CLASSES = """
class Point:
    __match_args__ = ("x", "y")

class Box:
    __match_args__ = ("item",)
"""


def _class_rows(*cases: str):
    source = "\n".join(f"if {case}:\n    pass" for case in cases)
    compiler = P.CaseCompiler(_Context(), ModuleFacts(ast.parse(CLASSES), None), itertools.count())
    rows = [compiler.row(i, stmt) for i, stmt in enumerate(ast.parse(source).body)]
    guarded = class_dispatch.guarded(rows, compiler.class_exprs, compiler.dynamic_classes, lambda name: True)
    return rows, guarded


def test_a_nested_guarded_class_pattern_starts_with_its_class_guard():
    rows, guarded = _class_rows("Box(Point(0, y))", "Box(Point(x, y))")
    assert sorted(guess for guess in guarded.values()) == [("item",), ("x", "y")]
    with_guards = shape(T.build(rows, T.Facts(), budget=1000, exact=guarded))
    # the subject's guard, then the nested one: on success neither isinstance nor ArgsGuard is made below it
    assert with_guards.startswith("ExactClass? [Attrs? [ExactClass? [Attrs? [Equals? [case 0] [case 1]] [fail]] "
                                  "[IsInstance? [ArgsGuard? ")
    plain = shape(T.build(rows, T.Facts(), budget=1000))
    assert "ExactClass" not in plain and plain.startswith("IsInstance? [ArgsGuard? [Attrs? [IsInstance? [ArgsGuard?")
    # a tree that outgrows its budget with the guards is built without them (and still splits)
    assert "ExactClass" not in shape(T.build(rows, T.Facts(), budget=12, exact=guarded))


def test_a_class_guard_is_made_only_where_its_case_tests_the_guard_next():
    rows, guarded = _class_rows("Box(item=Point(x=0))", "Box(Point(x, y))")
    tree = shape(T.build(rows, T.Facts(), budget=1000, exact=guarded))
    # case 0 tests Point with keywords only (no guard after its isinstance): no ExactClass for it there
    assert tree.startswith("IsInstance? [Attrs? [IsInstance? [Attrs? ")


def test_a_length_read_again_keeps_len_and_a_length_tested_once_is_a_native_pattern():
    text = ast.unparse(_generated("""
        def f(s):
            with match(s):
                if [x, [y, z]]:
                    return 1
                if [x, [y, *_]]:
                    return 2
                if (x, []):
                    return 3
    """))
    assert "case [_, _]:" in text  # the subject: one length test (== 2)
    # the item: == 2, then >= 1 as the truth of the length (== 0 follows from both failing), from one len()
    assert text.count("len(") == 1 and re.search(r"if _mj_v\d+:", text)


def test_a_length_is_taken_once_and_lengths_are_decided_by_earlier_tests():
    assert shape(tree_of("()", "(x,)", "(a, b)", "(a, *rest)")) == (
        "IsSequence? [Length; len==0? [case 0] [len==1? [Unpack; case 1] "
        "[len==2? [Unpack; case 2] [UnpackStar; case 3]]]] [fail]")


def test_cases_sharing_a_class_test_nest_under_it_and_the_rest_follows_as_a_join():
    # (classes the rewrite cannot see: runtime.class_kind first; one with keywords cannot be a recogniser)
    assert shape(tree_of("Point(x=0)", "Point(x=x)", "Circle()")) == (
        "ClassKind; (IsInstance? [Attrs? [Equals? [case 0] [case 1]] [fail]] [fail]) then "
        "(ClassKind; KindIsClass? [IsInstance? [case 2] [fail]] [Recognise? [case 2] [fail]])")


def test_a_test_that_later_cases_repeat_splits_instead_of_joining():
    # case 1 needs item 0 == 0 too: when case 0 fails on item 1, case 1 does not test item 0 again
    assert shape(tree_of("(0, 1)", "(0, y)")) == (
        "IsSequence? [Length; len==2? [Unpack; Equals? [Equals? [case 0] [case 1]] [fail]] [fail]] [fail]")


def test_a_guard_failing_keeps_what_was_learnt():
    assert shape(tree_of("[x] and when(x)", "[y]")) == (
        "IsSequence? [Length; len==1? [Unpack; Guard? [case 0] [case 1]] [fail]] [fail]")


def test_without_splits_no_case_is_duplicated_and_the_results_are_the_same(monkeypatch):
    source = """
        def f(s):
            with match(s):
                if [0, 1]:
                    return 0
                if [0, x, *_]:
                    return ("a", x)
                if [x, 1]:
                    return ("b", x)
                if {"k": [0, v]}:
                    return ("c", v)
                if {"k": [w, 0]}:
                    return ("d", w)
                if _:
                    return None
    """
    subjects = [[0, 1], [0, 2, 3], [5, 1], [0], {"k": [0, 4]}, {"k": [3, 0]}, {"k": []}, (0, 1), "x"]
    split = run_extended(source, active=PM)["f"]
    monkeypatch.setattr(pattern_matching, "_MIN_BUDGET", 1)
    monkeypatch.setattr(pattern_matching, "_BUDGET_PER_STEP", 0)
    joined = run_extended(source, active=PM)["f"]
    assert [joined(s) for s in subjects] == [split(s) for s in subjects]
    tree = rewrite("# moshmosh?\n# +pattern-matching\n" + textwrap.dedent(source), "j.py")
    assert tree.count("return ('a', x)") >= 1


# -- the generated code ---------------------------------------------------------------------------------
def _generated(source: str) -> ast.Module:
    return rewrite_source(textwrap.dedent(source), "gen.py", PM).tree


def test_generated_code_imports_nothing_on_its_paths_and_protects_only_attribute_loads():
    tree = _generated("""
        from dataclasses import dataclass
        @dataclass
        class Point:
            x: int
            y: int
        def f(s):
            with match(s):
                if Point(0, y):
                    return y
                if Point(x=x, y=0):
                    return x
                if {"k": [a, *rest]}:
                    return a
                if lib.Thing(a, b):
                    return b
    """)
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    assert not [c for c in calls if isinstance(c.func, ast.Name) and c.func.id == "__import__"]
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            for stmt in node.body:
                assert isinstance(stmt, ast.Assign)
                values = stmt.value.elts if isinstance(stmt.value, ast.Tuple) else [stmt.value]
                assert all(isinstance(v, ast.Attribute) for v in values), ast.unparse(node)
            assert [h.type.id for h in node.handlers] == ["AttributeError"]
    text = ast.unparse(tree)
    assert "s.x" in text or ".x" in text  # Point(0, y): loads by name
    assert "getattr(" not in text


def test_classes_imported_from_a_readable_module_get_loads_by_name_behind_a_guard(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    write_module(tmp_path, "nodes_mod", """
        from dataclasses import dataclass
        @dataclass
        class Add:
            left: object
            right: object
        @dataclass
        class Num:
            value: int
    """)
    write_module(tmp_path, "evaluate_mod", """
        # moshmosh?
        # +pattern-matching
        from nodes_mod import Add, Num
        import nodes_mod
        def evaluate(e):
            with match(e):
                if Num(v):
                    return v
                if nodes_mod.Add(l, r):
                    return evaluate(l) + evaluate(r)
    """)
    text = rewrite((tmp_path / "evaluate_mod.py").read_text(), str(tmp_path / "evaluate_mod.py"))
    assert ".value" in text and ".left" in text and ".right" in text and "ArgsSite" in text
    import moshjit.extensions as extensions
    installed = extensions.hook.is_installed()
    extensions.install()
    try:
        module = importlib.import_module("evaluate_mod")
        nodes = sys.modules["nodes_mod"]
        tree = nodes.Add(nodes.Num(2), nodes.Add(nodes.Num(3), nodes.Num(4)))
        assert module.evaluate(tree) == 9
        nodes.Add.__match_args__ = ("right", "left")  # the guess is now wrong: the general path takes over
        assert module.evaluate(nodes.Add(nodes.Num(1), nodes.Num(2))) == 3
    finally:
        if not installed:
            extensions.uninstall()
        forget_module("evaluate_mod")
        forget_module("nodes_mod")


def test_a_wrong_match_args_guess_is_caught_per_class_and_uses_the_general_path():
    ns = run_extended("""
        from dataclasses import dataclass
        @dataclass
        class P:
            a: int
            b: int
        def f(s):
            with match(s):
                if P(x, y):
                    return (x, y)
    """, active=PM)
    assert ns["f"](ns["P"](1, 2)) == (1, 2)
    ns["P"].__match_args__ = ("b", "a")
    assert ns["f"](ns["P"](1, 2)) == (2, 1)
    ns["P"].__match_args__ = ["a", "b"]
    with pytest.raises(TypeError, match=r"P.__match_args__ must be a tuple \(got list\)"):
        ns["f"](ns["P"](1, 2))


def test_value_keys_that_turn_out_equal_raise_cpythons_value_error():
    ns = run_extended("""
        class K:
            A = "k"
            B = "k"
        def f(s):
            with match(s):
                if {K.A: x, K.B: y}:
                    return (x, y)
                if _:
                    return None
        def g(s):
            match s:
                case {K.A: x, K.B: y}:
                    return (x, y)
                case _:
                    return None
    """, active=PM)
    for fn in (ns["f"], ns["g"]):
        with pytest.raises(ValueError, match=r"mapping pattern checks duplicate key \('k'\)"):
            fn({"k": 1, "z": 2})
    assert ns["f"]({"k": 1}) is None and ns["g"]({"k": 1}) is None  # too short: the keys are never looked up


def test_a_callee_that_is_not_a_class_raises_cpythons_type_error():
    ns = run_extended("""
        def f(s, Cls):
            with match(s):
                if Cls(x=1):
                    return 1
                if _:
                    return 0
    """, active=PM)
    def native(s, Cls):
        match s:
            case Cls(x=1):
                return 1
    with pytest.raises(TypeError) as cpython:              # 'must be a type' before 3.12, 'a class' since
        native(1, (int, str))
    with pytest.raises(TypeError) as rewritten:
        ns["f"](1, (int, str))
    assert str(rewritten.value) == str(cpython.value)


NESTED_STAR_SEQUENCES = """
    def f(s):
        with match(s):
            if [a, [b, *rest]]:
                return (a, b, rest)
            if (a, *_, z):
                return (a, z)
            if _:
                return None
"""


def test_a_sequence_test_is_cpythons_match_sequence_and_a_named_star_unpacks_once():
    tree = _generated(NESTED_STAR_SEQUENCES)
    matches = [node for node in ast.walk(tree) if isinstance(node, ast.Match)]
    assert len(matches) == 2  # the subject, then its second item: one native sequence test each
    subject, item = matches
    assert ast.unparse(subject.cases[0].pattern) == "[*_]"  # its length is tested twice: len() once, then ==
    assert len(subject.cases) == 1 or ast.unparse(subject.cases[1].pattern) == "_"
    # the item's length is tested once: the test is a native length pattern (GET_LEN), no len() call
    assert [ast.unparse(case.pattern) for case in item.cases] in (["[_, *_]"], ["[_, *_]", "[*_]"])
    text = ast.unparse(tree)
    assert "type(" not in text and "__flags__" not in text
    assert "b, *rest = " in text  # UNPACK_EX, as CPython for a named star
    assert "z = s[_mj_v1 - 1]" in text  # with '*_' the last item is read by index from the length, as CPython
    ns = run_extended(textwrap.dedent(NESTED_STAR_SEQUENCES), active=PM)
    assert ns["f"]([1, (2, 3, 4)]) == (1, 2, [3, 4]) and ns["f"]((1, 2, 3)) == (1, 3)
    assert ns["f"]("ab") is None and ns["f"](b"ab") is None and ns["f"](bytearray(b"ab")) is None

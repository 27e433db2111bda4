"""Every pattern form, alone and nested, against the equivalent PEP 634 ``match`` statement (hypothesis)."""
from __future__ import annotations

import collections
import itertools
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.extensions.helpers import run_extended


@dataclass
class Point:
    x: object
    y: object


class Consts:
    K = 2


def _render(tree, names, pep: bool) -> str:
    """Render a generated pattern tree in moshjit's syntax or as a PEP 634 pattern."""
    kind = tree[0]
    sub = lambda t: _render(t, names, pep)  # noqa: E731
    if kind == "lit":
        return repr(tree[1])
    if kind == "wild":
        return "_"
    if kind == "cap":
        return next(names)
    if kind in ("tuple", "list"):
        items = [sub(t) for t in tree[1]]
        if tree[2] is not None:
            items.insert(tree[2][0], "*" + ("_" if tree[2][1] else next(names)))
        text = ", ".join(items)
        return f"({text}{',' if len(items) == 1 else ''})" if kind == "tuple" else f"[{text}]"
    if kind == "point_kw":
        return f"Point(x={sub(tree[1])}, y={sub(tree[2])})"
    if kind == "point_pos":
        return f"Point({', '.join(sub(t) for t in tree[1])})"
    if kind == "map":
        entries = [f"{k!r}: {sub(t)}" for k, t in tree[1]]
        if tree[2]:
            entries.append("**" + next(names))
        return "{" + ", ".join(entries) + "}"
    if kind == "isinstance":
        return f"{tree[1]}()" if pep else f"isinstance({tree[1]})"
    if kind == "self":
        return f"{tree[1]}({sub(tree[2])})"
    if kind == "value":
        return "Consts.K" if pep else ("pin(Consts.K)" if tree[1] else "Consts.K")
    if kind == "or":
        return "(" + (" | " if pep else " or ").join(sub(t) for t in tree[1]) + ")"
    if kind == "as":
        inner = sub(tree[1])
        name = next(names)
        return f"({inner} as {name})" if pep else f"({inner} and {name})"
    raise AssertionError(kind)


def _patterns(captures: bool):
    leaves = [st.tuples(st.just("lit"), st.sampled_from([0, 1, 2, -1, "a", None, True, False, 2.0])),
              st.just(("wild",)), st.tuples(st.just("isinstance"), st.sampled_from(["int", "str", "list", "Point"])),
              st.tuples(st.just("value"), st.booleans())]
    if captures:
        leaves.append(st.just(("cap",)))

    def extend(children):
        star = st.none() | st.tuples(st.integers(0, 2), st.booleans() if captures else st.just(True))
        seq = st.tuples(st.sampled_from(["tuple", "list"]), st.lists(children, max_size=3), star).map(
            lambda t: (t[0], t[1], None if t[2] is None else (min(t[2][0], len(t[1])), t[2][1])))
        options = [seq,
                   st.tuples(st.just("point_kw"), children, children),
                   st.tuples(st.just("point_pos"), st.lists(children, min_size=1, max_size=2)),
                   st.tuples(st.just("map"), st.lists(st.tuples(st.sampled_from(["a", "b"]), children),
                                                       max_size=2, unique_by=lambda kv: kv[0]),
                             st.booleans() if captures else st.just(False)),
                   st.tuples(st.just("self"), st.sampled_from(["int", "str"]), children)]
        if captures:
            options.append(st.tuples(st.just("or"), st.lists(_patterns(False), min_size=2, max_size=3)))
            options.append(st.tuples(st.just("as"), children))
        return st.one_of(options)

    return st.recursive(st.one_of(leaves), extend, max_leaves=6)


def _subjects():
    leaves = st.sampled_from([0, 1, 2, -1, "a", "ab", None, True, False, 2.0, b"a"])
    return st.recursive(leaves, lambda children: st.one_of(
        st.lists(children, max_size=4), st.lists(children, max_size=4).map(tuple),
        st.dictionaries(st.sampled_from(["a", "b", "c"]), children, max_size=3),
        st.builds(Point, children, children),
        st.lists(children, max_size=3).map(collections.deque)), max_leaves=8)


def _compile_pair(tree):
    ours = _render(tree, (f"n{i}" for i in itertools.count()), pep=False)
    pep = _render(tree, (f"n{i}" for i in itertools.count()), pep=True)
    count = ours.count("n")  # upper bound is fine: unused names are simply absent
    names = [f"n{i}" for i in range(count) if f"n{i}" in ours]
    result = "(" + "".join(f"{n}, " for n in names) + ")"
    source = f"""
def ours(s):
    with match(s):
        if {ours}:
            return ("matched", {result})
        if _:
            return ("no match",)

def theirs(s):
    match s:
        case {pep}:
            return ("matched", {result})
        case _:
            return ("no match",)
"""
    try:
        compile("def theirs" + source.split("def theirs")[1], "<pep>", "exec")
    except SyntaxError as pep_error:
        with pytest.raises(SyntaxError) as our_error:
            run_extended(source, {"Point": Point, "Consts": Consts}, active={"pattern-matching": {}})
        assert our_error.value.msg == pep_error.msg, (ours, pep)
        return None
    namespace = run_extended(source, {"Point": Point, "Consts": Consts}, active={"pattern-matching": {}})
    return namespace["ours"], namespace["theirs"], ours, pep


def _outcome(fn, subject):
    try:
        return fn(subject)
    except Exception as error:  # the differential compares exceptions too
        return ("raised", type(error), str(error))


@settings(max_examples=300, deadline=None)
@given(tree=_patterns(True), subjects=st.lists(_subjects(), min_size=1, max_size=6))
def test_generated_patterns_agree_with_pep634(tree, subjects):
    compiled = _compile_pair(tree)
    if compiled is None:
        return
    ours, theirs, ours_text, pep_text = compiled
    for subject in subjects:
        assert _outcome(ours, subject) == _outcome(theirs, subject), (ours_text, pep_text, subject)


@pytest.mark.parametrize("ours_text, pep_text, names, subject", [
    ("(a, *rest, z)", "(a, *rest, z)", "a rest z", (1, 2, 3, 4)),
    ("[x, *_]", "[x, *_]", "x", range(3)),
    ("(a, *rest)", "(a, *rest)", "a rest", collections.deque([1, 2, 3])),
    ("Point(x=0, y=p)", "Point(x=0, y=p)", "p", Point(0, 5)),
    ("Point(a, b)", "Point(a, b)", "a b", Point([1], (2,))),
    ("{'a': v, **rest}", "{'a': v, **rest}", "v rest", {"a": 1, "b": 2}),
    ("'ab'", "'ab'", "", "ab"),
    ("(a, b)", "(a, b)", "a b", "ab"),
    ("1 or 2", "1 | 2", "", True),
    ("True", "True", "", 1),
    ("int(x)", "int(x)", "x", True),
    ("isinstance(str) and s2", "str() as s2", "s2", "text"),
    ("-1.5 or 1+2j", "-1.5 | 1+2j", "", 1 + 2j),
])
def test_pattern_forms(ours_text, pep_text, names, subject):
    result = "(" + "".join(f"{n}, " for n in names.split()) + ")"
    source = f"""
def ours(s):
    with match(s):
        if {ours_text}:
            return {result}
        if _:
            return None

def theirs(s):
    match s:
        case {pep_text}:
            return {result}
        case _:
            return None
"""
    namespace = run_extended(source, {"Point": Point}, active={"pattern-matching": {}})
    expected = namespace["theirs"](subject)
    assert namespace["ours"](subject) == expected
    assert (expected is None) == (ours_text in ("(a, b)", "True"))  # str is no sequence; 1 is not True

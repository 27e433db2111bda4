"""Two shapes of generated code checked against CPython's own ``match`` in the same module:

- a nested class pattern whose ``__match_args__`` is guessed starts with ``v in guard`` (``runtime.ClassGuard``:
  ``type(v)`` is exactly the class the module global holds and its ``ArgsSite`` admitted it), and makes neither
  ``isinstance`` nor the guard when that holds; hypothesis drives subjects and changes between matches
  (subclasses, a metaclass ``__getattribute__``, a descriptor ``__match_args__``, reassigned or list-valued
  ``__match_args__``, rebound class names, side-effecting ``when`` guards);
- a sequence whose length the tree tests once is matched with a native length pattern (``case [_, _]:``,
  CPython's GET_LEN): ``__len__`` is still called at most once per value and match (counted), for lists, tuples,
  list subclasses, custom ``__len__``/``__getitem__`` sequences and non-sequences.
"""
from __future__ import annotations

import ast
import collections.abc
import functools
import pickle
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moshjit import match_reference
from moshjit.extensions import rewrite_source, runtime

COMPILED = runtime.ClassGuard is not runtime.PyClassGuard


class P2:
    __match_args__ = ("x", "y")

    def __init__(self, x=0, y=0):
        self.x, self.y = x, y


class SubP2(P2):
    pass


class Meta(type):
    pass


class WithMeta(metaclass=Meta):
    __match_args__ = ("x", "y")


def _site(*guess):
    return runtime.ArgsSite(guess, match_reference.NO_MATCH_ARGS)


def test_the_compiled_guard_is_the_one_generated_code_uses():
    assert runtime.ClassGuard.__module__ == "moshjit.runtime.moshjit_match"  # built by `make venv`


@pytest.mark.skipif(not COMPILED, reason="the compiled runtime is not built")
def test_a_guard_answers_only_for_the_exact_class_its_site_admitted():
    site = _site("x", "y")
    namespace = {"P2": P2}
    guard = runtime.ClassGuard(namespace, "P2", site)
    assert P2() not in guard  # the site has not admitted P2 yet
    assert site.read(P2) is True and site.read(P2) is True and P2 in site
    assert P2() in guard
    assert SubP2() not in guard and 3 not in guard and None not in guard  # a subclass: isinstance decides
    P2.__match_args__ = ("x", "y")  # a new version tag: not admitted until read again
    assert P2() not in guard and site.read(P2) is True and site.read(P2) is True and P2() in guard
    namespace["P2"] = SubP2  # the name holds another class: its instances only
    assert P2() not in guard and SubP2() not in guard  # (SubP2 was never admitted by the site)
    namespace["P2"] = WithMeta  # not a plain class
    assert WithMeta() not in guard
    del namespace["P2"]
    assert P2() not in guard
    namespace["P2"] = P2
    assert P2() in guard


@pytest.mark.skipif(not COMPILED, reason="the compiled runtime is not built")
def test_globals_of_a_dict_subclass_and_pickled_guards_never_answer():
    site = _site("x", "y")
    assert site.read(P2) is True and site.read(P2) is True

    class Namespace(dict):
        def __getitem__(self, name):  # what LOAD_GLOBAL would call
            return SubP2

    assert P2() not in runtime.ClassGuard(Namespace(P2=P2), "P2", site)
    assert P2() in runtime.ClassGuard({"P2": P2}, "P2", site)
    copy = pickle.loads(pickle.dumps(runtime.ClassGuard({"P2": P2}, "P2", site)))
    assert P2() not in copy and copy.name == "P2"


def test_a_guard_takes_a_site():
    with pytest.raises(TypeError):
        runtime.ClassGuard({}, "P2", object())


CLASS_SOURCE = '''
LOG = []

class Meta(type):
    def __getattribute__(cls, name):
        if name == "__match_args__":
            LOG.append(("meta read", cls.__name__))
        return type.__getattribute__(cls, name)

class Pt:
    __match_args__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y

class SubPt(Pt):
    pass

class MetaPt(metaclass=Meta):
    __match_args__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y

class Described:
    """__match_args__ through a descriptor: every read runs it."""
    class _Args:
        def __get__(self, instance, owner):
            LOG.append(("descriptor read", owner.__name__))
            return ("x", "y")
    __match_args__ = _Args()
    def __init__(self, x, y):
        self.x, self.y = x, y

class Box:
    __match_args__ = ("item", "tag")
    def __init__(self, item, tag):
        self.item, self.tag = item, tag

def noted(value):
    LOG.append(("guard", value))
    return value > 0

def ours(s):
    with match(s):
        if Box(Pt(0, 0), t):
            return ("origin", t)
        if Box(Pt(x, y), t) and when(noted(x)):
            return ("positive", x, y, t)
        if Box(Pt(x, y), 1):
            return ("tag one", x, y)
        if Box(Box(Pt(x, _), _), t):
            return ("boxed", x, t)
        if Box(item=Pt(x=x), tag=t):
            return ("keywords", x, t)
        if Box(v, t):
            return ("box", t)
        if _:
            return ("other",)

def theirs(s):
    match s:
        case Box(Pt(0, 0), t):
            return ("origin", t)
        case Box(Pt(x, y), t) if noted(x):
            return ("positive", x, y, t)
        case Box(Pt(x, y), 1):
            return ("tag one", x, y)
        case Box(Box(Pt(x, _), _), t):
            return ("boxed", x, t)
        case Box(item=Pt(x=x), tag=t):
            return ("keywords", x, t)
        case Box(v, t):
            return ("box", t)
        case _:
            return ("other",)
'''

KINDS = ["Pt", "SubPt", "MetaPt", "Described", "int", "Box"]
CHANGES = ["rebind Pt to SubPt", "rebind Pt to MetaPt", "rebind Pt to Described", "restore Pt",
           "swap Pt's match args", "list match args", "restore Pt's match args", "Pt reads y through a property",
           "Pt reads plainly"]


@functools.lru_cache(maxsize=1)
def _rewritten():
    tree = rewrite_source(textwrap.dedent(CLASS_SOURCE), "<nested-guards>", {"pattern-matching": {}}).tree
    return tree, compile(tree, "<nested-guards>", "exec", dont_inherit=True)


def _program() -> dict:
    ns = {"__name__": "nested_guards_program"}
    exec(_rewritten()[1], ns)
    ns["_Pt"] = ns["Pt"]
    return ns


def _change(ns, change: str) -> None:
    original = ns["_Pt"]
    if change.startswith("rebind Pt to "):
        ns["Pt"] = ns[change.rpartition(" ")[2]]
    elif change == "restore Pt":
        ns["Pt"] = original
    elif change == "swap Pt's match args":
        original.__match_args__ = ("y", "x")
    elif change == "list match args":
        original.__match_args__ = ["x", "y"]
    elif change == "restore Pt's match args":
        original.__match_args__ = ("x", "y")
    elif change == "Pt reads y through a property":
        original.y = property(lambda self: (ns["LOG"].append(("y read",)), self.__dict__["y"])[1])
    elif change == "Pt reads plainly":
        if "y" in original.__dict__:
            del original.y
    else:
        raise AssertionError(change)


def _point(ns, kind: str, value: int):
    if kind == "int":
        return value
    cls = ns["_Pt"] if kind == "Pt" else ns[kind]
    point = cls.__new__(cls)
    point.__dict__.update(x=value, y=value % 2)
    return point


def _subject(ns, kind: str, value: int, tag: int, depth: int):
    subject = _point(ns, kind, value) if kind != "Box" else ns["Box"](_point(ns, "Pt", value), tag)
    for _ in range(depth):
        subject = ns["Box"](subject, tag)
    return subject


def _outcome(ns, fn, subject):
    ns["LOG"].clear()
    try:
        result = fn(subject)
    except Exception as error:
        result = ("raised", type(error).__name__, str(error))
    return result, set(ns["LOG"])  # the tree makes each call at most once where CPython may repeat it


def test_nested_guarded_patterns_start_with_one_guard_test():
    tree, _ = _rewritten()
    text = ast.unparse(tree)
    assert "ClassGuard(globals(), 'Pt', " in text
    ours = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "ours")
    ns = _program()
    guards = {ns[name].name: name for name in ns if name.startswith("_mj_ma") and isinstance(
        ns[name], runtime.ClassGuard)}
    assert set(guards) == {"Pt", "Box"}  # no class dispatch (a `when` guard): the subject's class has one too
    guard_tests = [node for node in ast.walk(ours) if isinstance(node, ast.Compare)
                   and isinstance(node.ops[0], ast.In) and ast.unparse(node.comparators[0]) == guards["Pt"]]
    assert guard_tests  # `v in guard` before the isinstance of the nested Pt(...)
    box = ns["Box"](ns["Pt"](3, 4), 2)
    for _ in range(3):  # the first matches read and admit, then the guard answers
        assert ns["ours"](box) == ns["theirs"](box) == ("positive", 3, 4, 2)
    if COMPILED:
        assert box.item in ns[guards["Pt"]] and box in ns[guards["Box"]]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.tuples(st.just("match"), st.sampled_from(KINDS), st.integers(-1, 2),
                                    st.integers(0, 2), st.integers(0, 2)),
                          st.tuples(st.just("change"), st.sampled_from(CHANGES))), min_size=1, max_size=25))
def test_nested_guarded_patterns_agree_with_cpython_across_changes(program):
    ns = _program()
    try:
        for step in program:
            if step[0] == "change":
                _change(ns, step[1])
                continue
            subject = _subject(ns, *step[1:])
            for _ in range(3):  # the first matches read and admit, later ones are answered by the guard
                assert _outcome(ns, ns["ours"], subject) == _outcome(ns, ns["theirs"], subject), (program, step)
    finally:
        _change(ns, "Pt reads plainly")
        _change(ns, "restore Pt's match args")


SEQUENCE_SOURCE = '''
def ours(s):
    with match(s):
        if []:
            return ("empty",)
        if [[a, b], [c, *_]]:
            return ("pairs", a, b, c)
        if [x, [y, *_]]:
            return ("head", x, y)
        if [[x], y]:
            return ("single", x, y)
        if (a, b, c):
            return ("three", a, b, c)
        if _:
            return ("other",)

def theirs(s):
    match s:
        case []:
            return ("empty",)
        case [[a, b], [c, *_]]:
            return ("pairs", a, b, c)
        case [x, [y, *_]]:
            return ("head", x, y)
        case [[x], y]:
            return ("single", x, y)
        case (a, b, c):
            return ("three", a, b, c)
        case _:
            return ("other",)
'''


class Counted(collections.abc.Sequence):
    """A sequence whose ``__len__`` calls are counted (and whose length may disagree with its items)."""

    calls: list = []

    def __init__(self, items, length=None):
        self.items, self.length = list(items), length

    def __len__(self):
        Counted.calls.append(id(self))
        return len(self.items) if self.length is None else self.length

    def __getitem__(self, index):
        return self.items[index]


class CountedList(list):
    def __len__(self):
        Counted.calls.append(id(self))
        return list.__len__(self)


def _sequences(leaves):
    kinds = st.sampled_from(["list", "tuple", "counted", "counted short", "counted list", "str"])

    def build(children):
        return st.tuples(kinds, st.lists(children, max_size=4)).map(_make)
    return st.recursive(leaves, build, max_leaves=8)


def _make(kind_items):
    kind, items = kind_items
    if kind == "tuple":
        return tuple(items)
    if kind == "counted":
        return Counted(items)
    if kind == "counted short":  # claims one item fewer than it holds
        return Counted(items, length=max(0, len(items) - 1))
    if kind == "counted list":
        return CountedList(items)
    if kind == "str":
        return "".join(str(item) for item in items if isinstance(item, int))
    return list(items)


@functools.lru_cache(maxsize=1)
def _sequence_program():
    tree = rewrite_source(textwrap.dedent(SEQUENCE_SOURCE), "<native-lengths>", {"pattern-matching": {}}).tree
    ns = {"__name__": "native_lengths_program"}
    exec(compile(tree, "<native-lengths>", "exec", dont_inherit=True), ns)
    return tree, ns


def _run(fn, subject):
    Counted.calls.clear()
    try:
        result = fn(subject)
    except Exception as error:
        result = ("raised", type(error).__name__, str(error))
    return result, list(Counted.calls)


def test_a_length_tested_once_is_a_native_length_pattern():
    tree, ns = _sequence_program()
    ours = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "ours")
    patterns = {ast.unparse(case.pattern) for node in ast.walk(ours) if isinstance(node, ast.Match)
                for case in node.cases}
    assert "[_, *_]" in patterns  # the second item of `[x, [y, *_]]` after the first is no sequence
    counted = Counted([1, Counted([2, 3])])
    assert _run(ns["ours"], counted)[0] == _run(ns["theirs"], counted)[0] == ("head", 1, 2)
    calls = _run(ns["ours"], counted)[1]
    assert sorted(set(calls)) == sorted(calls) and len(calls) == 2  # once for each of the two sequences


@settings(max_examples=200, deadline=None)
@given(_sequences(st.integers(0, 3)))
def test_native_length_patterns_agree_with_cpython_and_call_len_once(subject):
    _, ns = _sequence_program()
    (result, calls), (expected, _) = _run(ns["ours"], subject), _run(ns["theirs"], subject)
    assert result == expected
    assert len(calls) == len(set(calls))  # __len__ at most once per value and match


def test_without_the_compiled_runtime_the_guard_never_answers_and_matches_agree(monkeypatch):
    monkeypatch.setattr(runtime, "ArgsSite", runtime.PyArgsSite)
    monkeypatch.setattr(runtime, "ClassGuard", runtime.PyClassGuard)
    ns = _program()
    guards = [ns[name] for name in ns if name.startswith("_mj_ma") and isinstance(ns[name], runtime.PyClassGuard)]
    assert len(guards) == 2
    for kind in KINDS:
        for depth in range(3):
            subject = _subject(ns, kind, 1, 1, depth)
            assert not any(subject in guard for guard in guards)
            for _ in range(3):
                assert _outcome(ns, ns["ours"], subject) == _outcome(ns, ns["theirs"], subject)

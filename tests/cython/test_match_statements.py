"""``match`` statements under ``@jit`` (the MATCH_* opcodes): compiled by the Cython backend and run by the IR
interpreter, each against CPython on hypothesis-generated subjects (passed inside a list, so one compiled
specialisation serves them all) — results, exceptions (type and message) and the
order in which user ``__eq__``/``__len__``/``__getattr__``/``get`` ran. The LLVM backend refuses them, so ``auto``
routes to Cython."""
from __future__ import annotations

import collections
import collections.abc
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import moshjit
from moshjit.backends.llvm import lower
from moshjit.ir import ops
from tests.cython.agree import jitted, outcome

LOG: list = []


@dataclass
class Point:
    x: object
    y: object


class Loud:
    """Logs its ``__eq__``, ``__len__``-free attribute reads and ``__getattr__`` fallbacks."""

    __match_args__ = ("a", "b")

    def __init__(self, a, b=None):
        self.a = a
        if b is not None:
            self.b = b

    def __getattr__(self, name):
        LOG.append(("getattr", name))
        if name == "boom":
            raise KeyError(name)
        raise AttributeError(name)

    def __eq__(self, other):
        LOG.append(("eq", self.a, other))
        return self.a == other

    __hash__ = None


class Seq(collections.abc.Sequence):
    """A user sequence that logs ``__len__`` and ``__getitem__``."""

    def __init__(self, *items):
        self.items = items

    def __len__(self):
        LOG.append(("len", len(self.items)))
        return len(self.items)

    def __getitem__(self, index):
        LOG.append(("getitem", index))
        return self.items[index]


class Map(collections.abc.Mapping):
    """A user mapping that logs ``get``, ``__len__`` and iteration."""

    def __init__(self, **items):
        self.items = items

    def __getitem__(self, key):
        return self.items[key]

    def __iter__(self):
        LOG.append(("iter",))
        return iter(self.items)

    def __len__(self):
        LOG.append(("len", len(self.items)))
        return len(self.items)

    def get(self, key, default=None):
        LOG.append(("get", key))
        return self.items.get(key, default)


class BadArgs:
    __match_args__ = ["a"]


class NotStrArgs:
    __match_args__ = (1,)


class Consts:
    ZERO = 0
    KEY = "k"


def sequences(box):
    s = box[0]
    match s:
        case []:
            return "empty"
        case [0, *_]:
            return "starts with 0"
        case [x]:
            return ("one", x)
        case (a, b) if a == b:
            return ("same", a)
        case [a, [b, *inner], *rest]:
            return ("nested", a, b, inner, rest)
        case [a, *middle, z] if len(middle) > 1:
            return ("ends", a, middle, z)
        case [a, *_, Consts.ZERO]:
            return ("zero last", a)
        case (str() | bytes()) as text:
            return ("text", text)
        case _:
            return "other"


def mappings(box):
    m = box[0]
    match m:
        case {"type": "point", "x": x, "y": y}:
            return ("point", x, y)
        case {"type": "named", Consts.KEY: k, **rest}:
            return ("named", k, rest)
        case {"type": t, **rest} if not rest:
            return ("only type", t)
        case {}:
            return "mapping"
        case _:
            return "other"


def classes(box):
    c = box[0]
    match c:
        case Point(0, 0):
            return "origin"
        case Point(x=0, y=y):
            return ("on y", y)
        case Point(x, y=[*ys]):
            return ("ys", x, ys)
        case Loud(1, b):
            return ("loud one", b)
        case Loud(a=[a, *_]):
            return ("loud list", a)
        case int(n) | float(n) if n > 1:
            return ("big number", n)
        case bool(flag):
            return ("bool", flag)
        case str(text) | bytes(text):
            return ("text", text)
        case None | True:
            return "singleton"
        case _:
            return "other"


def class_errors(box, kind):
    c = box[0]
    match c:
        case Loud(boom=x) if kind == 0:
            return ("boom", x)
        case BadArgs(x) if kind == 1:
            return ("bad", x)
        case NotStrArgs(x) if kind == 2:
            return ("not str", x)
        case Point(1, 2, 3) if kind == 3:
            return "too many"
        case Loud(a, a=b) if kind == 4:
            return ("twice", a, b)
        case Consts.ZERO(x) if kind == 5:  # not a class
            return "not a class"
        case {Consts.KEY: 1, "k": 2} if kind == 6:
            return "duplicate key"
        case {"k": 1, Consts.ZERO: 2} if kind == 7:
            return "unhashable subject key?"
        case _:
            return "other"


def _leaves():
    return st.sampled_from([0, 1, 2, -1, 1.5, 3.0, True, False, None, "a", "ab", b"x", bytearray(b"y"), "point",
                            "named", "k", "type"])


def _subjects():
    def extend(children):
        return st.one_of(
            st.lists(children, max_size=4), st.lists(children, max_size=4).map(tuple),
            st.lists(children, max_size=3).map(lambda items: Seq(*items)),
            st.lists(children, max_size=3).map(collections.deque),
            st.dictionaries(st.sampled_from(["type", "x", "y", "k", "z"]), children, max_size=4),
            st.dictionaries(st.sampled_from(["type", "x", "y", "k"]), children, max_size=3).map(
                lambda d: Map(**d)),
            st.builds(Point, children, children),
            st.builds(Loud, children, st.none() | children))
    return st.recursive(_leaves(), extend, max_leaves=8)


def _logged(fn, *args):
    LOG.clear()
    result = outcome(fn, *args)
    return result, list(LOG)


def _agree(fn, *args):
    expected = _logged(fn, *args)
    assert _logged(jitted(fn), *args) == expected
    assert _logged(_interpreted(fn), *args) == expected


_SSA: dict = {}


def _interpreted(fn):
    if fn not in _SSA:
        function = moshjit.to_ssa(fn)
        _SSA[fn] = lambda *args: function.run(*args)
    return _SSA[fn]


@settings(max_examples=150, deadline=None)
@given(_subjects())
def test_sequence_patterns(subject):
    _agree(sequences, [subject])


@settings(max_examples=150, deadline=None)
@given(_subjects())
def test_mapping_patterns(subject):
    _agree(mappings, [subject])


@settings(max_examples=150, deadline=None)
@given(_subjects())
def test_class_patterns(subject):
    _agree(classes, [subject])


@pytest.mark.parametrize("kind", range(8))
@pytest.mark.parametrize("subject", [Loud(1, 2), Loud([3]), BadArgs(), NotStrArgs(), Point(1, 2), {"k": 1},
                                     Map(k=1), 0, [1]],
                         ids=["loud", "loud_list", "bad_args", "not_str_args", "point", "dict", "map", "int", "list"])
def test_class_and_key_errors_are_cpythons(subject, kind):
    _agree(class_errors, [subject], kind)


def test_auto_routes_match_statements_to_cython():
    assert {ops.MatchSequence, ops.MatchMapping, ops.MatchClass, ops.MatchKeys} <= set(lower.REFUSED_OPS)
    fn = moshjit.jit(sequences, strict=True).compile([[1, [2, 3]]])
    assert fn([[1, [2, 3]]]) == ("nested", 1, 2, [3], [])
    assert [stats["backend"] for stats in fn.stats.values()] == ["cython"]

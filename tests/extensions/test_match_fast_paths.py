"""The fast paths of the generated trees and their guards failing, each checked against CPython's own ``match``
in the same module: loads by name behind the ``__match_args__`` guard (the attribute reassigned after the module
ran, deleted, made a list or a tuple subclass; a subclass with its own ``__match_args__``; the class name rebound),
sequences decided by ``type(s)`` before the flags (subclasses, custom ``__len__``/``__getitem__``/``__iter__``,
items with a custom ``__eq__``), and mappings read with ``in``/``[]`` only when exactly a dict."""
from __future__ import annotations

import collections.abc

import pytest

from tests.extensions.helpers import run_extended

SOURCE = '''
from dataclasses import dataclass

@dataclass
class Point:
    x: object
    y: object

@dataclass
class Box:
    content: object

def classes(s):
    with match(s):
        if Point(0, y):
            return ("on the y axis", y)
        if Point(x, y) and when(x == y):
            return ("diagonal", x)
        if Box(Point(x, _)):
            return ("boxed point", x)
        if Box(c):
            return ("box", c)
        if Point(x, y):
            return ("point", x, y)
        if _:
            return ("other",)

def classes_pep(s):
    match s:
        case Point(0, y):
            return ("on the y axis", y)
        case Point(x, y) if x == y:
            return ("diagonal", x)
        case Box(Point(x, _)):
            return ("boxed point", x)
        case Box(c):
            return ("box", c)
        case Point(x, y):
            return ("point", x, y)
        case _:
            return ("other",)

def sequences(s):
    with match(s):
        if []:
            return ("empty",)
        if [0, b]:
            return ("zero first", b)
        if [a, b]:
            return ("pair", a, b)
        if [a, *rest, 9]:
            return ("ends in nine", a, rest)
        if (a, *_):
            return ("first", a)
        if _:
            return ("other",)

def mappings(s):
    with match(s):
        if {"kind": "point", "x": x, "y": y}:
            return ("point", x, y)
        if {"kind": "point", **rest}:
            return ("partial point", rest)
        if {"kind": k}:
            return ("kind", k)
        if _:
            return ("other",)

def mappings_pep(s):
    match s:
        case {"kind": "point", "x": x, "y": y}:
            return ("point", x, y)
        case {"kind": "point", **rest}:
            return ("partial point", rest)
        case {"kind": k}:
            return ("kind", k)
        case _:
            return ("other",)

def sequences_pep(s):
    match s:
        case []:
            return ("empty",)
        case [0, b]:
            return ("zero first", b)
        case [a, b]:
            return ("pair", a, b)
        case [a, *rest, 9]:
            return ("ends in nine", a, rest)
        case (a, *_):
            return ("first", a)
        case _:
            return ("other",)

def iterated_then_indexed(s):
    with match(s):
        if [a, b] and when(a == b):
            return ("same", a)
        if [a, *_, z]:
            return ("ends", a, z)
        if [a, *_]:
            return ("first", a)
        if _:
            return ("other",)

def iterated_then_indexed_pep(s):
    match s:
        case [a, b] if a == b:
            return ("same", a)
        case [a, *_, z]:
            return ("ends", a, z)
        case [a, *_]:
            return ("first", a)
        case _:
            return ("other",)
'''


def _outcome(fn, subject):
    try:
        return fn(subject)
    except Exception as error:  # exceptions are compared too, type and message
        return ("raised", type(error).__name__, str(error))


def _agree(ns, name, subjects):
    for subject in subjects:
        assert _outcome(ns[name], subject) == _outcome(ns[f"{name}_pep"], subject), subject


@pytest.fixture
def ns():
    return run_extended(SOURCE, active={"pattern-matching": {}}, filename="<fast-paths>")


def _class_subjects(ns):
    P, B = ns["Point"], ns["Box"]
    return [P(0, 1), P(2, 2), P(3, 4), B(P(5, 6)), B(7), 8, P(None, 0)]


def test_the_fast_path_agrees_before_anything_changes(ns):
    assert {"x", "y", "content", "read"} <= set(ns["classes"].__code__.co_names)  # loads by name, guarded
    _agree(ns, "classes", _class_subjects(ns))


@pytest.mark.parametrize("new_args", [("y", "x"), ("x",), (), ("x", "y", "extra"), ["x", "y"], ("x", 1)])
def test_match_args_reassigned_after_the_module_ran(ns, new_args):
    _agree(ns, "classes", _class_subjects(ns))  # the guard has accepted the original tuple
    ns["Point"].__match_args__ = new_args
    _agree(ns, "classes", _class_subjects(ns))


def test_an_equal_but_new_match_args_tuple_and_a_tuple_subclass(ns):
    _agree(ns, "classes", _class_subjects(ns))
    ns["Point"].__match_args__ = tuple(["x", "y"])  # a new object with the same names: still loads by name
    _agree(ns, "classes", _class_subjects(ns))

    class Names(tuple):
        def __getitem__(self, index):  # CPython reads the tuple's items directly, never through this
            return "y"
    ns["Point"].__match_args__ = Names(("x", "y"))
    _agree(ns, "classes", _class_subjects(ns))


def test_match_args_deleted_and_restored(ns):
    _agree(ns, "classes", _class_subjects(ns))
    original = ns["Point"].__match_args__
    del ns["Point"].__match_args__
    _agree(ns, "classes", _class_subjects(ns))
    ns["Point"].__match_args__ = original
    _agree(ns, "classes", _class_subjects(ns))


def test_a_subclass_with_its_own_match_args_and_attributes(ns):
    Point = ns["Point"]

    class Swapped(Point):
        __match_args__ = ("y", "x")  # not used: the pattern's class decides

    class Hollow(Point):
        def __getattribute__(self, name):
            if name == "y":
                raise AttributeError(name)  # a missing attribute: no match
            return object.__getattribute__(self, name)

    class Loud(Point):
        def __getattribute__(self, name):
            if name == "y":
                raise KeyError(name)  # any other exception propagates
            return object.__getattribute__(self, name)

    _agree(ns, "classes", [Swapped(0, 1), Swapped(2, 3), Hollow(0, 1), Hollow(2, 2), Loud(0, 1),
                           ns["Box"](Hollow(1, 1))])


def test_the_class_name_rebound(ns):
    _agree(ns, "classes", _class_subjects(ns))
    old = ns["Point"]

    class Point:  # same field names, another class: the guard is per class read, not per name
        __match_args__ = ("x", "y")

        def __init__(self, x, y):
            self.x, self.y = x, y

    class Other:
        __match_args__ = ("first",)

        def __init__(self, first):
            self.first = first

    subjects = _class_subjects(ns) + [Point(0, 1), Point(2, 2), Other(0), ns["Box"](Point(1, 2))]
    for replacement in (Point, Other, old):
        ns["Point"] = replacement
        _agree(ns, "classes", subjects)


class Items(collections.abc.Sequence):
    """A sequence whose ``__len__``, ``__getitem__`` and ``__iter__`` disagree with a plain list of its items."""

    def __init__(self, items, length=None):
        self.items, self.length = list(items), length

    def __len__(self):
        return len(self.items) if self.length is None else self.length

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.items[i] * 10 for i in range(*index.indices(len(self.items)))]
        return self.items[index] * 10

    def __iter__(self):
        return iter([item + 1 for item in self.items])


class Sticky:
    """Equal to everything (``0 == Sticky()`` is true through the reflected ``__eq__``)."""

    def __eq__(self, other):
        return True

    __hash__ = None


class ShortList(list):
    def __len__(self):
        return 2


@pytest.mark.parametrize("subject", [
    [], (), [0, 5], (1, 2), [1, 2, 9], (1, 9), (1, 2, 3), [1, 2, 3, 9], "ab", b"ab", bytearray(b"ab"), {"a": 1},
    range(0, 2), range(3), collections.deque([1, 2, 9]), Items([0, 5]), Items([1, 2, 9]), Items([1, 2, 3], length=2),
    Items([3], length=0), [Sticky(), 4], (Sticky(), Sticky(), 9), ShortList([0, 7, 8]), ShortList([1, 2, 9]),
    ShortList([]), 5, None,
], ids=lambda subject: type(subject).__name__)
def test_sequences_decided_by_type_then_by_flags(ns, subject):
    _agree(ns, "sequences", [subject])


@pytest.mark.parametrize("subject", [Items([1, 2]), Items([3, 3]), Items([1, 2, 3]), Items([4]), [1, 2], [3, 3], (5,)],
                         ids=lambda s: f"Items{s.items}" if isinstance(s, Items) else repr(s))
def test_items_read_by_iterating_are_not_reused_where_cpython_indexes(ns, subject):
    # ``[a, b]`` unpacks (iterates) and fails in its guard; ``[a, *_, z]`` then indexes s[0] and s[len - 1]
    _agree(ns, "iterated_then_indexed", [subject])


def test_a_sequence_type_registered_later_is_seen(ns):
    class Late:
        def __len__(self):
            return 2

        def __getitem__(self, index):
            if index >= 2:
                raise IndexError(index)
            return index

    _agree(ns, "sequences", [Late()])
    collections.abc.Sequence.register(Late)  # sets the type's sequence flag: both now match it as a sequence
    _agree(ns, "sequences", [Late()])
    assert ns["sequences"](Late()) == ("zero first", 1)


class Lookups(collections.abc.Mapping):
    """A mapping whose ``get`` and ``__getitem__`` disagree: CPython's match reads keys with ``get``."""

    def __init__(self, items):
        self.items = dict(items)

    def __getitem__(self, key):
        return ("via getitem", self.items[key])

    def get(self, key, default=None):
        return ("via get", self.items[key]) if key in self.items else default

    def __iter__(self):
        return iter(self.items)

    def __len__(self):
        return len(self.items)


class Defaulting(dict):
    def __missing__(self, key):
        return "made up"


class Shrinking(dict):
    def __len__(self):
        return 1


@pytest.mark.parametrize("subject", [
    {"kind": "point", "x": 1, "y": 2}, {"kind": "point", "x": 1}, {"kind": "line"}, {}, [("kind", "point")],
    collections.OrderedDict(kind="point", x=1, y=2), collections.defaultdict(int, kind="point"),
    Defaulting(kind="point", x=1), Shrinking(kind="point", x=1, y=2), Lookups({"kind": "point", "x": 1, "y": 2}),
    Lookups({"kind": "line"}), collections.Counter(kind=3),
], ids=lambda subject: type(subject).__name__)
def test_mappings_read_by_in_and_getitem_only_when_exactly_a_dict(ns, subject):
    _agree(ns, "mappings", [subject])


GENERAL_PATH = '''
import collections

class Keys:
    FROZEN = frozenset({1})
    MUTABLE = {1}

def general(s):
    with match(s):
        if collections.OrderedDict(a, b):
            return ("two", a, b)
        if {Keys.FROZEN: v}:
            return ("frozen key", v)
        if {Keys.MUTABLE: v}:
            return ("set key", v)
        if _:
            return ("other",)

def general_pep(s):
    match s:
        case collections.OrderedDict(a, b):
            return ("two", a, b)
        case {Keys.FROZEN: v}:
            return ("frozen key", v)
        case {Keys.MUTABLE: v}:
            return ("set key", v)
        case _:
            return ("other",)
'''


@pytest.mark.parametrize("subject", [collections.OrderedDict(), {frozenset({1}): 2}, {2: 3}, 5],
                         ids=lambda s: type(s).__name__ + str(len(s)) if hasattr(s, "__len__") else repr(s))
def test_the_general_path_raises_cpythons_errors_word_for_word(subject):
    """A static type outside builtins is named with its module (``collections.OrderedDict() accepts ...``) and a
    set used as a key raises when looked up, as CPython's MATCH_CLASS/MATCH_KEYS do (``match_reference.py``)."""
    _agree(run_extended(GENERAL_PATH, active={"pattern-matching": {}}, filename="<general>"), "general", [subject])

"""The decision trees compiled by ``@jit``: a rewritten module's matches, compiled (strictly, so nothing falls back
to the plain function), give what CPython's own ``match`` gives on generated subjects. Each subject is passed
inside a list, so that one compiled specialisation (for a list argument) serves every subject."""
from __future__ import annotations

import collections

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import moshjit
from tests.extensions.helpers import run_extended

SOURCE = '''
from dataclasses import dataclass

@dataclass
class Point:
    x: object
    y: object

@dataclass
class Circle:
    center: object
    r: object

def sequences(box):
    s = box[0]
    with match(s):
        if []:
            return ("empty",)
        if [x] and when(x == 0):
            return ("zero",)
        if [x, *rest] and when(len(rest) > 2):
            return ("long", x, rest)
        if (a, b):
            return ("pair", a, b)
        if [a, *_, z]:
            return ("ends", a, z)
        if _:
            return ("other",)

def sequences_pep(s):
    match s:
        case []:
            return ("empty",)
        case [x] if x == 0:
            return ("zero",)
        case [x, *rest] if len(rest) > 2:
            return ("long", x, rest)
        case (a, b):
            return ("pair", a, b)
        case [a, *_, z]:
            return ("ends", a, z)
        case _:
            return ("other",)

def classes(box):
    s = box[0]
    with match(s):
        if Circle(Point(0, 0), r):
            return ("origin", r)
        if Circle(center=Point(x=x), r=r) and when(r > 1):
            return ("big", x, r)
        if Point(x, y) or Circle(Point(x, y), _):
            return ("point", x, y)
        if _:
            return ("other",)

def classes_pep(s):
    match s:
        case Circle(Point(0, 0), r):
            return ("origin", r)
        case Circle(center=Point(x=x), r=r) if r > 1:
            return ("big", x, r)
        case Point(x, y) | Circle(Point(x, y), _):
            return ("point", x, y)
        case _:
            return ("other",)

def mappings(box):
    e = box[0]
    with match(e):
        if {"type": "click", "x": x, "y": y}:
            return ("click", x, y)
        if {"type": "key", "key": k, **rest}:
            return ("key", k, rest)
        if {"type": t}:
            return ("typed", t)
        if _:
            return ("other",)

def mappings_pep(e):
    match e:
        case {"type": "click", "x": x, "y": y}:
            return ("click", x, y)
        case {"type": "key", "key": k, **rest}:
            return ("key", k, rest)
        case {"type": t}:
            return ("typed", t)
        case _:
            return ("other",)
'''


@pytest.fixture(scope="module")
def namespace():
    return run_extended(SOURCE, active={"pattern-matching": {}}, filename="<jit-matches>")


def _outcome(fn, subject):
    try:
        return fn(subject)
    except Exception as error:  # the comparison covers exceptions too
        return ("raised", type(error).__name__, str(error))


values = st.sampled_from([0, 1, 2, "a", None, 2.5])
sequence_subjects = st.one_of(values, st.lists(values, max_size=6), st.lists(values, max_size=4).map(tuple),
                              st.lists(values, max_size=4).map(collections.deque))
mapping_subjects = st.one_of(values, st.lists(values, max_size=2), st.dictionaries(
    st.sampled_from(["type", "x", "y", "key", "z"]), st.one_of(values, st.sampled_from(["click", "key"])),
    max_size=4))


@st.composite
def class_subjects(draw, namespace):
    point = st.builds(namespace["Point"], values, values)
    return draw(st.one_of(values, point, st.builds(namespace["Circle"], point | values, values)))


@pytest.mark.parametrize("name", ["sequences", "classes", "mappings"])
def test_compiled_trees_agree_with_cpythons_match(namespace, name):
    compiled = moshjit.jit(namespace[name], strict=True)
    reference = namespace[f"{name}_pep"]
    subjects = {"sequences": sequence_subjects, "mappings": mapping_subjects,
                "classes": class_subjects(namespace)}[name]

    @settings(max_examples=60, deadline=None, database=None)
    @given(subject=subjects)
    def check(subject):
        assert _outcome(compiled, [subject]) == _outcome(reference, subject), subject

    check()
    assert compiled.signatures == [("list",)]  # one compiled specialisation ran every subject

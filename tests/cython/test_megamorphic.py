"""A parameter called with more of the program's classes than ``max_classes()`` is megamorphic: the dispatcher stops
specialising it (its kind becomes ``"any"``), one specialisation taking any object serves every class from then on,
and the results stay CPython's — on the compiled and on the pure-Python call path, on both backends that take
objects. Built-in kinds (ints, strs, floats, containers) never count: they are few and each has native code."""
from __future__ import annotations

import logging

import pytest
from hypothesis import given, settings, strategies as hs

import moshjit
from moshjit import dispatcher as dispatch
from moshjit.typeof import ANY

from .test_call_path import CORES, outcome


class Pattern:
    """A base class whose method is called on many subclasses (a markup processor's patterns, say)."""

    weight = 1

    def handle(self, text):
        return text * self.weight

    def apply(self, text, times):
        return [self.handle(text) for _ in range(times)]


def subclass(index: int) -> type:
    """A subclass of ``Pattern`` of its own weight; every third one handles text its own way."""
    namespace = {"weight": index + 1}
    if index % 3 == 0:
        namespace["handle"] = lambda self, text: f"<{index}>{text}"
    return type(f"Pattern{index}", (Pattern,), namespace)


PATTERNS = [subclass(index) for index in range(9)]


class NoHandle:
    """Not a Pattern: ``handle`` is missing, so CPython's AttributeError must come out."""


def run_pattern(pattern, text):
    return pattern.handle(text) + "|" + text


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("backend", ["auto", "cython"])
def test_a_parameter_called_with_many_classes_takes_any_object(core, backend):
    jitted = CORES[core](run_pattern, backend=backend)
    for cls in PATTERNS:
        assert outcome(jitted, cls(), "ab") == outcome(run_pattern, cls(), "ab")
    limit = dispatch.max_classes()
    assert [kinds[0] for kinds in jitted.signatures] == [cls.__qualname__ for cls in PATTERNS[:limit]] + [ANY]
    compiled = len(jitted.signatures)
    for value in [cls() for cls in PATTERNS] + [NoHandle(), None, 3]:      # every one goes to the "any" entry
        for text in ("ab", "c", ""):
            assert outcome(jitted, value, text) == outcome(run_pattern, value, text)
    assert {kinds[0] for kinds in jitted.signatures[limit:]} == {ANY}
    assert len(jitted.signatures) == compiled + 1                          # ("any", "char") for "c"


@pytest.mark.parametrize("core", CORES)
def test_a_method_of_a_base_class_called_on_many_subclasses_keys_self_any(core):
    jitted = CORES[core](Pattern.apply)
    for cls in PATTERNS * 2:
        assert jitted(cls(), "xy", 2) == Pattern.apply(cls(), "xy", 2)
    assert [kinds[0] for kinds in jitted.signatures].count(ANY) == 1
    assert len(jitted.signatures) == dispatch.max_classes() + 1


def identity_pair(a, b):
    return (a, b)


@pytest.mark.parametrize("core", CORES)
def test_built_in_kinds_never_make_a_parameter_megamorphic(core):
    jitted = CORES[core](identity_pair)
    values = [1, 2 ** 70, "a", "abc", 1.5, None, [1], {"a": 1}, (1, "b"), b"x", True, {2}]
    for value in values:
        assert jitted(value, value) == (value, value)
    assert not any(ANY in kinds for kinds in jitted.signatures)


@pytest.mark.parametrize("core", CORES)
def test_each_parameter_is_counted_on_its_own(core, monkeypatch):
    monkeypatch.setenv("MOSHJIT_MAX_CLASSES", "2")
    jitted = CORES[core](identity_pair)
    first, second = PATTERNS[0](), PATTERNS[1]()
    for cls in PATTERNS[:3]:                     # three classes as ``a``, the same two as ``b``
        value = cls()
        assert jitted(value, first) == (value, first)
        assert jitted(value, second) == (value, second)
    assert {kinds for kinds in jitted.signatures if ANY in kinds} == {(ANY, "Pattern0"), (ANY, "Pattern1")}


@pytest.mark.parametrize("core", CORES)
def test_combinations_past_the_c_check_key_the_parameter_of_most_classes_any(core, caplog):
    """Three roles times four events, each parameter under ``max_classes()``: the ninth combination would be one
    signature more than the vectorcall slot checks, so the events' parameter (four classes) takes any object."""
    caplog.set_level(logging.INFO, logger="moshjit")
    jitted = CORES[core](identity_pair)
    roles = [cls() for cls in PATTERNS[:3]]
    events = [cls() for cls in PATTERNS[3:7]]
    pairs = [(role, event) for role in roles for event in events]
    assert dispatch.SIGNATURES_IN_C == 8 and len(pairs) > dispatch.SIGNATURES_IN_C
    for role, event in pairs[:dispatch.SIGNATURES_IN_C]:
        assert outcome(jitted, role, event) == outcome(identity_pair, role, event)
    assert not any(ANY in kinds for kinds in jitted.signatures)
    for role, event in pairs * 2 + [(roles[0], None), (roles[1], 3)]:
        assert outcome(jitted, role, event) == outcome(identity_pair, role, event)
    widened = {kinds for kinds in jitted.signatures if ANY in kinds}
    assert widened == {(type(role).__qualname__, ANY) for role in roles}
    assert len(jitted.signatures) == dispatch.SIGNATURES_IN_C + len(widened)
    assert "parameter 1 of the most classes, which combine into more than 8 signatures" in caplog.text


def test_the_c_check_holds_as_many_signatures_as_the_dispatcher_counts():
    runtime = pytest.importorskip("moshjit.runtime.moshjit_dispatch")
    assert runtime.SIGNATURES_IN_C == dispatch.SIGNATURES_IN_C


def test_the_limit_comes_from_the_environment(monkeypatch, caplog):
    monkeypatch.setenv("MOSHJIT_MAX_CLASSES", "3")
    assert dispatch.max_classes() == 3
    monkeypatch.setenv("MOSHJIT_MAX_CLASSES", "many")
    with caplog.at_level(logging.WARNING, logger="moshjit"):
        assert dispatch.max_classes() == dispatch.DEFAULT_MAX_CLASSES
    assert "MOSHJIT_MAX_CLASSES" in caplog.text


def test_the_any_parameter_is_not_guessed_from_the_first_call():
    """The sample of the call that widened a parameter shows one class of many: the specialisation must not
    guess its attributes from it."""
    jitted = moshjit.jit(run_pattern)
    for cls in PATTERNS:
        jitted(cls(), "ab")
    shapes = [shape for key, shape in jitted._shapes.items() if key[0] is ANY]
    assert shapes and all(shape[0] is None and shape[1] is not None for shape in shapes)


@settings(max_examples=30, deadline=None)
@given(calls=hs.lists(hs.tuples(hs.integers(0, len(PATTERNS) + 1), hs.sampled_from(["", "a", "xyz"])),
                      min_size=1, max_size=40),
       core=hs.sampled_from(sorted(CORES)))
def test_calls_in_any_order_give_cpythons_results(calls, core):
    jitted = CORES[core](run_pattern)
    for index, text in calls:
        value = PATTERNS[index]() if index < len(PATTERNS) else NoHandle() if index == len(PATTERNS) else 7
        assert outcome(jitted, value, text) == outcome(run_pattern, value, text)


@pytest.mark.parametrize("core", CORES)
def test_once_widened_a_new_class_finds_the_any_entry_without_asking_for_one(core):
    """The call path keys the parameter ``"any"`` itself: a class never seen before costs no miss."""
    base = type(CORES[core](run_pattern))
    asked = []

    class Counting(base):
        def _specialize(self, key, compile=None, sample=None):
            asked.append(key)
            return super()._specialize(key, compile, sample)

    jitted = Counting(run_pattern)
    for cls in PATTERNS:
        jitted(cls(), "ab")
    asked.clear()
    for cls in [subclass(index) for index in range(20, 30)] + PATTERNS:
        assert outcome(jitted, cls(), "ab") == outcome(run_pattern, cls(), "ab")
    assert asked == []


class Renderer:
    def render(self, pattern, text):
        return [pattern.handle(text), text]


def render_all(renderer, patterns, texts):
    """A method site (``renderer.render``) whose ``pattern`` argument is megamorphic, beside a ``text`` argument of
    several kinds (one character, a str, an int): each kind still needs its own specialisation."""
    out = []
    for text in texts:
        for pattern in patterns:
            out.append(renderer.render(pattern, text))
    return out


class Node:
    def __init__(self, value):
        self.value = value * 2


# nine subclasses sharing the jitted __init__, each a module global (constructor sites need the class known)
Node0, Node1, Node2, Node3, Node4, Node5, Node6, Node7, Node8 = [type(f"Node{index}", (Node,), {})
                                                                  for index in range(9)]


def build_nodes(value):
    """Constructor sites of nine classes whose ``__init__`` (one jitted method) is megamorphic in ``self``."""
    return [Node0(value).value, Node1(value).value, Node2(value).value, Node3(value).value, Node4(value).value,
            Node5(value).value, Node6(value).value, Node7(value).value, Node8(value).value]


@pytest.mark.parametrize("backend", ["auto", "cython"])
def test_method_and_constructor_sites_of_compiled_code_use_the_any_entry(backend, monkeypatch):
    render = moshjit.jit(Renderer.render, backend=backend)
    monkeypatch.setattr(Renderer, "render", render)
    init = moshjit.jit(Node.__init__, backend=backend)
    monkeypatch.setattr(Node, "__init__", init)
    patterns = [cls() for cls in PATTERNS]
    texts = ["a", "abc", 5, "", 2 ** 80]
    jitted_render_all = moshjit.jit(render_all, backend=backend)
    jitted_build = moshjit.jit(build_nodes, backend=backend)
    for _ in range(3):                               # fill the sites, then hit them
        assert jitted_render_all(Renderer(), patterns, texts) == render_all(Renderer(), patterns, texts)
        assert jitted_build(21) == build_nodes(21) == [42] * 9
        assert jitted_build("ab") == build_nodes("ab") == ["abab"] * 9
    assert any(kinds[1] == ANY for kinds in render.signatures)
    assert any(kinds[0] == ANY for kinds in init.signatures)
    assert outcome(jitted_render_all, Renderer(), [NoHandle()], ["x"]) == outcome(render_all, Renderer(),
                                                                                [NoHandle()], ["x"])


def shape_class(index: int) -> type:
    """A class with its own ``describe`` and ``__add__``, both jitted (as ``@jit`` on the class would)."""
    namespace = {"describe": lambda self, x: (index, x), "__add__": lambda self, other: index * 100 + other.size,
                 "size": index}
    return type(f"Shape{index}", (), namespace)


def describe_all(items, x):
    """One method site and one operator site seeing every class in turn: more receiver types than a site keeps."""
    out = []
    for item in items:
        out.append(item.describe(x))
        out.append(item + item)
    return out


@pytest.mark.parametrize("backend", ["auto", "cython"])
def test_a_site_seeing_too_many_receiver_types_stays_exact_once_generic(backend):
    plain_classes = [shape_class(index) for index in range(12)]
    jitted_classes = [moshjit.jit(shape_class(index), backend=backend) for index in range(12)]
    jitted = moshjit.jit(describe_all, backend=backend)

    def both(mutate=None):
        plain_items, jitted_items = [cls() for cls in plain_classes], [cls() for cls in jitted_classes]
        if mutate is not None:
            mutate(plain_items, plain_classes)
            mutate(jitted_items, jitted_classes)
        for x in ("a", 3, "xyz"):
            assert outcome(jitted, jitted_items, x) == outcome(describe_all, plain_items, x)

    for _ in range(5):                                # every call replaces records: the sites go generic
        both()

    def shadow(items, classes):                       # an instance attribute shadows the method
        items[3].describe = lambda x: ("shadowed", x)

    def replace(items, classes):                      # a class's method replaced after the site gave up
        classes[5].describe = lambda self, x: ("replaced", x)

    def remove(items, classes):                       # and one removed: CPython's AttributeError
        del classes[7].describe

    for mutate in (shadow, replace, remove):
        both(mutate)

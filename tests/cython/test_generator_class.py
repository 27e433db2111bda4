"""A jitted generator function's generator passes CPython's generator tests: ``isinstance(g, types.GeneratorType)``
and ``inspect.isgenerator(g)`` hold, ``g.__class__`` is the generator type and assigning it fails with CPython's
message (``backends/cython/generator_class.py``). esprima's AST visitor drives the generators it finds by that test
and looped, allocating, until memory ran out."""
from __future__ import annotations

import inspect
import types

import pytest

import moshjit


def countdown(n):
    while n > 0:
        yield n
        n -= 1


def test_the_generator_tests_answer_as_for_a_plain_generator():
    plain, jitted = countdown(3), moshjit.jit(countdown)(3)
    assert type(jitted) is not types.GeneratorType            # Cython's type: what C code checks
    for generator in (plain, jitted):
        assert isinstance(generator, types.GeneratorType) and inspect.isgenerator(generator)
        assert generator.__class__ is types.GeneratorType
    assert list(jitted) == list(plain) == [3, 2, 1]
    assert not isinstance(iter([]), types.GeneratorType) and not inspect.isgenerator(moshjit.jit(countdown))


def test_assigning_class_fails_as_in_cpython():
    errors = []
    for generator in (countdown(1), moshjit.jit(countdown)(1)):
        with pytest.raises(TypeError) as raised:
            generator.__class__ = object
        errors.append(str(raised.value))
    assert errors[0] == errors[1]


class Node:
    def __init__(self, name, children=()):
        self.name, self.children = name, list(children)


class Visitor:
    """esprima's shape: a stack of generators, driven by ``send``; whatever is not a generator is visited."""

    def visit(self, root, max_steps=10_000):
        stack, last_result, steps = [root], None, 0
        while stack:
            steps += 1
            if steps > max_steps:
                raise AssertionError("the visitor did not finish: a generator was taken for a node")
            top = stack[-1]
            if isinstance(top, types.GeneratorType):
                try:
                    stack.append(top.send(last_result))
                    last_result = None
                except StopIteration as stop:
                    stack.pop()
                    last_result = stop.value
            else:
                stack.pop()
                stack.append(self.visit_node(top))
        return last_result

    def visit_node(self, node):
        names = [node.name]
        for child in node.children:
            names.extend((yield child))
        return names


def test_a_visitor_driving_generators_by_their_type_gives_cpythons_result():
    tree = Node("a", [Node("b", [Node("c")]), Node("d")])
    jitted = moshjit.jit(type("Visitor", (), {name: value for name, value in vars(Visitor).items()
                                               if name in ("visit", "visit_node")}))
    assert jitted().visit(tree) == Visitor().visit(tree) == ["a", "b", "c", "d"]


def generator_states(make):
    """``inspect.getgeneratorstate`` through a generator's life: created, suspended, running (asked from inside),
    closed by exhaustion, by ``close()`` after a step, by ``close()`` before one, by an exception."""
    seen = []

    def inside(n):
        while n > 0:
            seen.append(inspect.getgeneratorstate(generators[-1]))
            yield n
            n -= 1
        raise_at_zero = n
        if raise_at_zero < 0:
            raise ValueError("below zero")

    generators = []
    generator = make(inside)(2)
    generators.append(generator)
    seen.append(inspect.getgeneratorstate(generator))
    seen.append((next(generator), inspect.getgeneratorstate(generator), generator.gi_suspended))
    seen.append((list(generator), inspect.getgeneratorstate(generator), generator.gi_suspended))
    for steps in (0, 1):
        generator = make(inside)(3)
        generators.append(generator)
        for _ in range(steps):
            next(generator)
        generator.close()
        seen.append(inspect.getgeneratorstate(generator))
    generator = make(inside)(-1)
    generators.append(generator)
    with pytest.raises(ValueError):
        next(generator)
    seen.append(inspect.getgeneratorstate(generator))
    return seen


def test_generator_states_are_cpythons():
    """CPython's generators have ``gi_suspended``, which ``inspect.getgeneratorstate`` reads; Cython's had not."""
    plain = generator_states(lambda function: function)
    assert plain[:3] == ["GEN_CREATED", "GEN_RUNNING", (2, "GEN_SUSPENDED", True)]
    assert generator_states(moshjit.jit) == plain


def test_coroutine_states_are_cpythons():
    async def answer(k):
        return k

    def states(make):
        coroutine = make(answer)(3)
        seen = [inspect.getcoroutinestate(coroutine), coroutine.cr_suspended]
        with pytest.raises(StopIteration) as done:
            coroutine.send(None)
        return seen + [done.value.value, inspect.getcoroutinestate(coroutine), coroutine.cr_suspended]

    assert states(moshjit.jit) == states(lambda function: function) == ["CORO_CREATED", False, 3, "CORO_CLOSED",
                                                                          False]


def test_suspended_refuses_other_objects_as_a_descriptor_does():
    generator = moshjit.jit(countdown)(1)
    getter = type(generator).__dict__["gi_suspended"].fget
    with pytest.raises(TypeError, match="doesn't apply to a 'list' object"):
        getter([])
    assert getter(generator) is False

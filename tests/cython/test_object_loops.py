"""For loops over values of unknown type (``mj_for_begin``/``mj_for_next`` in ``backends/cython/prelude.py``): an
exact list or tuple is read by index without its iterator, anything else through ``iter()``; differentially
against CPython — lists the loop body grows, shrinks and clears (hypothesis), subclasses with their own
``__iter__``, generators, iterators that raise, things that are not iterable — and when the loop's iterator is
dropped (``EmissionPlan._released_on_loop_exits``): a generator closed, a temporary list freed."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import moshjit
from tests.cython.agree import jitted, outcome, same


class Box:
    """Hands out its items through a method, so the compiled loop knows nothing of their type."""

    def __init__(self, items):
        self.items = items

    def get(self):
        return self.items


def walk(box, edits):
    """Iterate box's items while editing the list (each step takes the next edit, if any)."""
    seen = []
    for item in box.get():
        seen.append(item)
        if edits:
            edit = edits.pop()
            if edit == 0:
                box.items.append(len(seen))
            elif edit == 1 and box.items:
                box.items.pop(0)
            elif edit == 2:
                box.items.clear()
            elif edit == 3:
                box.items.insert(0, -len(seen))
            elif edit == 4:
                box.items[len(seen) // 2:] = []
    return seen


def nested(box):
    pairs = []
    for outer in box.get():
        for inner in outer:
            if inner is None:
                break
            if inner == 0:
                continue
            pairs.append((outer, inner))
    return pairs


class Reversed(list):
    def __iter__(self):
        return iter(list.__iter__(reversed(self)))


class Doubled(tuple):
    def __iter__(self):
        for item in tuple.__iter__(self):
            yield item
            yield item


class Countdown:
    """An iterator whose ``__next__`` raises StopIteration itself, or another error at ``fail``."""

    def __init__(self, n, fail=-1):
        self.n, self.fail = n, fail

    def __iter__(self):
        return self

    def __next__(self):
        if self.n == self.fail:
            raise ValueError(f"failed at {self.n}")
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n


class NotAnIterator:
    def __iter__(self):
        return 42


def generated(n):
    yield from range(n)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-3, 3), max_size=8), st.lists(st.integers(0, 5), max_size=12))
def test_lists_edited_during_the_loop(items, edits):
    expected = walk(Box(list(items)), list(edits))
    assert jitted(walk)(Box(list(items)), list(edits)) == expected


@pytest.mark.parametrize("make", [
    lambda: [1, 2, 3], lambda: (4, 5), lambda: (), lambda: [], lambda: "abc", lambda: {1: "a", 2: "b"},
    lambda: {3}, lambda: range(4), lambda: b"xy", lambda: Reversed([1, 2, 3]), lambda: Doubled((1, 2)),
    lambda: Countdown(3), lambda: Countdown(5, fail=2), lambda: generated(3), NotAnIterator, lambda: 7,
    lambda: None,
])
def test_what_python_iterates(make):
    """Each run gets a fresh object: iterators are used up by the first."""
    expected = outcome(walk, Box(make()), [])
    assert outcome(jitted(walk), Box(make()), []) == expected


def test_nested_loops_with_break_and_continue():
    same(nested, Box([[1, 0, 2], (3, None, 4), [], Reversed([5, 0, 6]), "ab"]))
    same(nested, Box(((1,), [2, 3])))


log: list = []


class Resource:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        log.append(("del", self.name))


class Maker:
    def make(self, n):
        return [Resource(i) for i in range(n)]


def loop_to_the_end(maker, n):
    total = 0
    for resource in maker.make(n):
        total += resource.name
    log.append("after the loop")
    return total


def test_the_list_is_freed_when_the_loop_ends():
    """CPython's iterator drops the list when it is exhausted: its items (all but the one the loop variable
    holds) are freed before the code after the loop runs."""
    log.clear()
    expected = loop_to_the_end(Maker(), 3)
    expected_log = list(log)
    log.clear()
    assert moshjit.jit(loop_to_the_end, backend="cython")(Maker(), 3) == expected
    assert log == expected_log
    assert expected_log.index("after the loop") == 2


def break_early(n):
    for resource in Maker().make(n):
        if resource.name >= 1:
            break
    log.append("after the loop")
    return n


def lines_until(stop):
    try:
        for number in range(5):
            yield number
    finally:
        log.append("generator closed")


def first_over(limit):
    for number in lines_until(limit):
        log.append(("got", number))
        if number > limit:
            break
    log.append("after the loop")
    return number


def caught_outside(limit):
    try:
        for number in lines_until(limit):
            if number > limit:
                raise KeyError(number)
    except KeyError:
        log.append("handled")
    return limit


def break_at_once(limit):
    for number in lines_until(limit):
        break
    log.append("after the loop")
    return limit


def enumerate_break(limit):
    total = 0
    for index, number in enumerate(lines_until(limit)):
        total += index * number
        if index >= limit:
            break
    log.append("after the loop")
    return total


def zip_break(limit):
    total = 0
    for index, resource in zip(range(limit), Maker().make(3)):
        total += index
        if resource.name >= 1:
            break
    log.append("after the loop")
    return total


def nested_break(limit):
    total = 0
    for outer in lines_until(limit):
        for inner in lines_until(limit):
            total += inner
            if inner >= outer:
                break
        log.append(("outer", outer))
        if outer >= limit:
            break
    return total


@pytest.mark.parametrize("fn, arg", [(break_early, 3), (first_over, 1), (first_over, 9), (caught_outside, 2),
                                     (caught_outside, 9), (break_at_once, 0), (enumerate_break, 0), (enumerate_break, 9),
                                     (zip_break, 3), (nested_break, 2)])
def test_leaving_the_loop_drops_its_iterator(fn, arg):
    """A ``break`` (or an exception caught outside the loop) pops the iterator in CPython: a generator is
    closed, its ``finally`` runs, and a temporary list is freed, before the code after the loop runs (also
    through ``enumerate`` and ``zip``)."""
    log.clear()
    expected = fn(arg)
    expected_log = list(log)
    log.clear()
    assert moshjit.jit(fn, backend="cython")(arg) == expected
    assert log == expected_log


def test_the_loop_reads_by_index():
    """The compiled loop over an object-typed value takes the index path (no ``iter()``) and keeps the plain
    iterator protocol for everything else."""
    same(walk, Box([1]), [])
    body = str(jitted(walk).inspect_code()).split("def walk(")[-1]
    assert "mj_for_begin(" in body and "mj_for_next(" in body and "iter(" not in body

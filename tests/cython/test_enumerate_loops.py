"""``for i, x in enumerate(seq)`` as an index loop (``backends/cython/enumerate_loops.py``) against CPython: lists
grown, shrunk and cleared inside the loop, a break, sources that are not lists (tuples, strs, generators, a list
subclass with its own ``__iter__``) and ones only known as objects; the plan's decisions on tiny functions and
the generated code."""
from __future__ import annotations

from hypothesis import given, settings, strategies as hs

from moshjit.backends.cython.enumerate_loops import enumerate_plan
from moshjit.compiler import typed_ssa
from moshjit.ir import ops
from moshjit.typeof import type_of_key
from tests.cython.agree import jitted, outcome


def weighted(seq):
    total = 0
    for i, x in enumerate(seq):
        total += i * x
    return total


def mutating(seq, steps):
    """Each step, at its index: append, pop, clear, insert at the front, or nothing; the items seen are returned."""
    seen = []
    for i, x in enumerate(seq):
        seen.append((i, x))
        step = steps[i % len(steps)]
        if step == 1 and len(seq) < 12:
            seq.append(x + 1)
        elif step == 2 and seq:
            seq.pop()
        elif step == 3:
            seq.clear()
        elif step == 4 and len(seq) < 12:
            seq.insert(0, -x)
    return seen, seq


def stops_early(seq, limit):
    found = -1
    for i, x in enumerate(seq):
        if x > limit:
            found = i
            break
    return found


class Holder:
    def __init__(self, items):
        self.items = items


def from_attribute(holder):
    """The source is read from an attribute: typed ``object``, decided when the loop starts."""
    out = []
    for i, x in enumerate(holder.items):
        out.append(i - x)
    return out


def only_items(seq):
    out = []
    for _, x in enumerate(seq):
        out.append(x)
    return out


class Reversing(list):
    def __iter__(self):
        return iter(list(reversed(self)))


def countdown(n):
    while n > 0:
        yield n
        n -= 1


def same(fn, *args):
    expected = outcome(fn, *args)
    assert outcome(jitted(fn), *args) == expected
    return expected


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.integers(-50, 50), max_size=8), hs.lists(hs.integers(0, 4), min_size=1, max_size=5))
def test_lists_changed_inside_the_loop_are_enumerated_as_cpython(items, steps):
    expected = mutating(list(items), steps)
    assert jitted(mutating)(list(items), steps) == expected


def test_every_change_of_the_list_during_the_loop():
    for steps in ([1], [2], [3], [4], [0, 1], [0, 2], [1, 2], [0, 0, 3]):
        assert jitted(mutating)([5, 6, 7, 8], steps) == mutating([5, 6, 7, 8], steps)


def test_sources_that_are_not_lists_take_the_generic_loop():
    sources = [lambda: [1, 2, 3], lambda: (1, 2, 3), lambda: "abc", lambda: Reversing([1, 2, 3]),
               lambda: countdown(4), lambda: range(5), lambda: {3: 0, 1: 0}, lambda: 7, lambda: None]
    for make in sources:                  # a fresh source per run: a generator is used up by one
        assert outcome(jitted(from_attribute), Holder(make())) == outcome(from_attribute, Holder(make()))
    assert outcome(jitted(from_attribute), Holder(Reversing([1, 2, 3]))) == ("ok", [-3, -1, 1])
    assert same(weighted, (4, 5, 6)) == ("ok", 17)
    assert same(weighted, ["a", "b"])[0] == "raise"
    assert same(only_items, "xyz") == ("ok", ["x", "y", "z"])


@settings(max_examples=40, deadline=None)
@given(hs.lists(hs.integers(-10, 10), max_size=10), hs.integers(-10, 10))
def test_a_break_leaves_the_loop_as_cpython(items, limit):
    same(stops_early, items, limit)
    same(stops_early, tuple(items), limit)


def _plans(fn, *key):
    typed = typed_ssa(fn, [type_of_key(k) for k in key], assume_globals=False)
    getiters = [op for block in typed.blocks for op in block.ops if isinstance(op, ops.GetIter)]
    users = typed.users()
    return [enumerate_plan(op, users) for op in getiters]


def test_the_plan_takes_an_unpacking_loop_and_leaves_other_uses_of_the_tuple():
    def keeps_the_tuple(seq):
        out = []
        for pair in enumerate(seq):
            out.append(pair)
        return out

    def with_start(seq):
        total = 0
        for i, x in enumerate(seq, 1):
            total += i * x
        return total

    assert [plan is not None for plan in _plans(weighted, list)] == [True]
    assert [plan is not None for plan in _plans(only_items, object)] == [True]
    assert _plans(keeps_the_tuple, list) == [None]
    assert _plans(with_start, list) == [None]
    same(keeps_the_tuple, [1, 2])
    same(with_start, [3, 4])


def test_the_generated_code_counts_without_tuples():
    assert jitted(weighted)([1, 2, 3]) == 8
    typed_list = str(jitted(weighted).inspect_code(("list",)))   # other tests compile it for tuples too
    assert " < len(<list>" in typed_list and "enumerate(" not in typed_list
    assert from_attribute(Holder([1])) == jitted(from_attribute)(Holder([1]))
    generic = str(jitted(from_attribute).inspect_code(("Holder",)))
    assert "_list = type(" in generic and "iter(enumerate(" in generic and "(<tuple>c" in generic

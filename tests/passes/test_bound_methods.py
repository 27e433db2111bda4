"""Bound methods of exact lists, dicts and sets that are only called become method calls
(``passes/bound_methods.py``): on hand-built IR, and differentially on jitted functions — fannkuch's bound
``insert``/``pop``, ``dict.get``, ``set.add``; a list subclass, and a bound method that is stored or returned,
are left alone."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from moshjit.ir import ops
from moshjit.ir.types import OBJECT, ListType
from moshjit.ir.verifier import verify
from moshjit.passes.bound_methods import bound_methods
from moshjit.passes.typeinfer import infer_types
from tests.cython.agree import jitted, same
from tests.ir.handmade import blocks, const, emit, new_function


def _bound_then_called(name="append", escape=False):
    """f(xs, x): push = xs.<name>; push(x) [; return push]."""
    fn = new_function("xs", "x")
    (b0,) = blocks(fn, 1)
    push = emit(b0, ops.LoadAttr(fn.args[0], name))
    emit(b0, ops.Call(push, [fn.args[1]], ()))
    emit(b0, ops.Return(push if escape else const(None)))
    infer_types(fn, [ListType(OBJECT), OBJECT])
    return fn, push


def test_a_bound_list_method_only_called_becomes_a_method_call():
    fn, push = _bound_then_called()
    assert bound_methods(fn)
    verify(fn)
    body = fn.blocks[0].ops
    assert push not in body
    assert [(type(op).__name__, op.name) for op in body] == [("CallMethod", "append")]
    xs = []
    fn.run(xs, 5)
    assert xs == [5]


def test_a_bound_method_that_escapes_or_is_not_a_method_is_left_alone():
    fn, push = _bound_then_called(escape=True)
    assert not bound_methods(fn) and push in fn.blocks[0].ops
    fn, push = _bound_then_called(name="__len__")          # a slot wrapper, not a method descriptor
    assert not bound_methods(fn)


def rotations(items, k):
    """fannkuch's style: bound insert and pop of a list made here."""
    order = list(items)
    insert, pop = order.insert, order.pop
    out = []
    for i in range(k):
        if order:
            insert(i % (len(order) + 1), pop(0))
        out.append(list(order))
    return out


def tally(words, extra):
    counts = {}
    get = counts.get
    seen = set()
    add = seen.add
    for w in words:
        counts[w] = get(w, 0) + 1
        add(w[:1])
    return sorted(counts.items()), sorted(seen), get(extra), get(extra, "none")


class Stack(list):
    def append(self, item):
        super().append(("wrapped", item))


def push_all(stack, items):
    push = stack.append
    for item in items:
        push(item)
    return stack


def hand_out(xs):
    push = xs.append
    push(1)
    return push.__self__ is xs, push.__name__


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=6), st.integers(0, 8), st.lists(st.text(max_size=3), max_size=6))
def test_bound_methods_agree_with_cpython(items, k, words):
    same(rotations, items, k)
    same(tally, words, "a")
    same(push_all, [], items)
    same(push_all, Stack(), items)
    same(hand_out, list(items))


def test_the_bound_methods_are_method_calls_in_the_typed_ssa():
    same(rotations, [1, 2, 3], 2)
    text = jitted(rotations).inspect_types(("list", "int64"))
    assert "call_method" in text and "insert" in text and "load_attr" not in text
    same(push_all, Stack(), [1])
    assert "load_attr" in jitted(push_all).inspect_types(("Stack", "list"))

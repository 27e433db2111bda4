"""Tuple displays compared with ``==``/``!=`` without making the tuple (``backends/cython/tuple_compares.py``),
against CPython: exact tuples of every length, items that differ first or last, ``__eq__`` that raises or answers
oddly, in which order the items' ``__eq__`` run, tuple subclasses and anything else on the other side."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from moshjit.backends.cython.tuple_compares import plan_tuple_compares
from moshjit.frontend import build_ssa
from tests.cython.agree import jitted, same


def pair_equals(xs, other):
    return (xs[0], xs[1]) == other


def other_differs_from_triple(xs, other):
    return other != (xs[0], xs[1], xs[2])


def pair_in_branch(word, i, pair):
    if (word[i], word[i + 1]) == pair:
        return "merge"
    return "keep"


def counted_pairs(word, pair):
    count = 0
    for i in range(len(word) - 1):
        if (word[i], word[i + 1]) == pair:
            count += 1
    return count


def display_used_twice(xs, other):
    display = (xs[0], xs[1])
    return display == other, display


class Loud:
    """Records the order of ``__eq__`` calls; ``answer`` is what it returns (an exception is raised)."""
    log: list = []

    def __init__(self, name, answer):
        self.name, self.answer = name, answer

    def __eq__(self, other):
        Loud.log.append((self.name, getattr(other, "name", type(other).__name__)))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer

    __hash__ = object.__hash__


class EqualsEverything(tuple):
    def __eq__(self, other):
        return "subclass __eq__"

    def __ne__(self, other):
        return "subclass __ne__"

    __hash__ = tuple.__hash__


class ReflectedEq:
    def __eq__(self, other):
        return ("reflected", other)

    def __ne__(self, other):
        return ("reflected ne", other)

    __hash__ = object.__hash__


plain_items = st.integers(min_value=-2, max_value=2) | st.sampled_from(["a", "b", 1.0, None, float("nan")])
others = (st.tuples(plain_items, plain_items) | st.tuples(plain_items, plain_items, plain_items)
          | st.tuples(plain_items) | st.tuples() | st.lists(plain_items, max_size=3)
          | st.sampled_from([None, "ab", EqualsEverything((1, 2)), ReflectedEq()]))


@settings(max_examples=80, deadline=None)
@given(st.lists(plain_items, min_size=3, max_size=3), others)
def test_comparisons_agree_with_cpython(xs, other):
    same(pair_equals, xs, other)
    same(other_differs_from_triple, xs, other)
    same(display_used_twice, xs, other)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from("abc"), min_size=2, max_size=8), st.tuples(st.sampled_from("abc"),
                                                                          st.sampled_from("abc")))
def test_pairs_in_loops_and_branches_agree_with_cpython(word, pair):
    same(counted_pairs, word, pair)
    same(pair_in_branch, word, 0, pair)


def test_the_same_nan_object_is_equal_to_itself_as_in_a_tuple():
    nan = float("nan")
    assert same(pair_equals, [nan, 1, 2], (nan, 1)) == ("ok", True)
    assert same(pair_equals, [nan, 1, 2], (float("nan"), 1)) == ("ok", False)


def test_items_eq_runs_in_cpythons_order_and_its_errors_and_answers_are_cpythons():
    for answers in [(True, True), (False, True), (ValueError("first"), True), (True, ValueError("second")),
                    ("truthy", 0), ([], True)]:
        outcomes = []
        for fn in (pair_equals, jitted(pair_equals), other_differs_from_triple, jitted(other_differs_from_triple)):
            Loud.log = []
            mine = [Loud("m0", answers[0]), Loud("m1", answers[1]), Loud("m2", True)]
            theirs = (Loud("t0", answers[0]), Loud("t1", answers[1]), Loud("t2", True))
            try:
                result = ("ok", fn(mine, theirs[:2] if "pair" in fn.__name__ else theirs))
            except ValueError as exc:
                result = ("raise", str(exc))
            outcomes.append((result, Loud.log))
        assert outcomes[0] == outcomes[1], answers             # the display on the left: its items' __eq__ first
        assert outcomes[2] == outcomes[3], answers             # on the right: the other tuple's items' first


def test_the_display_is_not_made_when_compared_and_is_when_used_elsewhere():
    for fn, args in [(pair_equals, ([1, 2, 3], (1, 2))), (other_differs_from_triple, ([1, 2, 3], (1, 2, 3))),
                     (counted_pairs, ("abab", ("a", "b")))]:
        same(fn, *args)
        assert "_mj_display_compare(" in jitted(fn).inspect_code()
    same(display_used_twice, [1, 2, 3], (1, 2))
    assert "_mj_display_compare(" not in jitted(display_used_twice).inspect_code()


def test_the_plan_folds_only_a_display_of_two_or_three_items_with_one_compare_as_its_only_user():
    def shapes(a, b, c, w):
        one = (a, b) == w                   # folded
        two = w != (a, b, c)                # folded, on the right
        three = (a, b, c, a) == w           # four items: built
        kept = (a, b)
        four = kept == w                    # kept is also returned: built
        five = (a, b) < w                   # an ordering: built
        return one, two, three, four, five, kept

    fn = build_ssa(shapes)
    found = plan_tuple_compares(fn, fn.users())
    assert sorted((compare.op, len(display.items), left) for compare, (display, _, left) in found.items()) == [
        ("!=", 3, False), ("==", 2, True)]

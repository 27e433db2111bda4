"""Object arithmetic with the float and small-int specialisations inlined (``backends/cython/number_fast_paths.py``)
against CPython: operands read from a list are typed ``object``, so every operator below runs the fast path when
both are exact floats or one-digit ints (and ``==``, ``!=``, ``+``, ``+=`` when both are exact strs), and the generic
protocol otherwise (big ints, bools, int subclasses, zero divisors, str subclasses, a str with a number) — same
results, same result types, same errors."""
from __future__ import annotations

import math

from hypothesis import given, settings, strategies as hs

from tests.cython.agree import jitted


class Int(int):
    def __add__(self, other):
        return "Int.__add__"


class Text(str):
    """A str subclass whose operators are its own: never the exact-str fast paths."""
    def __eq__(self, other):
        return "Text.__eq__"

    __hash__ = str.__hash__

    def __add__(self, other):
        return "Text.__add__"

    def __radd__(self, other):
        return "Text.__radd__"


def number_ops(pair):
    a = pair[0]
    b = pair[1]
    out = []
    for k in range(12):
        try:
            if k == 0:
                r = a + b
            elif k == 1:
                r = a - b
            elif k == 2:
                r = a * b
            elif k == 3:
                r = a / b
            elif k == 4:
                r = a < b
            elif k == 5:
                r = a <= b
            elif k == 6:
                r = a == b
            elif k == 7:
                r = a != b
            elif k == 8:
                r = a > b
            elif k == 9:
                r = a >= b
            elif k == 10:
                r = a
                r += b
                r -= b
                r *= b
            else:
                r = a
                r /= b
        except Exception as exc:
            r = (type(exc).__name__, str(exc))
        out.append((type(r).__name__, repr(r)))
    return out


BOUNDARIES = [0, 1, -1, 2 ** 30 - 1, -(2 ** 30 - 1), 2 ** 30, -(2 ** 30), 2 ** 62, 2 ** 64, -(2 ** 70), True, False,
              0.0, -0.0, 1.5, -2.25, math.inf, -math.inf, math.nan, 1e308, 5e-324, Int(3), None]
STRS = ["", "a", "ab", "é", "€uro", "\U0001F600", Text("a"), Text("")]
numbers = hs.one_of(hs.integers(-2 ** 31, 2 ** 31), hs.integers(), hs.floats(allow_nan=True), hs.booleans(),
                    hs.sampled_from(BOUNDARIES))


def test_boundary_operands_behave_as_cpython():
    fast = jitted(number_ops)
    for a in BOUNDARIES:
        for b in BOUNDARIES:
            assert fast([a, b]) == number_ops([a, b]), (a, b)


@settings(max_examples=300, deadline=None)
@given(numbers, numbers)
def test_random_operands_behave_as_cpython(a, b):
    assert jitted(number_ops)([a, b]) == number_ops([a, b])


def test_str_operands_behave_as_cpython():
    """Every pair of exact strs of each kind (equal but distinct objects too), str subclasses and non-strs."""
    fast = jitted(number_ops)
    operands = STRS + ["".join(["a", "b"]), 1, 1.5, None]
    for a in operands:
        for b in operands:
            assert fast([a, b]) == number_ops([a, b]), (a, b)


@settings(max_examples=200, deadline=None)
@given(hs.one_of(hs.text(max_size=4), hs.sampled_from(STRS)), hs.one_of(hs.text(max_size=4), hs.sampled_from(STRS)))
def test_random_str_operands_behave_as_cpython(a, b):
    assert jitted(number_ops)([a, b]) == number_ops([a, b])


class Items(list):
    def __getitem__(self, index):
        return ("Items.__getitem__", index)


def subscript(pair):
    container = pair[0]
    index = pair[1]
    try:
        r = container[index]
    except Exception as exc:
        r = (type(exc).__name__, str(exc))
    return type(r).__name__, repr(r)


CONTAINERS = [[10, 20, 30], (1.5, "b"), "abc", "é€\U0001F600", "", [], (), Text("xyz"), Items([1, 2]),
              {0: "zero", -1: "minus one"}, range(3), b"ab", None]
INDICES = [0, 1, 2, 3, -1, -3, -4, 2 ** 40, -(2 ** 70), True, Int(1), 1.0, "a", None]


def test_object_subscripts_behave_as_cpython():
    """An exact list, tuple or str indexed by a small int reads its item directly (negative indexes from the end);
    out-of-range indexes, subclasses, dicts, other containers and other keys keep CPython's own results and errors."""
    fast = jitted(subscript)
    for container in CONTAINERS:
        for index in INDICES:
            assert fast([container, index]) == subscript([container, index]), (container, index)


@settings(max_examples=200, deadline=None)
@given(hs.one_of(hs.text(max_size=5), hs.lists(hs.integers(), max_size=5), hs.tuples(hs.integers(), hs.text())),
       hs.integers(-8, 8))
def test_random_object_subscripts_behave_as_cpython(container, index):
    assert jitted(subscript)([container, index]) == subscript([container, index])

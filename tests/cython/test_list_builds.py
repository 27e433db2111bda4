"""Lists built by ``+`` and ``[x] * n`` in one go (``backends/cython/list_builds.py``), against CPython: results,
identities of the items, and the exceptions of huge or odd counts, with and without ops between the parts."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from tests.cython.agree import jitted, same


def padded(ids, length, pad_id):
    return ids + [pad_id] * (length - len(ids))


def mask(n, length):
    return [1] * n + [0] * (length - n)


def framed(ids, first, last):
    return [first] + ids + [last, last] + [first] * 2


def segments(a, b, length):
    parts = [0] * a + [1] * b
    return parts + [0] * (length - len(parts))          # the intermediate is also measured: built on its own


def with_lookup_between(ids, table, key):
    head = [0] + ids
    value = table[key]                                   # may raise KeyError: between the two concatenations
    return head + [value] * 2


def repeated_only(x, n):
    return [x] * n


def bool_count(x, flag):
    return [x] * flag + [x]


def counts_then_arithmetic(ids, k):
    first = [k] * k
    k2 = k * 2 + 1                                       # harmless int arithmetic between the parts
    return first + ids + [k2] * k2


sizes = st.integers(min_value=-3, max_value=12)
items = st.lists(st.integers(min_value=-5, max_value=5) | st.text(max_size=2), max_size=6)


@settings(max_examples=60, deadline=None)
@given(items, sizes, sizes)
def test_fused_builds_agree_with_cpython(ids, a, b):
    same(padded, ids, a, b)
    same(mask, a, b)
    same(framed, ids, a, b)
    same(segments, a, b, a + b + 2)
    same(counts_then_arithmetic, ids, a)
    same(repeated_only, ids, a)
    same(bool_count, a, b > 0)


def test_the_builds_are_fused():
    for fn, args in [(padded, ([1], 3, 0)), (mask, (2, 4)), (framed, ([1], 0, 9)), (segments, (1, 2, 5))]:
        same(fn, *args)
        code = jitted(fn).inspect_code()
        assert "mj_list_of_size(" in code
    # mask: one list for [1] * n + [0] * m, where CPython makes five
    assert jitted(mask).inspect_code().count("mj_list_of_size(") == 1


@pytest.mark.parametrize("count", [2 ** 62, 2 ** 63, 2 ** 70, -(2 ** 70)])
def test_huge_counts_raise_what_cpython_raises(count):
    same(padded, [1, 2], count, 0)
    same(repeated_only, "x", count)
    same(mask, 1, count)


def test_an_op_that_may_raise_between_the_parts_keeps_cpythons_order():
    table = {"k": 7}
    same(with_lookup_between, [1, 2], table, "k")
    same(with_lookup_between, [1, 2], table, "missing")


def test_items_are_the_same_objects():
    item = object()
    result = jitted(repeated_only)(item, 3)
    assert all(x is item for x in result)
    ids = [object(), object()]
    out = jitted(padded)(ids, 4, item)
    assert out[0] is ids[0] and out[1] is ids[1] and out[2] is item and out is not ids

"""Reference counts under generated code's own ``Py_INCREF`` (``backends/cython/reference_counts.py``: one 64-bit
store on CPython 3.12/3.13): while the jitted function's references are held and after they are dropped, every
object's count is what the plain function leaves, and immortal objects (None, bools, small ints, interned strs)
stay immortal — ``sys.getrefcount`` reports CPython's fixed count for them (3.12+) whatever the function held."""
from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings, strategies as hs

from tests.cython.agree import jitted


class Box:
    def __init__(self, item):
        self.item = item


def hold(item, count):
    """``count`` new references to ``item`` in a list, a tuple, attributes and a dict, all returned."""
    items = []
    for _ in range(count):
        items.append(item)
    boxes = [Box(item) for _ in range(count)]
    table = {k: item for k in range(count)}
    return items, tuple(items), boxes, table, item


def reference_counts(fn, item, count):
    """The count of ``item`` while ``fn``'s references are held, and after they are dropped."""
    held = fn(item, count)
    while_held = sys.getrefcount(item)
    del held
    return while_held, sys.getrefcount(item)


IMMORTALS = [None, True, False, 0, 1, 255, -5, "", "a"]
immortality = pytest.mark.skipif(sys.version_info < (3, 12), reason="objects are immortal from CPython 3.12 on; "
                                 "before, a shared object's count also counts references held elsewhere")


def test_the_generated_module_defines_its_incref():
    jitted(hold)(object(), 1)
    code = str(jitted(hold).inspect_code())
    assert "#define Py_INCREF(op) mj_incref(_PyObject_CAST(op))" in code
    assert "#define Py_NewRef(op) mj_new_ref(_PyObject_CAST(op))" in code


def test_a_fresh_object_is_counted_as_the_plain_function_counts_it():
    for count in (0, 1, 2, 100, 1000):
        plain_item, jit_item = object(), object()
        assert reference_counts(jitted(hold), jit_item, count) == reference_counts(hold, plain_item, count)


@settings(max_examples=60, deadline=None)
@given(count=hs.integers(min_value=0, max_value=400),
       mortal=hs.sampled_from([lambda: object(), lambda: [1.5], lambda: 2 ** 70, lambda: "x" * 40, lambda: Box(1)]))
def test_reference_counts_of_fresh_objects_agree(count, mortal):
    plain_item, jit_item = mortal(), mortal()
    assert reference_counts(jitted(hold), jit_item, count) == reference_counts(hold, plain_item, count)


@immortality
@settings(max_examples=60, deadline=None)
@given(count=hs.integers(min_value=0, max_value=400), immortal=hs.sampled_from(IMMORTALS))
def test_immortal_counts_agree(count, immortal):
    assert reference_counts(jitted(hold), immortal, count) == reference_counts(hold, immortal, count)

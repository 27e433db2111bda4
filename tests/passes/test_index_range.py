"""``typeinfer`` types the subscript of a bound constant whose class declares ``__moshjit_index_range__``
(a rewritten match's ``ClassDispatch``) as an int in that range, and nothing else that way."""
from __future__ import annotations

import pytest

from moshjit.extensions import runtime
from moshjit.ir import ops
from moshjit.ir.types import OBJECT, IntType
from moshjit.passes.typeinfer import infer_types
from tests.ir.handmade import blocks, const, emit, new_function


class Declared:
    __moshjit_index_range__ = (0, 3)

    def __getitem__(self, key):
        return 2


class Malformed:
    __moshjit_index_range__ = (0, "3")

    def __getitem__(self, key):
        return 2


def _subscript_type(container):
    """f(s): return container[s], typed for an object ``s``: the subscript's type."""
    fn = new_function("s")
    [b0] = blocks(fn, 1)
    item = emit(b0, ops.GetItem(const(container), fn.args[0]))
    emit(b0, ops.Return(item))
    infer_types(fn, [OBJECT])
    return item.type


def test_a_declared_index_range_types_the_subscript():
    assert _subscript_type(Declared()) == IntType(0, 3)


@pytest.mark.parametrize("dispatch_class", [runtime.ClassDispatch, runtime.PyClassDispatch])
def test_a_class_dispatch_subscript_is_an_int_up_to_its_class_count(dispatch_class):
    assert _subscript_type(dispatch_class({}, ("A",), (None,))) == IntType(0, 8)


class Undeclared:
    def __getitem__(self, key):
        return 2


@pytest.mark.parametrize("container", [Malformed(), Undeclared()])
def test_other_constants_are_not_typed_by_it(container):
    assert _subscript_type(container) == OBJECT

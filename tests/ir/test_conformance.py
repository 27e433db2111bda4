"""``ir.conformance``: which types a run-time check can decide, and the check itself (the generic path of a call
whose result type came from a jitted method checks what it got)."""
import pytest

from moshjit.ir.conformance import checkable, checked_result, conforms
from moshjit.ir.types import (BOOL, BOTTOM, CHAR, FLOAT, INT, NONE, OBJECT, STR, ConstType, DictType, IntType,
                              IteratorType, ListType, OptionalType, SetType, TupleType, tuple_of)


def test_checkable_types():
    for t in (STR, CHAR, FLOAT, BOOL, NONE, OBJECT, INT, IntType(0, 9), ListType(STR), ListType(BOTTOM),
              SetType(INT), DictType(STR, ListType(INT)), tuple_of([STR, FLOAT]), TupleType(None, STR),
              OptionalType(STR)):
        assert checkable(t), t
    for t in (ConstType(len), IteratorType(STR, CHAR), ListType(ConstType(len)), OptionalType(ConstType(len))):
        assert not checkable(t), t


@pytest.mark.parametrize("value, t, expected", [
    ("ab", STR, True), ("a", CHAR, True), ("ab", CHAR, False), (b"a", STR, False), (1, FLOAT, False),
    (1.0, FLOAT, True), (True, BOOL, True), (1, BOOL, False), (None, NONE, True), (0, NONE, False),
    (5, IntType(0, 9), True), (10, IntType(0, 9), False), (True, IntType(0, 9), False), (2**80, INT, True),
    (["a", "b"], ListType(STR), True), (["a", 1], ListType(STR), False), ((), ListType(STR), False),
    ([], ListType(BOTTOM), True), (["a"], ListType(BOTTOM), False), ({1, 2}, SetType(IntType(0, 3)), True),
    ({"k": [1]}, DictType(STR, ListType(INT)), True), ({"k": ["1"]}, DictType(STR, ListType(INT)), False),
    (("a", 1.0), tuple_of([STR, FLOAT]), True), (("a",), tuple_of([STR, FLOAT]), False),
    (("a", "b"), TupleType(None, STR), True), (None, OptionalType(STR), True), ("x", OptionalType(STR), True),
    (3, OptionalType(STR), False), (object(), OBJECT, True),
])
def test_conforms(value, t, expected):
    assert conforms(value, t) is expected


def test_a_str_subclass_is_not_a_str_of_the_lattice():
    class Text(str):
        pass
    assert not conforms(Text("a"), STR) and not conforms([Text("a")], ListType(STR))


def test_checked_result_passes_a_conforming_value_and_names_the_method_otherwise():
    value = ["a"]
    assert checked_result(value, ListType(STR), "Shape.words") is value
    with pytest.raises(TypeError, match=r"moshjit: Shape\.words was replaced .* returns str, and returned int"):
        checked_result(3, STR, "Shape.words")

"""``isinstance`` calls the inferred types answer become ``True`` or ``False`` (``passes/type_tests.py``): on
hand-built IR, and differentially on jitted functions written for several input types."""
from __future__ import annotations

import collections.abc
import itertools

import pytest

from moshjit.ir import ops
from moshjit.ir.types import BYTES, FLOAT, OBJECT, STR, IntType, ListType
from moshjit.ir.verifier import verify
from moshjit.passes.type_tests import LAYOUT_CLASSES, type_tests
from moshjit.passes.typeinfer import infer_types
from tests.cython.agree import jitted, same
from tests.ir.handmade import blocks, const, emit, new_function


def _isinstance_of(arg_type, classes):
    """f(x) = isinstance(x, classes), typed for an ``x`` of ``arg_type``; returns (fn, the call op)."""
    fn = new_function("x")
    (b0,) = blocks(fn, 1)
    call = emit(b0, ops.Call(const(isinstance), [fn.args[0], const(classes)], ()))
    emit(b0, ops.Return(call))
    infer_types(fn, [arg_type])
    return fn, call


@pytest.mark.parametrize("arg_type, classes, answer", [
    (STR, str, True), (STR, object, True), (STR, (bytes, str), True), (IntType(0, 5), int, True),
    (ListType(STR), list, True), (BYTES, bytes, True),
    # no value of the type passes: builtin classes with layouts of their own
    (STR, bytes, False), (IntType(0, 5), tuple, False), (IntType(), (tuple, list), False),
    (ListType(STR), dict, False), (FLOAT, (int, str), False)])
def test_a_test_the_type_answers_becomes_its_answer(arg_type, classes, answer):
    fn, call = _isinstance_of(arg_type, classes)
    assert type_tests(fn)
    verify(fn)
    assert call not in fn.blocks[0].ops
    assert fn.blocks[0].terminator.value.value is answer


def test_no_class_derives_from_two_layout_classes():
    """Why a False answer holds for subclasses too: CPython refuses every pair of these as bases."""
    for first, second in itertools.permutations(LAYOUT_CLASSES, 2):
        with pytest.raises(TypeError):
            type("Both", (first, second), {})


class _Mixin:
    pass


@pytest.mark.parametrize("arg_type, classes", [
    (IntType(0, 5), _Mixin),               # a subclass of int may derive from it too: class X(int, _Mixin)
    (IntType(0, 5), (tuple, _Mixin)),
    (OBJECT, str),                         # the type does not say
    (STR, collections.abc.Sequence),       # an ABC: its metaclass answers, and its registry can change
    (IntType(0, 5), bool),                 # a subclass of the type's class
])
def test_a_test_the_type_does_not_answer_stays(arg_type, classes):
    fn, call = _isinstance_of(arg_type, classes)
    assert not type_tests(fn)
    assert call in fn.blocks[0].ops


def to_text(value):
    """The shape of Google's ``convert_to_unicode``: one branch per accepted type."""
    if isinstance(value, str):
        return value
    elif isinstance(value, bytes):
        return value.decode("utf-8", "ignore")
    else:
        raise ValueError("Unsupported string type: %s" % (type(value)))


def words_of(value):
    text = to_text(value)
    return [word.upper() for word in text.split()]


class Shouty(str):
    def split(self, *args):
        return ["overridden"]


@pytest.mark.parametrize("value", ["a b c", "é 漢", "", b"bytes too \xff", Shouty("x y"), 3, None, ["a"]])
def test_functions_for_several_input_types_agree(value):
    same(words_of, value)


def test_the_str_specialisation_keeps_the_str_type():
    words = jitted(words_of)
    words("a b")
    listing = words.inspect_types(("str",))
    assert "isinstance" not in listing and "decode" not in listing

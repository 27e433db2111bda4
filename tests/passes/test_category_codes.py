"""Tests on Unicode categories become integer tests on category codes: on hand-built IR (run by the reference
interpreter against CPython on every category's characters), and on jitted functions (Cython backend) for every
code point."""
from __future__ import annotations

import sys
import unicodedata

import pytest

import moshjit
from moshjit.ir import ops
from moshjit.ir.verifier import verify
from moshjit.passes.category_codes import category_codes
from moshjit.primitives.unicode_categories import CATEGORY_CODES, CATEGORY_NAMES, category_code
from tests.ir.handmade import blocks, const, emit, new_function

# One character of every category (the first code point that has it), plus a few that matter to BERT.
SAMPLES = sorted({min(cp for cp in range(0x110000) if unicodedata.category(chr(cp)) == name)
                  for name in CATEGORY_NAMES} | {0x20, 0x3000, 0x2028, 0x301, 0xD800, 0x10FFFF, ord("P")})


def _one_test(make_user):
    """f(x) = <test on unicodedata.category(x)>, built by hand; returns (fn, the call op)."""
    fn = new_function("x")
    (b0,) = blocks(fn, 1)
    call = emit(b0, ops.Call(const(unicodedata.category), [fn.args[0]], ()))
    emit(b0, ops.Return(emit(b0, make_user(call))))
    return fn, call


TESTS = {
    "== one": lambda c: ops.Compare(c, const("Zs"), "=="),
    "constant on the left": lambda c: ops.Compare(const("Mn"), c, "!="),
    "in a tuple": lambda c: ops.Compare(c, const(("Cc", "Cf", "Co", "Cs")), "in"),
    "not in": lambda c: ops.Compare(c, const(("Lu", "Ll")), "not in"),
    "ordering": lambda c: ops.Compare(c, const("Q"), ">"),
    "substring": lambda c: ops.Compare(const("Z"), c, "in"),
    "startswith": lambda c: ops.CallMethod(c, [const("P")], "startswith", ()),
    "endswith a tuple": lambda c: ops.CallMethod(c, [const(("s", "l"))], "endswith", ()),
    "never true": lambda c: ops.Compare(c, const("Xx"), "=="),
    "always true": lambda c: ops.Compare(c, const("Xx"), "!="),
}


@pytest.mark.parametrize("name", TESTS)
def test_each_test_becomes_an_integer_test_with_the_same_answers(name):
    fn, call = _one_test(TESTS[name])
    expected = {cp: fn.run(chr(cp)) for cp in SAMPLES}
    category_codes(fn)
    verify(fn)
    body = fn.blocks[0].ops
    assert body[0].func.value is category_code and body[0].args == [fn.args[0]]
    assert not any(isinstance(op, ops.Call) and op.func.value is unicodedata.category for op in body)
    assert not any(isinstance(op, (ops.Compare, ops.CallMethod)) and any(
        isinstance(v, ops.Constant) and isinstance(v.value, str) for v in op.operands()) for op in body)
    assert {cp: fn.run(chr(cp)) for cp in SAMPLES} == expected


def test_one_category_is_an_equality_and_many_a_bit_test():
    fn, _ = _one_test(TESTS["== one"])
    category_codes(fn)
    compare = fn.blocks[0].ops[1]
    assert (compare.op, compare.right.value) == ("==", CATEGORY_CODES["Zs"])
    fn, _ = _one_test(TESTS["startswith"])
    category_codes(fn)
    shift, bit, test = fn.blocks[0].ops[1:4]
    assert (shift.op, bit.op, test.op) == (">>", "&", "!=")
    assert shift.left.value == sum(1 << CATEGORY_CODES[n] for n in CATEGORY_NAMES if n[0] == "P")


def test_a_category_used_as_a_string_is_left_alone():
    fn = new_function("x")
    (b0,) = blocks(fn, 1)
    call = emit(b0, ops.Call(const(unicodedata.category), [fn.args[0]], ()))
    emit(b0, ops.Compare(call, const("Zs"), "=="))
    emit(b0, ops.Return(call))                         # the name itself escapes
    category_codes(fn)
    assert fn.blocks[0].ops[0] is call


def test_a_test_that_raises_is_left_alone():
    fn, call = _one_test(lambda c: ops.Compare(c, const(3), "<"))      # str < int raises TypeError
    category_codes(fn)
    assert fn.blocks[0].ops[0] is call


@pytest.mark.parametrize("arg", [5, "ab", "", None])
def test_bad_arguments_raise_what_category_raises(arg):
    fn, _ = _one_test(TESTS["== one"])
    category_codes(fn)
    with pytest.raises(TypeError) as expected:
        unicodedata.category(arg)
    with pytest.raises(TypeError) as got:
        fn.run(arg)
    assert str(got.value) == str(expected.value)


def test_code_order_matches_the_runtime_table():
    from moshjit.runtime.unicode_tables import category_tables
    names, index, table = category_tables()
    assert tuple(names) == CATEGORY_NAMES
    for cp in SAMPLES:
        assert table[index[cp // 256]][cp % 256] == category_code(chr(cp))


def is_punctuation(ch):
    cp = ord(ch)
    if (33 <= cp <= 47) or (58 <= cp <= 64) or (91 <= cp <= 96) or (123 <= cp <= 126):
        return True
    return unicodedata.category(ch).startswith("P")


def classify(ch):
    category = unicodedata.category(ch)
    if category == "Zs" or category in ("Zl", "Zp"):
        return 1
    if category != "Mn" and category > "Q":
        return 2
    return 3 if category.endswith("c") else 0


@pytest.mark.parametrize("function", [is_punctuation, classify])
def test_jitted_functions_agree_with_cpython_on_every_code_point(function):
    jitted = moshjit.jit(function, backend="cython")
    characters = [chr(cp) for cp in range(sys.maxunicode + 1)]
    assert list(map(jitted, characters)) == list(map(function, characters))
    assert "mj_category_code(a_ch)" in jitted.inspect_code()


def test_jitted_function_raises_what_cpython_raises_for_a_non_character():
    jitted = moshjit.jit(classify, backend="cython")
    for arg in ("ab", 7):
        with pytest.raises(TypeError) as expected:
            classify(arg)
        with pytest.raises(TypeError) as got:
            jitted(arg)
        assert str(got.value) == str(expected.value)

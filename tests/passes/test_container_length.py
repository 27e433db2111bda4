"""``len`` of a built-in container is below ``CONTAINER_LENGTH`` (CPython allocates no bigger one), so ``len(s) + 1``
and a counter kept below a length need no overflow check; ``len`` of anything else may be any ssize_t."""
from __future__ import annotations

import pytest

import moshjit
from moshjit.ir import ops
from moshjit.ir.types import CONTAINER_LENGTH, INT64, NONNEG_SSIZE, OBJECT, STR, IntType, ListType
from moshjit.passes.typeinfer import infer_types
from tests.ir.handmade import blocks, const, emit, new_function


def _length_plus_one(arg_type):
    """f(s): return len(s) + 1, typed for ``s`` of ``arg_type``: (the len's type, the sum's type)."""
    fn = new_function("s")
    [b0] = blocks(fn, 1)
    length = emit(b0, ops.Call(const(len), [fn.args[0]], ()))
    total = emit(b0, ops.BinaryOp(length, const(1), "+", False))
    emit(b0, ops.Return(total))
    infer_types(fn, [arg_type])
    return length.type, total.type


@pytest.mark.parametrize("arg_type", [STR, ListType(INT64)])
def test_the_length_of_a_built_in_container_plus_one_fits_int64(arg_type):
    length, total = _length_plus_one(arg_type)
    assert length == CONTAINER_LENGTH
    assert total == IntType(1, CONTAINER_LENGTH.hi + 1) and total.hi <= INT64.hi


def test_the_length_of_any_object_is_any_ssize_t():
    """A class's ``__len__`` may return sys.maxsize."""
    assert _length_plus_one(OBJECT)[0] == NONNEG_SSIZE


def prefixes_in(sentence, words):
    """jieba's get_DAG: from each position, the longest run of prefixes the dict holds."""
    found = []
    n = len(sentence)
    for k in range(n):
        i = k
        frag = sentence[k]
        while i < n and frag in words:
            if words[frag]:
                found.append((k, i))
            i += 1
            frag = sentence[k:i + 1]
    return found


def test_slices_up_to_a_bounded_counter_agree_with_cpython():
    words = {"北": 3, "北京": 5, "北京大": 0, "北京大学": 7, "大学": 4, "学": 1, "ab": 2, "a": 1}
    jitted = moshjit.jit(prefixes_in, backend="cython")
    for sentence in ["我来到北京大学", "北京", "", "abab", "北京大学生", "a" * 40]:
        assert jitted(sentence, words) == prefixes_in(sentence, words)
    assert " slice(" not in str(jitted.inspect_code(("str", "dict")))    # a native substring or view, no slice object

"""A local list merged at a φ with a list from elsewhere keeps its precise item type when the φ is only read
(``typeinfer``'s container cells): ``words = text.split() if text else []`` iterates strs."""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.types import OBJECT, STR, ListType
from moshjit.passes.typeinfer import infer_types
from tests.cython.agree import same
from tests.ir.handmade import blocks, const, emit, new_function, phi


def _merged(use_phi):
    """f(s): xs = s.split() if s else []; use_phi(block, xs); typed for a str ``s``. Returns the φ."""
    fn = new_function("s")
    b0, b1, b2, b3 = blocks(fn, 4)
    emit(b0, ops.Branch(fn.args[0], b1, b2))
    split = emit(b1, ops.CallMethod(fn.args[0], [], "split", ()))
    emit(b1, ops.Jump(b3))
    empty = emit(b2, ops.BuildList([]))
    emit(b2, ops.Jump(b3))
    words = phi(b3, {b1: split, b2: empty})
    emit(b3, ops.Return(use_phi(b3, words)))
    infer_types(fn, [STR])
    return words


def test_a_phi_only_read_keeps_the_item_type():
    words = _merged(lambda b, xs: emit(b, ops.GetItem(xs, const(0))))
    assert words.type == ListType(STR)


def test_a_phi_written_through_is_a_list_of_objects():
    def append_then_read(b, xs):
        emit(b, ops.CallMethod(xs, [const(1)], "append", ()))
        return xs
    words = _merged(append_then_read)
    assert words.type == ListType(OBJECT)


def words_or_nothing(text, extra):
    words = text.split() if text else []
    out = []
    for word in words:
        out.append(word.upper() + extra)
    return out


def written_through(text, item):
    words = text.split() if text else []
    words.append(item)
    return [w * 2 for w in words]


def test_merged_lists_agree_with_cpython():
    for text in ["", "a b", "é 漢 😀"]:
        same(words_or_nothing, text, "!")
        same(written_through, text, 3)
        same(written_through, text, "x")

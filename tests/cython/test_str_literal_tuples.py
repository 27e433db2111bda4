"""``s in ("a", "b", ...)`` with a str ``s`` (``emit.Compare``): each item compared as CPython's tuple containment
does (``item == s`` in order, identity first), through ``mj_str_cmp``; differentially against CPython. A str
subclass argument is typed ``object`` and keeps CPython's own containment: its tests pin that its ``__eq__`` is
asked as CPython asks it."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from tests.cython.agree import jitted, same

SPECIAL = ("[PAD]", "[UNK]", "é", "漢字", "😀", "")


def kept(words):
    """Words not in the tuple, and how many were (``in`` and ``not in`` both)."""
    out = []
    hits = 0
    for word in words.split(" "):
        if word in ("[PAD]", "[UNK]", "é", "漢字", "😀", ""):
            hits += 1
        if word not in ("[PAD]", "[UNK]", "é", "漢字", "😀", ""):
            out.append(word)
    return out, hits


def test_the_containment_is_written_as_str_comparisons():
    fn = jitted(kept)
    assert fn("a [PAD] b") == kept("a [PAD] b")
    code = fn.inspect_code()
    assert "mj_str_cmp('[PAD]', " in code and "in ('[PAD]'" not in code


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(SPECIAL + ("[PAD", "PAD]", "[pad]", "e\u0301")),
                          st.text(alphabet="[]PADUNKé漢字😀\x00", max_size=6)), max_size=12))
def test_containment_agrees_with_cpython(words):
    same(kept, " ".join(words))


class Shouting(str):
    """A str subclass whose ``==`` records being asked and says yes to ``[UNK]`` spelt in lower case."""
    asked: list = []

    def __eq__(self, other):
        Shouting.asked.append(other)
        return str.__eq__(self.upper(), other)

    __hash__ = str.__hash__


def check(word):
    return word in ("[PAD]", "[UNK]")


def test_a_str_subclass_operand_is_asked_as_cpython_asks_it():
    Shouting.asked = []
    expected = check(Shouting("[unk]"))
    asked_by_cpython = list(Shouting.asked)
    Shouting.asked = []
    assert jitted(check)(Shouting("[unk]")) == expected is True
    assert Shouting.asked == asked_by_cpython == ["[PAD]", "[UNK]"]


class Raising(str):
    def __eq__(self, other):
        raise ValueError(f"compared with {other}")

    __hash__ = str.__hash__


def test_an_exception_from_eq_propagates():
    assert same(check, Raising("x")) == ("raise", ValueError, "compared with [PAD]")

"""Lists of characters kept as ``moshjit_rt.CharBuffer`` (``backends/cython/plan.py``), differentially against
CPython: joins of every kind (ASCII, Latin-1, BMP, astral), at and past the buffer's in-object capacity, empty and
one-character results (CPython's shared objects), buffers reused from the free list."""
from __future__ import annotations

import sys

from hypothesis import given, settings, strategies as st

from tests.cython.agree import jitted


def keep_some(text, dropped):
    """Characters of ``text`` not in ``dropped``, joined (a buffer per call, as ``strip_accents`` does)."""
    output = []
    for ch in text:
        if ch not in dropped:
            output.append(ch)
    return "".join(output)


def runs(text):
    """Runs of non-space characters, one buffer per run (as ``split_on_punctuation`` does)."""
    words = []
    current = []
    for ch in text:
        if ch == " ":
            if current:
                words.append("".join(current))
                current = []
        else:
            current.append(ch)
    if current:
        words.append("".join(current))
    return words


CHARS = st.sampled_from("ab \x00\x7f\x80éÿĀ漢\uffff😀\U0010ffff")


def same_strs(got, expected):
    """Equal, exact strs of CPython's canonical kind (a wider kind than needed would show in the size) and the
    shared empty and one-character objects where CPython gives them."""
    assert got == expected and type(got) is str
    assert sys.getsizeof(got) == sys.getsizeof(expected)
    if len(expected) == 0 or (len(expected) == 1 and ord(expected) < 256):
        assert got is expected


@settings(max_examples=80, deadline=None)
@given(st.lists(CHARS, max_size=120).map("".join), st.sets(CHARS, max_size=4).map("".join))
def test_joins_are_cpythons_strs(text, dropped):
    same_strs(jitted(keep_some)(text, dropped), keep_some(text, dropped))
    got, expected = jitted(runs)(text), runs(text)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        same_strs(g, e)


def test_lengths_around_the_in_object_capacity_and_buffers_reused():
    for n in (0, 1, 2, 39, 40, 41, 79, 80, 81, 1000):
        for ch in "aé漢😀":
            text = ("x" * (n // 2) + ch * (n - n // 2))
            same_strs(jitted(keep_some)(text, "-"), keep_some(text, "-"))
            same_strs(jitted(keep_some)(text + "😀", "😀"), keep_some(text + "😀", "😀"))   # wide, then narrow
    assert "CharBuffer()" in jitted(keep_some).inspect_code()
    assert "CharBuffer()" in jitted(runs).inspect_code()

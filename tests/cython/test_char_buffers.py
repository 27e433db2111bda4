"""Lists of characters kept as ``moshjit_rt.CharBuffer`` (``backends/cython/plan.py``), differentially against
CPython: joins of every kind (ASCII, Latin-1, BMP, astral), at and past the buffer's in-object capacity, empty and
one-character results (CPython's shared objects), buffers reused from the free list."""
from __future__ import annotations

import sys

from hypothesis import given, settings, strategies as st

from tests.cython.agree import jitted, same


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
    same(runs, "ab  c d ")                         # compiled here too: under xdist no other test may have run it
    assert "CharBuffer()" in jitted(keep_some).inspect_code()
    assert "CharBuffer()" in jitted(runs).inspect_code()


def split_on_marks(text, marks):
    """Google BERT's ``_run_split_on_punc`` shape: a list of lists of characters, each inner list made here as
    ``[ch]`` or ``[]``, appended to through ``words[-1]`` and joined in a loop over the outer list."""
    chars = list(text)
    i = 0
    start_new_word = True
    output = []
    while i < len(chars):
        char = chars[i]
        if char in marks:
            output.append([char])
            start_new_word = True
        else:
            if start_new_word:
                output.append([])
            start_new_word = False
            output[-1].append(char)
        i += 1
    return ["".join(x) for x in output]


def append_to_last(text):
    """``[][-1]`` on an empty outer list: the list's IndexError, as in CPython."""
    words = []
    for ch in text:
        if ch == " ":
            words.append([])
        words[-1].append(ch)
    return ["".join(w) for w in words]


def outer_escapes(text):
    """The outer list is returned: its items must stay lists."""
    words = []
    words.append([])
    for ch in text:
        words[-1].append(ch)
        if ch == " ":
            words.append([])
    return words, ["".join(w) for w in words]


def inner_read_otherwise(text):
    """An inner list is also counted (``len`` of a subscript): it stays a list."""
    words = []
    words.append([])
    for ch in text:
        if ch == " ":
            words.append([ch])
        else:
            words[-1].append(ch)
    return len(words[0]), ["".join(w) for w in words]


@settings(max_examples=60, deadline=None)
@given(st.lists(CHARS, max_size=80).map("".join), st.sets(CHARS, max_size=3).map("".join))
def test_lists_of_character_lists(text, marks):
    got, expected = jitted(split_on_marks)(text, marks), split_on_marks(text, marks)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        same_strs(g, e)
    for fn in (append_to_last, outer_escapes, inner_read_otherwise):
        same(fn, text)


def test_which_lists_of_lists_hold_buffers():
    same(split_on_marks, "a,b", ",")
    same(append_to_last, "x")
    for fn in (outer_escapes, inner_read_otherwise):
        same(fn, "a b")
    assert "= <CharBuffer>" in jitted(split_on_marks).inspect_code()
    assert "= <CharBuffer>" in jitted(append_to_last).inspect_code()
    for fn in (outer_escapes, inner_read_otherwise):
        assert "cdef CharBuffer" not in jitted(fn).inspect_code()


def passes_per_word(text, first, second):
    """Two passes per word, the second reading the first's joined buffer (``joined_loops.py``): both buffers are
    made again per word, so the last one is emptied and reused (its grown array and all), and the second is also
    measured and tested."""
    out = []
    for word in text.split():
        kept = []
        for ch in word:
            if ch not in first:
                kept.append(ch)
        joined = "".join(kept)
        again = []
        for ch in joined:
            if ch not in second:
                again.append(ch)
        out.append("".join(again))
        out.append(len(again))
        if again:
            out.append(True)
    return out


def same_outputs(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        if type(e) is str:
            same_strs(g, e)
        else:
            assert g == e and type(g) is type(e)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(CHARS, max_size=90).map("".join), max_size=6), st.sets(CHARS, max_size=2).map("".join),
       st.sets(CHARS, max_size=2).map("".join))
def test_buffers_made_again_in_a_loop(words, first, second):
    text = " ".join(words)
    same_outputs(jitted(passes_per_word)(text, first, second), passes_per_word(text, first, second))
    code = jitted(passes_per_word).inspect_code()
    assert ".length = 0" in code and ".data[" in code


def test_a_wide_word_then_narrow_ones_reusing_the_buffer():
    text = " ".join(["😀" * 50, "ab", "", "é" * 45, "x", "\U0010ffff" + "y" * 90, "z"])
    same_outputs(jitted(passes_per_word)(text, "-", "a"), passes_per_word(text, "-", "a"))
    assert ".length = 0" in jitted(passes_per_word).inspect_code()

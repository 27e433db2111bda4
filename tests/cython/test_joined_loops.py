"""Loops over a joined character buffer read the buffer (``backends/cython/joined_loops.py``): the analysis on
tiny IR-shaped functions (which loops qualify, which do not), and the results differentially against CPython for
every kind of text (ASCII, Latin-1, BMP, astral, NUL, combining marks, surrogates)."""
from __future__ import annotations

import unicodedata

from hypothesis import given, settings, strategies as st

from tests.cython.agree import jitted, same


def clean_then_space(text):
    """Two chained passes: drop controls, then put spaces around CJK; the first pass's str is only looped over."""
    output = []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf"):
            continue
        output.append(ch)
    cleaned = "".join(output)
    spaced = []
    for ch in cleaned:
        if 0x4E00 <= ord(ch) <= 0x9FFF:
            spaced.append(" ")
            spaced.append(ch)
            spaced.append(" ")
        else:
            spaced.append(ch)
    return "".join(spaced)


def words_without_accents(text):
    """Per word: NFD, drop Mn, then split on punctuation (a buffer per word, joined and looped over)."""
    out = []
    for word in text.split():
        kept = []
        for ch in unicodedata.normalize("NFD", word.lower()):
            if unicodedata.category(ch) != "Mn":
                kept.append(ch)
        stripped = "".join(kept)
        current = []
        for ch in stripped:
            if unicodedata.category(ch).startswith("P"):
                if current:
                    out.append("".join(current))
                    current = []
                out.append(ch)
            else:
                current.append(ch)
        if current:
            out.append("".join(current))
    return out


def joined_str_escapes(text):
    """The joined str is also returned: it must be built."""
    output = []
    for ch in text:
        output.append(ch)
    joined = "".join(output)
    n = 0
    for ch in joined:
        n += ord(ch)
    return joined, n


def appended_while_looping(text):
    """The buffer grows during the loop over its join: the loop must see the join's code points only."""
    output = []
    for ch in text:
        output.append(ch)
    seen = []
    for ch in "".join(output):
        output.append(ch)
        seen.append(ch)
    return "".join(seen), "".join(output)


def joined_twice_in_a_loop(text, rounds):
    """One buffer appended to and joined in every round: each loop reads that round's contents."""
    output = []
    totals = []
    for _ in range(rounds):
        for ch in text:
            output.append(ch)
        total = 0
        for ch in "".join(output):
            total += ord(ch)
        totals.append(total)
    return totals


def test_the_loops_read_the_buffer_where_the_str_is_only_looped_over():
    fn = jitted(clean_then_space)
    assert fn("a漢b\x00") == clean_then_space("a漢b\x00")
    code = fn.inspect_code()
    assert code.count(".join()") == 1 and ".data[" in code          # the first pass's join is gone
    fn = jitted(words_without_accents)
    assert fn("Héllo, wörld!") == words_without_accents("Héllo, wörld!")
    assert ".data[" in fn.inspect_code()


def test_the_str_is_built_where_it_escapes_or_the_buffer_changes():
    for function, args in ((joined_str_escapes, ("abc",)), (appended_while_looping, ("abc",)),
                           (joined_twice_in_a_loop, ("ab", 3))):
        fn = jitted(function)
        assert fn(*args) == function(*args)
        assert ".data[" not in fn.inspect_code(), function.__name__


TEXT = st.text(alphabet=st.sampled_from(
    "ab AZ\x00\x7f\x80\t\u200béÿĀ\u0301\u0327漢字\uffff😀\U0010ffff,.!¿«»\ud800"), max_size=40)


@settings(max_examples=80, deadline=None)
@given(TEXT, st.integers(min_value=0, max_value=3))
def test_joined_loops_agree_with_cpython(text, rounds):
    same(clean_then_space, text)
    same(words_without_accents, text)
    same(joined_str_escapes, text)
    same(appended_while_looping, text)
    same(joined_twice_in_a_loop, text, rounds)


class Text(str):
    """A str subclass: its characters are still plain one-character strs when iterated."""


def test_a_str_subclass_text_agrees():
    same(clean_then_space, Text("x漢\x01y"))
    same(words_without_accents, Text("Ça, va?"))

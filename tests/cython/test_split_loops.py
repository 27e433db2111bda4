"""Loops over ``s.split()`` without the list (``backends/cython/plan.py``: ``_split_web``), differentially
against CPython: every kind of whitespace ``str.isspace`` knows, words of every str kind, the empty list beside
the split (``whitespace_tokenize``'s shape), and the words' identities (the str itself when it is one word, the
shared one-character strs)."""
from __future__ import annotations

import sys

from hypothesis import given, settings, strategies as st

from tests.cython.agree import jitted, same

WHITESPACE = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())
CHARS = st.sampled_from(WHITESPACE + "ab\x00\x7féÿĀ漢\u200b\ufeff😀")


def whitespace_tokenize(text):
    """Google BERT's helper: the split list, or an empty one."""
    text = text.strip()
    if not text:
        return []
    return text.split()


def tokens_and_lengths(text):
    out = []
    for token in whitespace_tokenize(text):
        out.append(token)
        out.append(len(token))
    return out


def words_of(text):
    words = []
    for word in text.split():
        words.append(word)
    return words


def split_kept(text):
    """The list is also returned: it stays a list."""
    parts = text.split()
    for part in parts:
        if part == "x":
            return parts, part
    return parts, None


class Shouting(str):
    def split(self, *args):
        return [w.upper() for w in str.split(self, *args)]


def same_words(got, expected):
    assert got == expected and all(type(w) is str for w in got)
    for g, e in zip(got, expected):
        if len(e) == 1 and ord(e) < 256:
            assert g is e                          # CPython's shared one-character strs


@settings(max_examples=80, deadline=None)
@given(st.lists(CHARS, max_size=60).map("".join))
def test_words_are_cpythons(text):
    same_words(jitted(words_of)(text), words_of(text))
    assert jitted(tokens_and_lengths)(text) == tokens_and_lengths(text)
    same(split_kept, text)


def test_a_single_word_is_the_str_itself_and_subclasses_split_their_way():
    word = "".join(["sol", "o"])
    assert jitted(words_of)(word)[0] is word
    assert jitted(words_of)(" \u3000") == []
    same(words_of, Shouting("a b"))
    same(tokens_and_lengths, Shouting(" a  b "))
    for fn in (words_of, tokens_and_lengths, split_kept):      # compiled for str here: under xdist the other
        same(fn, " a  x b ")                                   # tests may run in another process
    for fn in (words_of, tokens_and_lengths):
        assert "_word = mj_split_next(" in jitted(fn).inspect_code(("str",))
    assert "_word = mj_split_next(" not in jitted(split_kept).inspect_code(("str",))

"""Dict lookups and str-view probes on values of unknown type (``self.vocab``: a dict reached through an attribute)
go through the native dict index when the value is a dict whose ``in``/``[]`` are dict's own, and ask the object
itself otherwise (``backends/cython/text.py``, ``runtime/moshjit_text.pyx``) — differentially against CPython:
OrderedDicts, subclasses overriding ``__contains__``/``__getitem__``/``__missing__``, non-dicts (strs, sets, lists,
objects with ``__contains__``), str-subclass keys, dicts changed or rebound mid-run."""
from __future__ import annotations

import collections

import pytest
from hypothesis import given, settings, strategies as st

import moshjit
from tests.cython.agree import outcome

PREFIX = "##"
ALPHABET = "abcé漢😀"
KEYS = ["[UNK]", "a", "b", "c", "ab", "abc", "##a", "##b", "##c", "##bc", "é", "##é", "漢", "##漢", "😀", "##😀",
        "a😀", "##ca", "cab", "##abc"]


class Pieces:
    """WordPiece the way class-style tokenizers write it: the vocabulary is an attribute."""

    def __init__(self, vocab, unk="[UNK]"):
        self.vocab = vocab
        self.unk = unk

    def tokenize(self, text):
        out = []
        for word in text.split():
            chars = list(word)
            start = 0
            pieces = []
            bad = False
            while start < len(chars):
                end = len(chars)
                found = None
                while start < end:
                    piece = "".join(chars[start:end])
                    if start > 0:
                        piece = PREFIX + piece
                    if piece in self.vocab:
                        found = piece
                        break
                    end -= 1
                if found is None:
                    bad = True
                    break
                pieces.append(found)
                start = end
            out.extend([self.unk] if bad else pieces)
        return out

    def ids(self, tokens):
        return [self.vocab[token] for token in tokens]

    def contains(self, tokens):
        return [token in self.vocab for token in tokens]

    def word_ids(self, text):
        out = []
        for word in text.split():
            out.append(self.vocab[word])
        return out


def jitted_copy(cls, *more):
    """``jit(cls)`` on a new class holding the same methods (of ``cls`` and ``more``): ``cls`` stays plain."""
    namespace = {}
    for source in (*more, cls):
        namespace.update({k: v for k, v in vars(source).items() if k not in ("__dict__", "__weakref__")})
    return moshjit.jit(type(cls.__name__, (), namespace), backend="cython")


JitPieces = jitted_copy(Pieces)


def run(cls, vocab, text):
    tokenizer = cls(vocab)
    tokens = outcome(tokenizer.tokenize, text)
    ids = outcome(tokenizer.ids, tokens[1]) if tokens[0] == "ok" else None
    words = " ".join(text.split()[:40] + KEYS)
    return tokens, ids, outcome(tokenizer.contains, text.split()), outcome(tokenizer.word_ids, words), \
        outcome(tokenizer.word_ids, " ".join(KEYS * 20))


def agree(make_vocab, text):
    expected = run(Pieces, make_vocab(), text)
    assert run(JitPieces, make_vocab(), text) == expected
    return expected


WORDS = " ".join(["abc", "cab", "ab😀", "é漢", "xyz", "a", "aaa", "b##c"] * 30)


class Contains(dict):
    def __contains__(self, key):                 # answers differently from the storage
        return len(key) % 2 == 1


class Items(dict):
    def __getitem__(self, key):
        return ("item", dict.get(self, key))


class Missing(dict):
    def __missing__(self, key):
        return ("missing", key)


class Quiet(dict):
    """A subclass that overrides nothing lookups use: the index answers for it."""


class Bag:
    def __init__(self, keys):
        self.keys = set(keys)

    def __contains__(self, key):
        return key in self.keys

    def __getitem__(self, key):
        return len(key)


VOCABS = {
    "OrderedDict": lambda: collections.OrderedDict((k, i) for i, k in enumerate(KEYS)),
    "dict subclass": lambda: Quiet((k, i) for i, k in enumerate(KEYS)),
    "__contains__": lambda: Contains((k, i) for i, k in enumerate(KEYS)),
    "__getitem__": lambda: Items((k, i) for i, k in enumerate(KEYS)),
    "__missing__": lambda: Missing((k, i) for i, k in enumerate(KEYS)),
    "set": lambda: set(KEYS),
    "list": lambda: list(KEYS),
    "str": lambda: "".join(KEYS),
    "__contains__ object": lambda: Bag(KEYS),
    "None": lambda: None,
}


@pytest.mark.parametrize("name", VOCABS)
def test_every_kind_of_vocabulary_behind_an_attribute_answers_as_cpython(name):
    agree(VOCABS[name], WORDS)
    assert vars(JitPieces)["tokenize"].signatures              # the jitted method ran compiled


def test_the_probes_are_views_and_an_ordered_dict_gets_the_native_index():
    from moshjit.runtime import moshjit_text
    agree(VOCABS["OrderedDict"], "abc")
    code = vars(JitPieces)["tokenize"].inspect_code()
    assert "mj_view_in_dict(" in code and "mj_view_slice(" in code and "join" not in code.split("def tokenize")[1]
    moshjit_text.forget_vocab_indexes()
    vocab = VOCABS["OrderedDict"]()
    JitPieces(vocab).tokenize(WORDS * 4)
    assert moshjit_text.vocab_indexes() >= 1
    assert "mj_dict_getitem_str(" in vars(JitPieces)["word_ids"].inspect_code()


class Loud(str):
    def __eq__(self, other):
        return str.__eq__(self.lower(), str(other).lower())

    def __hash__(self):
        return hash(self.lower())


def test_str_subclass_keys_and_probes_answer_as_cpython():
    def tricky():
        vocab = collections.OrderedDict((k, i) for i, k in enumerate(KEYS))
        vocab[Loud("XY")] = 99
        return vocab
    agree(tricky, WORDS + " xy XY")
    for cls in (Pieces, JitPieces):
        assert outcome(cls(tricky()).contains, [Loud("AB"), Loud("zz"), "xy"]) == \
            outcome(Pieces(tricky()).contains, [Loud("AB"), Loud("zz"), "xy"])


class Growing(Pieces):
    """The vocabulary changes, and is rebound, while the jitted method runs (through a plain helper)."""

    def tokenize(self, text):
        out = []
        for i, word in enumerate(text.split()):
            chars = list(word)
            end = len(chars)
            while end > 0:
                if "".join(chars[0:end]) in self.vocab:
                    out.append(end)
                    break
                end -= 1
            change(self, word, i)
        return out


def change(tokenizer, word, i):
    if i % 37 == 5:
        tokenizer.vocab[word] = i
    elif i % 53 == 7:
        tokenizer.vocab.pop("ab", None)
    elif i % 101 == 50:
        tokenizer.vocab = collections.OrderedDict(tokenizer.vocab)


JitGrowing = jitted_copy(Growing, Pieces)


def test_a_vocabulary_changed_or_rebound_mid_run_answers_as_cpython():
    text = " ".join(ALPHABET[i % 6] + ALPHABET[(i // 6) % 6] + "x" * (i % 3) for i in range(700))
    expected, got = VOCABS["OrderedDict"](), VOCABS["OrderedDict"]()
    plain, jitted = Growing(expected), JitGrowing(got)
    assert outcome(jitted.tokenize, text) == outcome(plain.tokenize, text)
    assert jitted.vocab == plain.vocab


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet=ALPHABET, min_size=1, max_size=8), max_size=30),
       st.sets(st.text(alphabet=ALPHABET + "#", min_size=1, max_size=5), max_size=30),
       st.sampled_from(["OrderedDict", "dict subclass", "__missing__", "set"]))
def test_random_vocabularies_of_every_kind(words, keys, kind):
    ordered = sorted(keys) + ["[UNK]"]
    make = {"OrderedDict": lambda: collections.OrderedDict((k, i) for i, k in enumerate(ordered)),
            "dict subclass": lambda: Quiet((k, i) for i, k in enumerate(ordered)),
            "__missing__": lambda: Missing((k, i) for i, k in enumerate(ordered)),
            "set": lambda: set(ordered)}[kind]
    agree(make, " ".join(words * 3))

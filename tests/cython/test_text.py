"""Str views and the guarded native dict index (``backends/cython/text.py``, ``runtime/moshjit_text.pyx``),
differentially against CPython: WordPiece-style probing of slices, prefixes, escapes and their identities; dicts
with str-subclass or non-str keys, str-subclass probes, dicts mutated between and during calls."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from tests.cython.agree import jitted, same

PREFIX = "##"


def longest_match(text, vocab):
    """Greedy longest-match-first pieces of every word, as WordPiece does (``None`` for an unmatched word)."""
    out = []
    for word in text.split():
        pieces = []
        start = 0
        while start < len(word):
            end = len(word)
            piece = ""
            while start < end:
                candidate = word[start:end]
                if start > 0:
                    candidate = PREFIX + candidate
                if candidate in vocab:
                    piece = candidate
                    break
                end -= 1
            if not piece:
                pieces = None
                break
            pieces.append(piece)
            start = end
        out.append(pieces)
    return out


def ids_of(text, vocab):
    unknown = vocab["[UNK]"]
    return [vocab.get(token, unknown) for token in text.split()]


def lookup(key, vocab):
    """Every kind of lookup of one key: in, not in, get with and without default, subscript."""
    found = (key in vocab, key not in vocab, vocab.get(key), vocab.get(key, -1))
    return found + (vocab[key],) if key in vocab else found


def lookups(text, vocab):
    return [lookup(key, vocab) for key in text.split()]


def subscript_everything(text, vocab):
    return [vocab[key] for key in text.split()]


def probe_and_mutate(text, vocab):
    """Probes interleaved with changes to the dict being probed."""
    out = []
    for i, key in enumerate(text.split()):
        out.append(key in vocab)
        out.append(vocab.get(key, -1))
        if i % 97 == 50:                       # rare enough that the native index is built in between
            vocab[key + "x"] = i
        elif i % 131 == 70 and key in vocab:
            del vocab[key]
        elif i % 173 == 0:
            vocab[key] = -i
    return out


def slice_identities(word, vocab):
    """Which escaped slices are the very objects CPython would give (the whole word, one character)."""
    whole = word[0:len(word)]
    found = []
    for end in range(len(word), 0, -1):
        candidate = word[0:end]
        if candidate in vocab:
            found.append(candidate)
            break
    return whole is word, [f is word for f in found], found


def shared_escape(word, vocab):
    """A slice that escapes twice must stay one object, as in CPython."""
    candidate = word[1:]
    if candidate in vocab:
        return [candidate, candidate]
    return []


def bounds(word, vocab, a, b):
    return [word[a:b] in vocab, word[a:] in vocab, word[:b] in vocab, "#" + word[a:b] in vocab]


ALPHABET = "abcé漢😀"
VOCAB = {token: i for i, token in enumerate(
    ["[UNK]", "a", "b", "c", "ab", "abc", "##a", "##b", "##c", "##bc", "é", "##é", "漢", "##漢", "😀", "##😀",
     "a😀", "##ca", "cab", "##abc"])}


def test_the_wordpiece_candidate_is_a_view_that_escapes_once():
    tokenize = jitted(longest_match)
    assert tokenize("abc", VOCAB) == longest_match("abc", VOCAB)
    code = tokenize.inspect_code()
    assert "mj_view_in_dict(" in code and "mj_view_slice(" in code and "mj_view_prefixed(" in code


def test_probes_of_every_kind_of_str_agree_and_the_native_index_is_used():
    from moshjit.runtime import moshjit_text
    words = ["".join(ALPHABET[(i * 7 + j) % len(ALPHABET)] for j in range(i % 6 + 1)) for i in range(400)]
    words += ["ab😀", "😀a", "abcabc", "x" * 40]
    same(longest_match, " ".join(words), dict(VOCAB))
    tokens = [t for pieces in longest_match(" ".join(words), VOCAB) if pieces for t in pieces]
    text = " ".join(tokens + ["zz", "é", "a😀"])
    vocab = dict(VOCAB)
    moshjit_text.forget_vocab_indexes()
    assert moshjit_text.vocab_indexes() == 0
    same(ids_of, text, vocab)
    assert moshjit_text.vocab_indexes() >= 1          # the native index was built and served these probes
    same(lookups, text, vocab)
    assert "mj_str_in_dict(" in jitted(lookups).inspect_code()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet=ALPHABET, min_size=1, max_size=8), max_size=40),
       st.sets(st.text(alphabet=ALPHABET + "#", min_size=1, max_size=5), max_size=30))
def test_longest_match_on_random_vocabularies(words, keys):
    vocab = {key: i for i, key in enumerate(sorted(keys))}
    same(longest_match, " ".join(words * 4), vocab)


class Loud(str):
    """A str subclass whose equality and hash differ from str's."""

    def __eq__(self, other):
        return str.__eq__(self.lower(), str(other).lower())

    def __hash__(self):
        return hash(self.lower())


def test_dicts_with_str_subclass_or_non_str_keys_answer_as_cpython():
    words = " ".join(["ab", "AB", "a", "b", "c", "abc", "xy", "XY", "##xy"] * 40)
    tricky = dict(VOCAB)
    tricky[Loud("XY")] = 99                       # "xy" finds it: hash("xy") and Loud.__eq__ say so
    assert "xy" in tricky
    same(longest_match, words, tricky)
    same(lookups, words, tricky)
    mixed = dict(VOCAB)
    mixed[1] = "one"
    mixed[(2, "ab")] = "pair"
    same(lookups, words, mixed)


def test_str_subclass_probes_answer_as_cpython():
    vocab = dict(VOCAB)
    for key in ["ab", "A", "zz"] * 50 + [Loud("A"), Loud("AB"), Loud("zz")] * 50:
        same(lookup, key, vocab)
    assert "mj_str_in_dict(" in jitted(lookup).inspect_code(("str", "dict"))


def test_a_dict_mutated_during_the_run_answers_as_cpython():
    keys = " ".join(ALPHABET[i % 6] + ALPHABET[(i // 6) % 6] for i in range(600))
    expected_vocab, got_vocab = dict(VOCAB), dict(VOCAB)
    expected = probe_and_mutate(keys, expected_vocab)
    assert jitted(probe_and_mutate)(keys, got_vocab) == expected
    assert got_vocab == expected_vocab


def test_a_dict_mutated_between_calls_and_a_new_dict_are_seen():
    tokens = " ".join(["a", "ab", "zz", "##a", "new"] * 100)
    vocab = dict(VOCAB)
    same(ids_of, tokens, vocab)
    vocab["new"] = 1234
    del vocab["ab"]
    same(ids_of, tokens, vocab)
    vocab["ab"] = 7                              # back in, with another value
    same(ids_of, tokens, vocab)
    for round_ in range(3):                      # fresh dicts, possibly at the address of a freed one
        fresh = {key: value + round_ for key, value in VOCAB.items()}
        same(ids_of, tokens, fresh)
        del fresh


def grow(vocab, key, i):
    """A plain Python helper the jitted function calls: the dict changes while the compiled call runs."""
    vocab[key + "x"] = i


def probe_with_callback(text, vocab, every):
    out = []
    for i, key in enumerate(text.split()):
        out.append(vocab.get(key, -1))
        if i % every == every - 1:
            grow(vocab, key, i)
    return out


MUTATIONS = [                                # every way CPython's dict API changes a dict, one at a time
    ("setitem new", lambda d: d.__setitem__("new", 1)),
    ("setitem other value", lambda d: d.__setitem__("a", -5)),
    ("delitem", lambda d: d.__delitem__("ab")),
    ("pop", lambda d: d.pop("abc")),
    ("popitem", lambda d: d.popitem()),
    ("setdefault", lambda d: d.setdefault("zz", 9)),
    ("update", lambda d: d.update({"a": 100, "##a": 101})),
    ("|=", lambda d: d.__ior__({"b": 102})),
    ("__init__", lambda d: d.__init__({"c": 103})),
    ("clear", lambda d: d.clear()),
    ("clear then refill", lambda d: (d.clear(), d.update(VOCAB))),
]


@pytest.mark.parametrize("name, mutate", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_every_kind_of_mutation_between_calls_is_seen(name, mutate):
    """The native index is guarded by the dict's version tag (``ma_version_tag``: 3.11, and still maintained,
    deprecated, by 3.12 and 3.13 — see ``moshjit.cpython``): an index built before the change must not answer."""
    from moshjit.runtime import moshjit_text
    tokens = " ".join((list(VOCAB) + ["new", "zz", "missing"]) * 20)
    expected_vocab, got_vocab = dict(VOCAB), dict(VOCAB)
    moshjit_text.forget_vocab_indexes()
    lookup_all = jitted(lookups)
    assert lookup_all(tokens, got_vocab) == lookups(tokens, expected_vocab)
    assert moshjit_text.vocab_indexes() >= 1          # the index exists and would answer if unguarded
    mutate(expected_vocab)
    mutate(got_vocab)
    assert got_vocab == expected_vocab
    assert lookup_all(tokens, got_vocab) == lookups(tokens, expected_vocab)


@pytest.mark.parametrize("every", [1, 7, 300])
def test_a_dict_mutated_by_a_callee_during_the_call_answers_as_cpython(every):
    from moshjit.runtime import moshjit_text
    tokens = " ".join(ALPHABET[i % 6] + ALPHABET[(i // 6) % 6] for i in range(900))
    tokens += " " + " ".join(f"{ALPHABET[i % 6]}{ALPHABET[(i // 6) % 6]}x" for i in range(900))
    expected_vocab, got_vocab = dict(VOCAB), dict(VOCAB)
    moshjit_text.forget_vocab_indexes()
    expected = probe_with_callback(tokens, expected_vocab, every)
    assert jitted(probe_with_callback)(tokens, got_vocab, every) == expected
    assert got_vocab == expected_vocab


def ids_between_counts(text, vocab):
    """Ids of the tokens, each probe of the vocabulary followed by updates of four counters: dicts that change at
    every probe."""
    out = []
    counters = [{}, {}, {}, {}]
    for token in text.split():
        out.append(vocab.get(token, -1))
        for counts in counters:
            if token in counts:
                counts[token] += 1
            else:
                counts[token] = 1
    return out, counters


def ids_between_rows(text, vocab, rows, field):
    """Ids of the tokens, each probe of the vocabulary followed by reads of small dicts met once each (rows)."""
    out = []
    for i, token in enumerate(text.split()):
        out.append(vocab.get(token, -1))
        for row in rows[4 * i:4 * i + 4]:
            out.append(row[field])
    return out


TOKENS = " ".join((list(VOCAB) + ["zz", "missing"]) * 20)


def test_counters_changed_at_every_probe_leave_the_vocabularys_index_alone():
    """Four dicts changed between two probes of the vocabulary: each is counted as one candidate for an index,
    whatever its version, so the vocabulary still earns its index and keeps it."""
    from moshjit.runtime import moshjit_text
    moshjit_text.forget_vocab_indexes()
    same(ids_between_counts, TOKENS, dict(VOCAB))
    assert moshjit_text.vocab_indexes() == 1          # the vocabulary's; the counters never settle
    assert "mj_str_in_dict(" in jitted(ids_between_counts).inspect_code()


def test_dicts_met_once_each_leave_the_vocabularys_index_alone():
    """Rows of a table read once each between two probes of the vocabulary never push its index out."""
    from moshjit.runtime import moshjit_text
    moshjit_text.forget_vocab_indexes()
    rows = [{"count": i, "other": -i} for i in range(4 * len(TOKENS.split()))]
    same(ids_between_rows, TOKENS, dict(VOCAB), rows, "count")
    assert moshjit_text.vocab_indexes() == 1
    assert "mj_dict_getitem_str(" in jitted(ids_between_rows).inspect_code()


def test_a_missing_key_raises_the_dicts_own_key_error():
    vocab = dict(VOCAB)
    same(subscript_everything, " ".join(["a", "b"] * 100), vocab)
    assert same(subscript_everything, " ".join(["a"] * 100 + ["nope"]), vocab)[:2] == ("raise", KeyError)


def test_escaped_views_are_the_objects_cpython_gives():
    vocab = {"abc": 1, "a": 2, "bc": 3, "c": 4}
    for word in ["abc", "ab", "a", "xyz", "é", "😀😀", ""]:
        same(slice_identities, word, vocab)
        same(shared_escape, word, vocab)
    assert "mj_view_str(" not in jitted(shared_escape).inspect_code()     # two escapes: kept a str


@pytest.mark.parametrize("a,b", [(0, 2), (-2, 10), (1, -1), (5, 1), (-100, 100), (3, 3)])
def test_slice_bounds_as_cpython_adjusts_them(a, b):
    vocab = {"ab": 1, "b": 2, "c": 3, "#b": 4, "abc": 5, "bc": 6, "#": 7}
    for word in ["abc", "a😀bc", "", "b"]:
        same(bounds, word, vocab, a, b)


def pieces_with_types(text, vocab):
    """The accepted pieces, each with its type (a str, never a subclass or a view)."""
    return [[(piece, type(piece)) for piece in pieces] if pieces else pieces
            for pieces in longest_match(text, vocab)]


def test_an_accepted_piece_is_the_key_its_probe_found():
    """Where CPython builds a new str for an accepted piece, the compiled code gives the dict's equal key (an exact
    str with its hash computed: the data model allows any existing equal immutable object); where CPython gives
    a particular object (the whole word, a one-character str) it gives that one."""
    from moshjit.runtime import moshjit_text
    vocab = {key: i for i, key in enumerate(["[UNK]", "un", "##aff", "##able", "able", "a", "##b", "b", "é漢",
                                             "##漢😀", "漢"])}
    words = " ".join(["unaffable", "able", "b", "ab", "é漢漢😀", "漢"] * 40)
    moshjit_text.forget_vocab_indexes()
    assert jitted(longest_match)(words, vocab) == longest_match(words, vocab)     # builds the index
    keys = {key: key for key in vocab}
    got = jitted(longest_match)(words, vocab)
    assert got == longest_match(words, vocab)
    pieces = [piece for word in got for piece in word]
    assert all(piece is keys[piece] for piece in pieces if piece in ("un", "##aff", "##able", "##b", "é漢", "##漢😀"))
    assert all(type(piece) is str for piece in pieces)
    previous = moshjit_text.enable_found_keys(False)
    try:
        fresh = [piece for word in jitted(longest_match)(words, vocab) for piece in word]
    finally:
        moshjit_text.enable_found_keys(previous)
    assert fresh == pieces and not any(piece is keys[piece] for piece in fresh if len(piece) > 1 and piece != "able")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet=ALPHABET + "\u0301\x00 ", min_size=1, max_size=8), max_size=30),
       st.sets(st.text(alphabet=ALPHABET + "#\u0301", min_size=1, max_size=5), max_size=30))
def test_accepted_pieces_equal_cpythons_after_the_dict_changes(words, keys):
    """Pieces given as found keys are equal to CPython's and exact strs, also once the key's dict has changed
    (the found key is held, never borrowed from the dict) and for str-subclass keys."""
    vocab = {key: i for i, key in enumerate(sorted(keys))}
    text = " ".join(words * 3)
    same(pieces_with_types, text, vocab)
    for key in sorted(keys)[::2]:
        del vocab[key]
    same(pieces_with_types, text, vocab)
    vocab.update({Loud(key.upper()): -1 for key in sorted(keys)[1::3]})
    same(pieces_with_types, text, vocab)

"""Unit tests of each function of the plain-Python BERT pipeline (examples, invariants, hypothesis)."""
import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.bert import pipeline as bp

SETTINGS = settings(max_examples=150, deadline=None)
ids_lists = st.lists(st.integers(min_value=0, max_value=30521), max_size=40)
TOY_VOCAB = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4, "un": 5, "##aff": 6, "##able": 7,
             "a": 8, "##a": 9, "runn": 10, "##ing": 11, "run": 12}
ALL_CHARACTERS = [chr(cp) for cp in range(sys.maxunicode + 1)]


# --- character classes ---------------------------------------------------------------------------------------

def test_whitespace_is_pythons_isspace_once_control_characters_are_gone():
    for ch in ALL_CHARACTERS:
        if not bp.is_control(ch):
            assert bp.is_whitespace(ch) == ch.isspace(), hex(ord(ch))


@pytest.mark.parametrize("ch", [" ", "\t", "\n", "\r", "\u00a0", "\u3000", "\u2028", "\u2029", "\u202f"])
def test_whitespace_examples(ch):
    assert bp.is_whitespace(ch)


@pytest.mark.parametrize("ch", ["a", "\u200b", "\x0b", "_", "\u180e"])
def test_not_whitespace_examples(ch):
    assert not bp.is_whitespace(ch)


@pytest.mark.parametrize("ch,expected", [
    ("\t", False), ("\n", False), ("\r", False), ("a", False), (" ", False),
    ("\x00", True), ("\x07", True), ("\x85", True), ("\u200b", True), ("\u00ad", True), ("\ufeff", True),
    ("\ue000", True), ("\U000f0000", True), ("\ud800", True),   # Cc, Cf, Co and Cs are dropped ...
    ("\u0378", False), ("\U000e0080", False),                 # ... unassigned code points (Cn) are kept
])
def test_control(ch, expected):
    assert bp.is_control(ch) == expected


def test_control_is_exactly_cc_cf_co_cs_except_tab_and_newlines():
    for ch in ALL_CHARACTERS:
        expected = unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") and ch not in "\t\n\r"
        assert bp.is_control(ch) == expected, hex(ord(ch))


def test_ascii_punctuation_is_every_printable_non_alphanumeric():
    for cp in range(128):
        ch = chr(cp)
        assert bp.is_punctuation(ch) == (ch.isprintable() and not ch.isalnum() and ch != " "), repr(ch)


@pytest.mark.parametrize("ch,expected", [
    ("¿", True), ("«", True), ("—", True), ("、", True), ("。", True), ("؟", True),   # Unicode P* categories
    ("€", False), ("©", False), ("±", False), ("é", False), ("5", False), ("中", False),
])
def test_unicode_punctuation(ch, expected):
    assert bp.is_punctuation(ch) == expected


@pytest.mark.parametrize("cp,expected", [
    (0x4E00, True), (0x9FFF, True), (0x4DFF, False), (0x3400, True), (0x4DBF, True), (0x20000, True),
    (0x2A6DF, True), (0x2A6E0, False), (0x2B820, True), (0x2CEAF, True), (0xF900, True), (0x2FA1F, True),
    (0x3042, False), (0x30A2, False), (0xAC00, False), (ord("a"), False),   # kana and hangul are not CJK here
])
def test_cjk(cp, expected):
    assert bp.is_cjk(cp) == expected


# --- text stages -----------------------------------------------------------------------------------------------

def test_clean_text_drops_control_nul_and_replacement_and_normalises_whitespace():
    assert bp.clean_text("a\x00b\ufffdc\x07d\u200be\tf\u3000g\u2028h\ri\nj") == "abcde f g h i j"


@SETTINGS
@given(st.text())
def test_clean_text_leaves_only_plain_spaces_and_no_control(text):
    cleaned = bp.clean_text(text)
    assert not any(bp.is_control(ch) or (bp.is_whitespace(ch) and ch != " ") for ch in cleaned)
    assert "\x00" not in cleaned and "\ufffd" not in cleaned
    assert bp.clean_text(cleaned) == cleaned


def test_tokenize_cjk_spaces_ideographs_only():
    assert bp.tokenize_cjk("我爱ab東京ひらがな") == " 我  爱 ab 東  京 ひらがな"


def test_strip_accents():
    assert bp.strip_accents("crème brûlée, naïve, Ångström, ñ") == "creme brulee, naive, Angstrom, n"
    assert bp.strip_accents("ﬁ ½ ㈱") == "ﬁ ½ ㈱"   # NFD, not NFKD: compatibility characters stay


@SETTINGS
@given(st.text())
def test_strip_accents_leaves_no_nonspacing_mark_and_is_idempotent(text):
    stripped = bp.strip_accents(text)
    assert not any(unicodedata.category(ch) == "Mn" for ch in stripped)
    assert bp.strip_accents(stripped) == stripped


def test_split_on_punctuation():
    assert bp.split_on_punctuation("hello,world!!") == ["hello", ",", "world", "!", "!"]
    assert bp.split_on_punctuation("$5.00") == ["$", "5", ".", "00"]
    assert bp.split_on_punctuation("") == []


@SETTINGS
@given(st.text())
def test_split_on_punctuation_partitions_the_text(text):
    pieces = bp.split_on_punctuation(text)
    assert "".join(pieces) == text
    for piece in pieces:
        assert piece and (len(piece) == 1 or not any(bp.is_punctuation(ch) for ch in piece))


def test_split_on_special_tokens_finds_tokens_anywhere():
    pieces = bp.split_on_special_tokens("a[MASK]b [SEP][SEP]c[mask]", bp.SPECIAL_TOKENS)
    assert pieces == ["a", "[MASK]", "b ", "[SEP]", "[SEP]", "c[mask]"]
    assert bp.split_on_special_tokens("", bp.SPECIAL_TOKENS) == []
    assert bp.split_on_special_tokens("plain", ()) == ["plain"]


def test_split_on_special_tokens_prefers_the_longest_token_at_a_position():
    assert bp.split_on_special_tokens("x<a><ab>", ("<a", "<ab>", "<a>")) == ["x", "<a>", "<ab>"]


@SETTINGS
@given(st.lists(st.sampled_from(["[MASK]", "[CLS]", "[", "]", "MASK", "a", " ", "[SEP]x"]), max_size=12))
def test_split_on_special_tokens_partitions_the_text(parts):
    text = "".join(parts)
    pieces = bp.split_on_special_tokens(text, bp.SPECIAL_TOKENS)
    assert "".join(pieces) == text and all(pieces)
    for piece in pieces:
        assert piece in bp.SPECIAL_TOKENS or not any(token in piece for token in bp.SPECIAL_TOKENS)


def test_basic_tokenize():
    text = "Héllo,  WORLD!\tfoo[MASK]bar 東京 ΟΔΟΣ"
    assert bp.basic_tokenize(text, bp.SPECIAL_TOKENS) == [
        "hello", ",", "world", "!", "foo", "[MASK]", "bar", "東", "京", "οδος"]
    assert bp.basic_tokenize("[MASK]", ()) == ["[", "mask", "]"]
    assert bp.basic_tokenize(" \t\x00 ", bp.SPECIAL_TOKENS) == []


# --- WordPiece ----------------------------------------------------------------------------------------------

def test_wordpiece_is_greedy_longest_match_first():
    assert bp.wordpiece("unaffable", TOY_VOCAB, "[UNK]", 100) == ["un", "##aff", "##able"]
    assert bp.wordpiece("running", TOY_VOCAB, "[UNK]", 100) == ["runn", "##ing"]
    assert bp.wordpiece("aaa", TOY_VOCAB, "[UNK]", 100) == ["a", "##a", "##a"]


def test_wordpiece_gives_unk_for_the_whole_word_when_a_part_is_missing():
    assert bp.wordpiece("unaffablex", TOY_VOCAB, "[UNK]", 100) == ["[UNK]"]
    assert bp.wordpiece("xa", TOY_VOCAB, "[UNK]", 100) == ["[UNK]"]


def test_wordpiece_max_chars():
    assert bp.wordpiece("a" * 100, TOY_VOCAB, "[UNK]", 100) == ["a"] + ["##a"] * 99
    assert bp.wordpiece("a" * 101, TOY_VOCAB, "[UNK]", 100) == ["[UNK]"]
    assert bp.wordpiece("aaa", TOY_VOCAB, "[UNK]", 2) == ["[UNK]"]


def test_wordpiece_tokenize_with_the_real_vocab(vocab):
    assert bp.wordpiece_tokenize("Embeddings are [MASK]ed!", vocab) == [
        "em", "##bed", "##ding", "##s", "are", "[MASK]", "ed", "!"]
    assert bp.wordpiece_tokenize("x" * 101 + " ok", vocab) == ["[UNK]", "ok"]


@SETTINGS
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=30))
def test_wordpiece_pieces_spell_the_word(vocab, word):
    pieces = bp.wordpiece(word, vocab, "[UNK]", 100)
    if pieces != ["[UNK]"]:
        assert pieces[0] + "".join(piece[2:] for piece in pieces[1:]) == word
        assert all(piece.startswith("##") for piece in pieces[1:]) and not pieces[0].startswith("##")
        assert all(piece in vocab for piece in pieces)


def test_lone_surrogates_are_dropped_like_control_characters(vocab):
    assert bp.wordpiece_tokenize("ab\ud800c \udcff", vocab) == bp.wordpiece_tokenize("abc", vocab)


def test_convert_tokens_to_ids():
    assert bp.convert_tokens_to_ids(["un", "##aff", "zzz", "[SEP]"], TOY_VOCAB) == [5, 6, 1, 3]


def test_load_vocab(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("[PAD]\n[UNK]\nhello\n##s\n", encoding="utf-8")
    assert bp.load_vocab(path) == {"[PAD]": 0, "[UNK]": 1, "hello": 2, "##s": 3}


# --- the four numeric helpers -----------------------------------------------------------------------------

@SETTINGS
@given(ids_lists, ids_lists, st.integers(min_value=0, max_value=90))
def test_truncate_pair_invariants(ids_a, ids_b, max_tokens):
    cut_a, cut_b = bp.truncate_pair(ids_a, ids_b, max_tokens)
    assert cut_a == ids_a[:len(cut_a)] and cut_b == ids_b[:len(cut_b)]
    assert len(cut_a) + len(cut_b) == min(len(ids_a) + len(ids_b), max_tokens)
    shorter, cut_shorter = (ids_a, cut_a) if len(ids_a) <= len(ids_b) else (ids_b, cut_b)
    assert len(cut_shorter) == min(len(shorter), max_tokens // 2) or len(ids_a) + len(ids_b) <= max_tokens
    assert cut_a is not ids_a and cut_b is not ids_b


def test_truncate_pair_examples():
    assert bp.truncate_pair([1] * 10, [2] * 10, 7) == ([1] * 3, [2] * 4)    # tie: the second gets the odd one
    assert bp.truncate_pair([1] * 6, [2] * 5, 7) == ([1] * 4, [2] * 3)      # the longer gets the odd one
    assert bp.truncate_pair([1] * 2, [2] * 9, 7) == ([1] * 2, [2] * 5)      # the short one is kept whole
    assert bp.truncate_pair([1] * 9, [], 4) == ([1] * 4, [])
    assert bp.truncate_pair([1, 2], [3], 5) == ([1, 2], [3])


@SETTINGS
@given(ids_lists, st.integers(min_value=0, max_value=60), st.integers(min_value=0, max_value=5))
def test_pad(ids, length, pad_id):
    padded = bp.pad(ids, length, pad_id)
    assert len(padded) == max(len(ids), length)
    assert padded[:len(ids)] == ids and set(padded[len(ids):]) <= {pad_id}
    assert padded is not ids


@SETTINGS
@given(st.integers(min_value=0, max_value=60), st.integers(min_value=0, max_value=60))
def test_attention_mask(n_tokens, extra):
    mask = bp.build_attention_mask(n_tokens, n_tokens + extra)
    assert mask == [1] * n_tokens + [0] * extra


@SETTINGS
@given(st.integers(min_value=0, max_value=60), st.integers(min_value=0, max_value=60))
def test_token_type_ids(first, second):
    types = bp.build_token_type_ids(first, second)
    assert len(types) == first + second and sum(types) == second and types == sorted(types)


# --- encoding ------------------------------------------------------------------------------------------------

def test_encode_and_encode_pair_layout(vocab):
    single = bp.encode("Hello world", vocab, pad_to=6)
    assert single == {"input_ids": [101, 7592, 2088, 102, 0, 0], "token_type_ids": [0] * 6,
                      "attention_mask": [1, 1, 1, 1, 0, 0]}
    pair = bp.encode_pair("Hello", "world", vocab)
    assert pair == {"input_ids": [101, 7592, 102, 2088, 102], "token_type_ids": [0, 0, 0, 1, 1],
                    "attention_mask": [1] * 5}
    assert bp.encode_pair("hello", "", vocab)["input_ids"] == [101, 7592, 102, 102]


def test_encode_refuses_a_max_length_without_room_for_special_tokens(vocab):
    with pytest.raises(ValueError, match="max_length=1 is too small"):
        bp.encode("hello", vocab, max_length=1)
    with pytest.raises(ValueError, match="3 special tokens"):
        bp.encode_pair("a", "b", vocab, max_length=2)
    assert bp.encode("hello world", vocab, max_length=2)["input_ids"] == [101, 102]


words = st.lists(st.sampled_from(["hello", "world", "embeddings", "東京", ",", "Ωμέγα", "[MASK]", "don't"]),
                 max_size=30).map(" ".join)


@SETTINGS
@given(words, words, st.integers(min_value=3, max_value=40), st.integers(min_value=0, max_value=50))
def test_encode_pair_invariants(vocab, text_a, text_b, max_length, pad_to):
    encoding = bp.encode_pair(text_a, text_b, vocab, max_length=max_length, pad_to=pad_to)
    unpadded = bp.encode_pair(text_a, text_b, vocab, max_length=max_length)
    n_tokens = len(unpadded["input_ids"])
    assert n_tokens <= max_length
    assert len(encoding["input_ids"]) == len(encoding["token_type_ids"]) == len(encoding["attention_mask"])
    assert len(encoding["input_ids"]) == max(n_tokens, pad_to)
    assert encoding["input_ids"][:n_tokens] == unpadded["input_ids"]
    assert sum(encoding["attention_mask"]) == n_tokens
    ids = unpadded["input_ids"]
    assert ids[0] == vocab["[CLS]"] and ids[-1] == vocab["[SEP]"]
    first_length = unpadded["token_type_ids"].count(0)
    assert ids[first_length - 1] == vocab["[SEP]"]


@SETTINGS
@given(st.lists(st.one_of(words, st.tuples(words, words)), max_size=8), st.integers(min_value=3, max_value=30))
def test_encode_batch_pads_rows_to_the_longest(vocab, items, max_length):
    batch = bp.encode_batch(items, vocab, max_length=max_length)
    longest = max([len(row) for row in batch["input_ids"]], default=0)
    for row, item in enumerate(items):
        if isinstance(item, str):
            expected = bp.encode(item, vocab, max_length=max_length, pad_to=longest)
        else:
            expected = bp.encode_pair(item[0], item[1], vocab, max_length=max_length, pad_to=longest)
        assert {key: batch[key][row] for key in batch} == expected
    unpadded = bp.encode_batch(items, vocab, max_length=max_length, pad_to_longest=False)
    assert all(0 not in row for row in unpadded["attention_mask"])


def test_preprocessor_wraps_the_functions(vocab, tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("".join(token + "\n" for token in sorted(vocab, key=vocab.get)), encoding="utf-8")
    preprocessor = bp.BertPreprocessor.from_file(path, max_length=8)
    text = "The quick brown fox jumps over the lazy dog"
    assert preprocessor.tokenize(text) == bp.wordpiece_tokenize(text, vocab)
    assert preprocessor.encode(text, pad_to=10) == bp.encode(text, vocab, 8, 10)
    assert preprocessor.encode_pair(text, "dog", pad_to=9) == bp.encode_pair(text, "dog", vocab, 8, 9)
    assert preprocessor.encode_batch([text, ("a", "b")]) == bp.encode_batch([text, ("a", "b")], vocab, 8)

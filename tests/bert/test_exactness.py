"""Exactness of the plain-Python pipeline against HuggingFace ``tokenizers`` (the Rust BERT tokenizer).

On the shipped corpus slice and on generated text, the pipeline's outputs must equal the reference's, except
for differences that ``verify.DifferenceExplainer`` attributes by rule to a documented cause (docs/bert.md).
"""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.bert import pipeline as bp
from benchmarks.bert import verify

SETTINGS = settings(max_examples=200, deadline=None)


def test_slice_singles_equal_the_reference(vocab, slice_lines, explainer):
    expected = verify.reference_tokenizer(vocab).encode_batch(slice_lines)
    unexplained = []
    for line, encoding in zip(slice_lines, expected):
        if bp.encode(line, vocab, max_length=None)["input_ids"] != encoding.ids:
            if not explainer.explain_difference(line):
                unexplained.append(line)
    assert unexplained == []


@pytest.mark.parametrize("max_length", [16, 64])
def test_slice_pairs_truncated_and_padded_equal_the_reference(vocab, slice_lines, explainer, max_length):
    reference = verify.reference_tokenizer(vocab, max_length=max_length, pad_to=max_length)
    pairs = list(zip(slice_lines[::2], slice_lines[1::2]))
    for (text_a, text_b), encoding in zip(pairs, reference.encode_batch(pairs)):
        ours = bp.encode_pair(text_a, text_b, vocab, max_length=max_length, pad_to=max_length)
        if ours != verify.as_dict(encoding):
            assert explainer.explain_difference(text_a) or explainer.explain_difference(text_b)


def test_slice_batches_equal_the_reference(vocab, slice_lines, explainer):
    reference = verify.reference_tokenizer(vocab, max_length=48, pad_to_longest=True)
    items = [line if index % 3 else (line, slice_lines[index - 1]) for index, line in enumerate(slice_lines)]
    for start in range(0, len(items), 16):
        batch = items[start:start + 16]
        ours = bp.encode_batch(batch, vocab, max_length=48)
        theirs = [verify.as_dict(encoding) for encoding in reference.encode_batch(batch)]
        if [{key: ours[key][row] for key in ours} for row in range(len(batch))] != theirs:
            texts = [text for item in batch for text in ([item] if isinstance(item, str) else item)]
            assert any(explainer.explain_difference(text) for text in texts)


def test_slice_is_diverse(slice_lines):
    text = "".join(slice_lines)
    assert 200 <= len(slice_lines) <= 1000
    for name, low, high in [("CJK", 0x4E00, 0x9FFF), ("Cyrillic", 0x400, 0x4FF), ("Greek", 0x370, 0x3FF),
                            ("Hangul", 0xAC00, 0xD7A3), ("Arabic", 0x600, 0x6FF), ("accented Latin", 0xC0, 0x17F)]:
        assert any(low <= ord(ch) <= high for ch in text), name
    assert "\t" in text and "\u00a0" in text and any(ord(ch) > 0xFFFF for ch in text)


FRAGMENTS = ["hello", "World", "naïve", "CAFÉ", "Ωμέγα", "ΟΔΟΣ", "Σ", "ς", "Москва", "東京", "ひらがな", "한국어",
             "[MASK]", "[CLS]", "[SEP]", "[PAD]", "[UNK]", "[mask]", "[", "]", "##", "don't", "e.g.", "$5", "3.14",
             " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000", "\u2028", "\x00", "\x07", "\u200b", "\ufffd",
             "\u00ad", "\ue000", "\u0378", "x" * 101, "unaffable", "İstanbul", "ﬁ", "①", "🙂", "\u0301"]
texts = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.characters(exclude_categories=("Cs",))),
                 max_size=25).map("".join)


@SETTINGS
@given(texts)
def test_generated_text_equals_the_reference_or_is_explained(explainer, text):
    if explainer.pipeline_ids(text) != explainer.reference_ids(text):
        assert explainer.explain_difference(text), repr(text)


@pytest.fixture(scope="module")
def configurable_reference(vocab):
    """One reference tokenizer whose truncation and padding each example sets (building one costs ~20 ms)."""
    return verify.reference_tokenizer(vocab)


@SETTINGS
@given(st.lists(st.sampled_from(["a", "b c", "東京", "[SEP]", "unaffable"]), max_size=30).map(" ".join),
       st.lists(st.sampled_from(["d", "e f", "naïve", "[MASK]"]), max_size=30).map(" ".join),
       st.integers(min_value=3, max_value=30), st.integers(min_value=0, max_value=40))
def test_truncation_and_padding_equal_the_reference(vocab, configurable_reference, text_a, text_b, max_length,
                                                    pad_to):
    reference = configurable_reference
    reference.enable_truncation(max_length, strategy="longest_first")
    if pad_to:
        reference.enable_padding(pad_id=vocab[bp.PAD_TOKEN], pad_token=bp.PAD_TOKEN, length=pad_to)
    else:
        reference.no_padding()
    assert bp.encode_pair(text_a, text_b, vocab, max_length, pad_to) == verify.as_dict(
        reference.encode(text_a, text_b))
    assert bp.encode(text_a, vocab, max_length, pad_to) == verify.as_dict(reference.encode(text_a))


@pytest.mark.parametrize("text", [
    "", " \t\n ", "foo[MASK]bar", "[[UNK]]", "[CLS] a [SEP] b", "x" * 100, "x" * 101, "un" + "x" * 99,
    "İSTANBUL ǅ ß ẞ", "A\u030a\u0327 e\u0301", "\u1fef\u037e", "a\u2028b\u2029c\x1cd\x85e",
])
def test_corner_cases_equal_the_reference(explainer, text):
    assert explainer.pipeline_ids(text) == explainer.reference_ids(text)


def test_final_sigma_is_the_documented_lowercasing_difference(explainer):
    text = "ΟΔΟΣ ΟΔΟΣ."
    assert bp.wordpiece_tokenize(text, explainer.vocab)[:4] == ["ο", "##δ", "##ος", "ο"]
    assert explainer.pipeline_ids(text) != explainer.reference_ids(text)
    assert explainer.explain_difference(text) == (verify.FINAL_SIGMA,)


def test_cjk_extension_e_start_is_the_documented_tokenizers_range_difference(explainer):
    text = "ab\U0002B820cd"
    assert bp.wordpiece_tokenize(text, explainer.vocab) == ["ab", "[UNK]", "cd"]
    assert explainer.pipeline_ids(text) != explainer.reference_ids(text)
    assert explainer.explain_difference(text) == (verify.TOKENIZERS_CJK_RANGE,)


@pytest.mark.parametrize("ch", ["\u0890", "\u2e55", "\u1734"])
def test_characters_newer_than_the_rust_tables_are_the_documented_unicode_version_difference(explainer, ch):
    text = "Test " + "x" + ch + "y"
    assert explainer.pipeline_ids(text) != explainer.reference_ids(text)
    assert explainer.explain_difference(text) == (verify.UNICODE_VERSION,)


@pytest.mark.parametrize("cp,reason", [
    (ord("a"), ""), (ord("é"), ""), (0x4E00, ""), (0x1885, verify.UNICODE_VERSION),
    (0x0890, verify.UNICODE_VERSION), (0x2B91F, verify.TOKENIZERS_CJK_RANGE), (0x2B920, ""),
])
def test_character_difference_rules(explainer, cp, reason):
    assert explainer.character_difference(chr(cp)) == reason


@pytest.mark.parametrize("broken,function,text", [
    ("strip_accents", lambda text: text, "Café"),
    ("is_punctuation", lambda ch: ch in "!a", "banana!"),
])
def test_explainer_does_not_excuse_a_real_bug(vocab, monkeypatch, broken, function, text):
    monkeypatch.setattr(bp, broken, function)
    explainer = verify.DifferenceExplainer(vocab)
    assert explainer.pipeline_ids(text) != explainer.reference_ids(text)
    assert explainer.explain_difference(text) == ()

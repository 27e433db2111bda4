"""Google's class-style tokenizer (``benchmarks/bert/google``) jitted as a user would — ``jit(cls)`` on its classes,
``jit`` on its functions, strictly — gives exactly what the unchanged file gives under CPython."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.bert.google import class_style
from tests.bert.conftest import DATA

FRAGMENTS = ["Hello, World!", "naïve café", "東京タワー", "ΟΔΟΣ", "\x00\ufffd\u200b", "\t\n", "unaffable",
             "x" * 201, "$5^2", "İstanbul", "a\u2028b"]


@pytest.fixture(scope="module")
def tokenizers():
    """(plain, jitted) ``FullTokenizer`` on the shipped vocab; the jitted one refuses nothing (strict)."""
    plain = class_style.tokenization_copy("test_google_tokenization_plain")
    jitted = class_style.jitted_tokenization(strict=True)
    vocab_file = str(DATA / "vocab.txt")
    return (plain.FullTokenizer(vocab_file, do_lower_case=True),
            jitted.FullTokenizer(vocab_file, do_lower_case=True))


def test_every_class_and_function_of_the_file_is_jitted():
    from moshjit.dispatcher import DispatcherBase
    module = class_style.jitted_tokenization(strict=True)
    assert isinstance(module._is_punctuation, DispatcherBase)
    assert isinstance(vars(module.BasicTokenizer)["_run_split_on_punc"], DispatcherBase)
    assert isinstance(vars(module.WordpieceTokenizer)["tokenize"], DispatcherBase)


def test_corpus_slice_tokenizes_as_in_cpython(tokenizers, slice_lines):
    plain, jitted = tokenizers
    for line in slice_lines[:60]:
        tokens = plain.tokenize(line)
        assert jitted.tokenize(line) == tokens
        assert jitted.convert_tokens_to_ids(tokens) == plain.convert_tokens_to_ids(tokens)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.characters(exclude_categories=("Cs",))),
                max_size=12).map("".join))
def test_generated_text_tokenizes_as_in_cpython(tokenizers, text):
    plain, jitted = tokenizers
    assert jitted.tokenize(text) == plain.tokenize(text)


def test_bad_input_raises_as_in_cpython(tokenizers):
    plain, jitted = tokenizers
    with pytest.raises(ValueError) as expected:
        plain.tokenize(3)
    with pytest.raises(ValueError) as got:
        jitted.tokenize(3)
    assert str(got.value) == str(expected.value)


def test_the_method_called_per_character_is_inlined_behind_its_guard(tokenizers):
    """``self._is_chinese_char(cp)`` in ``_tokenize_chinese_chars`` (the unchanged public file): its body is
    inlined, the call kept for when the guard finds the method changed."""
    _, jitted = tokenizers
    jitted.tokenize("東京 abc")
    method = vars(type(jitted.basic_tokenizer))["_tokenize_chinese_chars"]
    assert "method_is['_is_chinese_char'" in method.inspect_types(method.signatures[0])

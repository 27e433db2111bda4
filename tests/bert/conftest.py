"""Shared fixtures for the BERT pipeline tests: the shipped vocab (sha256-checked) and corpus slice."""
from pathlib import Path

import pytest

from benchmarks.bert import data, pipeline, verify

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def vocab():
    """The real bert-base-uncased vocab, from the copy shipped in ``tests/bert/data`` (checked by sha256)."""
    path = DATA / "vocab.txt"
    data.check_vocab_bytes(path.read_bytes(), path)
    return pipeline.load_vocab(path)


@pytest.fixture(scope="session")
def slice_lines():
    """The few hundred corpus lines shipped with the tests."""
    return data.read_lines(DATA / "corpus_slice.txt")


@pytest.fixture(scope="session")
def explainer(vocab):
    """The rule-based classifier of documented differences, holding an untruncated reference tokenizer."""
    return verify.DifferenceExplainer(vocab)

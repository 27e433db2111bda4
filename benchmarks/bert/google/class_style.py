"""``encode_batch(texts, vocab)`` over Google's class-style ``FullTokenizer``, plain or with ``moshjit.jit`` applied
as a user would: ``jit(cls)`` on each class of ``tokenization.py`` and ``jit`` on each module-level function of a
fresh copy of the unchanged file.

The batch is built the way ``pipeline.encode_batch`` builds it (``[CLS]`` ids ``[SEP]``, at most 512 ids, rows
padded to the longest); this wrapper is the same plain Python for both engines. Google's tokenizer is not
``pipeline.py``: it keeps words up to 200 characters (the pipeline 100), drops unassigned code points (Cn), treats
only Zs as Unicode whitespace and does not keep ``[CLS]``-like text whole, so a few rows differ from the pipeline;
the jitted engine is checked against the plain one.
"""
import importlib.util
import inspect
import sys
from pathlib import Path

TOKENIZATION = Path(__file__).with_name("tokenization.py")
MAX_LENGTH = 512


def tokenization_copy(module_name):
    """A fresh module executed from the unchanged ``tokenization.py`` (decorating it leaves the original alone)."""
    spec = importlib.util.spec_from_file_location(module_name, TOKENIZATION)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def jitted_tokenization(backend="auto", cache=True, strict=None):
    """A copy of ``tokenization.py`` with ``moshjit.jit`` on every class and function it defines."""
    import moshjit

    module = tokenization_copy(f"bert_google_tokenization_jit_{backend}")
    for name, value in list(vars(module).items()):
        if (inspect.isfunction(value) or inspect.isclass(value)) and value.__module__ == module.__name__:
            setattr(module, name, moshjit.jit(value, backend=backend, cache=cache, strict=strict))
    return module


def batch_encoder(module, vocab_file):
    """``encode_batch(texts, vocab)`` using ``module.FullTokenizer(vocab_file)``; ``vocab`` is ignored (the
    tokenizer holds the one it loaded: the engine checks once that they are equal)."""
    tokenizer = module.FullTokenizer(vocab_file=str(vocab_file), do_lower_case=True)
    cls_id, sep_id, pad_id = tokenizer.convert_tokens_to_ids(["[CLS]", "[SEP]", "[PAD]"])

    def encode_batch(texts, vocab):
        rows = [[cls_id] + tokenizer.convert_tokens_to_ids(tokenizer.tokenize(text))[:MAX_LENGTH - 2] + [sep_id]
                for text in texts]
        longest = max((len(row) for row in rows), default=0)
        return {"input_ids": [row + [pad_id] * (longest - len(row)) for row in rows],
                "token_type_ids": [[0] * longest for _ in rows],
                "attention_mask": [[1] * len(row) + [0] * (longest - len(row)) for row in rows]}
    return encode_batch

"""The engines the BERT benchmark compares, each an ``encode_batch(texts, vocab)`` built as a user would build it.

- ``cpython``: ``pipeline.encode_batch`` as it is;
- ``jit-auto`` / ``jit-cython`` / ``jit-llvm``: a fresh copy of ``pipeline.py`` with ``moshjit.jit(backend=...)``
  applied to every function, as if each one carried ``@jit``;
- ``cython-file``: the unchanged ``pipeline.py`` compiled by Cython (``cythonize_pipeline``);
- ``tokenizers``: HuggingFace's Rust ``BertWordPieceTokenizer`` on one thread, its ``Encoding``s read into the
  pipeline's dict of lists (the same result the others produce);
- ``nanotoken``: the Rust ``nanotoken`` library (loaded from the same tokenizer's JSON), one thread, padded lists;
- ``flash-tokenizer``: the C++ ``flash-tokenizer`` on the same vocab.txt, one process; its segment ids and mask
  are built from its padded ids (it returns ids only). It is not exact on this corpus: it is timed anyway, and
  the table says how many rows differ;
- ``numba``: a copy with ``numba.njit`` on every function; each one Numba refuses goes back to plain Python
  (as a user would remove the decorator), with a short reason, until the rest compiles;
- ``classes-cpython`` / ``classes-jit``: Google's class-style tokenizer (``google/tokenization.py``, unchanged),
  plain and with ``moshjit.jit`` on its classes and functions (``google/class_style.py``). It is not the
  pipeline (a few rows differ), so ``classes-jit`` is checked against ``classes-cpython``.

Building an engine includes its first call on a few sample texts, timed: that is its compile (or cache-load)
time. An engine that cannot run says why in ``unavailable`` instead of raising.
"""
import functools
import importlib.util
import inspect
import os
import re
import sys
import time
import warnings
from dataclasses import dataclass, field

from benchmarks.bert import data, pipeline

ENGINE_NAMES = ("cpython", "jit-auto", "jit-cython", "jit-llvm", "cython-file", "tokenizers", "nanotoken",
                "flash-tokenizer", "numba", "classes-cpython", "classes-jit")
CLASS_ENGINES = ("classes-cpython", "classes-jit")  # checked against classes-cpython, not the pipeline
APPROXIMATE_ENGINES = ("flash-tokenizer",)         # timed even though some rows differ (the table says how many)
LABELS = {
    "cpython": "CPython (plain pipeline.py)",
    "jit-auto": "@jit, backend='auto'",
    "jit-cython": "@jit, backend='cython'",
    "jit-llvm": "@jit, backend='llvm'",
    "cython-file": "Cython on the unchanged .py",
    "tokenizers": "HF tokenizers (Rust, 1 thread)",
    "nanotoken": "nanotoken (Rust, 1 thread)",
    "flash-tokenizer": "flash-tokenizer (C++, 1 process)",
    "numba": "Numba @njit where it compiles",
    "classes-cpython": "CPython, Google's class-style tokenization.py",
    "classes-jit": "jit(cls) on Google's class-style tokenization.py",
}
NUMBA_CACHE_ENV = "NUMBA_CACHE_DIR"


@dataclass
class Engine:
    """One way of running ``encode_batch``; ``run`` is None when the engine is unavailable."""
    name: str
    run: object = None
    unavailable: str = ""
    first_call_s: float = None
    first_call_kind: str = ""          # "compile", "cache hit", "setup", ...
    details: dict = field(default_factory=dict)

    @property
    def label(self):
        return LABELS[self.name]


def pipeline_copy(module_name):
    """A fresh module executed from ``pipeline.py``'s source, so that decorating it leaves the original alone.

    It is registered in ``sys.modules`` under ``module_name`` (replacing an older copy), as an imported module
    would be: Numba's cache looks its functions' module up there.
    """
    spec = importlib.util.spec_from_file_location(module_name, pipeline.__file__)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def module_functions(module):
    """Names of the plain functions defined in ``module`` itself (not imported ones, not methods)."""
    return [name for name, value in vars(module).items()
            if inspect.isfunction(value) and value.__module__ == module.__name__]


def timed_first_call(run, sample, vocab):
    """Seconds taken by ``run(sample, vocab)``."""
    start = time.perf_counter()
    run(sample, vocab)
    return time.perf_counter() - start


def first_line(text, limit=160):
    """The first non-empty line of an error message, shortened."""
    for line in str(text).splitlines():
        if line.strip():
            return line.strip()[:limit]
    return type(text).__name__


# ---------------------------------------------------------------------------------------------------------------
# moshjit
# ---------------------------------------------------------------------------------------------------------------

def jitted_pipeline(backend, cache=True):
    """A pipeline copy with every function replaced by ``moshjit.jit(function, backend=backend)``."""
    import moshjit

    module = pipeline_copy(f"bert_pipeline_jit_{backend}")
    for name in module_functions(module):
        setattr(module, name, moshjit.jit(getattr(module, name), backend=backend, cache=cache))
    return module


def jit_stats(module):
    """``{function name: {signature: stats}}`` for every jitted function of ``module`` that compiled something."""
    from moshjit.dispatcher import DispatcherBase

    return {name: {", ".join(signature): stats for signature, stats in value.stats.items()}
            for name, value in vars(module).items() if isinstance(value, DispatcherBase) and value.stats}


def cache_outcome(stats):
    """"cache hit" if every compiled specialisation came from the disk cache, else "compile"."""
    outcomes = {entry.get("cache") for per_function in stats.values() for entry in per_function.values()}
    return "cache hit" if outcomes == {"hit"} else "compile"


def jit_engine(backend, vocab, sample, cache=True):
    """``@jit(backend=...)`` on every function; an ``UnsupportedError`` at the first call makes it unavailable."""
    from moshjit import UnsupportedError

    name = f"jit-{backend}"
    module = jitted_pipeline(backend, cache)
    try:
        seconds = timed_first_call(module.encode_batch, sample, vocab)
    except UnsupportedError as error:
        return Engine(name, unavailable=f"not available: {first_line(error)}")
    except Exception as error:          # a moshjit bug: report it in the table instead of stopping the benchmark
        return Engine(name, unavailable=f"FAILED to compile: {type(error).__name__}: {first_line(error)}")
    stats = jit_stats(module)
    return Engine(name, module.encode_batch, first_call_s=seconds, first_call_kind=cache_outcome(stats),
                  details={"stats": stats, "module": module})


def later_specializations(engine):
    """Specialisations a jitted engine compiled after its first call, e.g. for a one-character text:
    ``["encode(char, dict, int64, int64): 2.9 s, cache miss"]``."""
    module = engine.details.get("module")
    if module is None:
        return []
    first = engine.details["stats"]
    return [f"{name}({signature}): {stats.get('total_s', 0):.1f} s, cache {stats.get('cache')}"
            for name, per_signature in jit_stats(module).items() for signature, stats in per_signature.items()
            if signature not in first.get(name, {})]


# ---------------------------------------------------------------------------------------------------------------
# Cython on the unchanged file, HuggingFace tokenizers
# ---------------------------------------------------------------------------------------------------------------

def cython_file_engine(vocab, sample):
    """The Cython-compiled ``pipeline.py``; its first-call time is the Cython + C compiler build time."""
    from benchmarks.bert import cythonize_pipeline

    start = time.perf_counter()
    so_path, facts = cythonize_pipeline.ensure_built()
    module = cythonize_pipeline.load(so_path)
    module.encode_batch(sample, vocab)
    if facts["cached"]:
        seconds, kind = time.perf_counter() - start, "cache hit"
    else:
        seconds, kind = facts["cython_s"] + facts["cc_s"], "compile"
    return Engine("cython-file", module.encode_batch, first_call_s=seconds, first_call_kind=kind,
                  details={"build": facts, "path": str(so_path)})


def tokenizers_engine(vocab, sample):
    """HF ``tokenizers`` configured like the pipeline (truncation to 512, padding to the longest row)."""
    if os.environ.get("RAYON_NUM_THREADS") != "1" or os.environ.get("TOKENIZERS_PARALLELISM") != "false":
        raise RuntimeError("set RAYON_NUM_THREADS=1 and TOKENIZERS_PARALLELISM=false before importing tokenizers")
    start = time.perf_counter()
    from benchmarks.bert import verify

    reference = verify.reference_tokenizer(vocab, max_length=pipeline.DEFAULT_MAX_LENGTH, pad_to_longest=True)

    def encode_batch(texts, _vocab):
        encodings = reference.encode_batch(texts)
        return {"input_ids": [encoding.ids for encoding in encodings],
                "token_type_ids": [encoding.type_ids for encoding in encodings],
                "attention_mask": [encoding.attention_mask for encoding in encodings]}

    encode_batch(sample, vocab)
    return Engine("tokenizers", encode_batch, first_call_s=time.perf_counter() - start, first_call_kind="setup")


def nanotoken_engine(vocab, sample):
    """``nanotoken`` loaded from the reference tokenizer's JSON, one thread, padded to the longest row."""
    try:
        import nanotoken
    except ImportError:
        return Engine("nanotoken", unavailable="not installed (pip install nanotoken)")
    start = time.perf_counter()
    from benchmarks.bert import verify

    reference = verify.reference_tokenizer(vocab)
    tokenizer = nanotoken.WordPieceTokenizer.from_json(reference.to_str())
    pad_id = vocab[pipeline.PAD_TOKEN]

    def encode_batch(texts, _vocab):
        out = tokenizer.encode_batch_padded(texts, max_length=pipeline.DEFAULT_MAX_LENGTH, truncation=True,
                                            padding="longest", pad_id=pad_id, as_lists=True, parallel=False)
        return {"input_ids": out["input_ids"], "token_type_ids": out["token_type_ids"],
                "attention_mask": out["attention_mask"]}

    encode_batch(sample, vocab)
    return Engine("nanotoken", encode_batch, first_call_s=time.perf_counter() - start, first_call_kind="setup")


def flash_engine(vocab, sample):
    """``flash-tokenizer`` on the same vocabulary file, without its process pool, padded to the longest row."""
    try:
        from flash_tokenizer import BertTokenizerFlash
    except ImportError:
        return Engine("flash-tokenizer", unavailable="not installed (pip install flash-tokenizer)")
    start = time.perf_counter()
    flash = BertTokenizerFlash(str(data.fetch_vocab()), do_lower_case=True,
                               model_max_length=pipeline.DEFAULT_MAX_LENGTH).tokenizer
    pad_id = vocab[pipeline.PAD_TOKEN]

    def encode_batch(texts, _vocab):
        ids = flash.batch_encode(texts, "longest", pipeline.DEFAULT_MAX_LENGTH, False)
        return {"input_ids": ids, "token_type_ids": [[0] * len(row) for row in ids],
                "attention_mask": [[int(i != pad_id) for i in row] for row in ids]}

    encode_batch(sample, vocab)
    return Engine("flash-tokenizer", encode_batch, first_call_s=time.perf_counter() - start,
                  first_call_kind="setup")


# ---------------------------------------------------------------------------------------------------------------
# Numba
# ---------------------------------------------------------------------------------------------------------------

def sample_arguments(sample, vocab):
    """The arguments each pipeline function first receives when ``encode_batch`` runs on ``sample`` plus a pair."""
    module = pipeline_copy("bert_pipeline_traced")
    samples = {}

    def recorder(name, function):
        @functools.wraps(function)
        def record(*args, **kwargs):
            samples.setdefault(name, (args, kwargs))
            return function(*args, **kwargs)
        return record

    for name in module_functions(module):
        setattr(module, name, recorder(name, getattr(module, name)))
    module.encode_batch(list(sample) + [(sample[0], sample[-1])], vocab)
    return samples


NUMBA_ROOT_CAUSES = (
    (r"argument\(s\):\s*- argument \d+: Cannot determine Numba type of <class 'dict'>",
     "a Python dict argument (the vocab) cannot be typed"),
    (r"cannot compute fingerprint of empty list", "an empty list argument cannot be typed"),
    (r"cannot convert native LiteralStrKey\[Dict\]", "returns a dict literal Numba cannot convert to Python"),
)
NUMBA_OTHER_CAUSES = (
    (r"Unknown attribute '(\w+)' of type Module\(<module '(\w+)'", r"\2.\1 is not supported"),
    (r"Cannot determine Numba type of <class '(\w+)'>", r"a \1 value cannot be typed"),
)


def numba_reason(error, function, refused):
    """A short reason for Numba's refusal of ``function``: a cause of its own (its arguments, its result), else
    the helper it calls that is not compiled, else the first recognisable cause in Numba's message."""
    message = str(error)
    for pattern, reason in NUMBA_ROOT_CAUSES:
        found = re.search(pattern, message)
        if found:
            return found.expand(reason)
    called = re.search(r"Untyped global name '(\w+)': Cannot determine Numba type of <class 'function'>", message)
    if called:
        name = called.group(1)
        return f"calls {name}(), " + ("which Numba refuses" if name in refused else "a plain Python function")
    callees = [name for name in function.__code__.co_names if name in refused]
    if callees:                     # the error came from inside a helper Numba was typing along with the caller
        return f"calls {callees[0]}(), which Numba refuses"
    for pattern, reason in NUMBA_OTHER_CAUSES:
        found = re.search(pattern, message)
        if found:
            return found.expand(reason)
    for line in message.splitlines():
        if line.strip() and not line.startswith("Failed in"):
            return line.strip()[:120]
    return type(error).__name__


def numba_engine(vocab, sample, cache=True, progress=None, functions=None):
    """``numba.njit`` on every function reached by ``encode_batch``; refused ones run as plain Python.

    With ``functions`` (names known to compile), only those are decorated and nothing is probed: the module a
    user keeps once they removed the decorators Numba refused.
    """
    start = time.perf_counter()
    if cache:
        os.environ.setdefault(NUMBA_CACHE_ENV, str(data.data_dir() / "numba-cache"))
    import numba
    from numba.core.errors import NumbaDeprecationWarning, NumbaPendingDeprecationWarning, NumbaWarning

    samples = sample_arguments(sample, vocab)
    module = pipeline_copy("bert_pipeline_numba")
    plain = {name: getattr(module, name) for name in module_functions(module)}
    # Callees first (the reverse of the order of first calls), so that a caller's refusal can name its callee's.
    candidates = list(reversed(samples)) if functions is None else [name for name in functions if name in samples]
    for name in candidates:
        setattr(module, name, numba.njit(cache=cache)(plain[name]))
    refused = {}
    changed = True
    with warnings.catch_warnings():
        for category in (NumbaWarning, NumbaDeprecationWarning, NumbaPendingDeprecationWarning):
            warnings.simplefilter("ignore", category)
        while changed:                 # reverting one function can make its callers fail: repeat until stable
            changed = False
            names = [name for name in candidates if name not in refused]
            for name in (progress(names, desc="numba: compiling", leave=False) if progress else names):
                args, kwargs = samples[name]
                try:
                    getattr(module, name)(*args, **kwargs)
                except Exception as error:            # Numba's typing and lowering errors have many types
                    refused[name] = numba_reason(error, plain[name], refused)
                    setattr(module, name, plain[name])
                    changed = True
        module.encode_batch(sample, vocab)
    compiled = [name for name in plain if name in candidates and name not in refused]
    refused = {name: refused[name] for name in plain if name in refused}     # in the file's order
    misses = sum(sum(getattr(module, name).stats.cache_misses.values()) for name in compiled)
    return Engine("numba", module.encode_batch, first_call_s=time.perf_counter() - start,
                  first_call_kind="compile" if misses or not cache else "cache hit",
                  details={"compiled": compiled, "refused": refused,
                           "not reached": sorted(set(plain) - set(samples))})


def class_style_engine(name, vocab, sample, cache=True):
    """Google's ``FullTokenizer`` on the default vocab.txt: plain, or jitted (its first call compiles)."""
    from benchmarks.bert.google import class_style

    vocab_file = data.fetch_vocab()
    if name == "classes-cpython":
        module = class_style.tokenization_copy("bert_google_tokenization")
    else:
        module = class_style.jitted_tokenization("auto", cache)
    if module.load_vocab(vocab_file) != vocab:
        return Engine(name, unavailable="the class-style tokenizer runs on the default vocab.txt only")
    encode_batch = class_style.batch_encoder(module, vocab_file)
    if name == "classes-cpython":
        return Engine(name, encode_batch)
    from moshjit import UnsupportedError
    try:
        seconds = timed_first_call(encode_batch, sample, vocab)
    except UnsupportedError as error:
        return Engine(name, unavailable=f"not available: {first_line(error)}")
    return Engine(name, encode_batch, first_call_s=seconds, first_call_kind="compile")


def build_engine(name, vocab, sample, cache=True, progress=None, numba_functions=None):
    """The engine called ``name`` (see ``ENGINE_NAMES``), with its first call done."""
    if name == "cpython":
        return Engine("cpython", pipeline.encode_batch)
    if name.startswith("jit-"):
        return jit_engine(name[len("jit-"):], vocab, sample, cache)
    if name == "cython-file":
        return cython_file_engine(vocab, sample)
    if name == "tokenizers":
        return tokenizers_engine(vocab, sample)
    if name == "nanotoken":
        return nanotoken_engine(vocab, sample)
    if name == "flash-tokenizer":
        return flash_engine(vocab, sample)
    if name == "numba":
        return numba_engine(vocab, sample, cache, progress, numba_functions)
    if name in CLASS_ENGINES:
        return class_style_engine(name, vocab, sample, cache)
    raise ValueError(f"unknown engine {name!r}; choose from {', '.join(ENGINE_NAMES)}")

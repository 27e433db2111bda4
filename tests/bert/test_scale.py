"""Scaling out the jitted pipeline: a spawn process pool and a Dask LocalCluster, shipping by value, bad documents.

Every run checks count in = count out and compares each document's ids with the plain pipeline's.
"""
import os
import pickle
import subprocess
import sys
import tempfile

import numpy as np
import pytest

os.environ.setdefault("MOSHJIT_CACHE_DIR", os.path.join(tempfile.gettempdir(), f"moshjit-test-cache-{os.getuid()}"))

from benchmarks.bert import engines, pipeline, scale  # noqa: E402

LONG_LINE = b"hello world " + b"x" * 10_000_000           # a 10 MB line: two words, then one word of 10 M chars
BAD_DOCUMENTS = [b"", b"caf\xe9 au lait \xff\xfe", LONG_LINE, b"   \t  ", b"\xf0\x9f\x98"]
CRASH_MARKER = "CRASH THIS WORKER"
RAISE_MARKER = "RAISE IN THIS DOCUMENT"


@pytest.fixture(scope="module")
def jitted_encode_batch(vocab):
    """``encode_batch`` of a pipeline copy jitted with the Cython backend, compiled (or loaded) here first."""
    encode_batch = engines.jitted_pipeline("cython").encode_batch
    encode_batch(["warm up"], vocab, 512, False)
    return encode_batch


@pytest.fixture(scope="module")
def documents(slice_lines):
    """The shipped slice as UTF-8 bytes (a few hundred lines) with the bad documents but the 10 MB one spread
    through it."""
    encoded = [line.encode("utf-8") for line in slice_lines]
    return encoded[:50] + BAD_DOCUMENTS[:2] + encoded[50:300] + BAD_DOCUMENTS[3:] + encoded[300:]


@pytest.fixture(scope="module")
def dask_client():
    """One LocalCluster of two one-thread worker processes for the module's Dask tests."""
    client = scale.dask_client(None, 2)
    yield client
    scale.close_client(client)


_expected = {}


def expected_ids(document, vocab):
    """The plain pipeline's ids (truncated to 512) for one byte document, bad bytes as U+FFFD."""
    if document is LONG_LINE:
        return [vocab[token] for token in ("[CLS]", "hello", "world", "[UNK]", "[SEP]")]
    if document not in _expected:
        _expected[document] = pipeline.encode(document.decode("utf-8", errors="replace"), vocab)["input_ids"]
    return _expected[document]


def check_against_plain(result, documents, vocab):
    assert len(result.status) == len(documents) and len(result.offsets) == len(documents) + 1
    for index, document in enumerate(documents):
        assert result.document(index).tolist() == expected_ids(document, vocab), index
    assert result.ids.dtype == np.int32


def test_one_process_handles_bad_documents(documents, jitted_encode_batch, vocab):
    result = scale.tokenize(documents, jitted_encode_batch, vocab, "single", batch_size=64)
    check_against_plain(result, documents, vocab)
    not_utf8 = [index for index, document in enumerate(documents) if document in (BAD_DOCUMENTS[1], BAD_DOCUMENTS[4])]
    assert np.flatnonzero(result.status == scale.STATUS_NOT_UTF8).tolist() == not_utf8
    assert np.count_nonzero(result.status == scale.STATUS_OK) == len(documents) - 2
    empty = documents.index(b"")
    assert result.document(empty).tolist() == [vocab["[CLS]"], vocab["[SEP]"]]


def test_spawn_pool_runs_the_shipped_function_from_the_cache(documents, jitted_encode_batch, vocab):
    documents = documents[:100] + [LONG_LINE] + documents[100:]
    result = scale.tokenize(documents, jitted_encode_batch, vocab, "pool", workers=2, batch_size=64)
    check_against_plain(result, documents, vocab)
    assert result.workers and all(facts["cache"] == "hit" for facts in result.workers.values()), result.workers
    assert os.getpid() not in result.workers


def test_dask_local_cluster_on_two_workers(documents, jitted_encode_batch, vocab, dask_client):
    result = scale.tokenize(documents, jitted_encode_batch, vocab, "dask", batch_size=64, client=dask_client)
    check_against_plain(result, documents, vocab)
    assert result.workers and all(facts["cache"] == "hit" for facts in result.workers.values()), result.workers


def raise_on_marker(texts, vocab, max_length, pad_to_longest):
    """``encode_batch`` that raises for any text holding ``RAISE_MARKER``."""
    for text in texts:
        if RAISE_MARKER in text:
            raise ValueError(f"refusing {text[:30]!r}\nsecond line")
    return pipeline.encode_batch(texts, vocab, max_length, pad_to_longest)


def test_a_document_that_raises_is_marked_failed_and_the_others_are_kept(slice_lines, vocab):
    documents = [line.encode("utf-8") for line in slice_lines[:40]]
    documents[17] = RAISE_MARKER.encode()
    result = scale.tokenize(documents, raise_on_marker, vocab, "single", batch_size=16)
    assert result.status.tolist() == [scale.STATUS_FAILED if i == 17 else scale.STATUS_OK for i in range(40)]
    assert result.errors == {17: f"ValueError: refusing {RAISE_MARKER!r}"}
    assert result.document(17).tolist() == []
    assert result.document(16).tolist() == expected_ids(documents[16], vocab)
    assert result.document(18).tolist() == expected_ids(documents[18], vocab)


def crash_on_marker(texts, vocab, max_length, pad_to_longest):
    """``encode_batch`` whose process dies (as in a native crash) on ``CRASH_MARKER``."""
    if any(CRASH_MARKER in text for text in texts):
        os._exit(3)
    return pipeline.encode_batch(texts, vocab, max_length, pad_to_longest)


def crashing_documents(slice_lines):
    documents = [line.encode("utf-8") for line in slice_lines[:60]]
    documents[45] = CRASH_MARKER.encode()
    return documents


CRASHED = r"a worker process died; [123] batches did not finish: documents (\d+\.\.\d+, )*40\.\.59\b"


def test_a_pool_worker_crash_is_a_clear_error_naming_the_documents(slice_lines, vocab):
    with pytest.raises(scale.WorkerCrashed, match=CRASHED):
        scale.tokenize(crashing_documents(slice_lines), crash_on_marker, vocab, "pool", workers=2, batch_size=20)


def test_a_dask_worker_crash_is_a_clear_error_naming_the_documents(slice_lines, vocab, dask_client):
    with pytest.raises(scale.WorkerCrashed, match=CRASHED):
        scale.tokenize(crashing_documents(slice_lines), crash_on_marker, vocab, "dask", batch_size=20,
                       client=dask_client)
    documents = [line.encode("utf-8") for line in slice_lines[:60]]          # the cluster is usable again
    assert scale.tokenize(documents, pipeline.encode_batch, vocab, "dask", batch_size=20, client=dask_client).tokens


def test_counts_that_do_not_add_up_are_refused():
    batch = {"start": 0, "ids": np.zeros(3, np.int32), "offsets": np.array([0, 3]), "status": np.zeros(1, np.uint8),
             "errors": {}, "cpu_s": 0.0, "worker": {"pid": 1}}
    with pytest.raises(RuntimeError, match="2 sent, 1 returned"):
        scale.combine([batch], 2)
    with pytest.raises(RuntimeError, match="expected a batch starting at 1"):
        scale.combine([batch, batch], 2)


def test_the_dask_task_runs_where_neither_its_module_nor_the_pipeline_can_be_imported(
        tmp_path, jitted_encode_batch, vocab, slice_lines):
    """What a worker of a real cluster sees: ``ByValue(dask_task)`` and the jitted function pickled by value,
    unpickled in a process whose ``sys.path`` has neither ``benchmarks`` nor the jitted pipeline's module."""
    documents = [line.encode("utf-8") for line in slice_lines[:30]]
    request = pickle.dumps((scale.ByValue(scale.dask_task),
                            {"encode_batch": jitted_encode_batch, "vocab": vocab}, documents))
    child = (
        "import pickle, sys\n"
        "task, state, documents = pickle.loads(sys.stdin.buffer.read())\n"
        "result = task(state, 0, documents, 512)\n"
        "leaked = sorted(name for name in sys.modules if name.startswith(('benchmarks', 'bert_pipeline')))\n"
        "sys.stdout.buffer.write(pickle.dumps((result, leaked)))\n")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-c", child], input=request, capture_output=True, cwd=tmp_path, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    result, leaked = pickle.loads(proc.stdout)
    assert leaked == []
    assert result["worker"]["cache"] == "hit"
    combined = scale.combine([result], len(documents))
    for index, document in enumerate(documents):
        assert combined.document(index).tolist() == expected_ids(document, vocab)


def test_read_documents_splits_at_newlines_only(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_bytes(b"one\x0ctwo\n\nthree\xe2\x80\xa8four\n\xff\n")
    assert scale.read_documents(path) == [b"one\x0ctwo", b"", b"three\xe2\x80\xa8four", b"\xff"]

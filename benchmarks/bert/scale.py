"""Tokenize the corpus across processes with jitted functions shipped to the workers: a process pool and Dask.

The jitted ``encode_batch`` (``@jit`` on every function of a copy of ``pipeline.py``) is compiled once here,
then pickled by value (its plain functions, never machine code) to workers that never import the module it
came from; each worker finds the compiled code in the shared disk cache (``MOSHJIT_CACHE_DIR``) instead of
recompiling, which the run checks in every worker's ``stats``. Documents travel as UTF-8 bytes and come back as
compact numpy arrays: the ``input_ids`` of every document of a batch, concatenated (int32), their offsets, and
one status byte per document.

Every document gets exactly one result, in input order (the run checks: count in = count out):

- an empty line encodes as ``[CLS] [SEP]``;
- a very long line (10 MB) is tokenized whole, then truncated to ``--max-length`` ids like any other;
- bytes that are not UTF-8 are decoded with U+FFFD in their place (the cleaner drops U+FFFD, so the valid
  parts are tokenized) and the document's status is ``STATUS_NOT_UTF8``;
- a document on which ``encode_batch`` raises gets no ids and ``STATUS_FAILED``, with the first error kept;
- a worker process that dies (a crash in native code, ``os._exit``, the OOM killer) stops the run with
  ``WorkerCrashed`` once every other batch has finished or failed, never a hang. The message names the
  documents of every batch that did not finish: the ones the dead process held (the culprit among them) and,
  with the process pool, which breaks as a whole, the ones still queued.

    python -m benchmarks.bert.scale                       # one process, a spawn pool and a Dask LocalCluster
    python -m benchmarks.bert.scale --scheduler tcp://host:8786 --modes dask
"""
import argparse
import os
import pickle
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

import numpy as np

from benchmarks.bert import data, engines, pipeline

STATUS_OK = 0
STATUS_NOT_UTF8 = 1
STATUS_FAILED = 2
STATUS_NAMES = {STATUS_OK: "ok", STATUS_NOT_UTF8: "not UTF-8 (decoded with U+FFFD)", STATUS_FAILED: "failed"}
DEFAULT_BATCH_SIZE = 256
MODES = ("single", "pool", "dask")


class WorkerCrashed(RuntimeError):
    """A worker process died while it held a batch: the documents it held are named in the message."""


# ---------------------------------------------------------------------------------------------------------------
# The work of one batch (runs in the workers)
# ---------------------------------------------------------------------------------------------------------------

def decode(document):
    """(text, status) of a document given as UTF-8 bytes; invalid bytes become U+FFFD."""
    try:
        return document.decode("utf-8"), STATUS_OK
    except UnicodeDecodeError:
        return document.decode("utf-8", errors="replace"), STATUS_NOT_UTF8


def error_line(error):
    """``Type: first line of the message`` of an exception."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return f"{type(error).__name__}: {lines[0][:200]}" if lines else type(error).__name__


def encode_documents(encode_batch, vocab, start, documents, max_length):
    """Encode one batch of byte documents (the first being document ``start``) with ``encode_batch``.

    Returns plain data any worker can send back: ``start``; ``ids``, every document's ``input_ids``
    concatenated (int32); ``offsets`` (int64, one more than documents: document i is
    ``ids[offsets[i]:offsets[i + 1]]``); ``status``, one ``STATUS_*`` byte per document; ``errors``, document
    index → first line of its exception; ``cpu_s``, the CPU seconds the batch took; ``worker``, facts about the
    process. The batch is encoded in one call;
    if that raises, each document is encoded alone so that only the documents that raise are marked failed.
    """
    cpu_start = time.process_time()
    texts, status = [], np.zeros(len(documents), dtype=np.uint8)
    for index, document in enumerate(documents):
        text, status[index] = decode(document)
        texts.append(text)
    errors = {}
    try:
        rows = encode_batch(texts, vocab, max_length, False)["input_ids"]
    except Exception:
        rows = []
        for index, text in enumerate(texts):
            try:
                rows.append(encode_batch([text], vocab, max_length, False)["input_ids"][0])
            except Exception as error:
                rows.append([])
                status[index] = STATUS_FAILED
                errors[start + index] = error_line(error)
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([len(row) for row in rows], out=offsets[1:])
    ids = np.fromiter((token for row in rows for token in row), dtype=np.int32, count=int(offsets[-1]))
    return {"start": start, "ids": ids, "offsets": offsets, "status": status, "errors": errors,
            "cpu_s": time.process_time() - cpu_start, "worker": {"pid": os.getpid()}}


def warm_up(encode_batch, vocab, max_length):
    """Make the worker's first call (compile, or load from the disk cache); returns its facts for the report."""
    start, cpu_start = time.perf_counter(), time.process_time()
    encode_batch(["warm up"], vocab, max_length, False)
    return {"cache": cache_outcome(encode_batch), "load_s": round(time.perf_counter() - start, 3),
            "load_cpu_s": round(time.process_time() - cpu_start, 3)}


def cache_outcome(encode_batch):
    """How the worker got its compiled code: "hit" if every specialisation came from the disk cache."""
    stats = getattr(encode_batch, "stats", None)
    if stats is None:
        return "not jitted"
    outcomes = {entry.get("cache") for entry in stats.values()}
    return "hit" if outcomes == {"hit"} else "miss" if "miss" in outcomes else "none"


# ---------------------------------------------------------------------------------------------------------------
# Running batches: one process, a process pool, Dask
# ---------------------------------------------------------------------------------------------------------------

def batch_starts(count, batch_size):
    return range(0, count, batch_size)


def run_single(documents, encode_batch, vocab, batch_size, max_length, progress=None):
    """Every batch in this process, in order."""
    starts = batch_starts(len(documents), batch_size)
    return [encode_documents(encode_batch, vocab, start, documents[start:start + batch_size], max_length)
            for start in (progress(starts, desc="one process") if progress else starts)]


_pool_state = {}


def install_pool_state(encode_batch, vocab, max_length):
    """Process-pool initializer: keep the unpickled jitted function and the vocab, and make the first call."""
    _pool_state["encode_batch"] = encode_batch
    _pool_state["vocab"] = vocab
    _pool_state["warm_up"] = warm_up(encode_batch, vocab, max_length) if hasattr(encode_batch, "stats") else {}


def pool_task(start, documents, max_length):
    """One batch in a pool worker; the worker's first batch also reports how its code was obtained."""
    result = encode_documents(_pool_state["encode_batch"], _pool_state["vocab"], start, documents, max_length)
    result["worker"].update(_pool_state.pop("warm_up", {}))
    return result


class CrashCollector:
    """Batches that did not finish because a worker process died; raises one ``WorkerCrashed`` naming them all."""

    def __init__(self, documents, batch_size):
        self.count = len(documents)
        self.batch_size = batch_size
        self.lost = []
        self.error = None

    def add(self, start, error):
        self.lost.append(start)
        self.error = self.error or error

    def raise_if_any(self):
        if not self.lost:
            return
        ranges = [f"{start}..{min(start + self.batch_size, self.count) - 1}" for start in sorted(self.lost)]
        shown = ", ".join(ranges[:20]) + (f" and {len(ranges) - 20} more batches" if len(ranges) > 20 else "")
        raise WorkerCrashed(f"a worker process died; {len(ranges)} batches did not finish: documents {shown} "
                            f"({error_line(self.error)})") from self.error


def run_pool(documents, encode_batch, vocab, batch_size, max_length, workers, progress=None):
    """Every batch on a ``ProcessPoolExecutor`` of ``workers`` spawned processes."""
    import multiprocessing
    from concurrent.futures import as_completed

    context = multiprocessing.get_context("spawn")
    results = []
    with ProcessPoolExecutor(workers, mp_context=context, initializer=install_pool_state,
                             initargs=(encode_batch, vocab, max_length)) as pool:
        futures = {pool.submit(pool_task, start, documents[start:start + batch_size], max_length): start
                   for start in batch_starts(len(documents), batch_size)}
        crashes = CrashCollector(documents, batch_size)
        done = as_completed(futures)
        for future in (progress(done, total=len(futures), desc=f"pool of {workers}") if progress else done):
            try:
                results.append(future.result())
            except BrokenProcessPool as error:       # every unfinished batch fails at once: the pool is gone
                crashes.add(futures[future], error)
    crashes.raise_if_any()
    return sorted(results, key=lambda result: result["start"])


class ByValue:
    """Wraps a function of this module so that pickling it ships its code, not a reference to this module.

    Dask pickles tasks with the standard pickler first, which would send ``benchmarks.bert.scale.<name>`` by
    reference (and ignores ``cloudpickle.register_pickle_by_value``); a worker of a real cluster may not have
    this module. This object pickles as ``cloudpickle.loads(<the function, by value>)``, which any Dask worker
    can unpickle.
    """

    def __init__(self, function):
        import cloudpickle

        self.function = function
        module = sys.modules[function.__module__]
        cloudpickle.register_pickle_by_value(module)
        try:
            self.payload = cloudpickle.dumps(function)
        finally:
            cloudpickle.unregister_pickle_by_value(module)

    def __call__(self, *args, **kwargs):
        return self.function(*args, **kwargs)

    def __reduce__(self):
        import cloudpickle
        return cloudpickle.loads, (self.payload,)


def dask_task(state, start, documents, max_length):
    """One batch on a Dask worker; ``state`` is the dict holding the jitted ``encode_batch`` and the vocab — None:
    the one ``pipeline_plugin`` installed on this worker. A worker's first call is recognised by the function's
    empty ``stats``."""
    if state is None:
        from distributed import get_worker
        state = get_worker().moshjit_bert_pipeline
    encode_batch = state["encode_batch"]
    facts = {}
    if getattr(encode_batch, "stats", None) == {}:
        facts = warm_up(encode_batch, state["vocab"], max_length)
    result = encode_documents(encode_batch, state["vocab"], start, documents, max_length)
    result["worker"].update(facts)
    return result


PIPELINE_PLUGIN = "moshjit-bert-pipeline"


def pipeline_plugin(encode_batch, vocab):
    """A Dask worker plugin that puts the jitted ``encode_batch`` and the vocab on every worker of the cluster,
    also on a worker that starts later (one restarted after a crash), for ``dask_task`` to find.

    Not a scattered future: a future's data can be lost with the worker holding it, and the batches waiting on it
    were seen to wait for ever (``broadcast=True`` hangs with the active memory manager, dask/distributed#8796).
    The class is made here, so that it pickles by value (cloudpickle) and needs nothing of this module on a worker.
    """
    from distributed.diagnostics.plugin import WorkerPlugin

    class PipelineOnWorkers(WorkerPlugin):
        idempotent = False                        # registering again (another pipeline) replaces it

        def __init__(self, state):
            self.state = state

        def setup(self, worker):
            worker.moshjit_bert_pipeline = self.state

        def teardown(self, worker):
            worker.__dict__.pop("moshjit_bert_pipeline", None)

    return PipelineOnWorkers({"encode_batch": encode_batch, "vocab": vocab})


def dask_client(scheduler, workers):
    """A client of the cluster at ``scheduler``, or of a new LocalCluster of ``workers`` one-thread processes.

    A batch whose worker dies is not retried on another worker (``allowed-failures`` 0): it fails at once with
    ``KilledWorker`` instead of taking down every worker in turn.
    """
    import dask
    from dask.distributed import Client, LocalCluster

    dask.config.set({"distributed.scheduler.allowed-failures": 0})
    if scheduler:
        return Client(scheduler)
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    return Client(cluster)


def run_dask(documents, encode_batch, vocab, batch_size, max_length, client, progress=None):
    """Every batch on the Dask cluster of ``client``; the jitted function and the vocab go once to every worker
    (``pipeline_plugin``). A batch whose worker died is a crash (``KilledWorker``); the others go on."""
    from dask.distributed import as_completed
    from distributed.scheduler import KilledWorker

    task = ByValue(dask_task)
    results = []
    crashes = CrashCollector(documents, batch_size)
    starts = list(batch_starts(len(documents), batch_size))
    bar = progress(total=len(starts), desc="dask") if progress else None
    client.register_plugin(pipeline_plugin(encode_batch, vocab), name=PIPELINE_PLUGIN)
    futures = {client.submit(task, None, start, documents[start:start + batch_size], max_length, pure=False): start
               for start in starts}
    try:
        for future in as_completed(futures):
            try:
                results.append(future.result())
            except KilledWorker as error:        # the batches the dead worker held; the others go on
                crashes.add(futures[future], error)
            if bar is not None:
                bar.update()
    finally:
        client.cancel(list(futures))
        client.unregister_worker_plugin(PIPELINE_PLUGIN)
    if bar is not None:
        bar.close()
    crashes.raise_if_any()
    return sorted(results, key=lambda result: result["start"])


def close_client(client):
    """Close ``client`` and the LocalCluster it started, if any."""
    cluster = client.cluster
    client.close()
    if cluster is not None:
        cluster.close()


# ---------------------------------------------------------------------------------------------------------------
# Putting results together
# ---------------------------------------------------------------------------------------------------------------

@dataclass
class Tokenized:
    """The whole corpus's result, in document order."""
    ids: np.ndarray
    offsets: np.ndarray
    status: np.ndarray
    errors: dict
    cpu_s: float               # CPU seconds spent encoding, all batches together (first calls excluded)
    workers: dict              # pid → {"cache": outcome, "load_s": wall seconds, "load_cpu_s": ...} of its first call

    def document(self, index):
        """``input_ids`` of document ``index``."""
        return self.ids[self.offsets[index]:self.offsets[index + 1]]

    @property
    def tokens(self):
        return int(self.offsets[-1])


def combine(results, count):
    """Join batch results (sorted by start) into one ``Tokenized``; raises if a document is missing or repeated."""
    expected = 0
    for result in results:
        if result["start"] != expected:
            raise RuntimeError(f"documents lost: expected a batch starting at {expected}, got {result['start']}")
        if len(result["offsets"]) != len(result["status"]) + 1:
            raise RuntimeError(f"the batch starting at {expected} has {len(result['status'])} statuses but "
                               f"{len(result['offsets']) - 1} id rows")
        expected += len(result["status"])
    if expected != count:
        raise RuntimeError(f"documents lost: {count} sent, {expected} returned")
    offsets = np.zeros(count + 1, dtype=np.int64)
    position = 0
    for result in results:
        start, size = result["start"], len(result["status"])
        offsets[start + 1:start + size + 1] = result["offsets"][1:] + position
        position += int(result["offsets"][-1])
    ids = np.concatenate([r["ids"] for r in results]) if results else np.zeros(0, np.int32)
    status = np.concatenate([r["status"] for r in results]) if results else np.zeros(0, np.uint8)
    errors = {index: message for r in results for index, message in r["errors"].items()}
    workers = {}
    for result in results:
        facts = result["worker"]
        if "cache" in facts and facts["pid"] not in workers:
            workers[facts["pid"]] = {key: facts[key] for key in ("cache", "load_s", "load_cpu_s")}
    return Tokenized(ids, offsets, status, errors, sum(r["cpu_s"] for r in results), workers)


def tokenize(documents, encode_batch, vocab, mode="single", workers=2, batch_size=DEFAULT_BATCH_SIZE,
             max_length=pipeline.DEFAULT_MAX_LENGTH, client=None, progress=None):
    """Tokenize byte ``documents`` with ``encode_batch`` in ``mode`` ("single", "pool" or "dask").

    For "dask", ``client`` is a ``dask.distributed.Client``; without one, a LocalCluster of ``workers`` is
    started for this call and closed after it.
    """
    if mode == "single":
        results = run_single(documents, encode_batch, vocab, batch_size, max_length, progress)
    elif mode == "pool":
        results = run_pool(documents, encode_batch, vocab, batch_size, max_length, workers, progress)
    elif mode == "dask":
        own_client = client is None
        client = dask_client(None, workers) if own_client else client
        try:
            results = run_dask(documents, encode_batch, vocab, batch_size, max_length, client, progress)
        finally:
            if own_client:
                close_client(client)
    else:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    return combine(results, len(documents))


def read_documents(path):
    """The documents of a corpus file as bytes, one per line (split at b"\\n" only; no decoding here)."""
    with open(path, "rb") as file:
        content = file.read()
    documents = content.split(b"\n")
    return documents[:-1] if content.endswith(b"\n") else documents


def jitted_encode_batch(backend="auto"):
    """``encode_batch`` of a pipeline copy with ``@jit`` on every function."""
    return engines.jitted_pipeline(backend).encode_batch


def main(argv=None):
    """Command line: tokenize the corpus in one process, on a process pool and on Dask; compare throughput."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated: " + ", ".join(MODES))
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--scheduler", help="address of a Dask scheduler (default: a new LocalCluster)")
    parser.add_argument("--backend", default="auto", choices=("auto", "cython", "llvm"))
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE)
    parser.add_argument("--max-length", type=int, default=pipeline.DEFAULT_MAX_LENGTH)
    parser.add_argument("--limit", type=int, help="only the first N documents")
    parser.add_argument("--corpus", help="a corpus file (default: the cached corpus)")
    parser.add_argument("--vocab", help="a vocab.txt (default: the cached bert-base-uncased vocab)")
    args = parser.parse_args(argv)
    from tqdm import tqdm

    vocab = pipeline.load_vocab(args.vocab or data.fetch_vocab())
    documents = read_documents(args.corpus or data.build_corpus())[:args.limit]
    encode_batch = jitted_encode_batch(args.backend)
    start = time.perf_counter()
    encode_batch(["warm up: compile or load from the cache"], vocab, args.max_length, False)
    print(f"{len(documents):,} documents ({sum(map(len, documents)):,} bytes), batches of {args.batch_size}; "
          f"jit backend {args.backend!r}: ready in {time.perf_counter() - start:.2f} s here; payload shipped to "
          f"each worker: {len(pickle.dumps((encode_batch, vocab))):,} bytes")
    print(f"load average before: {' '.join(f'{load:.1f}' for load in os.getloadavg())} on {os.cpu_count()} cores")
    reference = None
    baseline = None
    status = 0
    for mode in [m.strip() for m in args.modes.split(",") if m.strip()]:
        client = None
        if mode == "dask":
            start = time.perf_counter()
            client = dask_client(args.scheduler, args.workers)
            where = args.scheduler or f"a LocalCluster of {args.workers} processes"
            print(f"dask: connected to {where} in {time.perf_counter() - start:.2f} s (not counted below)")
        try:
            start = time.perf_counter()
            result = tokenize(documents, encode_batch, vocab, mode, args.workers, args.batch_size,
                              args.max_length, client, tqdm)
            seconds = time.perf_counter() - start
        finally:
            if client is not None:
                close_client(client)
        baseline = baseline or (seconds if mode == "single" else None)
        speedup = f"{baseline / seconds:.2f}x one process" if baseline else ""
        label = "1 process" if mode == "single" else f"{mode}, {args.workers} workers"
        print(f"{label:22s} {seconds:7.2f} s  {len(documents) / seconds:9,.0f} docs/s  "
              f"{result.tokens / seconds:10,.0f} tokens/s  {speedup}  (CPU in batches: {result.cpu_s:.2f} s)")
        if result.workers:
            print(f"{'':22s} workers' first call: " + ", ".join(
                f"pid {pid}: cache {facts['cache']}, {facts['load_s']:.2f} s ({facts['load_cpu_s']:.2f} s CPU)"
                for pid, facts in sorted(result.workers.items())))
        if reference is None:
            reference = result
        elif not (np.array_equal(result.ids, reference.ids) and np.array_equal(result.offsets, reference.offsets)
                  and np.array_equal(result.status, reference.status)):
            print(f"{'':22s} RESULT DIFFERS from the first mode's", file=sys.stderr)
            status = 1
    print(f"load average after: {' '.join(f'{load:.1f}' for load in os.getloadavg())}")
    if reference is not None:
        counts = np.bincount(reference.status, minlength=len(STATUS_NAMES))
        print("documents: " + ", ".join(f"{int(counts[code]):,} {name}" for code, name in STATUS_NAMES.items()))
        for index, message in list(reference.errors.items())[:10]:
            print(f"    document {index}: {message}")
    return status


if __name__ == "__main__":
    sys.exit(main())

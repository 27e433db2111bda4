"""``make demo``: fetch the data, compile the BERT pipeline every way, check it is exact, and show the speeds.

Steps: the ``bert-base-uncased`` vocab and the multilingual corpus are fetched or built once and cached
(``benchmarks/bert/data``); every engine of ``bench.py`` is built (moshjit compiles on the first run and loads
from its disk cache after that); every engine's output on the subset is checked against plain CPython's; then
the engines are timed side by side and the table is printed. About a minute once the data and the caches exist
(the first run adds the 83 MB vocab download, the corpus build and the compiles).

    python -m benchmarks.bert.demo [--limit N] [--rounds R] [--engines a,b,...]
"""
import argparse
import sys
import time

from benchmarks.bert import bench, data, engines
from benchmarks.steady_state import compile_at_first_call

DEMO_LIMIT = 3000
DEMO_ROUNDS = 3


def main(argv=None):
    """Command line: the demo; exit status 1 if an engine's output differs from CPython's."""
    compile_at_first_call()              # steady-state speed: see benchmarks/steady_state.py
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=DEMO_LIMIT, help="corpus lines in the subset")
    parser.add_argument("--rounds", type=int, default=DEMO_ROUNDS)
    parser.add_argument("--engines", default=",".join(engines.ENGINE_NAMES))
    parser.add_argument("--corpus", help="a corpus file (default: the cached corpus, built if missing)")
    parser.add_argument("--vocab", help="a vocab.txt (default: the cached bert-base-uncased vocab, fetched if missing)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    print("1/3  data: the bert-base-uncased vocab and the corpus (cached after the first run)")
    vocab = args.vocab or data.fetch_vocab()
    corpus = args.corpus or data.build_corpus()
    print(f"     vocab {vocab}\n     corpus {corpus}")
    print("2/3  building every engine (compiling on the first run), checking each one's output against CPython's")
    print("3/3  timing them side by side, one thread, engines interleaved")
    options = argparse.Namespace(engines=args.engines, vocab=str(vocab), corpus=str(corpus), full=False,
                                 limit=args.limit, rounds=args.rounds, no_cold=True, no_write=True)
    status = bench.run_benchmark(options, command="python -m benchmarks.bert.demo")
    print(f"\ndemo finished in {time.perf_counter() - start:.0f} s. Full numbers: python -m benchmarks.bert.bench "
          f"(--full for the whole corpus); scaling out: python -m benchmarks.bert.scale")
    return status


if __name__ == "__main__":
    sys.exit(main())

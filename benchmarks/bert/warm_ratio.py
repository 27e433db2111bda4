"""Warm-loop ratio of a jitted BERT tokenizer to its plain self: the benchmark's spread lines, plain and jitted
alternated in one process, each round timed by process CPU time; prints each round's ratio and their median.

``bench.py`` times whole runs with every engine of the table in one process (its rounds also collect the other
engines' garbage and run the plain ``encode_batch`` wrapper the class-style engines share); this isolates the
compiled code's own gain and is what an A/B of two checkouts runs (start it from each checkout in turn).

    python -m benchmarks.bert.warm_ratio --style classes --rounds 7
"""
import argparse
import os
import statistics
import time

os.environ.setdefault("MOSHJIT_TIER", "eager")        # compiled at the first call, as bench.py does

from benchmarks.bert import data, engines, pipeline      # noqa: E402
from benchmarks.bert.bench import spread_subset          # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--style", choices=("functions", "classes"), default="functions")
    parser.add_argument("--limit", type=int, default=2000, help="spread corpus lines")
    parser.add_argument("--rounds", type=int, default=7)
    options = parser.parse_args()
    vocab = pipeline.load_vocab(data.fetch_vocab())
    lines = spread_subset(data.read_corpus(), options.limit)        # bench.py's lines: built if not cached
    if options.style == "classes":
        plain = engines.class_style_engine("classes-cpython", vocab, lines[:8]).run
        jitted = engines.class_style_engine("classes-jit", vocab, lines[:8]).run
    else:
        plain, jitted = pipeline.encode_batch, engines.jit_engine("auto", vocab, lines[:8], True).run
    batches = [lines[i:i + 32] for i in range(0, len(lines), 32)]
    for batch in batches:
        assert jitted(batch, vocab) == plain(batch, vocab), "the jitted tokenizer's output differs"

    def seconds(run):
        start = time.process_time()
        for batch in batches:
            run(batch, vocab)
        return time.process_time() - start

    ratios = []
    for _ in range(options.rounds):
        ratios.append(seconds(plain) / seconds(jitted))
    print(f"{options.style}: ratios {' '.join(f'{r:.2f}' for r in sorted(ratios))}, "
          f"median {statistics.median(ratios):.2f}x its plain self")


if __name__ == "__main__":
    main()

"""How long building the SSA of a realistic ~100-line function takes: the frontend alone, then with the passes.

The function is a one-piece BERT basic tokenizer + WordPiece (character loops, dict lookups, slicing,
``unicodedata`` calls, try/except, comprehensions and a generator expression): the kind of code moshjit exists
for. For scale, the same run times CPython's own ``compile`` of its source. Target: under 20 ms with the passes.

    python benchmarks/frontend_speed.py [--profile]
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import textwrap
import time

SOURCE = textwrap.dedent('''
    import unicodedata

    def tokenize(text, vocab, never_split=("[CLS]", "[SEP]", "[UNK]"), max_chars=100, lower=True):
        """Clean, split and WordPiece-tokenize one text (as BERT's reference tokenizer does)."""
        cleaned = []
        for ch in text:
            cp = ord(ch)
            if cp == 0 or cp == 0xFFFD:
                continue
            category = unicodedata.category(ch)
            if ch in ("\\t", "\\n", "\\r") or category == "Zs":
                cleaned.append(" ")
            elif category in ("Cc", "Cf"):
                continue
            elif (0x4E00 <= cp <= 0x9FFF) or (0x3400 <= cp <= 0x4DBF) or (0xF900 <= cp <= 0xFAFF):
                cleaned.append(" ")
                cleaned.append(ch)
                cleaned.append(" ")
            else:
                cleaned.append(ch)
        words = "".join(cleaned).strip().split()
        pieces = []
        for word in words:
            if word in never_split:
                pieces.append(word)
                continue
            if lower:
                word = word.lower()
                word = "".join([c for c in unicodedata.normalize("NFD", word)
                                if unicodedata.category(c) != "Mn"])
            current = []
            for ch in word:
                cp = ord(ch)
                if (33 <= cp <= 47) or (58 <= cp <= 64) or (91 <= cp <= 96) or (123 <= cp <= 126) \\
                        or unicodedata.category(ch).startswith("P"):
                    if current:
                        pieces.append("".join(current))
                        current = []
                    pieces.append(ch)
                else:
                    current.append(ch)
            if current:
                pieces.append("".join(current))
        tokens = []
        unknown = 0
        for piece in pieces:
            if piece in never_split:
                tokens.append(piece)
                continue
            if len(piece) > max_chars:
                tokens.append("[UNK]")
                unknown += 1
                continue
            start = 0
            sub_tokens = []
            bad = False
            while start < len(piece):
                end = len(piece)
                found = None
                while start < end:
                    candidate = piece[start:end]
                    if start > 0:
                        candidate = "##" + candidate
                    if candidate in vocab:
                        found = candidate
                        break
                    end -= 1
                if found is None:
                    bad = True
                    break
                sub_tokens.append(found)
                start = end
            if bad:
                tokens.append("[UNK]")
                unknown += 1
            else:
                tokens.extend(sub_tokens)
        ids = []
        try:
            unk_id = vocab["[UNK]"]
        except KeyError:
            unk_id = -1
        for token in tokens:
            ids.append(vocab.get(token, unk_id))
        with_special = [vocab.get("[CLS]", unk_id)] + ids + [vocab.get("[SEP]", unk_id)]
        lengths = {}
        for token in tokens:
            lengths[len(token)] = lengths.get(len(token), 0) + 1
        longest = max((len(t) for t in tokens), default=0)
        ratio = unknown / len(tokens) if tokens else 0.0
        summary = f"{len(tokens)} tokens, {unknown} unknown ({ratio:.1%}), longest {longest}"
        return {
            "tokens": tokens,
            "ids": with_special,
            "lengths": sorted(lengths.items()),
            "summary": summary,
        }
''')


def load():
    namespace: dict = {}
    exec(compile(SOURCE, "<frontend_speed>", "exec"), namespace)
    return namespace["tokenize"]


def best_and_median(run, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the build with passes")
    args = parser.parse_args()

    from moshjit.frontend import build_ssa
    from moshjit.frontend.cfg import BytecodeCFG
    from moshjit.frontend.decode import decode
    from moshjit.passes.pipeline import run_passes

    fn = load()
    code = fn.__code__
    lines = len(SOURCE.strip().splitlines()) - 2
    build_ssa(fn)                                    # warm imports and caches once
    rows = [
        ("CPython compile() of the source", lambda: compile(SOURCE, "<frontend_speed>", "exec")),
        ("decode (bytecode -> neutral instructions)", lambda: decode(code)),
        ("decode + bytecode CFG", lambda: BytecodeCFG(*decode(code))),
        ("frontend: SSA without passes", lambda: build_ssa(fn, optimize=False)),
        ("passes only (on a fresh frontend SSA)", None),
        ("SSA with passes (moshjit.to_ssa)", lambda: build_ssa(fn)),
    ]
    print(f"function: tokenize, {lines} source lines, {len(decode(code)[0])} instructions")
    results = {}
    for name, run in rows:
        if run is None:
            fresh = [build_ssa(fn, optimize=False) for _ in range(args.repeat)]
            it = iter(fresh)
            best, median = best_and_median(lambda: run_passes(next(it)), args.repeat)
        else:
            best, median = best_and_median(run, args.repeat)
        results[name] = median
        print(f"  {name:45s} best {best:7.2f} ms   median {median:7.2f} ms")
    total = results["SSA with passes (moshjit.to_ssa)"]
    print(f"SSA build with passes: {total:.2f} ms (target < 20 ms); "
          f"{total / results['CPython compile() of the source']:.1f}x CPython's compile() of the same source")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(20):
            build_ssa(fn)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()

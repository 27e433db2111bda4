"""Matching benchmark: moshjit's rewritten ``with match`` (plain and under ``@jit``) vs a hand-written
isinstance/len chain, CPython's ``match`` statement and Pampy, plus a pipeline vs the nested calls it stands for. All variants are timed
side by side, interleaved, in this one run; the table gives each one's time relative to the chain.

    python -m benchmarks.matching.run [--subjects N] [--repeats N]
"""
from __future__ import annotations

import argparse
import random
import time

import moshjit
import moshjit.extensions
from benchmarks.matching import shapes, tasks_reference

moshjit.extensions.install()
from benchmarks.matching import evaluator_local, tasks_moshjit  # noqa: E402  (rewritten through the hook)

try:
    from benchmarks.matching import tasks_pampy
except ImportError:  # pampy is in the [bench] extra
    tasks_pampy = None

TASKS = [
    ("tuple shapes with star", shapes.tuple_subjects, "tuple_shapes"),
    ("nested lists", shapes.nested_list_subjects, "nested_lists"),
    ("classes, keyword sub-patterns", shapes.shape_subjects, "shapes"),
    ("literal dispatch", shapes.token_subjects, "tokens"),
    ("recursive AST evaluator, node classes imported", shapes.expression_subjects, "evaluate"),
    ("recursive AST evaluator, node classes in the same file",
     lambda rng, n: [evaluator_local.from_shapes(e) for e in shapes.expression_subjects(rng, n)], "local"),
]


def _variants(name: str) -> dict:
    """Every implementation of one task; the rewritten match is also timed compiled by ``@jit`` (strict: a
    function that did not compile fails the run instead of timing the plain function)."""
    if name == "local":
        return {"chain": evaluator_local.evaluate_chain, "moshjit": evaluator_local.evaluate,
                "moshjit @jit": moshjit.jit(evaluator_local.evaluate, strict=True),
                "CPython match": evaluator_local.evaluate_match}
    variants = {"chain": getattr(tasks_reference, f"{name}_chain"), "moshjit": getattr(tasks_moshjit, name),
                "moshjit @jit": moshjit.jit(getattr(tasks_moshjit, name), strict=True),
                "CPython match": getattr(tasks_reference, f"{name}_match")}
    if name == "evaluate":
        variants["moshjit (keywords)"] = tasks_moshjit.evaluate_keywords
    if tasks_pampy is not None:
        variants["Pampy"] = getattr(tasks_pampy, name)
    return variants


def _time(fn, subjects, repeats: int) -> float:
    """Best per-subject CPU time in ns over ``repeats`` passes (CPU time: other load on the machine waits)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.thread_time_ns()
        for subject in subjects:
            fn(subject)
        best = min(best, time.thread_time_ns() - start)
    return best / len(subjects)


def measure(subject_count: int, repeats: int) -> list[tuple[str, dict[str, float]]]:
    rng = random.Random(2024)
    rows = []
    for title, make, name in TASKS:
        subjects = make(rng, subject_count)
        variants = _variants(name)
        expected = [variants["chain"](s) for s in subjects]
        for label, fn in variants.items():
            assert [fn(s) for s in subjects] == expected, f"{label} disagrees with the chain on {title}"
        times = {label: float("inf") for label in variants}
        for _ in range(repeats):  # interleave the variants so machine noise hits them alike
            for label, fn in variants.items():
                few = subjects[: max(1, len(subjects) // 20)] if label == "Pampy" else subjects
                times[label] = min(times[label], _time(fn, few, 1))
        rows.append((title, times))
    text = "  Hello World  from BERT  "
    pipe = {"nested calls": tasks_reference.normalise_nested, "pipeline": tasks_moshjit.normalise}
    assert pipe["pipeline"](text) == pipe["nested calls"](text)
    times = {label: float("inf") for label in pipe}
    for _ in range(repeats):
        for label, fn in pipe.items():
            times[label] = min(times[label], _time(fn, [text] * subject_count, 1))
    rows.append(("pipeline vs nested calls", times))
    return rows


def format_table(rows) -> str:
    lines = ["| task | baseline (ns/subject) | moshjit | moshjit under @jit | CPython match | Pampy |",
             "|---|---|---|---|---|---|"]
    for title, times in rows:
        if "chain" not in times:
            lines.append(f"| {title} | {times['nested calls']:.0f} (nested calls) | "
                         f"{times['pipeline'] / times['nested calls']:.2f}× | – | – | – |")
            continue
        base = times["chain"]
        moshjit = f"{times['moshjit'] / base:.2f}×"
        if "moshjit (keywords)" in times:
            moshjit += f" (keyword patterns: {times['moshjit (keywords)'] / base:.2f}×)"
        pampy = f"{times['Pampy'] / base:.0f}×" if "Pampy" in times else "–"
        jitted = f"{times['moshjit @jit'] / base:.2f}×"
        lines.append(f"| {title} | {base:.0f} (chain) | {moshjit} | {jitted} | {times['CPython match'] / base:.2f}× | "
                     f"{pampy} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subjects", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=25)
    args = parser.parse_args()
    print(format_table(measure(args.subjects, args.repeats)))
    print("\nTimes relative to the hand-written isinstance/len chain (pipeline: to the nested calls); "
          "lower is better. The @jit column is the rewritten match compiled by moshjit (after its first calls).")


if __name__ == "__main__":
    main()

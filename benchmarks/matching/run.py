"""Matching benchmark: moshjit's rewritten ``with match`` (through the import hook, plain and under ``@jit``) vs a
hand-written isinstance/len chain (plain and under ``@jit``), CPython's ``match`` statement, the previous rewrite
(frozen in ``previous_rewrite/``) and Pampy, plus a pipeline vs the nested calls it stands for. All variants
of a task are timed side by side, interleaved, in this one run; the table gives each one's time relative to
the chain, then the issue's targets are checked on the plain rows.

    python -m benchmarks.matching.run [--subjects N] [--repeats N] [--no-jit]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import time
import types

import moshjit
import moshjit.extensions
from benchmarks.matching import previous_rewrite, shapes, tasks_reference

moshjit.extensions.install()
from benchmarks.matching import evaluator_local, tasks_moshjit  # noqa: E402  (rewritten through the hook)
from benchmarks.steady_state import compile_at_first_call

try:
    from benchmarks.matching import tasks_pampy
except ImportError:  # pampy is in the [bench] extra
    tasks_pampy = None

_HERE = os.path.dirname(os.path.abspath(__file__))
previous = previous_rewrite.load(os.path.join(_HERE, "tasks_moshjit.py"), "benchmarks.matching.tasks_previous")
previous_local = previous_rewrite.load(os.path.join(_HERE, "evaluator_local.py"),
                                       "benchmarks.matching.evaluator_local_previous")
for _name in ("Num", "Add", "Mul", "Neg"):  # match the hook-loaded module's node classes, not its own copies
    setattr(previous_local, _name, getattr(evaluator_local, _name))
REF, MJ = tasks_reference, tasks_moshjit


def _local_subjects(rng, n):
    return [evaluator_local.from_shapes(e) for e in shapes.expression_subjects(rng, n)]


# title, subjects, chain, CPython match, moshjit, previous rewrite, Pampy
TASKS = [
    ("tuple shapes with star", shapes.tuple_subjects, REF.tuple_shapes_chain, REF.tuple_shapes_match,
     MJ.tuple_shapes, previous.tuple_shapes, "tuple_shapes"),
    ("nested lists", shapes.nested_list_subjects, REF.nested_lists_chain, REF.nested_lists_match, MJ.nested_lists,
     previous.nested_lists, "nested_lists"),
    ("classes, keyword sub-patterns", shapes.shape_subjects, REF.shapes_chain, REF.shapes_match, MJ.shapes,
     previous.shapes, "shapes"),
    ("classes, positional sub-patterns", shapes.shape_subjects, REF.shapes_chain, REF.positional_shapes_match,
     MJ.positional_shapes, previous.positional_shapes, None),
    ("literal dispatch", shapes.token_subjects, REF.tokens_chain, REF.tokens_match, MJ.tokens, previous.tokens,
     "tokens"),
    ("tagged tuples with guards", shapes.token_pair_subjects, REF.token_pairs_chain, REF.token_pairs_match,
     MJ.token_pairs, previous.token_pairs, None),
    ("mappings (JSON-like events)", shapes.event_subjects, REF.events_chain, REF.events_match, MJ.events,
     previous.events, None),
    ("recursive AST evaluator, node classes imported", shapes.expression_subjects, REF.evaluate_chain,
     REF.evaluate_match, MJ.evaluate, previous.evaluate, "evaluate"),
    ("recursive AST evaluator, node classes in the same file", _local_subjects, evaluator_local.evaluate_chain,
     evaluator_local.evaluate_match, evaluator_local.evaluate, previous_local.evaluate, None),
]
COLUMNS = ["moshjit", "previous rewrite", "CPython match", "Pampy", "chain @jit", "moshjit @jit"]


def as_decorated(fn):
    """``fn`` as if its module had written ``@jit`` (strict) on its ``def``: the compiled function is bound to
    its name in (a copy of) the module's globals, so its recursive calls reach the compiled function as a
    user's would. The copy keeps the plain function in its module for the plain rows."""
    globals_copy = dict(fn.__globals__)
    twin = types.FunctionType(fn.__code__, globals_copy, fn.__name__, fn.__defaults__, fn.__closure__)
    twin.__qualname__, twin.__module__ = fn.__qualname__, fn.__module__
    compiled = moshjit.jit(twin, strict=True)
    globals_copy[fn.__name__] = compiled
    return compiled


def _variants(chain, cpython, ours, prior, pampy_name, jit: bool) -> dict:
    """Every implementation of one task. ``@jit`` is strict: a function that did not compile fails the run
    instead of timing the plain function; it is applied as a decorator in the module would be
    (``as_decorated``)."""
    variants = {"chain": chain, "moshjit": ours, "previous rewrite": prior, "CPython match": cpython}
    if tasks_pampy is not None and pampy_name is not None:
        variants["Pampy"] = getattr(tasks_pampy, pampy_name)
    if jit:
        variants["chain @jit"] = as_decorated(chain)
        variants["moshjit @jit"] = as_decorated(ours)
    return variants


def _time(fn, subjects) -> float:
    """Per-subject CPU time in ns of one pass (CPU time: other load on the machine waits)."""
    start = time.thread_time_ns()
    for subject in subjects:
        fn(subject)
    return (time.thread_time_ns() - start) / len(subjects)


def measure(subject_count: int, repeats: int, jit: bool) -> list[tuple[str, dict[str, float]]]:
    rng = random.Random(2024)
    rows = []
    for title, make, chain, cpython, ours, prior, pampy_name in TASKS:
        subjects = make(rng, subject_count)
        variants = _variants(chain, cpython, ours, prior, pampy_name, jit)
        expected = [chain(s) for s in subjects]
        for label, fn in variants.items():
            assert [fn(s) for s in subjects] == expected, f"{label} disagrees with the chain on {title}"
        times = {label: float("inf") for label in variants}
        for _ in range(repeats):  # interleave the variants so machine noise hits them alike
            for label, fn in variants.items():
                few = subjects[: max(1, len(subjects) // 20)] if label == "Pampy" else subjects
                times[label] = min(times[label], _time(fn, few))
        rows.append((title, times))
    text = "  Hello World  from BERT  "
    pipe = {"nested calls": tasks_reference.normalise_nested, "pipeline": tasks_moshjit.normalise}
    assert pipe["pipeline"](text) == pipe["nested calls"](text)
    times = {label: float("inf") for label in pipe}
    for _ in range(repeats):
        for label, fn in pipe.items():
            times[label] = min(times[label], _time(fn, [text] * subject_count))
    rows.append(("pipeline vs nested calls", times))
    return rows


def format_table(rows) -> str:
    columns = [c for c in COLUMNS if any(c in times for _, times in rows)]
    lines = ["| task | chain (ns/subject) | " + " | ".join(columns) + " |",
             "|---|---:|" + "---:|" * len(columns)]
    for title, times in rows:
        if "chain" not in times:
            cells = [f"{times['pipeline'] / times['nested calls']:.2f}×" if c == "moshjit" else "–" for c in columns]
            lines.append(f"| {title} | {times['nested calls']:.0f} (nested calls) | " + " | ".join(cells) + " |")
            continue
        base = times["chain"]
        cells = []
        for column in columns:
            if column not in times:
                cells.append("–")
            elif column == "Pampy":
                cells.append(f"{times[column] / base:.0f}×")
            else:
                cells.append(f"{times[column] / base:.2f}×")
        lines.append(f"| {title} | {base:.0f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def targets(rows) -> str:
    """The issue's targets, checked on the plain (not @jit) rows of this run."""
    tasks = [(title, times) for title, times in rows if "chain" in times]
    ratios = [times["moshjit"] / times["chain"] for _, times in tasks]
    median, worst = statistics.median(ratios), max(ratios)
    slower_than_cpython = [title for title, times in tasks if times["moshjit"] >= times["CPython match"]]
    lines = [f"- moshjit / hand-written chain: median {median:.2f}× (target ≤ 1.0: {'met' if median <= 1.0 else 'NOT met'}),"
             f" worst {worst:.2f}× (target ≤ 1.3: {'met' if worst <= 1.3 else 'NOT met'})",
             "- faster than CPython's match on every task: " + (
                 "yes" if not slower_than_cpython else "no, not on " + ", ".join(slower_than_cpython))]
    if all("moshjit @jit" in times for _, times in tasks):
        jit_ratios = [times["moshjit @jit"] / times["chain @jit"] for _, times in tasks]
        behind = [title for (title, _), r in zip(tasks, jit_ratios) if r > 1.0]
        lines.append(f"- under @jit, moshjit / chain: median {statistics.median(jit_ratios):.2f}×, worst "
                     f"{max(jit_ratios):.2f}×" + (f" (slower on: {', '.join(behind)})" if behind else ""))
    return "\n".join(lines)


def main() -> None:
    compile_at_first_call()              # steady-state speed: see benchmarks/steady_state.py
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subjects", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=25)
    parser.add_argument("--no-jit", action="store_true", help="skip the @jit columns (no compilation)")
    args = parser.parse_args()
    rows = measure(args.subjects, args.repeats, jit=not args.no_jit)
    print(format_table(rows))
    print("\nTimes relative to the hand-written isinstance/len chain (pipeline: to the nested calls); lower is "
          "better. '@jit' columns: the function compiled by moshjit (after its first calls).\n")
    print(targets(rows))


if __name__ == "__main__":
    main()

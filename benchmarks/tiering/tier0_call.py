"""Per-call cost of tier 0, side by side in one process: what a cold ``@jit`` function costs before it is hot.

    python -m benchmarks.tiering.tier0_call [--rounds 7] [--number 300000]

Rows, in nanoseconds per call (median of interleaved ``timeit.repeat`` rounds), each called from a Python loop:

- ``plain``: the function itself (CPython pushes its frame inline: the cheapest call there is);
- ``C callee floor``: ``functools.partial(function)``, a C callable that only vectorcalls the function — what any
  C-level wrapper at least costs, since CPython then enters the function through a new C-level call;
- ``tier 0``: ``@jit`` with thresholds nothing reaches, i.e. every call counted by the tier-0 entry;
- ``compiling``: ``@jit`` after the promotion while the compile has not finished (the uncounted entry);
- ``cold copy`` (methods): what a cold method's class holds after its first 32 calls, the plain-function copy
  with the counting prologue (``moshjit/cold_copy.py``); ``tier 0`` for methods is the dispatcher kept in the
  class (as before the copy, and as while the counted signatures near the promotion).

for a two-argument function and for a method of a class (``obj.method(x)``), and for a method whose calls see
two classes in turn (two signatures). Ratios are against ``plain``.
"""
from __future__ import annotations

import argparse
import functools
import statistics
import timeit

import moshjit


def pick(a, b):
    return a


class Shape:
    def __init__(self, size):
        self.size = size

    def grow(self, n):
        return self.size + n


class Square(Shape):
    pass


def cold(function):
    """``@jit`` of ``function`` with thresholds nothing reaches: every call stays in tier 0."""
    return moshjit.jit(function, tier="tiered", hot_calls=10**15, hot_ms=1e15)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--number", type=int, default=300_000)
    args = parser.parse_args(argv)

    cold_pick, compiling_pick = cold(pick), cold(pick)
    compiling_pick(1, 2)
    key = next(iter(compiling_pick._entries))
    compiling_pick._replace_entry(key, compiling_pick._plain_entry())    # what a promoted signature runs meanwhile

    class JitShape(Shape):
        grow = cold(Shape.grow)

    class JitSquare(JitShape):
        pass

    class DispatchedShape(Shape):
        pass
    dispatched = cold(Shape.grow)
    dispatched._tiering.attach = lambda owner, name: None      # the class keeps the dispatcher (no copy)
    DispatchedShape.grow = dispatched

    class DispatchedSquare(DispatchedShape):
        pass
    rows = {      # name: (statement, its globals)
        "function: plain": ("f(1, 2)", {"f": pick}),
        "function: C callee floor": ("f(1, 2)", {"f": functools.partial(pick)}),
        "function: tier 0": ("f(1, 2)", {"f": cold_pick}),
        "function: compiling": ("f(1, 2)", {"f": compiling_pick}),
        "method: plain": ("s.grow(1)", {"s": Shape(1)}),
        "method: tier 0": ("s.grow(1)", {"s": DispatchedShape(1)}),
        "method: cold copy": ("s.grow(1)", {"s": JitShape(1)}),
        "method, 2 classes: plain": ("a.grow(1); b.grow(1)", {"a": Shape(1), "b": Square(2)}),
        "method, 2 classes: tier 0": ("a.grow(1); b.grow(1)", {"a": DispatchedShape(1), "b": DispatchedSquare(2)}),
        "method, 2 classes: cold copy": ("a.grow(1); b.grow(1)", {"a": JitShape(1), "b": JitSquare(2)}),
    }
    times = {name: [] for name in rows}
    for _ in range(args.rounds):                       # interleaved: every row once per round
        for name, (statement, names) in rows.items():
            took = timeit.timeit(statement, globals=names, number=args.number)
            times[name].append(took / args.number * 1e9)
    medians = {name: statistics.median(values) for name, values in times.items()}
    print("| call | ns per call | × plain |")
    print("|---|---:|---:|")
    for name, value in medians.items():
        base = medians[name.split(":")[0] + ": plain"]
        print(f"| {name} | {value:.1f} | {value / base:.2f}× |")


if __name__ == "__main__":
    main()

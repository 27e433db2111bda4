"""Method calls, plain against jitted, measured side by side in one run (interleaved rounds, best and median).

    python -m benchmarks.method_calls [--rounds 31] [--number 20000]

Rows:
- from Python, ``p.grow(1)``: the plain method; the same class under ``jit(cls)``; its compiled entry called
  directly as ``entry(p, 1)`` (no dispatch at all);
- from jitted code, ``o.grow(1)`` on receivers read from a list of three classes (the receiver is not a parameter,
  so the call goes through a method site, ``backends/cython/method_sites.py``): a plain loop over plain classes
  under CPython against the jitted loop over the jitted classes (ns per call, loop included);
- from jitted code, a builtin type's method ``d.get(k, 0)`` on receivers read from a list (a ``dict`` and a
  ``dict`` subclass whose instances have a ``__dict__``; a method site keeps the method descriptor): the plain loop
  under CPython against the same loop jitted;
- from jitted code, ``cls.make(k)`` on classes read from a list (a classmethod, a staticmethod and a plain function
  on the class; a method site keeps each class's record): the plain loop over plain classes under CPython against
  the jitted loop over the jitted classes.

Eager compilation (``MOSHJIT_TIER=eager`` semantics: the first call compiles), ``backend="cython"``.
"""
from __future__ import annotations

import argparse
import statistics
import timeit

from benchmarks.steady_state import compile_at_first_call


def make_classes():
    """Three classes with a ``grow`` method each (fresh objects, so plain and jitted copies do not share)."""
    class Circle:
        def __init__(self):
            self.size = 1

        def grow(self, k):
            return self.size + k

    class Rect(Circle):
        def grow(self, k):
            return self.size * 2 + k

    class Point(Circle):
        def grow(self, k):
            return k

    return Circle, Rect, Point


def grow_all(shapes, k):
    total = 0
    for shape in shapes:
        total += shape.grow(k)
    return total


def get_all(mappings, k):
    total = 0
    for mapping in mappings:
        total += mapping.get(k, 0)
    return total


def make_factories():
    """Three classes whose ``make`` is a classmethod, a staticmethod and a plain function called on the class."""
    class Maker:
        @classmethod
        def make(cls, k):
            return k + 1

    class Static:
        @staticmethod
        def make(k):
            return k + 2

    class Plain:
        def make(k):
            return k + 3

    return Maker, Static, Plain


def make_all(classes, k):
    total = 0
    for cls in classes:
        total += cls.make(k)
    return total


def best_and_median(timers, calls: int, rounds: int, number: int) -> list[tuple[float, float]]:
    """(best, median) ns per call of each timer over interleaved rounds (each round times all of them once)."""
    times = [[] for _ in timers]
    for _ in range(rounds):
        for t, out in zip(timers, times):
            out.append(t.timeit(number=number) / (number * calls) * 1e9)
    return [(min(out), statistics.median(out)) for out in times]


def main() -> None:
    compile_at_first_call()              # steady-state speed: see benchmarks/steady_state.py
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--number", type=int, default=20_000)
    options = parser.parse_args()
    from moshjit import dispatcher, jit

    plain_classes = make_classes()
    jitted_classes = [jit(cls, backend="cython") for cls in make_classes()]
    plain, fast = plain_classes[0](), jitted_classes[0]()
    assert plain.grow(1) == fast.grow(1)
    entry = vars(jitted_classes[0])["grow"]._entries[(jitted_classes[0], "int64")]
    rows = best_and_median([timeit.Timer("p.grow(1)", globals={"p": plain}),
                            timeit.Timer("p.grow(1)", globals={"p": fast}),
                            timeit.Timer("f(p, 1)", globals={"f": entry, "p": fast})],
                           1, options.rounds, options.number)
    print(f"ns per call: best / median of {options.rounds} interleaved rounds of {options.number}")
    for name, (best, median) in zip(["plain method p.grow(1)", "jit(cls) method p.grow(1)",
                                     "its compiled entry entry(p, 1)"], rows):
        print(f"{name:<40}{best:>8.1f}{median:>8.1f}")

    shapes_plain = [cls() for cls in plain_classes] * 100
    shapes_fast = [cls() for cls in jitted_classes] * 100
    assert dispatcher.key_of(shapes_fast) is list
    print_loop_rows("loop of o.grow(1), 3 classes", grow_all, shapes_plain, shapes_fast, options)

    class Table(dict):
        pass

    mappings = [{1: 2}, Table({1: 3})] * 150
    print_loop_rows("loop of d.get(1, 0), 2 types", get_all, mappings, mappings, options)

    factories_fast = [jit(cls, backend="cython") for cls in make_factories()] * 100
    print_loop_rows("loop of cls.make(1), 3 classes", make_all, list(make_factories()) * 100, factories_fast,
                    options)


def print_loop_rows(label: str, loop, plain_items: list, fast_items: list, options) -> None:
    """Time ``loop(items, 1)`` plainly over ``plain_items`` and jitted over ``fast_items`` (same results checked),
    interleaved, and print ns per item for both."""
    from moshjit import jit
    jitted_loop = jit(loop, backend="cython")
    assert jitted_loop(fast_items, 1) == loop(plain_items, 1)
    rows = best_and_median([timeit.Timer("f(s, 1)", globals={"f": loop, "s": plain_items}),
                            timeit.Timer("f(s, 1)", globals={"f": jitted_loop, "s": fast_items})],
                           len(plain_items), options.rounds, max(1, options.number // 100))
    for name, (best, median) in zip([f"{label}: CPython", "the same, jitted"], rows):
        print(f"{name:<40}{best:>8.1f}{median:>8.1f}")

if __name__ == "__main__":
    main()

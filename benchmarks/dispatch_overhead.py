"""Per-call cost of the ``@jit`` call path, measured side by side in one run: the plain Python function, the raw
compiled entry of its specialisation (no dispatch at all) and the ``@jit(backend="cython")`` dispatcher.

    python -m benchmarks.dispatch_overhead [--rounds 7] [--number 200000]

One row per argument shape (one int64, one str, one list, a 3-tuple of ints, a 4-tuple holding an int beyond 64 bits
as mpmath's numbers are, a class instance, and instances of three classes in turn); nanoseconds per call, median of
interleaved ``timeit.repeat`` rounds, and the dispatcher's overhead over the raw entry. ``backend="cython"`` keeps
the LLVM fast path from replacing the dispatcher; the rows marked ``auto`` are what a user gets by default (the
backend the dispatcher chose for that signature).

A last row calls a method, ``obj.grow(1)``: the plain method, the raw entry called as ``entry(obj, 1)``, and the
same function jitted in the class body (a jitted method is a method descriptor: no bound method is made).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import timeit
from benchmarks.steady_state import compile_at_first_call

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def add_one(x):
    return x + 1


def str_length(s):
    return len(s)


def list_length(xs):
    return len(xs)


def tuple_sum(t):
    return t[0] + t[1] + t[2]


def mantissa_is_odd(mpf):
    return mpf[1] & 1 == 1


def size_of(shape):
    return shape.size


class Circle:
    def __init__(self):
        self.size = 1


class Rect:
    def __init__(self):
        self.size = 2


class Point:
    def __init__(self):
        self.size = 3


def grow(self, k):
    return self.size + k


PlainCounter = type("PlainCounter", (Circle,), {"grow": grow})


# name, function, the arguments of one round of calls (several when signatures alternate)
CASES = [
    ("one int64", add_one, [7]),
    ("one str", str_length, ["hello"]),
    ("one list", list_length, [[1, 2, 3]]),
    ("3-tuple of ints", tuple_sum, [(1, 2, 3)]),
    ("4-tuple, big int", mantissa_is_odd, [(0, 2 ** 200 + 1, -203, 203)]),
    ("class instance", size_of, [Circle()]),
    ("3 classes in turn", size_of, [Circle(), Rect(), Point()]),
]

# the same, with the backend the dispatcher chooses (LLVM where the signature and the body are native)
AUTO_CASES = [("one int64", add_one, [7]), ("3-tuple of ints", tuple_sum, [(1, 2, 3)]),
              ("4-tuple, big int", mantissa_is_odd, [(0, 2 ** 200 + 1, -203, 203)])]


def timer(callables, args) -> timeit.Timer:
    """Times calling ``callables[i](args[i])`` for each i in turn."""
    names = {f"f{i}": fn for i, fn in enumerate(callables)} | {f"a{i}": a for i, a in enumerate(args)}
    return timeit.Timer("; ".join(f"f{i}(a{i})" for i in range(len(args))), globals=names)


def per_call_ns(timers, calls_per_round: int, rounds: int, number: int) -> list[float]:
    """Median time per call of each timer over interleaved ``timeit.repeat`` rounds (one round of each in turn,
    so a busy moment on the machine hits all of them alike)."""
    times = [[] for _ in timers]
    for _ in range(rounds):
        for t, out in zip(timers, times):
            out.extend(t.repeat(repeat=1, number=number))
    return [statistics.median(out) / (number * calls_per_round) * 1e9 for out in times]


def main() -> None:
    compile_at_first_call()              # steady-state speed: see benchmarks/steady_state.py
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--number", type=int, default=200_000)
    options = parser.parse_args()

    from moshjit import dispatcher, jit
    core = [c.__name__ for c in dispatcher.dispatcher_class().__mro__ if "Core" in c.__name__]
    print(f"call path: {', '.join(core)}; ns per call, median of {options.rounds} interleaved rounds of "
          f"{options.number}")
    print(f"{'arguments':<34}{'python':>10}{'raw entry':>12}{'@jit':>10}{'@jit - raw':>12}{'@jit / raw':>12}")
    for backend, cases in (("cython", CASES), ("auto", AUTO_CASES)):
        for name, function, args in cases:
            jitted = jit(function, backend=backend)
            for a in args:
                assert jitted(a) == function(a)
            keys = [tuple(map(dispatcher.key_of, (a,))) for a in args]
            entries = [jitted._entries[key] for key in keys]
            plain, raw, through = per_call_ns([timer([function] * len(args), args),
                                               timer(entries, args),
                                               timer([jitted] * len(args), args)],
                                              len(args), options.rounds, options.number)
            if backend != "cython":
                name += f" ({backend}: {jitted.stats[dispatcher.describe_signature(keys[0])]['backend']})"
            print(f"{name:<34}{plain:>10.1f}{raw:>12.1f}{through:>10.1f}{through - raw:>12.1f}"
                  f"{through / raw:>12.2f}")
    jitted_counter = type("JittedCounter", (Circle,), {"grow": jit(grow, backend="cython")})()
    plain_counter = PlainCounter()
    assert jitted_counter.grow(1) == plain_counter.grow(1)
    entry = type(jitted_counter).grow._entries[(type(jitted_counter), "int64")]
    plain, raw, through = per_call_ns([timeit.Timer("o.grow(1)", globals={"o": plain_counter}),
                                       timeit.Timer("f(o, 1)", globals={"f": entry, "o": jitted_counter}),
                                       timeit.Timer("o.grow(1)", globals={"o": jitted_counter})],
                                      1, options.rounds, options.number)
    name = "method obj.grow(1)"
    print(f"{name:<34}{plain:>10.1f}{raw:>12.1f}{through:>10.1f}{through - raw:>12.1f}{through / raw:>12.2f}")


if __name__ == "__main__":
    main()

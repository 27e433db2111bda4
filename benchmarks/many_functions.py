"""What a call costs when a program calls many different small jitted functions in turn, as class-heavy library
code does, against the same calls to one function; and one function called with several signatures in turn.

    python -m benchmarks.many_functions [--rounds 7] [--functions 100]

A single hot function keeps its code and data in the caches; a program of many small functions runs code from
many generated modules (one per specialisation) one call after another, and each call then also pays for the
pages and cache lines of its module. The rows time the same number of calls both ways, plain CPython against
``@jit`` (default backend, compiled at the first call), ns per call, median of interleaved rounds:
- ``N functions in turn``: N distinct functions (four shapes: a dict probe, an attribute read, a str method, int
  arithmetic; a constant of their own each), each called once per round;
- ``1 function N times``: the first of them, called N times per round;
- ``S signatures in turn``: one function called with S argument signatures in turn (two classes at one parameter
  times up to five at the other, as a state machine passes its roles and events), against the dispatcher's C check.
"""
from __future__ import annotations

import argparse
import statistics
import time

from benchmarks.steady_state import compile_at_first_call

SHAPES = [
    "def f{i}(x, d):\n    if x in d:\n        return d[x] + {i}\n    return len(d) * {i} - x\n",
    "def f{i}(x, d):\n    return d.size + x * {i}\n",
    "def f{i}(x, d):\n    return len(d.name.strip()) + {i} + x\n",
    "def f{i}(x, d):\n    y = x * {i} + 1\n    return y // 3 + y % 7\n",
]


class Item:
    def __init__(self):
        self.size = 3
        self.name = "  item  "


def functions(count: int) -> list:
    """``count`` distinct plain functions of the four shapes, defined from source as a module defines them."""
    source = "".join(SHAPES[i % len(SHAPES)].format(i=i) for i in range(count))
    namespace: dict = {}
    exec(compile(source, "<many_functions>", "exec"), namespace)
    return [namespace[f"f{i}"] for i in range(count)]


def argument_of(i: int):
    return {i: i for i in range(0, 50, 3)} if i % len(SHAPES) == 0 else Item()


class Role(type):
    """h11's sentinels: classes that are their own type."""

    def __new__(cls, name, bases, namespace):
        made = super().__new__(cls, name, bases, namespace)
        made.__class__ = made
        return made


Client = Role("Client", (Role,), {})
Server = Role("Server", (Role,), {})
EVENTS = [type(name, (), {}) for name in ("Request", "Response", "Data", "EndOfMessage")]


def route(role, event, table):
    return table.get((role, type(event)), 0)


def signatures(count: int) -> list:
    """``count`` argument tuples of distinct signatures for ``route``."""
    events = [None] + [event() for event in EVENTS]
    return [((Client, Server)[i % 2], events[i // 2 % len(events)], {}) for i in range(count)]


def per_call_ns(calls_of, engines: dict, rounds: int, repeat: int) -> dict:
    """ns per call of each engine: ``calls_of(engine)`` lists (function, args) pairs; rounds interleave engines."""
    times: dict = {name: [] for name in engines}
    for _ in range(rounds):
        for name, engine in engines.items():
            calls = calls_of(engine)
            start = time.perf_counter()
            for _ in range(repeat):
                for function, args in calls:
                    function(*args)
            times[name].append((time.perf_counter() - start) / (repeat * len(calls)) * 1e9)
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    compile_at_first_call()              # steady-state speed: see benchmarks/steady_state.py
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--functions", type=int, default=100)
    options = parser.parse_args()
    from moshjit import jit

    plain = functions(options.functions)
    jitted = [jit(f) for f in plain]
    arguments = [(i % 50, argument_of(i)) for i in range(options.functions)]
    for p, j, args in zip(plain, jitted, arguments):
        assert p(*args) == j(*args)
    engines = {"cpython": plain, "@jit": jitted}
    repeat = max(1, 200_000 // options.functions)
    print(f"ns per call, median of {options.rounds} interleaved rounds; × = CPython time / @jit time")
    print(f"{'calls':<28}{'CPython':>10}{'@jit':>10}{'×':>8}")
    rows = [(f"{options.functions} functions in turn", lambda fs: list(zip(fs, arguments))),
            (f"1 function {options.functions} times", lambda fs: [(fs[0], arguments[0])] * options.functions)]
    for name, calls_of in rows:
        ns = per_call_ns(calls_of, engines, options.rounds, repeat)
        print(f"{name:<28}{ns['cpython']:>10.1f}{ns['@jit']:>10.1f}{ns['cpython'] / ns['@jit']:>8.2f}")
    for count in (1, 4, 6, 8, 10):
        calls = signatures(count)
        routed = {"cpython": route, "@jit": jit(route)}
        for args in calls:
            assert routed["@jit"](*args) == route(*args)
        ns = per_call_ns(lambda f: [(f, args) for args in calls], routed, options.rounds, 200_000 // count)
        name = f"{count} signatures in turn"
        print(f"{name:<28}{ns['cpython']:>10.1f}{ns['@jit']:>10.1f}{ns['cpython'] / ns['@jit']:>8.2f}")


if __name__ == "__main__":
    main()

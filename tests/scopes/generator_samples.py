"""Generator functions for the differential tests: each is driven the same way (next, send, throw, close) in
CPython and compiled."""
# ruff: noqa


def count_to(n):
    for i in range(n):
        yield i


def running_total(n):
    total = 0
    for i in range(n):
        try:
            got = yield i * 2
        except ValueError:
            got = -1
        total += got or 0
    return total


def with_cleanup(xs):
    log = []
    try:
        for x in xs:
            log.append(x)
            yield x * x
    except GeneratorExit:
        log.append("exit")
        raise
    finally:
        log.append("finally")
        yield_log.append(tuple(log))


yield_log = []


def refuses_to_close(n):
    for i in range(n):
        try:
            yield i
        except GeneratorExit:
            yield "no"                  # close() raises RuntimeError("generator ignored GeneratorExit")


def returns_early(flag):
    if flag:
        return "early"
    yield 1
    return "late"


def never_yields(x):
    return x * 2
    yield


def leaks_stop_iteration(xs):
    it = iter(xs)
    while True:
        yield next(it)                  # PEP 479: StopIteration escaping becomes RuntimeError


def echo(start):
    value = start
    while value is not None:
        value = yield value + 1 if isinstance(value, int) else value


def yields_in_expressions(a, b):
    pair = ((yield a), (yield b))
    yield pair
    return len(pair) + (yield "last")


def fibonacci_words(limit):
    a, b = 0, 1
    while a < limit:
        yield f"{a}:{len(str(a))}"
        a, b = b, a + b


def with_closure(xs, k):
    scale = lambda v: v * k
    for x in xs:
        k += 1
        yield scale(x)


CASES = [
    (count_to, [(0,), (3,)]),
    (running_total, [(4,)]),
    (with_cleanup, [([1, 2, 3],), ([],)]),
    (refuses_to_close, [(3,)]),
    (returns_early, [(0,), (1,)]),
    (never_yields, [(4,), ("s",)]),
    (leaks_stop_iteration, [([1, 2],)]),
    (echo, [(1,), ("a",)]),
    (yields_in_expressions, [(1, 2)]),
    (fibonacci_words, [(100,), (0,)]),
    (with_closure, [([1, 2, 3], 2)]),
]

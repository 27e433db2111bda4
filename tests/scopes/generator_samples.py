"""Generator functions for the differential tests: each is driven the same way (next, send, throw, close) in
CPython and compiled."""
# ruff: noqa
import sys


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


def delegate(n):
    got = yield from running_total(n)   # send and throw reach the sub-generator; its return value comes back
    yield ("total", got)
    return got


def delegate_twice(n):
    first = yield from delegate(n)
    second = yield from with_cleanup(range(n))    # close() reaches the sub-generator's cleanup
    return first, second


def delegate_to_iterables(xs):
    yield from xs
    yield from range(2)
    yield from "ab"
    return (yield from [])


def delegate_to_an_iterator(xs):
    return (yield from iter(xs))        # a list iterator has no send, throw or close: CPython's errors


def delegate_inside_try(n):
    try:
        result = yield from refuses_to_close(n)
    except (ValueError, RuntimeError) as exc:
        result = ("caught", type(exc).__name__)
    finally:
        yield_log.append("finally")
    yield result


def delegate_to_anything(x):
    got = yield from x                  # an int: TypeError; a coroutine: refused in a generator
    return got


async def _a_coroutine():
    return 1


def delegate_to_a_coroutine(flag):
    coroutine = _a_coroutine()
    try:
        yield from coroutine
    finally:
        coroutine.close()


def yields_while_handling(n):
    """Suspended inside ``except``: still handling the KeyError when resumed, and what is thrown in chains to it."""
    try:
        raise KeyError(n)
    except KeyError:
        got = yield n
        yield ("handling", repr(sys.exc_info()[1]), got)
        got = yield from running_total(n)
    yield ("after", repr(sys.exc_info()[1]), got)


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
    (delegate, [(3,), (0,)]),
    (delegate_twice, [(2,)]),
    (delegate_to_iterables, [([1, 2],), ((),), ("xyz",)]),
    (delegate_to_an_iterator, [([1, 2, 3],)]),
    (delegate_inside_try, [(2,)]),
    (delegate_to_anything, [(5,), ([7],), (None,)]),
    (delegate_to_a_coroutine, [(1,)]),
    (yields_while_handling, [(2,), (0,)]),
]

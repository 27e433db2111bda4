"""Coroutines (``async def``) for the differential tests: each is driven the same way (send, throw, close) in
CPython and compiled. ``Ticket`` suspends, so what the driver sends comes back as an ``await``'s result."""
# ruff: noqa
import collections
import sys
import types

await_log = []


class Ticket:
    """An awaitable that suspends once per item, yielding it; its result is what each resumption sent."""

    def __init__(self, *items):
        self.items = items

    def __await__(self):
        got = []
        for item in self.items:
            got.append((yield item))
        return tuple(got)


class AwaitRaises:
    def __await__(self):
        raise ValueError("no awaiting")


class AwaitReturns:
    """``__await__`` returning what it was given: an iterator is fine, anything else is CPython's TypeError."""

    def __init__(self, result):
        self.result = result

    def __await__(self):
        return self.result


async def _plain_inner(n):
    return (await Ticket(n)) + (n,)


@types.coroutine
def _generator_based(n):
    got = yield n
    return ("generator-based", got)


async def accumulate(n):
    total = 0
    for i in range(n):
        try:
            got = await Ticket(i, i + 1)
        except ValueError:
            got = (-1,)
        total += len(got) + sum(x for x in got if isinstance(x, int))
    return total


async def awaits_coroutines(n):
    first = await accumulate(n)                 # a coroutine: its suspensions reach the driver
    second = await _plain_inner(n)
    third = await _generator_based(n)
    return first, second, third


async def with_cleanup(n):
    log = []
    try:
        for i in range(n):
            log.append(await Ticket(i))
    except GeneratorExit:
        log.append("exit")
        raise
    finally:
        await_log.append(tuple(log))
    return log


async def awaits_anything(x):
    return await x                              # not awaitable, __await__ raising or returning a non-iterator


async def awaits_in_expressions(a, b):
    pair = (await Ticket(a), await Ticket(b))
    return [len(pair)] + [item for part in pair for item in part]


async def never_awaits(x):
    return x * 2


async def raises_stop_iteration(x):
    if x:
        raise StopIteration(x)                  # PEP 479: RuntimeError("coroutine raised StopIteration")
    return await Ticket(x)


async def recursive(n):
    if n <= 1:
        return n
    return await recursive(n - 1) + await recursive(n - 2)


async def awaits_itself_twice(n):
    inner = _plain_inner(n)
    first = await inner
    try:
        await inner                             # RuntimeError: cannot reuse already awaited coroutine
    except RuntimeError as exc:
        return first, str(exc)
    return first


async def awaits_while_handling(n):
    """Suspended inside ``except``: still handling the KeyError when resumed, and what is thrown in chains to it."""
    try:
        raise KeyError(n)
    except KeyError:
        got = await Ticket(n)
        return repr(sys.exc_info()[1]), got, await _plain_inner(n)


class Manager:
    """An asynchronous context manager whose ``__aenter__`` and ``__aexit__`` suspend, logging what they see;
    ``__aexit__`` suppresses the exception when told to."""

    def __init__(self, suppress=False):
        self.suppress = suppress
        self.log = []

    async def __aenter__(self):
        self.log.append(("enter", await Ticket("enter")))
        return self.log

    async def __aexit__(self, kind, value, tb):
        self.log.append(("exit", kind and kind.__name__, value and str(value), await Ticket("exit")))
        return self.suppress


class EnterNotAwaitable(Manager):
    def __init__(self, result=5):
        super().__init__()
        self.result = result

    def __aenter__(self):
        return self.result                      # TypeError: ... received an object from __aenter__ ...


class ExitNotAwaitable(Manager):
    def __aexit__(self, kind, value, tb):
        return None                             # TypeError: ... received an object from __aexit__ ...


class SynchronousOnly:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class EnterOnly:
    async def __aenter__(self):
        return self                             # TypeError: ... (missed __aexit__ method)


async def with_async_manager(manager, fail):
    async with manager as log:
        log.append(("body", await Ticket("body")))
        if fail:
            raise ValueError("in the body")
    return manager.log


async def returns_inside_async_with(manager):
    async with manager as log:
        return len(log), await Ticket("returning")


async def nested_async_with_in_a_loop(outer, inner, stop):
    seen = []
    for i in range(3):
        async with outer, inner as log:
            seen.append(i)
            if i == stop:
                break
            if i == 0:
                continue
            seen.append(await Ticket(i))
    return seen, outer.log, inner.log


class Countdown:
    """An async iterator whose ``__anext__`` suspends (a Ticket per item), then ends with StopAsyncIteration or
    ``error``."""

    def __init__(self, n, error=None):
        self.n, self.error = n, error

    def __aiter__(self):
        await_log.append("aiter")
        return self

    async def __anext__(self):
        if self.n == 0:
            if self.error is not None:
                raise self.error
            raise StopAsyncIteration
        self.n -= 1
        got = await Ticket(self.n)
        return self.n, got


class AiterWithoutAnext:
    def __aiter__(self):
        return self


class AnextNotAwaitable(Countdown):
    def __anext__(self):
        return 5


class AnextAwaitsBadly(Countdown):
    def __anext__(self):
        return AwaitReturns(7)                  # __await__() returned non-iterator


async def _plain_async_generator(n):
    for i in range(n):
        yield i, await Ticket(i)


async def sum_async_for(iterable, stop):
    total = []
    async for item in iterable:
        if item[0] == stop:
            break
        total.append(item)
    else:
        total.append("else")
    return total


async def async_for_raises_in_body(iterable):
    async for item in iterable:
        raise ValueError(f"body {item[0]}")


async def nested_async_for_while_handling(outer, make_inner):
    seen = []
    try:
        raise KeyError("handled")
    except KeyError:
        async for a in outer:
            async for b in make_inner():
                seen.append((a[0], b[0], type(sys.exception()).__name__))
    return seen, sys.exception()


CASES = [
    (accumulate, [(0,), (3,)]),
    (awaits_coroutines, [(2,)]),
    (with_cleanup, [(3,), (0,)]),
    (awaits_anything, [(5,), (None,), ("s",)]),
    (awaits_in_expressions, [(1, "x")]),
    (never_awaits, [(4,), ("s",)]),
    (raises_stop_iteration, [(0,), (3,)]),
    (recursive, [(6,)]),
    (awaits_itself_twice, [(1,)]),
    (awaits_while_handling, [(1,)]),
    (with_async_manager, []),
    (returns_inside_async_with, []),
    (nested_async_with_in_a_loop, []),
    (sum_async_for, []),
    (async_for_raises_in_body, []),
    (nested_async_for_while_handling, []),
]
"""(coroutine function, the argument tuples it is called with); awaitables made per call are in MADE_ARGUMENTS."""

MADE_ARGUMENTS = {
    awaits_anything: [lambda: (Ticket(1, 2),), lambda: (AwaitRaises(),), lambda: (AwaitReturns(7),),
                      lambda: (AwaitReturns(iter([1, 2])),), lambda: (AwaitReturns(_generator_based(1)),),
                      lambda: (_generator_based(3),)],
    with_async_manager: [lambda: (Manager(), False), lambda: (Manager(), True), lambda: (Manager(True), True),
                         lambda: (EnterNotAwaitable(), False), lambda: (ExitNotAwaitable(), False),
                         lambda: (EnterNotAwaitable(collections.OrderedDict()), False),   # tp_name has a module
                         lambda: (ExitNotAwaitable(), True), lambda: (SynchronousOnly(), False),
                         lambda: (EnterOnly(), False), lambda: (None, False),
                         lambda: (collections.OrderedDict(), False)],
    returns_inside_async_with: [lambda: (Manager(),), lambda: (Manager(True),), lambda: (ExitNotAwaitable(),)],
    sum_async_for: [lambda: (Countdown(3), -1), lambda: (Countdown(4), 1), lambda: (Countdown(2, KeyError("k")), -1),
                    lambda: (_plain_async_generator(3), 2), lambda: (Countdown(0), 0), lambda: (5, 0),
                    lambda: (AiterWithoutAnext(), 0), lambda: (AnextNotAwaitable(2), 0),
                    lambda: (AnextAwaitsBadly(2), 0), lambda: (collections.OrderedDict(), 0)],
    async_for_raises_in_body: [lambda: (Countdown(2),), lambda: (Countdown(0),)],
    nested_async_for_while_handling: [lambda: (Countdown(2), lambda: Countdown(2)),
                                      lambda: (_plain_async_generator(2), lambda: Countdown(1, ValueError("v")))],
    nested_async_with_in_a_loop: [lambda: (Manager(), Manager(), 1), lambda: (Manager(True), Manager(), 5),
                                  lambda: (Manager(), EnterOnly(), 2)],
}
"""Arguments made afresh for each run (an awaitable is used up by awaiting it)."""


# ---- async generators: driven with asend/athrow/aclose (``ASYNC_GENERATOR_CASES``) -------------------------------
async def pairs_up(n):
    for i in range(n):
        got = yield i, await Ticket(i)
        if got is not None:
            yield "got", got


async def cleans_up_on_close(n):
    try:
        for i in range(n):
            try:
                yield i
            except KeyError as exc:
                yield "caught", str(exc)
    finally:
        await_log.append(("finally", await Ticket("cleanup")))


async def yields_while_handling_async(n):
    try:
        raise ValueError("handled")
    except ValueError:
        for i in range(n):
            yield i, type(sys.exception()).__name__
    yield "after", sys.exception()


async def raises_stop_async_iteration(n):
    yield n
    raise StopAsyncIteration                    # RuntimeError: async generator raised StopAsyncIteration


async def returns_early(n):
    if n > 1:
        return
    yield await Ticket(n)


ASYNC_GENERATOR_CASES = [
    (pairs_up, [(0,), (3,)]),
    (cleans_up_on_close, [(2,), (0,)]),
    (yields_while_handling_async, [(2,)]),
    (raises_stop_async_iteration, [(1,)]),
    (returns_early, [(1,), (2,)]),
]

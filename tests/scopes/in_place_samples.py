"""Coroutines that await themselves, for ``test_in_place_awaits.py``, which loads this file twice: once as it is
(CPython), once with ``decorate`` jitting every function, so that each global names its dispatcher as it would
under ``@jit``."""
import types

decorate = globals().get("decorate", lambda fn: fn)


@types.coroutine
def _suspend(value):
    """Suspends once, yielding ``value``; its result is what the driver sends back."""
    return (yield value)


@decorate
async def fib(n):
    if n <= 1:
        return n
    return await fib(n - 1) + await fib(n - 2)


@decorate
async def power(base, exponent):                # beyond 64 bits: the awaited results are big ints
    if exponent <= 0:
        return 1
    return base * await power(base, exponent - 1)


@decorate
async def halves(x, n):                         # floats
    if n <= 0:
        return x
    return await halves(x / 2, n - 1) + 0.25


@decorate
async def divide_down(n, d):                    # ZeroDivisionError deep down, through every level
    if n <= 0:
        return 10 // d
    return n + await divide_down(n - 1, d - 1)


@decorate
async def depth(n):                             # RecursionError when n passes the recursion limit
    if n <= 0:
        return 0
    return 1 + await depth(n - 1)


@decorate
async def steps(n):                             # awaits itself with a float: another specialisation
    if n <= 0:
        return n
    return await steps(n - 1.5) * 2


@decorate
async def suspends_at_the_bottom(n):            # awaits something that suspends: stays a coroutine
    if n <= 0:
        return await _suspend(n)
    return await suspends_at_the_bottom(n - 1) + 1


@decorate
async def collects(n, seen):                    # a list: not numbers only, stays a coroutine
    seen.append(n)
    if n <= 0:
        return len(seen)
    return await collects(n - 1, seen)

"""A decorator's wrapper around a jitted function (``functools.wraps`` copies the dispatcher's attributes into it:
``lru_cache``, ``contextmanager``) is the wrapper, not the jitted function: compiled callers call it, so its cache,
its context manager and their side effects are CPython's."""
from __future__ import annotations

import contextlib
import functools

import pytest

import moshjit
from moshjit.errors import UnsupportedError
import moshjit.functions
from moshjit.functions import jitted_function, python_function


def make_world(jit):
    """The same functions, jitted (``jit`` is ``moshjit.jit``) or plain (``jit`` returns the function)."""
    calls = []

    @functools.lru_cache(maxsize=None)
    @jit
    def doubled(x):
        calls.append(x)
        return x * 2

    @jit
    def user(xs):
        return [doubled(x) for x in xs]

    @functools.lru_cache(maxsize=None)
    @jit
    def fib(n):
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    @contextlib.contextmanager
    @jit
    def tagged(log, tag):
        log.append(("open", tag))
        yield tag
        log.append(("close", tag))

    @jit
    def use(log, tag):
        with tagged(log, tag) as value:
            log.append(("in", value))
        return log

    return calls, doubled, user, fib, use


def observe(world, xs):
    calls, doubled, user, fib, use = world
    return (user(xs), list(calls), doubled.cache_info(), fib(30), fib.cache_info(), use([], "t"))


@pytest.mark.parametrize("xs", [[1, 1, 1], [3, 1, 3, 2, 1], []])
def test_a_wrapped_jitted_function_is_called_through_its_wrapper(xs):
    plain = observe(make_world(lambda f: f), xs)
    jitted = observe(make_world(lambda f: moshjit.jit(f, backend="cython")), xs)
    assert jitted == plain


def test_only_a_dispatcher_is_a_jitted_function():
    dispatcher = moshjit.jit(lambda x: x + 1)
    wrapper = functools.lru_cache(dispatcher)
    assert "py_func" in vars(wrapper)                 # what functools.wraps copied
    assert jitted_function(dispatcher) is dispatcher.py_func and jitted_function(wrapper) is None
    with pytest.raises(UnsupportedError, match="Python functions only"):
        python_function(wrapper)


def test_a_wrapper_of_a_cold_methods_copy_is_not_the_method():
    """A tiered method's class holds a plain-function copy while it is cold; ``functools.wraps`` copies the copy's
    dict (naming the dispatcher) into a wrapper put in its place: compiled callers must call the wrapper."""
    log = []

    class Counter:
        @moshjit.jit(tier="tiered", backend="cython")
        def step(self, x):
            return x + 1

    @moshjit.jit(tier="eager", backend="cython")
    def run(n):
        counter = Counter()                     # a known class: the call is direct, behind its guard
        total = 0
        for i in range(n):
            total += counter.step(i)
        return total

    for i in range(40):                         # cold: the class now holds the copy
        Counter().step(i)
    copy = vars(Counter)["step"]
    assert moshjit.functions.cold_copy_dispatcher(copy) is not None
    assert run(5) == 15

    @functools.wraps(copy)
    def logged(self, x):
        log.append(x)
        return copy(self, x)

    Counter.step = logged
    assert moshjit.functions.cold_copy_dispatcher(logged) is None
    assert run(3) == 6 and log == [0, 1, 2]

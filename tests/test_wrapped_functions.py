"""A jitted function carrying ``__wrapped__`` (``functools.wraps``, ``contextlib.contextmanager``) is called with
its own parameters, not those of the function it wraps: ``inspect.signature`` follows ``__wrapped__`` unless told
not to, and the tier-0 call path rebound ``offset(filter_, n)``'s arguments — packed for the helper's ``*args``
— as ``(filter_, n)``, so sqlparse's ``offset`` got a tuple for ``filter_``."""
from __future__ import annotations

import contextlib
import functools

import pytest

import moshjit


@contextlib.contextmanager
def shifted(holder, n=0):
    holder.offset += n
    yield holder.offset
    holder.offset -= n


class Holder:
    def __init__(self):
        self.offset = 0


def logged(function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        return ("called", function(*args, **kwargs))
    return wrapper


@logged
def area(width, height=2):
    return width * height


def scaled(a, b=10):
    return a * b


def other_defaults(a, b=99):
    return a - b


scaled.__wrapped__ = other_defaults       # names another default; a wrapper without a closure is inlined


def calls_scaled(x):
    return scaled(x) + scaled(x, 2)


@pytest.mark.parametrize("tier", ["tiered", "eager"])
def test_a_context_manager_function_gets_its_own_arguments(tier):
    jitted, holder = moshjit.jit(shifted, tier=tier), Holder()
    for _ in range(3):
        with jitted(holder, 2) as inside:
            assert inside == holder.offset == 2
        assert holder.offset == 0


@pytest.mark.parametrize("tier", ["tiered", "eager"])
def test_a_functools_wraps_wrapper_gets_its_own_arguments(tier):
    jitted = moshjit.jit(area, tier=tier)
    for _ in range(3):
        assert jitted(3) == area(3) == ("called", 6)
        assert jitted(3, height=4) == area(3, height=4)
    errors = []
    for function in (area, jitted):               # the wrapped function's own TypeError, raised inside
        with pytest.raises(TypeError) as raised:
            function()
        errors.append(str(raised.value))
    assert errors[0] == errors[1]

def test_an_inlined_callee_binds_its_own_parameters():
    assert moshjit.jit(calls_scaled)(3) == calls_scaled(3) == 36

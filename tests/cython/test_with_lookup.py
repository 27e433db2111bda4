"""``with`` and ``async with`` find ``__enter__``/``__exit__`` (``__aenter__``/``__aexit__``) as CPython's
BEFORE_WITH does: on the type's MRO only, bound by the attribute's own descriptor (functions, staticmethods,
classmethods, callables that are no descriptors), with CPython's TypeError when one is missing."""
from __future__ import annotations

import asyncio

import pytest

import moshjit


class Plain:
    def __enter__(self):
        return "plain"

    def __exit__(self, *exc):
        return False


class Static:
    @staticmethod
    def __enter__():
        return "static"

    @classmethod
    def __exit__(cls, *exc):
        return cls.__name__ == "Static"


class CallableExit:
    """``__exit__`` is an object with ``__call__`` but no ``__get__``: called without the manager."""

    class Closer:
        def __call__(self, *exc):
            return len(exc) == 3

    __enter__ = Plain.__enter__
    __exit__ = Closer()


class OnInstanceOnly:
    def __init__(self):
        self.__enter__ = lambda: "instance"
        self.__exit__ = lambda *exc: False


class NoExit:
    def __enter__(self):
        return "no exit"


class Meta(type):
    def __enter__(cls):
        return "meta"

    def __exit__(cls, *exc):
        return False


class ThroughMeta(metaclass=Meta):
    pass


class Async:
    async def __aenter__(self):
        return "async"

    async def __aexit__(self, *exc):
        return True


class AsyncNoExit:
    async def __aenter__(self):
        return "async no exit"


def enter_and_raise(manager):
    with manager as value:
        raise ValueError(value)
    return "suppressed"


async def enter_async(manager):
    async with manager as value:
        raise ValueError(value)
    return "suppressed"


def outcome(call):
    try:
        return "ok", call()
    except Exception as exc:
        return type(exc), str(exc)


MANAGERS = [Plain(), Static(), CallableExit(), OnInstanceOnly(), NoExit(), ThroughMeta(), ThroughMeta, 42]


@pytest.mark.parametrize("manager", MANAGERS, ids=lambda m: type(m).__name__)
def test_with_finds_the_special_methods_as_cpython(manager):
    jitted = moshjit.jit(enter_and_raise, backend="cython")
    for _ in range(2):
        assert outcome(lambda: jitted(manager)) == outcome(lambda: enter_and_raise(manager))


@pytest.mark.parametrize("manager", [Async(), AsyncNoExit(), Plain()], ids=lambda m: type(m).__name__)
def test_async_with_finds_the_special_methods_as_cpython(manager):
    jitted = moshjit.jit(enter_async, backend="cython")
    assert outcome(lambda: asyncio.run(jitted(manager))) == outcome(lambda: asyncio.run(enter_async(manager)))

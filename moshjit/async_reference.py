"""CPython's ``async for`` in Python: ``GET_AITER`` and ``GET_ANEXT`` (ceval.c) with ``_PyCoro_GetAwaitableIter``
(genobject.c), the same lookups in the same order and the same TypeErrors, word for word.

The one reference for both users: the reference interpreter (``ir/interpreter.py``, for the GetAIter/GetANext ops)
and the Cython backend, whose generated code does the common cases in C (``ASYNC_FOR_C``: slots as CPython reads
them) and calls these for the rest. ``get_anext`` returns what the item's ``await`` then
delegates to: a coroutine as it is, or the iterator ``__await__`` gave behind an ``AwaitIterator`` (so that
``__await__`` runs once, as in CPython).
"""
from __future__ import annotations

import types

from moshjit.match_reference import type_name

CO_ITERABLE_COROUTINE = 0x100         # a generator made awaitable by types.coroutine
MISSING = object()


def lookup_special(obj, name: str):
    """Look ``name`` up on the type, binding descriptors, as CPython's special-method lookup does (``MISSING`` if
    no class in the MRO has it); the reference interpreter's ``with`` uses it too."""
    kind = type(obj)
    for klass in kind.__mro__:
        if name in klass.__dict__:
            attr = klass.__dict__[name]
            getter = getattr(type(attr), "__get__", None)
            return getter(attr, obj, kind) if getter is not None else attr
    return MISSING


def get_aiter(obj):
    """GET_AITER: ``type(obj).__aiter__(obj)``, which must implement ``__anext__``."""
    aiter = lookup_special(obj, "__aiter__")
    if aiter is MISSING:
        raise TypeError(f"'async for' requires an object with __aiter__ method, got {type_name(type(obj))[:100]}")
    iterator = aiter()
    if lookup_special(iterator, "__anext__") is MISSING:
        raise TypeError(f"'async for' received an object from __aiter__ that does not implement __anext__: "
                        f"{type_name(type(iterator))[:100]}")
    return iterator


def get_anext(iterator):
    """GET_ANEXT: ``__anext__()``'s result, made something ``await`` delegates to."""
    anext = lookup_special(iterator, "__anext__")
    if anext is MISSING:
        raise TypeError(f"'async for' requires an iterator with __anext__ method, got "
                        f"{type_name(type(iterator))[:100]}")
    return anext_awaitable(anext())


def anext_awaitable(awaitable):
    """The rest of GET_ANEXT, on what ``__anext__()`` returned (the Cython backend's fast path calls
    ``__anext__`` itself and hands anything but a coroutine or an async generator's ``asend`` to this)."""
    try:
        return awaitable_iterator(awaitable)
    except TypeError as cause:
        raise TypeError(f"'async for' received an invalid object from __anext__: "
                        f"{type_name(type(awaitable))[:100]}") from cause


def _is_coroutine(value) -> bool:
    return isinstance(value, types.CoroutineType) or (isinstance(value, types.GeneratorType)
                                                      and bool(value.gi_code.co_flags & CO_ITERABLE_COROUTINE))


class AwaitIterator:
    """An awaitable whose ``__await__`` was already called: ``await`` delegates to the iterator it returned."""

    __slots__ = ("iterator",)

    def __init__(self, iterator):
        self.iterator = iterator

    def __await__(self):
        return self.iterator


# GET_AWAITABLE's TypeErrors in CPython's words, for the interpreter and the compiled runtime (``moshjit_rt``)
def await_unsupported(value) -> TypeError:
    return TypeError(f"object {type_name(type(value))[:100]} can't be used in 'await' expression")


def async_with_unsupported(method: str, value) -> TypeError:
    """``async with``'s wording (GET_AWAITABLE 1/2) for what ``method`` (``__aenter__``/``__aexit__``) returned."""
    return TypeError(f"'async with' received an object from {method} that does not implement __await__: "
                     f"{type_name(type(value))[:100]}")


def await_returned_coroutine() -> TypeError:
    return TypeError("__await__() returned a coroutine")


def await_returned_non_iterator(result) -> TypeError:
    return TypeError(f"__await__() returned non-iterator of type '{type_name(type(result))[:100]}'")


def awaitable_iterator(value):
    """``_PyCoro_GetAwaitableIter``: a coroutine as it is, else ``__await__()``'s iterator (never a coroutine)."""
    if _is_coroutine(value):
        return value
    getter = lookup_special(value, "__await__")
    if getter is MISSING:
        raise await_unsupported(value)
    result = getter()
    if _is_coroutine(result):
        raise await_returned_coroutine()
    if lookup_special(result, "__next__") is MISSING:
        raise await_returned_non_iterator(result)
    return AwaitIterator(result)

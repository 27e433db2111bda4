"""CPython's ``MATCH_CLASS`` and ``MATCH_KEYS`` in Python: the one reference for both users of it, the reference
interpreter (``ir/interpreter.py``, for the ``MATCH_*`` ops) and the pattern-matching rewrite's general path
(``extensions/runtime.py``). The same lookups in the same order and the same errors, word for word
(``match_class`` and ``match_keys`` in CPython's ceval.c).

The Cython backend's runtime (``moshjit_rt.pyx``: ``_mj_match_class``, ``_mj_match_keys``) mirrors these through
the C API for speed; the differential tests compare all of them with CPython's own ``match``.
"""
from __future__ import annotations

import sys

MATCH_SELF = 1 << 22  # _Py_TPFLAGS_MATCH_SELF: bool, bytearray, bytes, dict, float, frozenset, int, list, set, str,
#                       tuple and their subclasses match the subject itself for one positional sub-pattern
HEAPTYPE = 1 << 9      # Py_TPFLAGS_HEAPTYPE
SEQUENCE = 1 << 5      # Py_TPFLAGS_SEQUENCE
MAPPING = 1 << 6       # Py_TPFLAGS_MAPPING

NOT_A_CLASS = ("called match pattern must be a type" if sys.version_info < (3, 12)
               else "called match pattern must be a class")


def type_name(cls: type) -> str:
    """``tp_name`` as CPython formats it with ``%s``: a class statement's name, or ``module.name`` for a
    static type outside ``builtins`` (``collections.OrderedDict``)."""
    if cls.__flags__ & HEAPTYPE or cls.__module__ == "builtins":
        return cls.__name__
    return f"{cls.__module__}.{cls.__name__}"


def match_sequence(subject) -> bool:
    return bool(type(subject).__flags__ & SEQUENCE)


def match_mapping(subject) -> bool:
    return bool(type(subject).__flags__ & MAPPING)


_NO_ATTRIBUTE = object()


def _attribute(subject, cls: type, name: str, seen: set):
    if name in seen:
        raise TypeError(f"{type_name(cls)}() got multiple sub-patterns for attribute {name!r}")
    seen.add(name)
    try:
        return getattr(subject, name)
    except AttributeError:
        return _NO_ATTRIBUTE


class _NoMatchArgs:
    """What ``read_match_args`` gives for a class without ``__match_args__``."""

    def __repr__(self) -> str:
        return "NO_MATCH_ARGS"

    def __reduce__(self) -> str:
        return "NO_MATCH_ARGS"  # the one instance, also after pickling (a rewritten module's ArgsSite holds it)


NO_MATCH_ARGS = _NoMatchArgs()


def read_match_args(cls: type):
    """``cls.__match_args__``, or NO_MATCH_ARGS when it has none."""
    try:
        return cls.__match_args__
    except AttributeError:
        return NO_MATCH_ARGS


def match_class(subject, cls, names: tuple, count: int):
    """The attributes ``cls(<count positional>, *names)`` reads from ``subject``, or None: no match."""
    if not isinstance(cls, type):
        raise TypeError(NOT_A_CLASS)
    if not isinstance(subject, cls):
        return None
    return class_values(subject, cls, read_match_args(cls) if count else NO_MATCH_ARGS, names, count)


def class_values(subject, cls: type, match_args, names: tuple, count: int):
    """``match_class`` for a subject known to be an instance of ``cls`` whose ``__match_args__`` the caller read
    (or NO_MATCH_ARGS; not read at all when ``count`` is 0)."""
    seen: set = set()
    values = []
    if count:
        match_self = False
        if match_args is NO_MATCH_ARGS:
            match_args = ()
            match_self = bool(cls.__flags__ & MATCH_SELF)
        else:
            if type(match_args) is not tuple:
                raise TypeError(f"{type_name(cls)}.__match_args__ must be a tuple (got "
                                f"{type_name(type(match_args))})")
        allowed = 1 if match_self else len(match_args)
        if allowed < count:
            raise TypeError(f"{type_name(cls)}() accepts {allowed} positional sub-pattern"
                            f"{'' if allowed == 1 else 's'} ({count} given)")
        if match_self:
            values.append(subject)
        else:
            for name in match_args[:count]:
                if type(name) is not str:
                    raise TypeError(f"__match_args__ elements must be strings (got {type_name(type(name))})")
                value = _attribute(subject, cls, name, seen)
                if value is _NO_ATTRIBUTE:
                    return None
                values.append(value)
    for name in names:
        value = _attribute(subject, cls, name, seen)
        if value is _NO_ATTRIBUTE:
            return None
        values.append(value)
    return tuple(values)


def match_keys(subject, keys: tuple):
    """``subject.get(key, <missing>)`` for each key in turn, or None at the first one missing."""
    if not keys:
        return ()
    get = subject.get
    seen: set = set()
    missing = object()
    values = []
    for key in keys:
        if isinstance(key, set):  # PySet_Contains hashes a set key (TypeError) where ``in`` tries a frozenset
            hash(key)
        if key in seen:
            raise ValueError(f"mapping pattern checks duplicate key ({key!r})")
        seen.add(key)
        value = get(key, missing)
        if value is missing:
            return None
        values.append(value)
    return tuple(values)

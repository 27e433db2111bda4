"""FROZEN COPY of moshjit/extensions/runtime.py (commit 2da160b), the run-time support of the frozen rewrite
next to it.

What rewritten code needs at run time, off its hot path: the no-match error and exact class matching.

Generated code reaches this module through ``__import__`` only on rare paths (no case matched, a class
pattern whose attribute lookup failed, a recogniser object), so rewritten modules gain no globals.
"""
from __future__ import annotations

import reprlib

_MATCH_SELF = 1 << 22  # CPython's _Py_TPFLAGS_MATCH_SELF: int(x), str(x), ... match the subject itself
MISSING = object()


class MatchError(Exception):
    """No case of a ``with match(subject):`` block matched; ``subject`` is kept on the exception."""

    def __init__(self, subject):
        super().__init__(subject)
        self.subject = subject

    def __str__(self) -> str:
        return f"no case matched {reprlib.repr(self.subject)}"


def _is_recogniser(pattern, keyword_names) -> bool:
    if keyword_names or getattr(pattern, "__match__", None) is None:
        return False
    return not isinstance(pattern, type) or getattr(pattern, "__match_args__", None) is None


def match_class(pattern, subject, positional: int, keyword_names: tuple[str, ...]):
    """Match ``pattern(p1..pn, k1=.., ...)`` against ``subject`` exactly as CPython's MATCH_CLASS does.

    Returns the sub-subjects for the n positional then the keyword sub-patterns, or None for no match.
    Objects with a ``__match__`` method and no ``__match_args__`` use Moshmosh's recogniser protocol:
    ``pattern.__match__(n, subject)`` returns None or the n sub-subjects.
    """
    if _is_recogniser(pattern, keyword_names):
        found = pattern.__match__(positional, subject)
        if found is None:
            return None
        found = tuple(found)
        if len(found) != positional:
            raise TypeError(f"{_name(pattern)}.__match__ returned {len(found)} values for "
                            f"{positional} sub-pattern{'s' if positional != 1 else ''}")
        return found
    if not isinstance(pattern, type):
        raise TypeError("called match pattern must be a type")
    if not isinstance(subject, pattern):
        return None
    values = []
    seen: set[str] = set()
    if positional:
        match_self = False
        try:
            match_args = pattern.__match_args__
        except AttributeError:
            match_args = ()
            match_self = bool(pattern.__flags__ & _MATCH_SELF)
        else:
            if type(match_args) is not tuple:
                raise TypeError(f"{pattern.__name__}.__match_args__ must be a tuple "
                                f"(got {type(match_args).__name__})")
        allowed = 1 if match_self else len(match_args)
        if allowed < positional:
            raise TypeError(f"{pattern.__name__}() accepts {allowed} positional sub-pattern"
                            f"{'' if allowed == 1 else 's'} ({positional} given)")
        if match_self:
            values.append(subject)
        else:
            for name in match_args[:positional]:
                if type(name) is not str:
                    raise TypeError(f"__match_args__ elements must be strings (got {type(name).__name__})")
                if not _fetch(pattern, subject, name, seen, values):
                    return None
    for name in keyword_names:
        if not _fetch(pattern, subject, name, seen, values):
            return None
    return tuple(values)


def _fetch(pattern, subject, name, seen, values) -> bool:
    if name in seen:
        raise TypeError(f"{pattern.__name__}() got multiple sub-patterns for attribute {name!r}")
    seen.add(name)
    value = getattr(subject, name, MISSING)
    if value is MISSING:
        return False
    values.append(value)
    return True


def _name(obj) -> str:
    return obj.__name__ if isinstance(obj, type) else type(obj).__name__


def _not_rewritten(what: str):
    raise RuntimeError(
        f"{what} only has a meaning inside code rewritten by moshjit's pattern-matching extension: start the "
        "file with '# moshmosh?' and '# +pattern-matching', and import it through moshjit.extensions.install() "
        "or run it with 'python -m moshjit run'")


def match(*subject):
    """Marker for ``with match(subject):``; reaching this call means the file was not rewritten."""
    _not_rewritten("match(...)")


def pin(value):
    """Marker for the ``pin(expr)`` pattern; reaching this call means the file was not rewritten."""
    _not_rewritten("pin(...)")


def when(*conditions):
    """Marker for the ``when(cond, ...)`` guard; reaching this call means the file was not rewritten."""
    _not_rewritten("when(...)")

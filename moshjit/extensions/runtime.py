"""What rewritten code needs at run time: the no-match error, the ``__match_args__`` guard of class patterns
(``ArgsSite``) and the general path of class and mapping patterns.

A rewritten module imports this module once, under a hygienic name; of it, the fast paths of generated code
use only the ``ArgsSite``, ``ClassDispatch`` and ``ClassGuard`` objects made at the module's import
(``C in site``, ``dispatch[s]``, ``v in guard``). The helpers reproduce CPython's
``MATCH_CLASS``/``MATCH_KEYS`` exactly, errors and messages included, for class patterns whose class the
rewrite could not know and mapping patterns with non-literal keys, plus Moshmosh's ``__match__`` recognisers.
"""
from __future__ import annotations

import reprlib

from moshjit import match_reference

NO_MATCH_ARGS = match_reference.NO_MATCH_ARGS
MISSING = object()  # what generated code passes as ``get``'s default: no mapping holds it


class MatchError(Exception):
    """No case of a ``with match(subject):`` block matched; ``subject`` is kept on the exception."""

    def __init__(self, subject):
        super().__init__(subject)
        self.subject = subject

    def __str__(self) -> str:
        return f"no case matched {reprlib.repr(self.subject)}"


def _is_recogniser(pattern, has_keywords: bool) -> bool:
    if has_keywords or getattr(pattern, "__match__", None) is None:
        return False
    return not isinstance(pattern, type) or getattr(pattern, "__match_args__", None) is None


def class_kind(pattern, has_keywords: bool) -> bool:
    """For a class pattern's callee the rewrite could not know: True for a class (match with ``isinstance``),
    False for a Moshmosh recogniser (an object or class with ``__match__`` and no ``__match_args__``, used
    without keyword sub-patterns); anything else raises CPython's TypeError."""
    if _is_recogniser(pattern, has_keywords):
        return False
    if not isinstance(pattern, type):
        raise TypeError(match_reference.NOT_A_CLASS)
    return True


def class_attrs(cls: type, subject, positional: int, keyword_names: tuple[str, ...], match_args):
    """The sub-values of ``cls(p1..pn, k1=.., ...)`` for a subject already known to be an instance, exactly as
    CPython's MATCH_CLASS finds them: the n names from ``match_args`` (``cls.__match_args__`` as read by the
    caller, or NO_MATCH_ARGS) then the keywords; None if an attribute is missing."""
    return match_reference.class_values(subject, cls, match_args, keyword_names, positional)


class PyArgsSite:
    """``moshjit.runtime.moshjit_match.ArgsSite`` in Python, for an installation without its compiled runtime:
    ``in`` admits nothing (it cannot see a class's version tag), so every match reads ``__match_args__``."""

    __moshjit_constant__ = True     # made once, at its module's import: @jit binds it (resolve_globals)

    def __init__(self, guess: tuple[str, ...], missing):
        self.guess, self.missing = guess, missing

    def __contains__(self, cls) -> bool:
        return False

    def accepts(self, match_args) -> bool:
        """Whether ``match_args`` is the guess: an exact tuple of exact strings (as CPython would use them)."""
        return (type(match_args) is tuple and len(match_args) == len(self.guess)
                and all(type(given) is str and given == expected for given, expected in zip(match_args, self.guess)))

    def read(self, cls):
        """``cls.__match_args__`` read as CPython's MATCH_CLASS reads it: True if it is the guess, else
        ``(value,)`` (``missing`` if there is none)."""
        try:
            value = cls.__match_args__
        except AttributeError:
            value = self.missing
        return True if self.accepts(value) else (value,)


class PyClassDispatch:
    """``moshjit.runtime.moshjit_match.ClassDispatch`` in Python, for an installation without its compiled
    runtime: it cannot see version tags, so it never answers (0: the generated code makes every test)."""

    __moshjit_constant__ = True     # made once, at its module's import: @jit binds it (resolve_globals)
    __moshjit_index_range__ = (0, 8)  # ``dispatch[s]`` is an int in this range (typeinfer)

    def __init__(self, module_globals: dict, names: tuple[str, ...], guards: tuple):
        self.names, self.guards = names, guards

    def __getitem__(self, subject) -> int:
        return 0


class PyClassGuard:
    """``moshjit.runtime.moshjit_match.ClassGuard`` in Python, for an installation without its compiled runtime:
    it cannot see version tags, so ``in`` is always False (the generated code makes both tests)."""

    __moshjit_constant__ = True     # made once, at its module's import: @jit binds it (resolve_globals)

    def __init__(self, module_globals: dict, name: str, site):
        self.name, self.site = name, site

    def __contains__(self, subject) -> bool:
        return False


try:
    from moshjit.runtime.moshjit_match import ArgsSite, ClassDispatch, ClassGuard
except ImportError:  # the runtime's compiled modules are not built
    ArgsSite, ClassDispatch, ClassGuard = PyArgsSite, PyClassDispatch, PyClassGuard


def recognise(pattern, positional: int, subject):
    """Moshmosh's recogniser protocol: ``pattern.__match__(n, subject)`` returns None or n sub-values."""
    found = pattern.__match__(positional, subject)
    if found is None:
        return None
    found = tuple(found)
    if len(found) != positional:
        name = pattern.__name__ if isinstance(pattern, type) else type(pattern).__name__
        raise TypeError(f"{name}.__match__ returned {len(found)} values for "
                        f"{positional} sub-pattern{'s' if positional != 1 else ''}")
    return found


match_keys = match_reference.match_keys  # (mapping, keys): the values, or None if one is missing


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

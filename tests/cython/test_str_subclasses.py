"""``str(x)``, ``repr(x)``, ``ascii(x)`` and a lone f-string field return what ``__str__``/``__repr__``/``__format__``
return, which may be a str subclass with methods of its own: compiled code calls those, as CPython does, and
keeps the exact-str fast paths for values whose text is known to be an exact str."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import moshjit
from moshjit.ir.types import FLOAT, INT64, OBJECT, STR, ListType, OptionalType
from moshjit.primitives.signatures import text_of


class Loud(str):
    """A str subclass that overrides what compiled str code would otherwise do natively."""

    def upper(self):
        return "LOUD:" + str.upper(self)

    def __len__(self):
        return 99

    def __add__(self, other):
        return "added"

    def __eq__(self, other):
        return isinstance(other, str) and str.lower(self) == other.lower()

    __hash__ = str.__hash__

    def __contains__(self, item):
        return True

    def __getitem__(self, index):
        return "item"

    def __iter__(self):
        return iter(["it", "er"])

    def startswith(self, prefix, *rest):
        return "startswith"

    def split(self, *args):
        return ["split"]


class Speaks:
    """Its text, repr and format are ``Loud`` strings."""

    def __init__(self, text):
        self.text = text

    def __str__(self):
        return Loud(self.text)

    def __repr__(self):
        return Loud("<" + self.text + ">")

    def __format__(self, spec):
        return Loud(self.text + spec)


def through_str(x):
    s = str(x)
    return [type(s).__name__, s.upper(), len(s), s + "!", s == "ABC", "z" in s, s[0], [c for c in s],
            s.startswith("a"), s.split()]


def through_repr(x):
    s = repr(x)
    return [type(s).__name__, s.upper(), len(s), s[-1], s.startswith("<")]


def through_ascii(x):
    s = ascii(x)
    return [type(s).__name__, len(s), s.upper()]


def through_fstring(x):
    s = f"{x}"
    t = f"{x:>5}"
    return [type(s).__name__, type(t).__name__, s.upper(), len(t), t + "?", [c for c in s]]


def through_conversion(x):
    s = f"{x!s}"
    return [type(s).__name__, s.upper(), len(s)]


FUNCTIONS = [through_str, through_repr, through_ascii, through_fstring, through_conversion]
values = st.one_of(st.builds(Speaks, st.text(alphabet="abcAB", min_size=1, max_size=6)),
                   st.integers(-50, 50), st.floats(allow_nan=False, width=32), st.text(alphabet="xyz", max_size=4),
                   st.lists(st.integers(0, 3), max_size=3))


def outcome(fn, x):
    try:
        return "ok", fn(x)
    except Exception as exc:
        return "raised", type(exc), str(exc)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
@settings(max_examples=12, deadline=None)
@given(x=values)
def test_text_of_any_value_behaves_as_in_cpython(fn, x):
    assert outcome(moshjit.jit(fn, backend="cython"), x) == outcome(fn, x)


def test_only_builtin_values_have_an_exact_text():
    assert text_of(INT64) == text_of(FLOAT) == text_of(STR) == text_of(ListType(OBJECT)) == STR
    assert text_of(OptionalType(INT64)) == STR
    assert text_of(OBJECT) == text_of(OptionalType(OBJECT)) == OBJECT

"""Methods of str literals (``"".join(parts)``, ``", ".join``, ``"{}-{}".format``) are str's own: the Cython
backend calls them directly rather than through a method site, with CPython's results and errors for every kind
of argument."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from tests.cython.agree import jitted, same


def joins(parts, pair):
    out = ["".join(parts), ", ".join(parts), "{}-{}".format(*pair), "x".center(5, "*")]
    out.append("|".join(str(p) for p in parts))
    return out


def bad_join(value):
    return "-".join(value)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(max_size=3), max_size=4), st.tuples(st.integers(), st.text(max_size=2)))
def test_literal_methods_agree_with_cpython(parts, pair):
    same(joins, parts, pair)


def test_errors_are_cpythons_and_no_site_is_used():
    for value in [None, 5, [1, "a"], ["a", b"b"], "abc", ("x", "y")]:
        same(bad_join, value)
    code = jitted(bad_join).inspect_code()
    assert "'-'.join(" in code and "mj_site_call" not in code.split("def bad_join")[1]

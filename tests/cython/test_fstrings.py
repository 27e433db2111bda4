"""f-strings compiled as CPython runs them: a machine int's field is formatted from the C value (its digits, as
``int.__format__`` with no spec gives them) and the parts are joined as BUILD_STRING joins them, with no list;
fields whose ``__format__`` returns a str subclass are joined as they are, not formatted again."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import moshjit
from tests.cython.test_str_subclasses import Speaks


def index_labels(n):
    out = []
    for i in range(-n, n):
        out.append(f"{i}:{i * 3}")
    return out


def joined(x, s):
    return f"<{x}|{s!r}|{x:>3}>"


def sixteen_parts(a, b):
    return f"{a}{b}{a}{b}{a}{b}{a}{b}{a}{b}{a}{b}{a}{b}{a}{b}"


def seventeen_parts(a, b):
    return f"{a}{b}{a}{b}{a}{b}{a}{b}{a}{b}{a}{b}{a}{b}{a}{b}{a}"


def outcome(fn, *args):
    try:
        result = fn(*args)
        return "ok", result, type(result) if not isinstance(result, list) else [type(r) for r in result]
    except Exception as exc:
        return "raised", type(exc), str(exc)


jitted_joined = moshjit.jit(joined, backend="cython")


@settings(max_examples=40, deadline=None)
@given(x=st.one_of(st.integers(), st.builds(Speaks, st.text(alphabet="abAB", min_size=1, max_size=4))),
       s=st.one_of(st.text(max_size=5), st.floats(allow_nan=False), st.none()))
def test_fields_and_joins_give_cpythons_str(x, s):
    assert outcome(jitted_joined, x, s) == outcome(joined, x, s)


@pytest.mark.parametrize("n", [0, 1, 7, 120])
def test_machine_int_fields_are_formatted_from_the_c_value(n):
    jitted = moshjit.jit(index_labels, backend="cython")
    assert jitted(n) == index_labels(n)
    code = jitted.inspect_code()
    assert 'f"{' in code and "mj_join_strs3(" in code and "''.join" not in code


def test_a_long_fstring_is_joined_from_a_list_and_a_short_one_without():
    short, long = moshjit.jit(sixteen_parts, backend="cython"), moshjit.jit(seventeen_parts, backend="cython")
    for a, b in [("a", 1), (Speaks("x"), -(1 << 70)), (2.5, None)]:
        assert outcome(short, a, b) == outcome(sixteen_parts, a, b)
        assert outcome(long, a, b) == outcome(seventeen_parts, a, b)
    assert "mj_join_strs16(" in short.inspect_code() and "''.join([" in long.inspect_code()

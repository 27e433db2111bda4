"""A function calling itself with this specialisation's argument kinds calls its own checks and body in place
(``call_self``, ``passes/direct_calls.py``, ``backends/cython/in_place_calls.py``): results, exceptions, tracebacks,
the recursion limit and a name rebound in the middle of the recursion as in CPython; ``self_call_samples.py`` run
plainly and with every function jitted."""
from __future__ import annotations

import collections.abc
import inspect
import sys
import traceback
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from tests.loaded_twice import load

_SAMPLES = Path(__file__).with_name("self_call_samples.py")


plain = load(_SAMPLES, "tests.cython._self_calls_plain", jitted=False)
jitted = load(_SAMPLES, "tests.cython._self_calls_jitted", jitted=True)


def outcome(module, name, *args):
    try:
        result = getattr(module, name)(*args)
        return ("ok", list(result) if isinstance(result, collections.abc.Generator) else result)
    except Exception as exc:          # the exception is part of the behaviour under test
        return ("raise", type(exc), str(exc))


def same(name, *make_args):
    """Both outcomes, each run with arguments made afresh (``make_args`` are callables or values)."""
    made = lambda: [a() if callable(a) else a for a in make_args]
    expected = outcome(plain, name, *made())
    assert outcome(jitted, name, *made()) == expected
    return expected


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="ab", max_size=12) | st.text(max_size=5))
def test_palindromes_match_cpython(s):
    same("palindrome", s)
    same("palindrome", s + s[::-1])


@settings(max_examples=20, deadline=None)
@given(st.lists(st.text(max_size=3), max_size=8), st.integers(-2, 9))
def test_joined_words_match_cpython(words, start):
    same("joined", words, start)


def test_results_beyond_64_bits_and_a_dict_argument():
    assert same("ways", 150, dict)[1] > 2 ** 64


def test_an_exception_deep_down_and_its_traceback():
    assert same("char_at_depth", "ab", 4)[:2] == ("raise", IndexError)

    def frames(module):
        with pytest.raises(IndexError) as raised:
            module.char_at_depth("ab", 3)
        return [(f.name, f.lineno) for f in traceback.extract_tb(raised.value.__traceback__)[1:]]

    assert frames(jitted) == frames(plain)
    assert [name for name, _ in frames(jitted)] == ["char_at_depth"] * 4


@pytest.mark.parametrize("name", ["count_down", "count_down_any"])
def test_the_recursion_limit_holds(name):
    """In place or through the dispatcher, with CPython's message (3.11 had said "... while calling a Python
    object" through the dispatcher)."""
    assert same(name, 300) == ("ok", 300)
    assert same(name, 100_000)[:2] == ("raise", RecursionError)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 200)
    try:
        assert same(name, 1_000)[:2] == ("raise", RecursionError)
    finally:
        sys.setrecursionlimit(limit)


def test_a_name_rebound_in_the_middle_is_called_as_it_now_is():
    """At depth 3 the hook rebinds ``walk`` (from another module: the compiler could bind the name); the next call
    in place sees the entry's check fail and goes to what the name holds now, as CPython's next call does."""
    for module in (plain, jitted):
        original = module.walk
        seen = []

        def note(n, module=module, seen=seen):
            seen.append(n)
            if n == 3:
                module.walk = lambda n: f"rebound at {n}"

        module.note = note
        try:
            seen.append(original(6))
        finally:
            module.walk = original
        module.seen = seen
    assert jitted.seen == plain.seen == [6, 5, 4, 3, "rebound at 2"]


def test_only_calls_of_this_specialisation_run_in_place():
    for name, args in [("palindrome", ("abba",)), ("joined", (["a"], 0)), ("ways", (5, {})), ("walk", (0,)),
                       ("count_down", (3,))]:
        if name == "walk":
            jitted.note = plain.note = lambda n: None
        getattr(jitted, name)(*args)
        assert "_mj_in_place(" in str(getattr(jitted, name).inspect_code()), name
    for name, args in [("nodes", (((1, 2), 3),)), ("countdown_items", (3,)), ("count_down_any", (3,))]:
        assert same(name, *args)[0] == "ok"
        assert "_mj_in_place(" not in str(getattr(jitted, name).inspect_code()), name

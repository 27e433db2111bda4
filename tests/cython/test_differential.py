"""Differential tests: each sample function jitted with the Cython backend against the plain call (CPython is
the oracle) — same result, or same exception type and message."""
import math
import string

import pytest
from hypothesis import example, given, settings, strategies as st

import moshjit
from moshjit.compiler import typed_ssa
from moshjit.ir.types import INT64, OBJECT
from tests.cython import samples


def outcome(fn, args):
    try:
        return ("ok", fn(*args))
    except Exception as exc:          # the exception itself is part of the behaviour under test
        return ("raise", type(exc), str(exc))


_jitted = {}


def jitted(fn):
    if fn not in _jitted:
        _jitted[fn] = moshjit.jit(fn, backend="cython")
    return _jitted[fn]


@pytest.mark.parametrize("fn,args", samples.cases, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(samples.cases)])
def test_sample(fn, args):
    expected = outcome(fn, args)
    assert outcome(jitted(fn), args) == expected


def same_float(a, b):
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


settings.register_profile("moshjit", max_examples=60, deadline=None)
settings.load_profile("moshjit")

ints = st.integers(min_value=-(2 ** 70), max_value=2 ** 70) | st.integers(min_value=-50, max_value=50)
text = st.text(alphabet=string.ascii_letters + " ,.!?¿é漢字\tñÀ", max_size=30)


@given(ints, ints)
def test_int_arithmetic(x, y):
    assert outcome(jitted(samples.t_ints), (x, y)) == outcome(samples.t_ints, (x, y))


@given(st.floats(allow_nan=True, allow_infinity=True), st.floats(allow_nan=True, allow_infinity=True))
def test_float_arithmetic(x, y):
    expected, got = outcome(samples.t_floats, (x, y)), outcome(jitted(samples.t_floats), (x, y))
    assert expected[0] == got[0]
    if expected[0] == "ok":
        assert all(same_float(a, b) for a, b in zip(expected[1], got[1]))
    else:
        assert expected == got


@given(text)
def test_char_loops(s):
    for fn in (samples.t_chars, samples.t_punct):
        assert outcome(jitted(fn), (s,)) == outcome(fn, (s,))


@given(st.text(alphabet="unafblexyz#", max_size=12),
       st.sets(st.text(alphabet="unafblexyz#", min_size=1, max_size=6), max_size=12))
def test_wordpiece(word, pieces):
    vocab = {p: i for i, p in enumerate(sorted(pieces))}
    assert outcome(jitted(samples.t_wordpiece), (word, vocab)) == outcome(samples.t_wordpiece, (word, vocab))


@given(st.integers(-30, 30), st.integers(-30, 30), st.integers(-5, 5))
def test_ranges(a, b, c):
    assert outcome(jitted(samples.t_range_steps), (a, b, c)) == outcome(samples.t_range_steps, (a, b, c))


class _Index:
    """Takes part in range() through ``__index__`` only."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


class _Int(int):
    pass


def range_of_anything(bound, key):
    """range() of a bound of unknown type: its items are exact ints, so ``isinstance`` and dict keys say so."""
    seen = {}
    for i in range(bound):
        if isinstance(i, tuple) or type(i) is not int:
            return "not an exact int", i
        seen[i] = seen.get(i, 0) + (i == key)
        if i > 3:
            break
    return seen


@pytest.mark.parametrize("bound", [5, 2, _Int(4), _Index(3), _Index(2 ** 70), 2 ** 70, -1, True, 2.5, "3", None])
def test_range_of_a_bound_of_unknown_type(bound):
    for key in (0, 2):
        assert outcome(jitted(range_of_anything), (bound, key)) == outcome(range_of_anything, (bound, key))
    typed = str(typed_ssa(range_of_anything, [OBJECT, INT64], assume_globals=False))
    assert "isinstance" not in typed and "iter[int[0..inf]]" in typed


@given(st.lists(st.integers(-5, 5), max_size=8), st.integers(-5, 5))
def test_early_exit_and_unpacking(xs, t):
    assert outcome(jitted(samples.t_early), (xs, t)) == outcome(samples.t_early, (xs, t))
    assert outcome(jitted(samples.t_unpack), (tuple(xs),)) == outcome(samples.t_unpack, (tuple(xs),))


@given(st.integers(0, 12))
def test_loops_with_exceptions(n):
    for fn in (samples.t_with_loop, samples.t_break_finally, samples.t_nested_loops, samples.t_while):
        assert outcome(jitted(fn), (n,)) == outcome(fn, (n,))


def star_first(s):
    first, *rest = s
    return first, rest


def star_middle(s):
    a, b, *middle, z = s
    return a, b, middle, z


def star_last(s):
    *init, last = s
    init.append("appended")            # the star list is a new list, not a view of the source
    return init, last


def star_from_a_built_list(xs, i):
    """The source dies at the unpacking: an item may get its variable (the fuzzer found one clobbered)."""
    first, *middle, last = [255, *xs, i]
    *init, end = (i, first, -2 ** 63)
    middle.append(end)
    return first, middle, last, init, end


class ReversedIteration(list):
    """A list whose iteration disagrees with its items: unpacking must iterate it, not index it."""

    def __iter__(self):
        return iter(list(reversed(self)))


@given(st.lists(ints, max_size=6), st.sampled_from([list, tuple, ReversedIteration, iter, str]))
def test_star_unpacking_of_exact_lists_and_tuples_and_anything_else(items, kind):
    def subject():
        return "".join(map(str, items)) if kind is str else kind(items)

    for fn in (star_first, star_middle, star_last):
        assert outcome(jitted(fn), (subject(),)) == outcome(fn, (subject(),))
    source = list(items)
    if len(source) >= 3:
        assert jitted(star_middle)(source)[2] is not source and source == list(items)


@given(st.lists(ints, max_size=5), ints)
def test_star_unpacking_of_a_list_built_just_before(xs, i):
    assert outcome(jitted(star_from_a_built_list), (list(xs), i)) == outcome(star_from_a_built_list, (list(xs), i))


def test_star_unpacking_reads_exact_lists_and_tuples_in_place():
    items = ([1, 2, 3, 4, 5],)                   # compiled here: under xdist the other tests may run elsewhere
    assert outcome(jitted(star_middle), items) == outcome(star_middle, items)
    code = str(jitted(star_middle).inspect_code())
    assert "is list or type(" in code and "_mj_unpack_ex(" in code     # the inline read, the general path kept


def pairs_in_a_loop(pairs):
    out = []
    for a, b in pairs:
        out.append((b, a))
    return out


def pair_kept(pair):
    a, b = pair                             # the list's items are read later: unpacked from a tuple copy
    pair.append("after")
    return a, b, pair


@given(st.lists(st.tuples(st.sampled_from([tuple, list, ReversedIteration, iter, "".join]),
                          st.lists(st.sampled_from("abc"), max_size=3)), max_size=4))
@example([(list, ["a", "b"]), (tuple, ["c", "a"]), (ReversedIteration, ["b", "c"])])
def test_unpacked_items_agree_with_cpython_for_any_source(specs):
    def pairs():
        return [kind(items) for kind, items in specs]

    assert outcome(jitted(pairs_in_a_loop), (pairs(),)) == outcome(pairs_in_a_loop, (pairs(),))
    for kind, items in specs:
        if kind is list:
            assert outcome(jitted(pair_kept), (list(items),)) == outcome(pair_kept, (list(items),))


def test_unpacked_items_are_read_without_index_checks():
    jitted(pairs_in_a_loop)([(1, 2)])
    code = str(jitted(pairs_in_a_loop).inspect_code())
    assert "mj_unpacked_item(" in code and "_mj_unpack(" in code     # the item read, the general path kept

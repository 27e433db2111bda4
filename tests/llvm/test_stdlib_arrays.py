"""``array.array`` of C doubles and 64-bit ints as native arguments: keyed by item type ("array[float64]"),
read and written in place through the buffer protocol, with ``array.array``'s own IndexError messages and
Python floats and ints as items; compared with CPython on the same arrays. Other type codes, and stores CPython
would refuse (a float into an int array), stay out of native code, exactly."""
from __future__ import annotations

import array

import pytest
from hypothesis import given, settings, strategies as st

import moshjit
from moshjit.typeof import array_key, parse_kind
from tests.llvm.oracle import outcome, same

_jitted: dict = {}


@pytest.fixture(autouse=True)
def native_code_stays(monkeypatch):
    monkeypatch.setenv("MOSHJIT_DEOPT_BUDGET", "1e9")


def native(fn, backend="llvm"):
    if (fn, backend) not in _jitted:
        _jitted[fn, backend] = moshjit.jit(fn, backend=backend, strict=backend == "llvm")
    return _jitted[fn, backend]


def read_at(a, i):
    return a[i], a[-1], len(a)


def store(a, i, v):
    a[i] = v
    return a[i]


def scaled_total(a, factor):
    total = 0.0
    for x in a:
        total += x
    for i in range(len(a)):
        a[i] = a[i] * factor
    return total


def int_product(a):
    """Overflows 64 bits for big items: the continuation gets the array itself."""
    product = 1
    for x in a:
        product *= x
    return product


def checked_sum(a, n):
    """An error path with a message: cold (``cold_paths``), allowed with an array argument."""
    if n > len(a):
        raise ValueError("n=%d is more than the %d items" % (n, len(a)))
    total = 0.0
    for i in range(n):
        total += a[i]
    return total


def report(values):
    return ", ".join(str(v) for v in values)


def checked_with_a_helper(a, n):
    """An error path calling Python code, which could resize the array: not left cold while its buffer is held."""
    if n > len(a):
        raise ValueError(report(a))
    return a[n - 1] if n else 0.0


def outcome_with_array(fn, make, *rest):
    """(outcome, the array's items after the call) of ``fn(make(), *rest)``."""
    values = make()
    return outcome(fn, (values, *rest))[:2], values.tolist()


def test_keys_and_kind_names():
    assert array_key(array.array("d"), array.array) == "array[float64]"
    assert array_key(array.array("q"), array.array) == "array[int64]"
    assert array_key(array.array("i"), array.array) is array.array
    assert array_key(array.array("f"), array.array) is array.array
    assert parse_kind("array[float64]") == "array[float64]"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(allow_nan=False), min_size=1, max_size=6), st.integers(-8, 8),
       st.one_of(st.floats(allow_nan=False), st.integers(-2 ** 63, 2 ** 63 - 1), st.booleans()))
def test_double_arrays_agree_with_cpython(items, i, value):
    def make():
        return array.array("d", items)
    for fn, args in [(read_at, (i,)), (store, (i, value)), (scaled_total, (1.5,))]:
        expected = outcome_with_array(fn, make, *args)
        got = outcome_with_array(native(fn), make, *args)
        assert same(list(got), list(expected)), (fn.__name__, got, expected)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-2 ** 63, 2 ** 63 - 1), min_size=1, max_size=5), st.integers(-7, 7),
       st.integers(-2 ** 63, 2 ** 63 - 1))
def test_int64_arrays_agree_with_cpython_and_overflow_continues_exactly(items, i, value):
    def make():
        return array.array("q", items)
    for fn, args in [(read_at, (i,)), (store, (i, value)), (int_product, ())]:
        expected = outcome_with_array(fn, make, *args)
        got = outcome_with_array(native(fn), make, *args)
        assert same(list(got), list(expected)), (fn.__name__, got, expected)


def test_a_continuation_after_an_overflow_reads_the_array_itself():
    compiled = native(int_product)
    before = sum(stats.get("deopts", 0) for stats in compiled.stats.values())
    assert compiled(array.array("q", [2 ** 62, 4, 3])) == 3 * 2 ** 64
    assert sum(stats.get("deopts", 0) for stats in compiled.stats.values()) == before + 1


def test_index_errors_are_the_arrays_own():
    a = array.array("d", [1.0, 2.0])
    with pytest.raises(IndexError, match="^array index out of range$"):
        native(read_at)(a, 2)
    with pytest.raises(IndexError, match="^array assignment index out of range$"):
        native(store)(a, -3, 1.0)
    assert native(read_at).stats[("array[float64]", "int64")]["backend"] == "llvm"


def test_what_native_code_refuses_stays_exact():
    ints = array.array("q", [1, 2])
    with pytest.raises(moshjit.UnsupportedError):
        native(store)(ints, 0, 1.5)                       # CPython: TypeError, not a truncation
    assert outcome(native(store, "auto"), (ints, 0, 1.5)) == outcome(store, (ints, 0, 1.5))
    small = array.array("i", [1, 2, 3])                     # not a native kind: the plain object path
    assert outcome(native(scaled_total, "auto"), (small, 2)) == outcome(scaled_total, (array.array("i", [1, 2, 3]), 2))


def test_error_paths_with_an_array_argument():
    a = array.array("d", [1.0, 2.0, 3.0])
    assert native(checked_sum)(a, 2) == 3.0
    assert outcome(native(checked_sum), (a, 5)) == outcome(checked_sum, (a, 5))
    with pytest.raises(moshjit.UnsupportedError):
        native(checked_with_a_helper)(a, 1)               # its error path calls Python code: not cold here
    for n in (0, 2, 9):
        assert outcome(native(checked_with_a_helper, "auto"), (a, n)) == outcome(checked_with_a_helper, (a, n))

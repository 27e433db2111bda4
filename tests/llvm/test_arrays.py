"""NumPy arrays through the buffer protocol: items read as Python ints/floats (int32/float32 widened), written in
place (float32 rounded, int32 range-checked), with NumPy's IndexError messages; compared with the same function
run by CPython on ``array.tolist()``, which has the same Python-number semantics."""
import pytest
from hypothesis import given, settings, strategies as st

from moshjit.compiler import compile_specialization
from moshjit.dispatcher import _cache
from moshjit.typeof import array_key
from tests.llvm.oracle import outcome, same

np = pytest.importorskip("numpy")
settings.register_profile("moshjit-llvm-arrays", max_examples=25, deadline=None)
settings.load_profile("moshjit-llvm-arrays")


def dot(a, b):
    total = 0.0
    for i in range(len(a)):
        total += a[i] * b[i]
    return total


def scale_rows(m, factor):
    rows, cols = m.shape
    for i in range(rows):
        for j in range(cols):
            m[i, j] = m[i, j] * factor
    return rows * cols


def row_sums(m):
    out = []
    for row in m:
        total = 0
        for x in row:
            total += x
        out.append(total)
    return out


def read_at(a, i):
    return a[i], a[-1], len(a)


def store_int(a, i, v):
    a[i] = v
    return a[i]


def compiled(fn, *args):
    """Compile ``fn`` for the arrays' precise keys (what ``dispatcher.key_of`` gives) with the LLVM backend."""
    from moshjit.typeof import key_of
    key = tuple(key_of(a) for a in args)
    return compile_specialization(fn, key, "llvm", _cache(), fallback=lambda *a: pytest.fail("fallback taken"))


def lists_of(args):
    return tuple(a.tolist() if isinstance(a, np.ndarray) else a for a in args)


floats = st.floats(-1e6, 1e6)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32"])
@given(values=st.lists(st.integers(-1000, 1000), min_size=1, max_size=12))
def test_dot_over_each_dtype(dtype, values):
    a = np.array(values, dtype=dtype)
    b = np.array(values[::-1], dtype=dtype)
    artifact = compiled(dot, a, b)
    assert artifact.backend == "llvm"
    assert same(outcome(artifact.entry, (a, b))[:2], outcome(dot, lists_of((a, b)))[:2])


@given(rows=st.integers(1, 5), cols=st.integers(1, 5), factor=floats)
def test_two_dimensional_writes_in_place(rows, cols, factor):
    m = np.arange(rows * cols, dtype=np.float32).reshape(rows, cols)
    expected = (m.astype(np.float64) * factor).astype(np.float32)
    artifact = compiled(scale_rows, m, factor)
    assert artifact.entry(m, factor) == rows * cols
    assert np.array_equal(m, expected)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_rows_of_int_matrices(dtype):
    m = np.arange(12, dtype=dtype).reshape(4, 3)
    assert compiled(row_sums, m).entry(m) == row_sums(m.tolist())


@given(values=st.lists(st.integers(-50, 50), min_size=1, max_size=6), i=st.integers(-8, 8))
def test_index_errors_have_numpys_message(values, i):
    a = np.array(values, dtype=np.int64)
    got = outcome(compiled(read_at, a, i).entry, (a, i))
    try:
        expected = ("ok", tuple(int(x) if not isinstance(x, int) else x for x in read_at(a, i)), (a, i))
    except IndexError as exc:
        expected = ("raise", IndexError, str(exc))
    assert got[0] == expected[0] and (got[1:] == expected[1:] if got[0] == "raise" else got[1] == expected[1])


@given(v=st.integers(-(2 ** 40), 2 ** 40))
def test_int32_stores_are_range_checked(v):
    a = np.zeros(3, dtype=np.int32)
    got = outcome(compiled(store_int, a, 1, v).entry, (a, 1, v))
    if -(2 ** 31) <= v < 2 ** 31:
        assert got[0] == "ok" and got[1] == v
    else:
        assert got[:2] == ("raise", OverflowError) and f"{v} out of bounds for int32" in got[2]


def test_array_keys_say_dtype_and_dimensions():
    assert array_key(np.zeros((2, 3)), np.ndarray) == "ndarray[float64,2]"
    assert array_key(np.zeros(3, dtype=np.int32), np.ndarray) == "ndarray[int32,1]"
    assert array_key(np.zeros((3, 3))[:, 1], np.ndarray) is np.ndarray          # not contiguous
    assert array_key(np.zeros(3, dtype=np.uint8), np.ndarray) is np.ndarray


def test_other_arrays_take_the_fallback():
    a = np.arange(4, dtype=np.float64)
    calls = []
    artifact = compile_specialization(dot, ("ndarray[float64,1]", "ndarray[float64,1]"), "llvm", _cache(),
                                      fallback=lambda *args: calls.append(args) or "fallback")
    strided = np.arange(8, dtype=np.float64)[::2]
    assert artifact.entry(strided, a) == "fallback" and calls
    assert artifact.entry(a, a) == dot(a.tolist(), a.tolist())

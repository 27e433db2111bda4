"""Lists of tuples as native arguments (n-body's bodies and pairs): the first call's sample of the arguments
(``moshjit.samples``, lists and tuples four levels deep) suggests the item type, the entry checks every item at each
call and a list that no longer fits goes to a variant compiled for what it holds now (or to the fallback); fields
are read unboxed and the inner lists are the caller's, written in place. Also: a float power of a sum of squares is
native (its base is never negative). Everything compared with CPython."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import moshjit
from moshjit.backends.llvm.variants import argument_type, shape_type
from moshjit.ir.types import FLOAT, INT64, ListType, tuple_of
from moshjit.samples import shape_of
from tests.llvm.oracle import outcome, same


@pytest.fixture(autouse=True)
def native_code_stays(monkeypatch):
    monkeypatch.setenv("MOSHJIT_DEOPT_BUDGET", "1e9")


def make_bodies(rows):
    return [([x, y, z], [vx, vy, vz], m) for x, y, z, vx, vy, vz, m in rows]


def make_pairs(bodies):
    return [(bodies[i], bodies[j]) for i in range(len(bodies)) for j in range(i + 1, len(bodies))]


def _nbody_program():
    """pyperformance's n-body as ``benchmarks/general`` runs it (its ``advance`` is the function under test)."""
    from benchmarks.general import run
    run.ensure_pyperf()
    return run.load("nbody", "test_tuple_lists")


advance = _nbody_program().advance          # called with its bodies and pairs given, not its module's defaults


def weighted(points):
    total = 0.0
    for (x, y), w in points:
        total += (x * x + y * y) ** 0.5 * w
    return total


def signed_root(a, b):
    return (a - b) ** 0.5          # a negative base gives a complex number: not native


_jitted: dict = {}


def native(fn, backend="llvm"):
    if (fn, backend) not in _jitted:
        _jitted[fn, backend] = moshjit.jit(fn, backend=backend, strict=backend == "llvm")
    return _jitted[fn, backend]


def test_samples_and_types_of_lists_of_tuples():
    bodies = make_bodies([(1.0, 2.0, 3.0, 0.1, 0.2, 0.3, 5.0), (0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0)])
    body = tuple_of([ListType(FLOAT), ListType(FLOAT), FLOAT])
    assert shape_type(shape_of(bodies)) == argument_type(bodies) == ListType(body)
    assert shape_type(shape_of(make_pairs(bodies))) == ListType(tuple_of([body, body]))
    assert argument_type([(1, 2.0), (1, "x")]) is None and argument_type([(1, 2.0), (3, 4.0)]) == \
        ListType(tuple_of([INT64, FLOAT]))
    assert shape_of([[[[1.0]]]]).item.item.item.item.cls is float     # four levels of lists


rows = st.tuples(*[st.floats(-10, 10, allow_nan=False)] * 6, st.floats(0.1, 10))


@settings(max_examples=30, deadline=None)
@given(st.lists(rows, min_size=2, max_size=4), st.integers(0, 3))
def test_n_body_agrees_with_cpython_and_writes_the_callers_lists(data, n):
    def run(fn, bodies):
        try:
            return "ok", fn(0.01, n, bodies, make_pairs(bodies))
        except Exception as exc:              # two bodies at one place: 0.0 ** -1.5, CPython's ZeroDivisionError
            return "raise", type(exc), str(exc)
    expected_bodies, got_bodies = make_bodies(data), make_bodies(data)
    expected, got = run(advance, expected_bodies), run(native(advance), got_bodies)
    assert got == expected and same(got_bodies, expected_bodies)
    stats = native(advance).stats
    assert all(s["backend"] == "llvm" for s in stats.values()), stats


def test_a_list_that_stops_fitting_takes_another_path_exactly():
    points = [((3.0, 4.0), 2.0), ((1.0, 0.0), 1.0)]
    assert native(weighted)(points) == weighted(points) == 11.0
    for changed in ([((3, 4), 2.0)], [((3.0, "4"), 2.0)], [], [((3.0, 4.0, 5.0), 1.0)]):
        assert outcome(native(weighted), (changed,)) == outcome(weighted, (changed,))


def test_a_power_whose_base_may_be_negative_is_not_native():
    with pytest.raises(moshjit.UnsupportedError):
        native(signed_root)(1.0, 2.0)
    for a, b in [(1.0, 2.0), (4.0, 0.0)]:
        assert outcome(native(signed_root, "auto"), (a, b)) == outcome(signed_root, (a, b))


def weighted_row(i_u):
    """spectral_norm's shape: a tuple argument holding a list (its items' kind decided at the call)."""
    i, u = i_u
    total = 0.0
    for j, u_j in enumerate(u):
        total += (i + j) * u_j
    return total


def test_a_tuple_argument_holding_a_list_is_native_and_switches_variants():
    compiled = native(weighted_row)
    for args in [(2, [1.0, 2.0]), (1, [1, 2, 3]), (0, []), (3, [1.5, 2]), (2, [True, 2.0])]:
        assert outcome(compiled, (args,)) == outcome(weighted_row, (args,))
    assert {s["backend"] for s in compiled.stats.values()} == {"llvm"}

"""Deoptimisation: where native code meets a value it cannot represent (an int beyond 64 bits), the call goes
on in the SSA interpreter from that point and ends exactly as in CPython: same result, same exception and
message, same mutations of the arguments, nothing done twice. Each case runs with ``backend="llvm"`` and with
the default ``"auto"`` (which must pick the LLVM backend for these functions), and checks that it really did
deoptimise (so the test cannot pass by never reaching that path)."""
import os
import subprocess
import sys
import textwrap
import traceback

import pytest

import moshjit
from tests.llvm import deopt_samples as s
from tests.llvm.oracle import INT64_MAX, INT64_MIN, outcome, same

BACKENDS = ("llvm", "auto")
_jitted: dict = {}


@pytest.fixture(autouse=True)
def native_code_stays(monkeypatch):
    """No demotion to the generic specialisation unless a test asks for it: these tests are about native code."""
    monkeypatch.setenv("MOSHJIT_DEOPT_BUDGET", "1e9")


def jitted(fn, backend):
    if (fn, backend) not in _jitted:
        _jitted[fn, backend] = moshjit.jit(fn, backend=backend)
    return _jitted[fn, backend]


def deopts(function) -> int:
    return sum(stats.get("deopts", 0) for stats in function.stats.values())


def check(backend, fn, *args, deoptimises=True):
    """``fn(*args)`` natively behaves as in CPython; with ``deoptimises`` it must have left native code."""
    native = jitted(fn, backend)
    before = deopts(native)
    expected, got = outcome(fn, args), outcome(native, args)
    assert got[0] == expected[0], (got, expected)
    if expected[0] == "ok":
        assert same(got[1], expected[1]), (got[1], expected[1])
        assert same(got[2], expected[2]), ("arguments after the call", got[2], expected[2])
    else:
        assert got[1:] == expected[1:], (got, expected)
    assert all(stats["backend"] == "llvm" for stats in native.stats.values()), native.stats
    if deoptimises:
        assert deopts(native) > before, f"{fn.__name__}{args} did not deoptimise"
    return got


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_cases_of_the_issue(backend):
    check(backend, s.fact, 25)
    check(backend, s.fact, 20, deoptimises=False)
    check(backend, s.product, 2 ** 62, 4)
    check(backend, s.product_over, 2 ** 62, 4)
    check(backend, s.negate, -2 ** 63)
    check(backend, s.magnitude, -2 ** 63)
    check(backend, s.shift, 1, 63)
    check(backend, s.shift, 3, 200)


CONSTANTS = (0, 1, -1, 2, -2, 3, -3, 7, 1000003, 2 ** 62, -(2 ** 62), INT64_MAX, INT64_MIN)
EDGES = (INT64_MAX, INT64_MAX - 1, INT64_MAX - 7, INT64_MIN, INT64_MIN + 1, INT64_MIN + 7, -3, -1, 0, 1, 2,
         INT64_MAX // 3, INT64_MAX // 3 + 1, INT64_MIN // 3, INT64_MIN // 3 - 1, 2 ** 62, -(2 ** 62), 2 ** 31)


def test_arithmetic_with_a_constant_operand_at_the_edges():
    """``x + c``, ``c + x``, ``x - c``, ``c - x``, ``x * c``, ``c * x``: a range check of ``x`` decides (or the
    overflow intrinsics, for ``c - x``); every edge of every range gives CPython's int."""
    namespace: dict = {}
    cases = [f"x {op} ({c})" for op in "+-*" for c in CONSTANTS] + [f"({c}) {op} x" for op in "+-*" for c in CONSTANTS]
    body = "".join(f"    if case == {i}:\n        return {text}\n" for i, text in enumerate(cases))
    exec(compile(f"def each(case, x):\n{body}    return 0\n", __file__, "exec"), namespace)
    each, native = namespace["each"], moshjit.jit(namespace["each"], backend="llvm")
    for i, text in enumerate(cases):
        for x in EDGES:
            assert native(i, x) == each(i, x), (text, x)
    assert deopts(native) > 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_exceptions_after_an_overflow_are_cpythons(backend):
    check(backend, s.overflow_then_error, 2 ** 40, 2 ** 40)
    check(backend, s.overflow_then_index_error, [1, 2, 3], 2 ** 40)
    check(backend, s.shift, 1, -1, deoptimises=False)


@pytest.mark.parametrize("backend", BACKENDS)
def test_other_operations_beyond_64_bits(backend):
    check(backend, s.power, 3, 50)
    check(backend, s.power, -2, 63, deoptimises=False)        # -2**63 fits
    check(backend, s.power, -2, 64)
    check(backend, s.floor_div, INT64_MIN, -1)
    for x in (1e19, -1e300, 2.0 ** 63, -(2.0 ** 63) - 4096.0):
        check(backend, s.from_float, x)
    for x in (float("nan"), float("inf")):
        check(backend, s.from_float, x, deoptimises=False)
    check(backend, s.total, [INT64_MAX, 1])
    check(backend, s.total, [INT64_MAX, INT64_MAX, INT64_MAX, -5])
    check(backend, s.total, [INT64_MAX - 1], deoptimises=False)
    check(backend, s.common_divisor, INT64_MIN, 0)
    check(backend, s.counted, [7, 8, 9], 2 ** 63 - 2)
    check(backend, s.counted, [7, 8, 9], 5, deoptimises=False)


@pytest.mark.parametrize("backend", BACKENDS)
def test_live_loops_and_iterators_are_handed_over(backend):
    check(backend, s.in_range_loop, 60, 1, 7)
    check(backend, s.in_range_loop, 200, 3, -5)
    check(backend, s.in_range_loop, 5, 0, 2, deoptimises=False)
    check(backend, s.in_reversed_range, 40, 1000)
    check(backend, s.over_list, [3, -4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19], 1 << 20)
    check(backend, s.over_list, [1, 2], 3, deoptimises=False)
    check(backend, s.over_reversed_list, list(range(30)), 1 << 10)
    check(backend, s.over_tuple, 5, 6, 7, 1 << 40)
    check(backend, s.enumerated_zip, [1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11], 1 << 30)


@pytest.mark.parametrize("backend", BACKENDS)
def test_native_lists_tuples_and_fused_lists_are_handed_over(backend):
    check(backend, s.with_native_list, 12, 1 << 16)
    check(backend, s.growing_native_list, 5, 1 << 62)
    check(backend, s.tuple_state, 2 ** 40, 2 ** 40)
    check(backend, s.fused_lists, [1, 2, 3], INT64_MIN, 0)
    check(backend, s.fused_lists, [1, 2, 3], 6, 2 ** 62)


@pytest.mark.parametrize("backend", BACKENDS)
def test_side_effects_are_not_done_twice(backend):
    got = check(backend, s.mutates_then_overflows, [0], 2 ** 30)
    assert got[2][0] == [2 ** 30 + 1, 2 ** 30, 2]


@pytest.mark.parametrize("backend", BACKENDS)
def test_callees_that_deoptimise(backend):
    check(backend, s.cube_plus, 2 ** 30, 1)            # the callee's result needs the caller to go on in Python
    check(backend, s.calls_reducer, 2 ** 40, 5)         # the result fits: the caller takes it back natively
    check(backend, s.calls_appender, [1], 2 ** 40)      # a list went down: the caller goes on in Python
    check(backend, s.fact_rec, 30)                      # every frame above the first overflow goes on in Python
    check(backend, s.depth_overflowing, 60, 7)


def test_a_list_argument_stays_valid_after_the_callee_changed_it():
    xs = [1, 2]
    native = jitted(s.calls_appender, "llvm")
    assert native(xs, 2 ** 40) == (6, 2 ** 80)
    assert xs == [1, 2, 2 ** 80]


def test_references_are_released():
    native = jitted(s.over_list, "llvm")
    xs = [3, -4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
    item = xs[-1] * 10 ** 30
    native(list(xs), 1 << 20)
    before = sys.getrefcount(item), sys.getrefcount(xs)
    for _ in range(50):
        native(xs, 1 << 20)
        del xs[-1]
    assert (sys.getrefcount(item), sys.getrefcount(xs)) == before


def test_arrays_are_handed_over():
    np = pytest.importorskip("numpy")
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    native = jitted(s.array_rows, "llvm")
    assert native(a, 1 << 20) == s.array_rows(a, 1 << 20)
    assert deopts(native) > 0


def test_errors_in_the_continuation_show_the_functions_line():
    native = jitted(s.overflow_then_error, "llvm")
    with pytest.raises(ZeroDivisionError) as info:
        native(2 ** 40, 2 ** 40)
    frames = traceback.extract_tb(info.value.__traceback__)
    assert frames[-1].name == "overflow_then_error" and "(b - b)" in frames[-1].line
    machinery = ("interpreter.py", "resume.py")
    assert not any(frame.filename.endswith(machinery) for frame in frames), frames


def test_a_specialisation_that_keeps_deoptimising_is_demoted(monkeypatch):
    """Once its continuations took longer than MOSHJIT_DEOPT_BUDGET seconds, the key goes to the generic
    specialisation (Python ints): later calls no longer deoptimise, and still give CPython's results."""
    monkeypatch.setenv("MOSHJIT_DEOPT_BUDGET", "0")
    namespace: dict = {}
    exec(compile("def grow(n):\n    r = 1\n    for i in range(n):\n        r = r * 3 + i\n    return r\n",
                 __file__, "exec"), namespace)
    grow = namespace["grow"]
    native = moshjit.jit(grow)
    assert native(60) == grow(60)
    stats = list(native.stats.values())[0]
    assert stats["deopts"] == 1 and stats["demoted"] and stats["generic"]["backend"] == "cython"
    assert native(100) == grow(100) and native(5) == grow(5)
    assert list(native.stats.values())[0]["deopts"] == 1


def test_native_recursion_stops_with_cpythons_recursion_error():
    native = jitted(s.depth, "llvm")
    with pytest.raises(RecursionError, match="^maximum recursion depth exceeded$"):
        native(sys.getrecursionlimit() + 10)
    assert native(100) == 100


def test_deep_recursion_continues_when_the_c_stack_is_used_up():
    """With a raised recursion limit CPython goes deeper than the C stack holds native frames: the frame that
    finds the stack nearly used up continues in the interpreter, which needs no C stack per level."""
    native = jitted(s.depth, "llvm")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1_000_000)
    try:
        assert native(300_000) == 300_000             # the depth of issue 11
    finally:
        sys.setrecursionlimit(limit)
    assert deopts(native) >= 1


def test_deep_recursion_in_a_thread_with_a_small_stack():
    """The stack bounds are the running thread's: a 1 MB thread stack is used up far sooner, and its recursion
    also goes on in the interpreter instead of crashing."""
    import threading
    native = jitted(s.depth, "llvm")
    limit, size = sys.getrecursionlimit(), threading.stack_size()
    results = []
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(1 << 20)
    try:
        worker = threading.Thread(target=lambda: results.append(native(60_000)))
        worker.start()
        worker.join()
    finally:
        threading.stack_size(size)
        sys.setrecursionlimit(limit)
    assert results == [60_000]


def test_threads_deoptimise_independently():
    import threading
    native = jitted(s.fact, "llvm")
    results = []

    def work():
        results.extend(native(n) == s.fact(n) for n in range(15, 40))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [True] * (4 * 25)


CACHED = textwrap.dedent("""
    import json, sys
    import moshjit
    from tests.llvm import deopt_samples as s
    results, stats = [], {}
    for fn, args in [(s.fact, (ARG,)), (s.cube_plus, (2 ** 30, 1)), (s.over_list, ([5, 6, 7], 1 << 40))]:
        jitted = moshjit.jit(fn)
        results.append(repr(jitted(*args)))
        stats[fn.__name__] = list(jitted.stats.values())[0]
    print(json.dumps({"results": results, "stats": stats, "llvmlite": "llvmlite" in sys.modules}))
""")


def test_code_loaded_from_the_cache_deoptimises_in_a_new_process(tmp_path):
    """The first process compiles (without deoptimising); the second loads the machine code from the cache,
    deoptimises, rebuilds the typed SSA to continue on (checked to be the same op for op), never importing
    llvmlite."""
    import json
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, MOSHJIT_CACHE_DIR=str(tmp_path), MOSHJIT_PURE_DISPATCH="1")

    def run(n):
        done = subprocess.run([sys.executable, "-c", CACHED.replace("ARG", str(n))], env=env, cwd=root,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    first, second = run(10), run(30)
    assert first["results"][0] == repr(s.fact(10)) and second["results"][0] == repr(s.fact(30))
    assert second["results"][1:] == first["results"][1:] == [repr(s.cube_plus(2 ** 30, 1)),
                                                             repr(s.over_list([5, 6, 7], 1 << 40))]
    assert all(stats["cache"] == "hit" and stats["deopts"] >= 1 for stats in second["stats"].values())
    assert first["llvmlite"] and not second["llvmlite"]


def test_a_continuation_never_runs_on_other_ssa_than_the_machine_codes(monkeypatch):
    """If the SSA rebuilt to continue on differs from the one the code was compiled from (a stale cache entry),
    the call fails with a clear error instead of continuing at the wrong op."""
    from moshjit.backends.llvm import resume
    native = moshjit.jit(s.product_over, backend="llvm")
    assert native(3, 4) == 3
    module = next(m for m in resume._modules.values() if m.py_function is s.product_over)
    monkeypatch.setattr(module, "_functions", None)
    monkeypatch.setitem(module.table["functions"][0], "fingerprint", "0" * 24)
    with pytest.raises(RuntimeError, match="differs from the one the machine code was compiled from"):
        native(2 ** 62, 4)

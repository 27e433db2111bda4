"""The ``@jit`` dispatcher: decorator forms, one specialisation per argument signature, CPython's binding errors,
unsupported code and the fallback, MOSHJIT_DISABLE, introspection, calls between jitted functions, globals,
methods, pickling into spawned workers, and the compiled call path against the pure-Python one."""
from __future__ import annotations

import array
import concurrent.futures
import enum
import functools
import multiprocessing
import os
import pickle
import subprocess
import sys
import textwrap
import warnings

import pytest
from hypothesis import given, settings, strategies as hs

import moshjit
from moshjit import dispatcher as dispatch
from moshjit import compiler
from moshjit.typeof import key_of
from tests.cython.ir_exec import outcome

jit = moshjit.jit


# ---- functions shared by the tests (each compiled once per process; the shared cache makes reruns cheap) ------
def twice(x):
    return x + x


jit_twice = jit(twice, backend="cython")


def bind_me(a, b, /, c, *, d=1):
    return a * 1000 + b * 100 + c * 10 + d


jit_bind_me = jit(bind_me, backend="cython")

SCALE = 3
TABLE = {"a": 1}


@jit(backend="cython")
def scaled(x):
    return x * SCALE + TABLE.get("a", 0)


@jit(backend="cython")
def small_jitted(x):
    return x * 2 + 1


@jit(backend="cython")
def calls_small(x):
    return small_jitted(x) - small_jitted(1)


@jit(backend="cython")
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def plain_fib(n):
    if n < 2:
        return n
    return plain_fib(n - 1) + plain_fib(n - 2)


@jit(backend="cython")
def calls_plain_fib(n):
    return plain_fib(n) + 1


# A helper too big to inline (more than inline.MAX_CALLEE_SIZE ops), written out rather than typed in by hand.
exec(compile("def big_helper(x):\n" + "".join(f"    x = (x * {i % 5 + 2} + {i}) % 1000003\n" for i in range(120))
             + "    return x\n", __file__ + ":big_helper", "exec"))


@jit(backend="cython")
def calls_big(x):
    return big_helper(x) - 1  # noqa: F821  (defined by the exec above)


def gen(n):
    try:
        yield n
    except* ValueError:  # the line an UnsupportedError must name
        pass


GEN_LINE = gen.__code__.co_firstlineno + 3


def groups_exceptions(x):
    try:
        x = int(x)
    except* ValueError:  # the line an UnsupportedError must name
        x = None
    return x


GROUP_LINE = groups_exceptions.__code__.co_firstlineno + 3


# ---- decorator forms ------------------------------------------------------------------------------------------
def test_decorator_forms():
    @jit
    def bare(x):
        """doc of bare"""
        return x + 1

    @jit()
    def called(x):
        return x + 2

    @jit(backend="cython", cache=True, strict=True, fallback=False)
    def with_options(x):
        return x + 3

    def plain(x):
        return x + 4

    wrapped = jit(plain)
    for fn, expected in ((bare, 2), (called, 3), (with_options, 4), (wrapped, 5)):
        assert isinstance(fn, dispatch.dispatcher_class()) and fn(1) == expected
    assert wrapped.py_func is plain and bare.__name__ == "bare" and bare.__doc__ == "doc of bare"
    assert bare.__wrapped__ is bare.py_func and jit(wrapped).py_func is plain


def test_bad_arguments_to_jit():
    with pytest.raises(ValueError, match="backend must be one of auto, cython, llvm, not 'fortran'"):
        jit(twice, backend="fortran")
    with pytest.raises(ValueError, match="'fortran'"):
        jit(backend="fortran")(twice)
    with pytest.raises(TypeError, match="expects a function, got int"):
        jit(5)


# ---- specialisation -------------------------------------------------------------------------------------------
def test_one_specialisation_per_signature():
    fn = jit(twice, backend="cython")
    calls = [(1, 2), (-7, -14), (2 ** 70, 2 ** 71), (2 ** 63 - 1, 2 ** 64 - 2), ("a", "aa"), ("z", "zz"),
             ("ab", "abab"), ("", "")]
    for arg, expected in calls:
        assert fn(arg) == expected
    assert fn.signatures == [("int64",), ("int",), ("char",), ("str",)]
    stats = fn.stats
    assert list(stats) == fn.signatures
    for entry in stats.values():
        assert entry["backend"] == "cython" and entry["cache"] in ("hit", "miss")
        assert entry["total_s"] >= entry["frontend_s"] >= 0


class Color(enum.IntEnum):
    RED = 1


class Text(str):
    pass


KIND_VALUES = [0, 2 ** 63 - 1, -2 ** 63, 2 ** 63, -2 ** 63 - 1, True, None, 1.5, "", "a", "ab", "\U0001F600", Text("a"),
               Color.RED, (), (1, "a", (2 ** 64, "bc")), tuple(range(8)), tuple(range(9)), [1], {}, set(), b"x",
               array.array("d", [1.0]), array.array("q"), array.array("i", [1])]


def test_kinds_of_arguments():
    kinds = [key_of(v) for v in KIND_VALUES]
    assert kinds == ["int64", "int64", "int64", int, int, bool, type(None), float, str, "char", str, "char", Text,
                     Color, ("tuple",), ("tuple", "int64", "char", ("tuple", int, str)), ("tuple",) + ("int64",) * 8,
                     tuple, list, dict, set, bytes, "array[float64]", "array[int64]", array.array]


# ---- binding --------------------------------------------------------------------------------------------------
BIND_CALLS = [
    ((1, 2, 3), {}), ((1, 2), {"c": 3, "d": 4}), ((1, 2, 3), {"d": 5}),
    ((), {}), ((1,), {}), ((1, 2), {}), ((1, 2, 3, 4), {}), ((1, 2, 3), {"e": 1}), ((1, 2, 3), {"c": 1}),
    ((1,), {"b": 2, "c": 3}), ((1, 2), {"d": 1}), ((1, 2, 3), {"d": 1, "x": 2, "y": 3}),
]


@pytest.mark.parametrize("args, kwargs", BIND_CALLS)
def test_binding_matches_cpython(args, kwargs):
    expected = outcome(lambda: bind_me(*args, **kwargs))
    assert outcome(lambda: jit_bind_me(*args, **kwargs)) == expected


def test_defaults_varargs_and_kwargs():
    def collect(a, b=10, *rest, c, d=20, **extra):
        return a, b, rest, c, d, sorted(extra.items())

    fn = jit(collect, backend="cython")
    for args, kwargs in [((1,), {"c": 2}), ((1,), {"c": 2, "z": 3}), ((1, 2, 3), {"c": 2}), ((), {}),
                         ((1,), {}), ((1,), {"c": 1, "a": 2})]:
        assert outcome(lambda: fn(*args, **kwargs)) == outcome(lambda: collect(*args, **kwargs))


def test_positional_only_name_may_also_be_a_keyword():
    def posonly(a, /, **kw):
        return a, sorted(kw.items())

    fn = jit(posonly, backend="cython")
    for args, kwargs in [((1,), {}), ((1,), {"a": 2}), ((), {"a": 1}), ((1, 2), {})]:
        assert outcome(lambda: fn(*args, **kwargs)) == outcome(lambda: posonly(*args, **kwargs))


def test_mutable_default_is_shared_like_cpython():
    def remember(x, seen=[]):       # noqa: B006  (the shared default is the behaviour under test)
        seen.append(x)
        return len(seen)

    fn = jit(remember, backend="cython")
    assert [fn(1), fn(2), remember(3), fn(4)] == [1, 2, 3, 4]


# ---- unsupported code and the fallback --------------------------------------------------------------------------
@pytest.mark.parametrize("plain, line, words", [(gen, GEN_LINE, "except*"), (groups_exceptions, GROUP_LINE, "except*")])
def test_unsupported_construct_raises_at_the_first_call(plain, line, words):
    fn = jit(plain)                                # decorating is lazy: nothing is checked yet
    with pytest.raises(moshjit.UnsupportedError) as info:
        fn(1)
    assert info.value.filename == __file__ and info.value.lineno == line and words in info.value.construct
    assert f"{__file__}:{line}: unsupported:" in str(info.value)
    with pytest.raises(moshjit.UnsupportedError):  # still refused, never half-compiled
        fn(1)
    assert fn.signatures == []


def _recorded_warnings(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [w for w in caught if issubclass(w.category, moshjit.MoshjitWarning)]


@pytest.mark.parametrize("options", [{"fallback": True}, {"strict": False}])
def test_fallback_runs_the_plain_function_with_one_warning(options):
    fn = jit(gen, **options)
    results, caught = _recorded_warnings(lambda: [list(fn(1)), list(fn(2)), list(fn("x")), list(fn(n=3))])
    assert results == [[1], [2], ["x"], [3]]
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "gen" in message and f"{__file__}:{GEN_LINE}" in message and "plain Python" in message
    assert {s["backend"] for s in fn.stats.values()} == {"python (fallback)"}


def _pure_dispatcher_class():
    return type("PureDispatcher", (dispatch.DispatcherBase, dispatch.PyDispatcherCore), {})


CORES = [pytest.param(dispatch.dispatcher_class, id="compiled-core"),
         pytest.param(_pure_dispatcher_class, id="pure-core")]


@pytest.mark.parametrize("core", CORES)
def test_fallback_warning_points_at_the_call(core):
    fn = core()(gen, fallback=True)
    _, caught = _recorded_warnings(lambda: fn(1))   # the call site is this line, in this file
    assert (caught[0].filename, caught[0].lineno) == (__file__, sys._getframe().f_lineno - 1)


# ---- MOSHJIT_DISABLE and MOSHJIT_PURE_DISPATCH: chosen at import/decoration time, so in a fresh process ------
ENV_SCRIPT = textwrap.dedent("""
    import json, sys, types
    import moshjit
    from moshjit import dispatcher

    @moshjit.jit
    def add(a, b):
        return a + b

    def plain(a):
        return a

    core = [c.__name__ for c in type(add).__mro__] if not isinstance(add, types.FunctionType) else None
    print(json.dumps({"plain": isinstance(add, types.FunctionType), "same": moshjit.jit(plain) is plain,
                      "result": add(2, 3), "core": core}))
""")


def _run_env_script(**env):
    proc = subprocess.run([sys.executable, "-c", ENV_SCRIPT], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env}, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert proc.returncode == 0, proc.stderr
    import json
    return json.loads(proc.stdout)


def test_moshjit_disable_returns_the_plain_function():
    assert _run_env_script(MOSHJIT_DISABLE="1") == {"plain": True, "same": True, "result": 5, "core": None}


def test_moshjit_pure_dispatch_uses_the_python_core():
    report = _run_env_script(MOSHJIT_PURE_DISPATCH="1", MOSHJIT_DISABLE="0")
    assert report["result"] == 5 and "PyDispatcherCore" in report["core"] and "DispatcherCore" not in report["core"]


def test_cache_false_keeps_compiled_code_out_of_the_shared_cache():
    def only_here(x):
        return x * 7 - 1

    fn = jit(only_here, backend="cython", cache=False)
    assert fn(3) == 20 and fn.stats[("int64",)]["cache"] == "miss"
    (artifact,) = fn._artifacts.values()
    path = sys.modules[artifact.entry.__module__].__file__
    assert path.startswith(dispatch._memory_cache().root + os.sep)
    assert not path.startswith(dispatch._cache().root + os.sep)


# ---- introspection ---------------------------------------------------------------------------------------------
def test_introspection():
    fn = jit(twice, backend="cython")
    assert fn(3) == 6 and fn("ab") == "abab"
    ssa = fn.inspect_ssa()
    assert ssa.startswith("def twice(x):") and "binary_op['+'] %x, %x" in ssa and "return" in ssa
    types_text = fn.inspect_types()
    assert "# signature (int64) -> backend cython" in types_text and "# signature (str) -> backend cython" in types_text
    assert ":: int[" in types_text and ":: str" in types_text          # every value with its inferred type
    only_int = fn.inspect_types(("int64",))
    assert "(int64)" in only_int and "(str)" not in only_int
    code = fn.inspect_code()
    assert "# signature (int64) (cython)" in code and "def twice(Py_ssize_t a_x):" in code
    assert "def twice(str a_x):" in code and "cdef" in code
    assert fn.inspect_code(("str",)).count("def twice(") == 1
    assert repr(fn) == f"<moshjit.jit {__name__}.twice>"


# ---- calls between functions, globals, methods ------------------------------------------------------------------
def test_a_small_jitted_callee_is_inlined():
    assert calls_small(5) == small_jitted(5) - small_jitted(1) == 8
    assert " = call " not in calls_small.inspect_types() and "small_jitted" not in calls_small.inspect_types()


def test_recursive_jitted_function():
    assert [fib(n) for n in (0, 1, 2, 20)] == [0, 1, 1, 6765]
    assert fib.signatures == [("int64",)]


DEEP_SCRIPT = textwrap.dedent("""
    import sys
    from moshjit import jit

    @jit(backend=sys.argv[1])
    def depth(n):
        if n == 0:
            return 0
        return 1 + depth(n - 1)

    assert depth(50) == 50
    for n in (5000, 1000000):
        try:
            print(depth(n))
        except RecursionError:
            print("RecursionError")
""")


@pytest.mark.parametrize("backend", ["cython", "auto"])
def test_deep_recursion_raises_recursion_error(backend):
    """In a subprocess, because the failure this guards against is a crash of the whole interpreter (native
    self-calls that never count towards the recursion limit overflow the C stack)."""
    proc = subprocess.run([sys.executable, "-c", DEEP_SCRIPT, backend], capture_output=True, text=True,
                          timeout=300, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert (proc.returncode, proc.stdout.split()) == (0, ["RecursionError", "RecursionError"]), proc.stderr[-2000:]


def test_a_big_helper_gets_an_implicit_dispatcher():
    assert calls_big(5) == big_helper(5) - 1  # noqa: F821
    assert f"call <moshjit.jit {__name__}.big_helper>" in calls_big.inspect_types()
    assert compiler._helper_dispatchers[big_helper].signatures == [("int64",)]  # noqa: F821


def test_a_recursive_helper_gets_an_implicit_dispatcher():
    assert calls_plain_fib(15) == plain_fib(15) + 1 == 611
    text = calls_plain_fib.inspect_types()
    assert "<function plain_fib>" not in text and f"<moshjit.jit {__name__}.plain_fib>" in text


def summed(xs):
    total = 0
    for x in xs:
        total += x
    return total


def test_native_entry_falls_back_to_generic_code_when_its_checks_fail():
    fn = jit(summed)                  # 'auto': a native entry that checks list items at run time, if one fits
    for arg in ([1, 2, 3], [1, 2.5], [1, "a"], ["a", "b"], [2 ** 70, 1], [], [True, 2]):
        assert outcome(fn, arg) == outcome(summed, arg), arg
    assert fn.signatures == [("list",)]


def test_rebinding_a_data_global_is_seen_by_the_next_call():
    global SCALE, TABLE
    try:
        assert scaled(2) == 7
        SCALE, TABLE = 10, {"a": 5}
        assert scaled(2) == 25
        TABLE["a"] = 6
        assert scaled(2) == 26
        SCALE = "ab"                                 # now str * int + int: the same TypeError as CPython
        assert outcome(scaled, 2) == outcome(scaled.py_func, 2) and outcome(scaled, 2)[1] is TypeError
    finally:
        SCALE, TABLE = 3, {"a": 1}


class Account:
    def __init__(self, balance):
        self.balance = balance

    @jit(backend="cython")
    def deposit(self, amount, fee=1):
        self.balance += amount - fee
        return self.balance


def test_a_jitted_function_used_as_a_method():
    account = Account(10)
    assert account.deposit(5) == 14 and account.deposit(5, fee=0) == 19 and Account.deposit(account, 1) == 19
    assert outcome(lambda: account.deposit()) == outcome(lambda: Account.deposit.py_func(account))
    Account.double = jit(lambda self: self.balance * 2, backend="cython")
    try:
        assert account.double() == 38
    finally:
        del Account.double


# ---- pickling ---------------------------------------------------------------------------------------------------
def triangle(n):
    total = 0
    for i in range(n):
        total += i
    return total


jit_triangle = jit(triangle, backend="cython")


def test_unpickling_in_the_pickling_process_gives_the_dispatcher_itself():
    """As for a plain function: what ran and compiled here is what a forked pool worker calls."""
    assert pickle.loads(pickle.dumps(jit_triangle)) is jit_triangle
    assert pickle.loads(pickle.dumps(jit_triangle)) is jit_triangle


def unpickled_as(dispatcher):
    """What a worker process sees of a dispatcher sent with its task: how many tasks brought this very object,
    its type and options, a call's result."""
    dispatcher.tasks_seen = getattr(dispatcher, "tasks_seen", 0) + 1
    return (dispatcher.tasks_seen, type(dispatcher) is dispatch.dispatcher_class(), dispatcher.backend,
            dispatcher.use_cache, dispatcher.strict, dispatcher.fallback, dispatcher(10))


def test_a_worker_unpickles_one_dispatcher_with_the_options_for_all_its_tasks():
    """Each task pickles the function anew; the worker keeps the first dispatcher it made (compiled once), not a
    new one per task, which compiled (or loaded from the cache) at every task."""
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        first, second = (pool.submit(unpickled_as, jit_triangle).result() for _ in range(2))
    assert first == (1, True, "cython", True, True, False, 45) and second == (2, *first[1:])


def test_pickled_function_runs_in_a_spawned_worker():
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        assert list(pool.map(jit_triangle, [0, 10, 1000])) == [0, 45, 499500]
        assert pool.submit(functools.partial(jit_twice, "ab")).result() == "abab"


# ---- the compiled call path against the pure-Python one -------------------------------------------------------
def test_the_compiled_core_is_in_use():
    if os.environ.get("MOSHJIT_PURE_DISPATCH", "") not in ("", "0"):
        pytest.skip("MOSHJIT_PURE_DISPATCH is set for this run")
    from moshjit.runtime import moshjit_dispatch
    assert issubclass(dispatch.dispatcher_class(), moshjit_dispatch.DispatcherCore)


def _recording_dispatcher(core):
    """A dispatcher on ``core`` that records the signature key of each new signature instead of compiling (its
    entry, the plain function taking the bound parameters, is kept as a compiled one would be)."""
    class Recording(dispatch.DispatcherBase, core):
        def _specialize(self, key, compile=None, sample=None):
            self.keys.append(key)
            self._entries[key] = entry = self._plain_call()
            return entry
    return Recording


def _keys_per_core(fn, calls):
    from moshjit.runtime import moshjit_dispatch
    out = []
    for core in (dispatch.PyDispatcherCore, moshjit_dispatch.DispatcherCore):
        recorder = _recording_dispatcher(core)(fn)
        recorder.keys = []
        results = [outcome(lambda: recorder(*args, **kwargs)) for args, kwargs in calls]
        out.append((recorder.keys, results))
    return out


def _star(*xs):
    return xs


def test_both_cores_classify_arguments_like_key_of():
    dispatch.dispatcher_class()
    (pure_keys, pure_results), (compiled_keys, compiled_results) = _keys_per_core(
        _star, [((v,), {}) for v in KIND_VALUES])
    assert pure_keys == compiled_keys == list(dict.fromkeys((("tuple", key_of(v)),) for v in KIND_VALUES))
    assert pure_results == compiled_results


scalars = (hs.integers() | hs.integers(-2 ** 64, 2 ** 64) | hs.text(max_size=3) | hs.none() | hs.booleans()
           | hs.floats(allow_nan=False))


@settings(max_examples=150, deadline=None)
@given(hs.lists(scalars | hs.tuples(scalars, scalars) | hs.lists(scalars, max_size=2), max_size=4))
def test_both_cores_agree_on_any_arguments(values):
    (pure_keys, pure_results), (compiled_keys, compiled_results) = _keys_per_core(
        bind_me, [(tuple(values), {}), (tuple(values[:2]), {"c": values[2:3]})])
    assert pure_keys == compiled_keys and pure_results == compiled_results


def test_both_cores_run_compiled_code_identically():
    pure = _pure_dispatcher_class()(twice, backend="cython")
    pure_bind = _pure_dispatcher_class()(bind_me, backend="cython")
    for arg in (1, 2 ** 70, "a", "ab"):
        assert pure(arg) == jit_twice(arg)
    assert pure.signatures == [("int64",), ("int",), ("char",), ("str",)]
    for args, kwargs in BIND_CALLS:
        assert outcome(lambda: pure_bind(*args, **kwargs)) == outcome(lambda: jit_bind_me(*args, **kwargs))
    assert isinstance(pure, dispatch.PyDispatcherCore)


def star_echo(*args, **kwargs):
    total = 0
    for value in args:
        total += value
    return args, kwargs, total


def calls_star_echo(a, b):
    return star_echo(a, b), star_echo(a, key=b)


def test_calls_to_star_args_helpers_bind_their_arguments():
    """A helper taking *args/**kwargs is called through its dispatcher (which binds), never its entry directly."""
    fn = jit(calls_star_echo, backend="cython")
    assert fn(0, 0) == calls_star_echo(0, 0) == (((0, 0), {}, 0), ((0,), {"key": 0}, 0))
    assert fn(2, 5) == calls_star_echo(2, 5)


# ---- the call path's fast checks (recent signatures, vectorcall) give the same dispatch as key_of -------------
def _compiled_core():
    """The compiled core, loaded even when MOSHJIT_PURE_DISPATCH makes ``@jit`` use the Python one."""
    from moshjit.runtime import compiled_dispatcher_core
    return compiled_dispatcher_core(dispatch._cache())


def _keyed_dispatcher(core, fn):
    """A dispatcher on ``core`` whose entry for a signature returns (that signature, ``fn``'s result): every call
    shows which entry the call path picked."""
    class Keyed(dispatch.DispatcherBase, core):
        def _specialize(self, key, compile=None, sample=None):
            def entry(*args):
                return key, self.py_func(*args)
            self._entries[key] = entry
            return entry
    return Keyed(fn)


def _expected_key_and_result(fn, args, kwargs):
    import inspect
    bound = inspect.signature(fn).bind(*args, **kwargs)
    bound.apply_defaults()
    return tuple(map(key_of, bound.args)), fn(*args, **kwargs)


def _check_call_sequence(fn, calls):
    """Both cores, one dispatcher each for the whole sequence: every call reaches the entry of its key_of key."""
    for core in (dispatch.PyDispatcherCore, _compiled_core()):
        keyed = _keyed_dispatcher(core, fn)
        for args, kwargs in calls:
            assert keyed(*args, **kwargs) == _expected_key_and_result(fn, args, kwargs), (core, args, kwargs)


def _identity(x):
    return x


def _pair(a, b=("default",)):
    return a, b


def _positional(values):
    return [((v,), {}) for v in values]


class Int(int):
    pass


class Str(str):
    pass


class Tuple(tuple):
    pass


class ndarray:          # noqa: N801  (named like NumPy's array type on purpose: not from numpy, so keyed by type)
    pass


CHANGING_TUPLES = [(1, 2), (1, "a"), (2 ** 70, 1), (1, 2, 3), (1, 2), ((1, 2), 3), ((1, "a"), 3), ((2 ** 64, "ab"), 3),
                   (((1,),),), (((1.5,),),), (), tuple(range(8)), tuple(range(9)), (1, 2), ("a", "bc"), ("ab", "c"),
                   (True, 1), (Int(1), 1), Tuple((1, 2)), (1, 2), (0, 2 ** 200 + 1, -203, 203), (0, 2 ** 63, -3, 64),
                   (0, 2 ** 63 - 1, -3, 63), (0, 2 ** 200 + 1, -203, 203)]
INT64_EDGES = [0, 2 ** 63 - 1, 2 ** 63, -2 ** 63, -2 ** 63 - 1, 1, 2 ** 64, -1, 2 ** 62, -2 ** 100, True, Int(5), 7,
               2 ** 89, 2 ** 90, -2 ** 90, -2 ** 91, 2 ** 200]
STRS = ["a", "ab", "", "b", "\U0001F600", "\U0001F600\U0001F600", Str("a"), Str("ab"), "é", "long text"]


@pytest.mark.parametrize("values", [CHANGING_TUPLES, INT64_EDGES, STRS], ids=["tuples", "ints", "strs"])
def test_fast_path_follows_changing_kinds(values):
    _check_call_sequence(_identity, _positional(values + values[::-1]))


def test_more_signatures_in_turn_than_the_recent_slots_hold():
    signatures = [1, "a", "ab", 1.5, [1], {}, (1,), (1, "a"), None, Int(1), 2 ** 70, b"x", bytearray(b"x"),
                  frozenset(), {1}, 1j, range(2), True, ("a", 1.5)]                      # more than RECENT = 16
    calls = _positional(signatures * 3 + signatures[::-2] * 2 + [v for v in signatures for _ in range(3)])
    _check_call_sequence(_identity, calls)


def test_keyword_calls_and_defaults_between_positional_calls():
    calls = [((1,), {}), ((1, 2), {}), ((), {"a": "x"}), ((1,), {"b": (1, "a")}), ((1, 2), {}), (("a",), {}),
             ((), {"a": 1, "b": 2}), ((1,), {}), ((2 ** 70,), {"b": 2 ** 70}), ((1, (1, 2)), {})]
    _check_call_sequence(_pair, calls)


def test_numpy_arrays_are_keyed_like_array_key():
    np = pytest.importorskip("numpy")
    values = [np.zeros(3), np.zeros((2, 2)), np.zeros(3, dtype=np.int32), np.zeros((3, 3))[:, 1],
              np.zeros(3, dtype=np.uint8), np.zeros((2, 2, 2)), np.zeros(3), ndarray(), type("a.ndarray", (), {})(),
              (np.zeros(2), 1), np.zeros(3)]
    _check_call_sequence(_identity, _positional(values + values[::-1]))


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.tuples(scalars | hs.tuples(scalars) | hs.tuples(scalars, hs.tuples(scalars, scalars)),
                          scalars), min_size=1, max_size=12))
def test_any_call_sequence_reaches_the_entry_of_its_key(pairs):
    _check_call_sequence(_pair, [(pair, {}) for pair in pairs])


def test_bad_keyword_calls_raise_like_cpython():
    for core in (dispatch.PyDispatcherCore, _compiled_core()):
        keyed = _keyed_dispatcher(core, _pair)
        keyed(1)
        for args, kwargs in [((), {}), ((1, 2, 3), {}), ((1,), {"a": 2}), ((1,), {"c": 2}), ((), {"b": 1})]:
            assert outcome(lambda: keyed(*args, **kwargs)) == outcome(lambda: _pair(*args, **kwargs))


def test_compiled_functions_give_cpythons_results_as_kinds_change():
    def first(t):
        return [t, t]

    fn = jit(first, backend="cython")
    for value in [(1, 2), (1, "a"), (2 ** 70, 1), (1, 2, 3), ((1, 2), 3), (1, 2), 2 ** 63 - 1, 2 ** 63, "a", "ab",
                  Int(3), Str("x"), (1, 2), 2 ** 63]:
        assert outcome(fn, value) == outcome(first, value)
        assert [type(v) for v in fn(value)] == [type(v) for v in first(value)]


def test_dispatcher_instances_are_called_through_vectorcall():
    if os.environ.get("MOSHJIT_PURE_DISPATCH", "") not in ("", "0"):
        pytest.skip("MOSHJIT_PURE_DISPATCH is set for this run")
    jit_twice(1)
    assert dispatch.dispatcher_class().__flags__ & (1 << 11)        # Py_TPFLAGS_HAVE_VECTORCALL


def test_a_subclass_overriding_call_is_honoured():
    core = _compiled_core()

    class Logged(dispatch.DispatcherBase, core):
        def __call__(self, *args, **kwargs):
            return "logged", core.__call__(self, *args, **kwargs)

    logged = Logged(twice, backend="cython")
    assert logged(2) == ("logged", 4) and logged(x="a") == ("logged", "aa")

    class Plain(dispatch.DispatcherBase, core):
        pass

    plain = Plain(twice, backend="cython")
    assert plain(3) == 6 and functools.partial(plain, "b")() == "bb" and core.__call__(plain, x=4) == 8
    Plain.__call__ = lambda self, *args, **kwargs: ("replaced", args, kwargs)     # after instances exist
    assert plain(3, k=1) == ("replaced", (3,), {"k": 1}) and plain() == ("replaced", (), {})

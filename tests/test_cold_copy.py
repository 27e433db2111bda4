"""A cold tiered method's class holds a plain-function copy of it (``moshjit.cold_copy``), with a counting
prologue: CPython calls it as a Python function. These tests check that the copy is exact (results, exceptions,
tracebacks, recursion, cells, introspection), that it counts, and that the class gets the dispatcher back when
the method is hot and keeps it while native code runs.
"""
import inspect
import sys
import threading
import traceback
import types
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moshjit import MoshjitWarning, background, jit, tiers
from moshjit.dispatcher import DispatcherBase, PyDispatcherCore, dispatcher_class
from moshjit.errors import BuildError

WINDOW = tiers.TIMED_FIRST       # calls through the dispatcher (timed) before the class takes the copy


@pytest.fixture(autouse=True)
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MOSHJIT_CACHE_DIR", str(tmp_path / "cache"))
    yield
    background.wait(120)


class Base:
    def describe(self):
        return "base"


def make_classes(hot_calls=10**9, core=0, **options):
    """The same class twice: plain, and with its methods jitted tiered (``core`` 1: the pure-Python call path)."""
    def body():
        class Shape(Base):
            """A shape."""
            scale = 2

            def __init__(self, size):
                self.size = size

            def grow(self, n, by=1, *, twice=False):
                """Grow by n."""
                total = self.size + n * by
                return total * 2 if twice else total

            def divide(self, n):
                return self.size / n

            def describe(self):
                return "shape of " + super().describe() + " " + type(self).__name__ + __class__.__name__

            def adder(self, k):
                def add(x):
                    return x + k + self.size
                return add

            def depth(self, n):
                return 0 if n == 0 else 1 + self.depth(n - 1)
        return Shape
    plain = body()
    jitted = body()
    if core == 1:
        decorate = type("PyDispatcher", (DispatcherBase, PyDispatcherCore), {})
        for name, member in list(vars(jitted).items()):
            if isinstance(member, types.FunctionType):
                dispatcher = decorate(member, tier="tiered", hot_calls=hot_calls, hot_ms=1e9, **options)
                setattr(jitted, name, dispatcher)
                dispatcher.__set_name__(jitted, name)
    else:
        jit(tier="tiered", hot_calls=hot_calls, hot_ms=1e9, **options)(jitted)
    return plain, jitted


def only(stats) -> dict:
    """The stats of the one signature a test used."""
    (value,) = stats.values()
    return value


def warm_up(obj, method="grow", calls=WINDOW):
    for _ in range(calls):
        getattr(obj, method)(1)


@pytest.mark.parametrize("core", [0, 1])
def test_the_class_holds_a_plain_function_copy_after_the_timed_window(core):
    plain, jitted = make_classes(core=core)
    obj = jitted(3)
    for n in range(WINDOW - 1):
        assert obj.grow(n) == plain(3).grow(n)
    assert isinstance(vars(jitted)["grow"], dispatcher_class() if core == 0 else DispatcherBase)
    obj.grow(0)
    copy = vars(jitted)["grow"]
    assert type(copy) is types.FunctionType and copy.__code__ is not plain.grow.__code__
    assert [obj.grow(n, 2, twice=True) for n in range(5)] == [plain(3).grow(n, 2, twice=True) for n in range(5)]
    assert only(copy.stats)["plain_copy_calls"] == 5
    assert only(copy.stats)["interpreted_calls"] == WINDOW


def test_introspection_of_the_copy_is_the_functions():
    plain, jitted = make_classes()
    warm_up(jitted(1))
    copy, original = vars(jitted)["grow"], vars(plain)["grow"]
    for name in ("__name__", "__qualname__", "__doc__", "__module__", "__defaults__", "__kwdefaults__"):
        assert getattr(copy, name) == getattr(original, name), name
    assert inspect.signature(copy) == inspect.signature(original)
    assert copy.__wrapped__.__code__.co_code == original.__code__.co_code
    assert copy._moshjit_dispatcher.py_func is copy.__wrapped__
    assert copy.signatures == [] and not copy.signatures
    assert list(copy.stats) == list(copy._moshjit_dispatcher.stats) and len(copy.stats) == 1
    assert copy.stats == copy._moshjit_dispatcher.stats and only(copy.stats)["tier"] == "interpreter"


def _frames(call):
    with pytest.raises(Exception) as info:
        call()
    return traceback.extract_tb(info.value.__traceback__)[2:], info.value    # from the method on


def test_tracebacks_are_cpythons():
    plain, jitted = make_classes()
    warm_up(jitted(1), "divide")
    assert type(vars(jitted)["divide"]) is types.FunctionType
    got, got_exc = _frames(lambda: jitted(1).divide(0))
    want, want_exc = _frames(lambda: plain(1).divide(0))
    assert type(got_exc) is type(want_exc) and str(got_exc) == str(want_exc)
    assert [(f.filename, f.name, f.lineno, f.line, f.colno, f.end_colno) for f in got] == \
        [(f.filename, f.name, f.lineno, f.line, f.colno, f.end_colno) for f in want]
    assert "moshjit" not in "".join(traceback.format_exception(got_exc))


def test_super_class_cell_closures_and_keyword_errors_are_cpythons():
    plain, jitted = make_classes()
    obj, ref = jitted(4), plain(4)
    for _ in range(WINDOW):
        obj.describe(), obj.adder(1), obj.grow(1)
    for method in ("describe", "adder", "grow"):
        assert type(vars(jitted)[method]) is types.FunctionType, method
    assert obj.describe() == ref.describe()
    assert obj.adder(3)(10) == ref.adder(3)(10)
    for bad in (lambda o: o.grow(), lambda o: o.grow(1, 2, 3), lambda o: o.grow(1, nope=2)):
        with pytest.raises(TypeError) as got:
            bad(obj)
        with pytest.raises(TypeError) as want:
            bad(ref)
        assert str(got.value) == str(want.value)


def test_recursion_is_as_deep_as_cpythons():
    plain, jitted = make_classes()
    obj = jitted(0)
    warm_up(obj, "depth")
    assert type(vars(jitted)["depth"]) is types.FunctionType
    depth = sys.getrecursionlimit() - 50
    assert obj.depth(depth) == plain(0).depth(depth)
    with pytest.raises(RecursionError):
        obj.depth(sys.getrecursionlimit() + 10)


@pytest.mark.parametrize("core", [0, 1])
def test_the_dispatcher_comes_back_when_the_copy_counted_hot_calls(core):
    """The copy counts the calls; at ``hot_calls`` the dispatcher is back and counts each signature up to the trial's
    minimum; that signature then compiles (here the compile fails, so no compiler runs)."""
    plain, jitted = make_classes(hot_calls=WINDOW + 10, core=core)
    dispatcher = vars(jitted)["grow"]
    attempts = []

    def compile(key, generic=False):
        attempts.append(key)
        raise BuildError("no C compiler")
    dispatcher._compile = compile
    obj = jitted(2)
    warm_up(obj, "grow", WINDOW + 9)
    assert vars(jitted)["grow"] is not dispatcher
    obj.grow(1)                                          # the copy's tenth call: hot
    assert vars(jitted)["grow"] is dispatcher
    for n in range(10):                                  # the signature's threshold is hot_calls (< 100) now
        assert obj.grow(n) == plain(2).grow(n)
    assert only(dispatcher.stats)["tier"] in ("compiling", "failing")
    assert background.wait(60)
    with pytest.raises(BuildError, match="no C compiler"):
        obj.grow(1)                                      # strict: the failure is reported at the next call ...
    assert len(attempts) == 1
    assert vars(jitted)["grow"] is dispatcher            # ... and every call after (strict raises), so it stays


@pytest.mark.parametrize("core", [0, 1])
def test_defaults_assigned_to_what_the_class_holds_survive_the_swaps(core):
    """``Shape.grow.__defaults__ = ...`` reaches the copy while the method is cold and the dispatcher (the plain
    function behind it) while it is hot; each swap carries them over."""
    plain, jitted = make_classes(hot_calls=WINDOW + 10, core=core)
    dispatcher = vars(jitted)["grow"]
    obj, reference = jitted(2), plain(2)
    warm_up(obj, "grow", WINDOW)
    assert vars(jitted)["grow"] is not dispatcher
    for cls in (jitted, plain):
        cls.grow.__defaults__ = (5,)
        cls.grow.__kwdefaults__ = {"twice": True}
    assert obj.grow(1) == reference.grow(1) == 14
    warm_up(obj, "grow", 9)
    assert vars(jitted)["grow"] is dispatcher
    assert obj.grow(1) == reference.grow(1) and dispatcher.py_func.__defaults__ == (5,)


def test_after_a_fallback_the_class_holds_the_copy_again():
    plain, jitted = make_classes(hot_calls=WINDOW + 1, fallback=True)
    dispatcher = vars(jitted)["grow"]

    def compile(key, generic=False):
        raise BuildError("no C compiler")
    dispatcher._compile = compile
    obj = jitted(2)
    warm_up(obj, "grow", WINDOW + 2)                     # the copy's one call, then the promotion
    assert background.wait(60)
    with pytest.warns(Warning, match="no C compiler"):
        assert obj.grow(5) == plain(2).grow(5)
    copy = vars(jitted)["grow"]
    assert type(copy) is types.FunctionType and copy._moshjit_dispatcher is dispatcher
    assert [obj.grow(n) for n in range(50)] == [plain(2).grow(n) for n in range(50)]


def test_native_code_puts_the_dispatcher_back(monkeypatch):
    monkeypatch.setattr(tiers, "SLOWER", 1e9)            # keep the native code whatever the trial measures
    plain, jitted = make_classes(hot_calls=WINDOW + 1)
    obj = jitted(2)
    warm_up(obj, "grow", WINDOW + 2)                     # the copy's one call, then the promotion
    assert type(vars(jitted)["grow"]) is types.FunctionType       # compiling: the copy, uncounted
    assert [obj.grow(n) for n in range(50)] == [plain(2).grow(n) for n in range(50)]
    assert background.wait(120)
    warm_up(obj, "grow", 2 * tiers.MIN_TRIAL_CALLS)               # the trial
    dispatcher = vars(jitted)["grow"]
    assert isinstance(dispatcher, DispatcherBase)
    assert only(dispatcher.stats)["tier"] == "native"
    assert [obj.grow(n, 3, twice=True) for n in range(10)] == [plain(2).grow(n, 3, twice=True) for n in range(10)]


def test_a_rebound_method_is_left_alone():
    plain, jitted = make_classes(hot_calls=WINDOW + 1)
    obj = jitted(2)
    warm_up(obj)

    def mine(self, n):
        return "mine"
    jitted.grow = mine
    warm_up(obj, "grow", 5)                     # the copy's counter fires: nothing is stored over the user's
    assert jitted.grow is mine and obj.grow(1) == "mine"


def test_jit_on_a_method_assigned_after_the_class_was_made_is_found_at_its_first_call():
    class Point:
        def __init__(self, x):
            self.x = x

        def shifted(self, n):
            return self.x + n
    Point.shifted = jit(Point.shifted, tier="tiered", hot_calls=10**9, hot_ms=1e9)
    p = Point(1)
    assert [p.shifted(n) for n in range(WINDOW + 3)] == [1 + n for n in range(WINDOW + 3)]
    assert type(vars(Point)["shifted"]) is types.FunctionType


def test_threads_lose_no_calls_across_the_swaps():
    """Four threads call a method while the class swaps dispatcher -> copy -> dispatcher -> copy (the compile
    fails quietly): every call runs exactly once, with CPython's result."""
    class Tally:
        def __init__(self):
            self.seen = []

        def note(self, n):
            self.seen.append(n)
            return n * 2
    jit(tier="tiered", hot_calls=300, hot_ms=1e9, fallback=True)(Tally)
    vars(Tally)["note"]._compile = lambda key, generic=False: (_ for _ in ()).throw(BuildError("no compiler"))
    tally, errors = Tally(), []

    def worker(offset):
        try:
            for n in range(500):
                assert tally.note(offset + n) == 2 * (offset + n)
        except Exception as exc:            # pragma: no cover - reported below
            errors.append(exc)
    threads = [threading.Thread(target=worker, args=(k * 1000,)) for k in range(4)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MoshjitWarning)        # the fallback's one warning
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not errors
    assert sorted(tally.seen) == sorted(k * 1000 + n for k in range(4) for n in range(500))


def test_generators_and_coroutines_get_no_copy():
    class Gen:
        def items(self, n):
            return [i for i in range(n)]

        def gen(self, n):
            yield n

        async def run(self):
            return 1
    from moshjit.cold_copy import can_copy
    assert can_copy(Gen.items) and not can_copy(Gen.gen) and not can_copy(Gen.run)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(-10**20, 10**20), st.integers(-3, 3), st.booleans()), max_size=60))
def test_results_across_the_tiers_are_cpythons(calls):
    plain, jitted = make_classes(hot_calls=WINDOW + 5, fallback=True)
    vars(jitted)["grow"]._compile = lambda key, generic=False: (_ for _ in ()).throw(BuildError("none"))
    a, b = jitted(7), plain(7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MoshjitWarning)        # the fallback's one warning
        for n, by, twice in calls * 3:
            assert a.grow(n, by, twice=twice) == b.grow(n, by, twice=twice)


def test_a_tracer_sees_the_functions_events():
    """The prologue has no line: a debugger stepping through the copy sees the events of the user's function."""
    plain, jitted = make_classes()
    obj = jitted(1)
    warm_up(obj)
    assert type(vars(jitted)["grow"]) is types.FunctionType

    def events(call):
        seen = []

        def tracer(frame, event, arg):
            if frame.f_code.co_name == "grow":
                seen.append((event, frame.f_lineno - frame.f_code.co_firstlineno))
            return tracer
        sys.settrace(tracer)
        try:
            call()
        finally:
            sys.settrace(None)
        return seen
    assert events(lambda: obj.grow(2, twice=True)) == events(lambda: plain(1).grow(2, twice=True))


def test_dunder_methods_run_as_copies_and_implicit_static_ones_keep_the_dispatcher():
    def body():
        class Money:
            def __new__(cls, cents):
                return super().__new__(cls)

            def __init__(self, cents):
                self.cents = cents

            def __eq__(self, other):
                return isinstance(other, Money) and self.cents == other.cents

            def __hash__(self):
                return hash(self.cents)

            def __repr__(self):
                return f"Money({self.cents})"
        return Money
    plain, jitted = body(), jit(tier="tiered", hot_calls=10**9, hot_ms=1e9)(body())
    got = [(jitted(n) == jitted(n), hash(jitted(n)), repr(jitted(n))) for n in range(WINDOW + 3)]
    assert got == [(plain(n) == plain(n), hash(plain(n)), repr(plain(n))) for n in range(WINDOW + 3)]
    for name in ("__init__", "__eq__", "__hash__", "__repr__"):
        assert type(vars(jitted)[name]) is types.FunctionType, name
    assert isinstance(vars(jitted)["__new__"].__func__, DispatcherBase)      # the staticmethod a class body made

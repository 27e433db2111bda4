"""The call path binds arguments exactly as CPython does on every backend: keyword-only parameters are never taken
positionally (also once the LLVM entry is the dispatcher's own call), a ``**kwargs`` function that falls back
gets its keywords back, ``jit(obj.method)`` keeps ``obj``, and arguments whose class has a metaclass (Enum, IntEnum,
ABC instances) are dispatched like any other object, on the compiled and on the pure-Python call path."""
from __future__ import annotations

import abc
import enum
import typing
import warnings

import pytest
from hypothesis import given, settings, strategies as hs

import moshjit
from moshjit import dispatcher as dispatch

BACKENDS = ["auto", "cython", "llvm"]


def pure_jit(fn, **options):
    """A dispatcher on the pure-Python call path (``PyDispatcherCore``)."""
    cls = type("Dispatcher", (dispatch.DispatcherBase, dispatch.PyDispatcherCore), {})
    return cls(fn, **options)


CORES = {"compiled": moshjit.jit, "pure": pure_jit}


def outcome(fn, *args, **kwargs):
    """('ok', result) or (exception type, message): what a call gives."""
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as exc:
        return (type(exc), str(exc))


def same(jitted, plain, *args, **kwargs):
    assert outcome(jitted, *args, **kwargs) == outcome(plain, *args, **kwargs), (args, kwargs)


def kwonly(a, *, b=1):
    return a - b


def kwonly_required(a, *, b):
    return a - b


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_keyword_only_parameters_are_never_taken_positionally(backend, core):
    for fn in (kwonly, kwonly_required):
        jitted = CORES[core](fn, backend=backend)
        same(jitted, fn, 5, b=2)                   # compiles; with LLVM the entry may become the call path
        for args, kwargs in [((5, 1), {}), ((5,), {}), ((5, 1, 2), {}), ((), {"a": 5, "b": 1}), ((5,), {"c": 1})]:
            same(jitted, fn, *args, **kwargs)


def gather(a, *rest, scale=2, **named):
    return (a * scale, rest, sorted(named.items()))


def refused(a, **named):
    class Local:                  # a class body: refused by the compiler, so the function falls back
        pass
    return (a, sorted(named.items()), Local.__name__)


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_function_that_falls_back_gets_its_arguments_as_cpython_binds_them(backend, core):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", moshjit.MoshjitWarning)
        for fn in (gather, refused):
            jitted = CORES[core](fn, backend=backend, fallback=True)
            for args, kwargs in [((1,), {"x": 2}), ((1, 2, 3), {"scale": 3, "y": 4}), ((1,), {}), ((), {}),
                                 ((1,), {"a": 2})]:
                same(jitted, fn, *args, **kwargs)


class Account:
    def __init__(self, balance):
        self.balance = balance

    def deposit(self, amount):
        return self.balance + amount


@pytest.mark.parametrize("backend", BACKENDS)
def test_jit_of_a_bound_method_keeps_the_bound_object(backend):
    account = Account(100)
    jitted = moshjit.jit(account.deposit, backend=backend, fallback=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", moshjit.MoshjitWarning)
        assert jitted(5) == account.deposit(5) == 105
        same(jitted, account.deposit)                                   # the same TypeError
        same(jitted, account.deposit, 1, 2)


class Color(enum.Enum):
    RED = 1


class Level(enum.IntEnum):
    LOW = 1


class Shape(abc.ABC):
    pass


class Square(Shape):
    pass


def describe(x):
    return x


def combine(x, y):
    return (x, y)


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_arguments_whose_class_has_a_metaclass_are_dispatched(backend, core):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", moshjit.MoshjitWarning)
        jitted = CORES[core](describe, backend=backend, fallback=True)
        pair = CORES[core](combine, backend=backend, fallback=True)
        for value in (Color.RED, Level.LOW, Square(), Color, Level, Shape, 3, Color.RED):
            same(jitted, describe, value)
            same(pair, combine, value, Level.LOW)


def three(a, b=2, c=3):
    return (a, b, c)


def required_pair(a, b):
    return (a, b)


def positional_first(a, /, b, c=[1]):
    return (a, b, c)                 # the default list itself: the same object on every call


def keyword_mix(a, /, b, c=3, *, k, by=2, zz=None):
    return (a, b, c, k, by, zz)


def sized_class():
    class Sized:
        def __init__(self, size):
            self.size = size

        def grow(self, k, by=1):
            return self.size + k * by

        def scaled(self, k=0, *, by=1, zz=5):          # keyword-only, as tomli's get_or_create_nest(..., access_lists=)
            return (self.size + k) * by - zz
    return Sized


Sized = sized_class()


def var_positional(a, *rest, b=2):
    return (a, rest, b)


def var_keyword(a, /, b=1, **named):
    return (a, b, list(named.items()))      # in the call's keyword order; ``a`` by keyword lands here


def var_both(a, *rest, k=0, **named):
    return (a, rest, k, list(named.items()))


def packed(a, b=1, *rest, **named):
    return (a, b, rest, named)


def packed_positional(a, *rest):
    return (a, rest)


BINDING_FUNCTIONS = [three, required_pair, positional_first, keyword_mix, var_positional, var_keyword, var_both,
                     packed, packed_positional]
call_shapes = hs.tuples(hs.lists(hs.integers(-3, 3), max_size=4),
                        hs.dictionaries(hs.sampled_from(["a", "b", "c", "by", "k", "zz"]), hs.integers(-3, 3),
                                        max_size=3),
                        hs.booleans())


def fresh_name(name: str) -> str:
    """An equal str that is not the interned one (keywords built at run time are matched by value)."""
    return "".join(list(name))


@settings(max_examples=120, deadline=None)
@given(shape=call_shapes)
def test_keywords_and_defaults_bind_in_c_as_cpython_binds_them(shape):
    """The compiled call path binds keywords and defaults itself (``_bind_vector``) and hands every call CPython
    rejects to the Python binder: vectorcall, ``__call__`` with a dict and method calls agree with CPython."""
    args, kwargs, fresh = shape
    if fresh:
        kwargs = {fresh_name(k): v for k, v in kwargs.items()}
    for fn in BINDING_FUNCTIONS:
        jitted = jitted_binding[fn.__name__]
        same(jitted, fn, *args, **kwargs)                               # vectorcall with keyword names
        assert outcome(type(jitted).__call__, jitted, *args, **kwargs) == outcome(fn, *args, **kwargs)
    plain, compiled = Sized(10), JitSized(10)
    assert outcome(compiled.grow, *args, **kwargs) == outcome(plain.grow, *args, **kwargs)
    assert outcome(compiled.scaled, *args, **kwargs) == outcome(plain.scaled, *args, **kwargs)


def test_keyword_only_parameters_bind_in_c(monkeypatch):
    """Calls of a function with keyword-only parameters, from Python and from a compiled method site, do not go
    through the Python binder (0.6 µs a call: tomli spent a sixth of its time there)."""
    jitted = jitted_binding["keyword_mix"]
    assert jitted(1, 2, k=3) == keyword_mix(1, 2, k=3)
    compiled = JitSized(10)
    assert compiled.scaled(1, by=3) == Sized(10).scaled(1, by=3)

    def refuse(*args):
        raise AssertionError("bound in Python")
    monkeypatch.setattr(dispatch.DispatcherBase, "_bind", refuse)
    assert jitted(1, b=2, k=3, zz=4) == keyword_mix(1, b=2, k=3, zz=4)
    assert jitted(1, 2, 0, k=3) == keyword_mix(1, 2, 0, k=3)
    assert compiled.scaled(by=2) == Sized(10).scaled(by=2) and compiled.scaled(2) == Sized(10).scaled(2)
    assert call_scaled(compiled, 4) == call_scaled(Sized(10), 4)


def test_star_args_and_star_kwargs_bind_in_c(monkeypatch):
    """``*args`` and ``**kwargs`` are packed by the compiled call path (ftfy's and a NamedTuple's methods take
    ``**kwargs``: 0.6 µs a call in the Python binder); a positional call whose arguments look like a bound vector
    of an earlier call is still bound as CPython binds it, not taken for that vector."""
    def refuse(*args):
        raise AssertionError("bound in Python")
    monkeypatch.setattr(dispatch.DispatcherBase, "_bind", refuse)
    both, positional = jitted_binding["var_both"], jitted_binding["var_positional"]
    for _ in range(3):
        assert both(1, 2, 3, k=4, x=5, y=6) == var_both(1, 2, 3, k=4, x=5, y=6)
        assert both(1) == var_both(1) and both(a=1, z=0) == var_both(a=1, z=0)
        assert positional(1, 2) == var_positional(1, 2) == (1, (2,), 2)
        assert positional(1, (2,), 2) == var_positional(1, (2,), 2) == (1, ((2,), 2), 2)
        assert jitted_binding["var_keyword"](1, a=2, b=3) == var_keyword(1, a=2, b=3)


def test_positional_calls_packed_in_c_get_fresh_objects_as_in_cpython():
    """The vectorcall slot packs a positional call's rest into a new ``*args`` tuple and gives ``**kwargs`` a new
    empty dict at each call (no keyword-only parameters): what the function keeps or changes of them is its own,
    and the arguments' reference counts come back where they were."""
    import sys
    jitted, jitted_positional = jitted_binding["packed"], jitted_binding["packed_positional"]
    marker = object()
    before = sys.getrefcount(marker)
    kept = [jitted(marker, 2, 3, marker) for _ in range(50)]
    assert all(result == (marker, 2, (3, marker), {}) for result in kept)
    assert len({id(result[2]) for result in kept}) == len({id(result[3]) for result in kept}) == 50
    kept[0][3]["added"] = 1                                         # the dict one call got is that call's
    assert jitted(1, 2) == packed(1, 2) == (1, 2, (), {})
    del kept
    assert sys.getrefcount(marker) == before
    for args in [(1,), (1, "s"), (1, 2.5, "t", None), ("a", (1, 2)), ((1,), (1,), (1,))]:
        for _ in range(3):                                          # in a C slot after the first calls
            assert outcome(jitted, *args) == outcome(packed, *args)
            assert outcome(jitted_positional, *args) == outcome(packed_positional, *args)
    assert outcome(jitted) == outcome(packed)                       # too few: CPython's TypeError


def test_a_named_tuple_with_many_fields_binds_in_c(monkeypatch):
    """A NamedTuple's ``__new__`` takes one parameter per field, all defaulted (ftfy's TextFixerConfig: 17)."""
    plain = typing.NamedTuple("Wide", [(f"f{i}", int) for i in range(20)])
    plain.__new__.__defaults__ = tuple(range(20))
    jitted = moshjit.jit(plain.__new__)                 # the generated __new__(_cls, f0, ..., f19)

    def refuse(*args):
        raise AssertionError("bound in Python")
    monkeypatch.setattr(dispatch.DispatcherBase, "_bind", refuse)
    assert jitted(plain, f3=30, f19=190) == plain(f3=30, f19=190)
    assert jitted(plain, 5) == plain(5)


def scaled_sum(obj, k):
    return obj.scaled(k, by=2) + obj.scaled(zz=k)


call_scaled = moshjit.jit(scaled_sum, backend="cython")


def takes_its_default(*, value):
    takes_its_default.__kwdefaults__ = {"value": ["new"]}     # the default the call took loses its last holder
    return value


def test_a_keyword_only_default_replaced_during_the_call_stays_the_calls():
    global takes_its_default
    plain = takes_its_default
    takes_its_default = moshjit.jit(plain, backend="cython")
    try:
        for _ in range(3):
            takes_its_default.__kwdefaults__ = {"value": ["old", object()]}
            assert takes_its_default()[0] == "old"
    finally:
        takes_its_default = plain


def replaces_its_defaults(a, b=["old"], /, c=["old"], *, d=["old"]):
    replaces_its_defaults.__defaults__ = (["new"], ["new"])      # the defaults the call took lose their holders
    replaces_its_defaults.__kwdefaults__ = {"d": ["new"]}
    return (a, b[0], c[0], d[0])


@pytest.mark.parametrize("shape", [((1,), {}), ((1,), {"c": ["given"]}), ((1, ["given"]), {"d": ["given"]}),
                                   ((), {"a": 1}), ((1,), {"b": 2}), ((1,), {"c": 2, "x": 3}),
                                   ((1, 2, 3), {"c": 3}), ((), {"c": 1}), ((1,), {fresh_name("c"): ["fresh"]})])
def test_warm_keyword_calls_bound_in_c_take_the_defaults_of_their_call(shape):
    """Once a signature is warm, the vectorcall slot binds keyword calls and keyword-only defaults itself: what
    a call takes is what CPython takes (defaults as they are when the call starts, held through it even when the
    call replaces them), and every call CPython rejects gets CPython's TypeError."""
    global replaces_its_defaults
    plain = replaces_its_defaults
    jitted = moshjit.jit(plain, backend="cython")
    args, kwargs = shape

    def fresh_defaults(fn):
        fn.__defaults__ = (["old", object()], ["old", object()])
        fn.__kwdefaults__ = {"d": ["old", object()]}
    try:
        for attempt in range(4):             # the first calls fill the C slots, the later ones take them
            replaces_its_defaults = plain
            fresh_defaults(plain)
            expected = outcome(plain, *args, **kwargs)
            replaces_its_defaults = jitted
            fresh_defaults(jitted)
            assert outcome(jitted, *args, **kwargs) == expected, attempt
            if expected[0] == "ok":
                assert outcome(jitted, 5, c=["warm"]) == ("ok", (5, "new", "warm", "new"))
    finally:
        replaces_its_defaults = plain


jitted_binding = {fn.__name__: moshjit.jit(fn, backend="cython") for fn in BINDING_FUNCTIONS}
JitSized = moshjit.jit(sized_class(), backend="cython")


def test_a_default_is_the_functions_own_object():
    jitted = moshjit.jit(positional_first, backend="cython")
    assert jitted(1, 2)[2] is positional_first(1, 2)[2]
    assert jitted(1, b=2)[2] is positional_first.__defaults__[0]


@pytest.mark.parametrize("core", CORES)
def test_defaults_assigned_later_are_the_ones_a_call_takes(core):
    """Both call paths (the C binder and the Python one) read ``__defaults__``/``__kwdefaults__`` at each call."""
    def plain(a, b=1, c=2):
        return (a, b, c)

    def keyword_only(a, *, k=1):
        return (a, k)

    jitted, jitted_keyword_only = CORES[core](plain, backend="cython"), CORES[core](keyword_only, backend="cython")
    calls = [((0,), {}), ((0,), {"c": 5}), ((), {"a": 1}), ((0, 1), {})]
    for defaults in [(7, 8), (9,), None, (1, 2, 3)]:
        jitted.__defaults__ = defaults
        for args, kwargs in calls:
            same(jitted, plain, *args, **kwargs)
    jitted_keyword_only.__kwdefaults__["k"] = 40                        # in place
    same(jitted_keyword_only, keyword_only, 0)
    jitted_keyword_only.__kwdefaults__ = None
    same(jitted_keyword_only, keyword_only, 0)


@pytest.mark.parametrize("core", CORES)
def test_a_rebound_helper_takes_the_native_fast_path_away_until_compiled_again(core):
    namespace: dict = {}
    exec("def helper(x):\n    return x + 1\n\ndef twice(x):\n    return helper(x) * 2\n", namespace)
    jitted = CORES[core](namespace["twice"], backend="llvm")
    assert jitted(3) == 8 and jitted._native_used
    namespace["helper"] = lambda x: x - 1
    assert jitted(3) == 4 and jitted(5) == 8
    assert jitted._native_used                  # the specialisation compiled again is the fast path now


@pytest.mark.parametrize("core", CORES)
def test_a_call_leaving_defaults_is_completed_as_cpython_binds_it(core):
    """The vectorcall slot completes ``f(a)`` with ``__defaults__`` as they are at that call and matches the result
    against the last signatures: defaults of another kind, too few, or reassigned by the call itself."""
    source = ("def grow(a, b=1, c=2):\n"
              "    grow.__defaults__ = (b + 1, c)\n"         # the call replaces the tuple its own b, c came from
              "    return (a, b, c)\n")
    plain_namespace: dict = {}
    jitted_namespace: dict = {}
    exec(source, plain_namespace)
    exec(source, jitted_namespace)
    jitted_namespace["grow"] = CORES[core](jitted_namespace["grow"], backend="cython")
    plain, jitted = plain_namespace["grow"], jitted_namespace["grow"]
    for _ in range(4):                              # the full signature is in a C slot after the first calls
        assert outcome(jitted, 5) == outcome(plain, 5)
        assert outcome(jitted, 5, 0) == outcome(plain, 5, 0)
    for defaults in [("x", "y"), (2 ** 70, 1.5), (1,), None, (3, 4)]:
        plain.__defaults__ = jitted.__defaults__ = defaults
        for args in [(5,), (5, 6), ("s",)]:
            assert outcome(jitted, *args) == outcome(plain, *args), (defaults, args)


def forward(f, *args, **kwargs):
    return f(*args, **kwargs)


def forward_twice(f, first, second):
    return f(**first, **second)


def spread(first, second):
    return {**first, "middle": 0, **second}


class KeysAndItems:
    """Not a dict: ``keys`` and ``__getitem__`` only, as ``**`` accepts."""

    def __init__(self, data):
        self.data = data

    def keys(self):
        return list(self.data)

    def __getitem__(self, key):
        return self.data[key]


class DictSubclass(dict):
    pass


@settings(max_examples=60, deadline=None)
@given(first=hs.dictionaries(hs.sampled_from("abcd"), hs.integers(), max_size=3),
       second=hs.dictionaries(hs.sampled_from("cdef"), hs.integers(), max_size=3),
       kinds=hs.tuples(*[hs.sampled_from([dict, KeysAndItems, DictSubclass])] * 2))
def test_double_star_merges_as_cpython(first, second, kinds):
    """``f(*a, **k)``, ``f(**x, **y)`` and ``{**x, ..., **y}`` (DICT_MERGE, DICT_UPDATE): a dict merged into an
    empty one is copied in C (no view, no iterator: they are GC objects, and lark made one per token); repeated
    keywords, order, mappings that are not dicts and dict subclasses as CPython has them."""
    x, y = kinds[0](first), kinds[1](second)
    probe = lambda *args, **kwargs: (args, list(kwargs.items()))
    for fn, args, kwargs in [(forward, (probe, 1, 2), first), (forward_twice, (probe, x, y), {}), (spread, (x, y), {})]:
        assert outcome(jitted_double_star[fn.__name__], *args, **kwargs) == outcome(fn, *args, **kwargs)
    kwargs = dict(first)
    assert jitted_double_star["forward"](probe, **kwargs) == forward(probe, **kwargs)
    assert kwargs == first                                   # the caller's dict is left as it was


jitted_double_star = {fn.__name__: moshjit.jit(fn, backend="cython") for fn in (forward, forward_twice, spread)}

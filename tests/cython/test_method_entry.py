"""The dispatcher's vectorcall slot calls the last signature's entry straight away (``_last`` in
``runtime/moshjit_dispatch.pyx``): every call reaching it gives what CPython gives, whatever changed since the
signature was remembered. Differential: the same calls on a plain class and on the same class under ``jit``,
eager (the suite's default) and tiered."""
from __future__ import annotations

import sys
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moshjit import background, jit
from moshjit.typeof import describe_signature

SCALE = 3


def make_shapes():
    """A small class hierarchy, new each time (``jit`` changes the class it is given)."""
    class Shape:
        """A shape that grows."""

        def __init__(self, size):
            self.size = size

        def grow(self, k, extra=0):
            """Size plus k (and extra)."""
            return self.size + k * SCALE + extra

        def spread(self, *more):
            return self.size + sum(more)

        def depth(self, n):
            return 0 if n == 0 else 1 + self.depth(n - 1)

        def show(self, value):
            return repr(value) + str(self.size)

    class Square(Shape):
        def grow(self, k, extra=0):
            return super().grow(k, extra) * 2

    class Dot(Shape):
        pass

    return Shape, Square, Dot


def outcome(call):
    """('ok', result) or (exception type, message): what a call gives."""
    try:
        return ("ok", call())
    except Exception as exc:
        return (type(exc), str(exc))


CALLS = [
    lambda s: s.grow(1),                      # positional: the last signature
    lambda s: s.grow(2),
    lambda s: s.grow(2, 5),
    lambda s: s.grow(k=3),                    # keywords
    lambda s: s.grow(1, extra=4),
    lambda s: s.grow(1.5),                    # a new argument type after warming: a new signature
    lambda s: s.grow(1),                      # back to the first signature
    lambda s: s.grow(),                       # wrong arity
    lambda s: s.grow(1, 2, 3),
    lambda s: s.grow(1, k=1),
    lambda s: s.grow(q=1),
    lambda s: type(s).grow(s, 1),             # through the class
    lambda s: type(s).grow(s, k=1),
]

KINDS = [                                     # argument kinds the last signature's check splits (one class)
    lambda s: s.spread(),                     # *args
    lambda s: s.spread(1, 2, 3),
    lambda s: s.depth(50),
    lambda s: s.show(1),                      # each kind reaches its own specialisation (repr tells them apart)
    lambda s: s.show(True),                   # bool is not int
    lambda s: s.show(2 ** 70),                # an int beyond int64, after an int64
    lambda s: s.show(1),
    lambda s: s.show("a"),                    # a one-character str, then a longer one
    lambda s: s.show("ab"),
    lambda s: s.show("a"),
    lambda s: s.show(None),
]


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    """An empty cache: a cache hit would make a tiered method native from its first call."""
    monkeypatch.setenv("MOSHJIT_CACHE_DIR", str(tmp_path / "cache"))
    yield
    background.wait(120)


@pytest.mark.parametrize("tier", ["eager", "tiered"])
def test_method_calls_through_the_fast_path_are_cpythons(tier):
    """(Tiered from an empty cache, in the background, is the threads test's: here the cache may already hold the
    code, which keeps this test short under load.)"""
    plain_classes = make_shapes()[:2]
    jitted_classes = [jit(cls, backend="cython", tier=tier, hot_calls=2, hot_ms=1e9) for cls in make_shapes()[:2]]
    for _ in range(3):                        # tiered: interpreted, compiling, native
        for plain_cls, jitted_cls in zip(plain_classes, jitted_classes):
            plain, jitted = plain_cls(2), jitted_cls(2)
            for call in CALLS:
                assert outcome(lambda: call(jitted)) == outcome(lambda: call(plain))
        background.wait(120)


def test_argument_kinds_after_warming_are_cpythons():
    plain, jitted = make_shapes()[0](2), jit(make_shapes()[0], backend="cython")(2)
    for _ in range(2):
        for call in [lambda s: s.grow(1)] + KINDS:
            assert outcome(lambda: call(jitted)) == outcome(lambda: call(plain))


def test_a_subclass_instance_is_a_new_signature_not_the_base_classs():
    Shape, Square, Dot = jit_all(make_shapes())
    shape, dot = Shape(2), Dot(2)
    assert shape.grow(1) == 5 and dot.grow(1) == 5 and shape.grow(1) == 5
    grow = vars(Shape)["grow"]
    assert {describe_signature((Shape, "int64", "int64")), describe_signature((Dot, "int64", "int64"))} \
        <= set(grow.stats)


def jit_all(classes):
    return [jit(cls, backend="cython") for cls in classes]


def test_monkey_patching_the_method_or_the_class_after_it_was_native():
    Shape, Square, _ = jit_all(make_shapes())
    shape = Shape(2)
    assert [shape.grow(1) for _ in range(3)] == [5] * 3
    Shape.grow = lambda self, k, extra=0: -k
    assert shape.grow(1) == -1 and Square(2).grow(1) == -2
    del Shape.grow
    with pytest.raises(AttributeError):
        shape.grow(1)
    shape.__class__ = Square                   # an instance moved to another class
    with pytest.raises(AttributeError):        # Square.grow's super() finds no grow in Shape any more
        shape.grow(1)


def test_an_instance_attribute_shadowing_the_method():
    Shape, _, _ = jit_all(make_shapes())
    shape = Shape(2)
    assert shape.grow(1) == 5
    shape.grow = lambda k: k * 100
    assert shape.grow(1) == 100
    del shape.grow
    assert shape.grow(1) == 5


def test_rebinding_a_global_the_method_reads():
    global SCALE
    Shape, _, _ = jit_all(make_shapes())
    shape = Shape(2)
    assert [shape.grow(1) for _ in range(3)] == [5] * 3
    try:
        SCALE = 10
        assert [shape.grow(1) for _ in range(3)] == [12] * 3
        SCALE = 1
        assert shape.grow(1) == 3
    finally:
        SCALE = 3
    assert shape.grow(1) == 5


def test_defaults_assigned_after_the_method_was_native():
    Shape, _, _ = jit_all(make_shapes())
    shape = Shape(2)
    assert shape.grow(1) == 5 and shape.grow(1) == 5
    Shape.grow.__defaults__ = (100,)
    assert shape.grow(1) == 105 and shape.grow(1, 0) == 5


def test_the_method_keeps_the_functions_introspection():
    import inspect
    Shape, _, _ = jit_all(make_shapes())
    plain_shape = make_shapes()[0]
    Shape(2).grow(1)
    for name in ("__name__", "__qualname__", "__doc__", "__module__"):
        assert getattr(Shape.grow, name) == getattr(plain_shape.grow, name)
    assert inspect.signature(Shape.grow) == inspect.signature(plain_shape.grow)
    assert inspect.signature(Shape(2).grow) == inspect.signature(plain_shape(2).grow)
    assert Shape.grow.__wrapped__.__code__ is Shape.grow.py_func.__code__
    assert describe_signature((Shape, "int64", "int64")) in Shape.grow.stats


def recurse(n):
    return 0 if n == 0 else 1 + recurse(n - 1)


def test_native_recursion_is_as_deep_as_cpythons():
    """A native call through the fast path counts one recursion level, as the Python frame it stands for."""
    fn = jit(recurse, backend="cython")
    globals()["recurse"] = fn
    try:
        assert fn(3) == 3
        depth = sys.getrecursionlimit() - 50
        assert fn(depth) == depth
        with pytest.raises(RecursionError):
            fn(sys.getrecursionlimit() + 10)
        assert fn(depth) == depth              # the count was given back on the way out
    finally:
        globals()["recurse"] = fn.py_func


def test_native_method_recursion_is_as_deep_as_cpythons():
    """A jitted method calling itself through its method site counts one level per call too."""
    shape = jit(make_shapes()[0], backend="cython")(1)
    assert shape.depth(3) == 3
    depth = sys.getrecursionlimit() - 50
    assert shape.depth(depth) == depth
    with pytest.raises(RecursionError):
        shape.depth(sys.getrecursionlimit() + 10)
    assert shape.depth(depth) == depth


def test_threads_calling_while_the_method_is_promoted(empty_cache):
    plain_cls = make_shapes()[0]
    jitted_cls = jit(make_shapes()[0], backend="cython", tier="tiered", hot_calls=50, hot_ms=1e9)
    shapes = [jitted_cls(n) for n in range(3)]
    signature = describe_signature((jitted_cls, "int64", "int64"))
    failures, deadline = [], time.monotonic() + 90

    def work(shape):
        expected = plain_cls(shape.size)
        rounds_native = 0
        while rounds_native < 20 and time.monotonic() < deadline:     # until well after the swap
            for i in range(20):
                for call in (lambda s: s.grow(i), lambda s: s.grow(i, extra=1), lambda s: s.show("xy")):
                    if call(shape) != call(expected):
                        failures.append((shape.size, i))
                        return
            if jitted_cls.grow.stats.get(signature, {}).get("tier") == "native":
                rounds_native += 1
            time.sleep(0.002)                  # the compile thread needs the GIL too

    threads = [threading.Thread(target=work, args=(shape,)) for shape in shapes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert jitted_cls.grow.stats[signature]["tier"] == "native"


# ---- several last signatures: polymorphic calls stay on the slot's path ---------------------------------------
class Leaf:
    def __init__(self, value):
        self.value = value


class Pair:
    def __init__(self, left, right):
        self.left, self.right = left, right


class Negated:
    def __init__(self, inner):
        self.inner = inner


def evaluate(node):
    """A recursive evaluator: each call's argument is of another class than the last one's, most of the time."""
    if isinstance(node, Leaf):
        return node.value
    if isinstance(node, Pair):
        return evaluate(node.left) + evaluate(node.right)
    if isinstance(node, Negated):
        return -evaluate(node.inner)
    return node


def show(value):
    return repr(value) + "/" + type(value).__name__


ARGUMENTS = st.one_of(                        # more kinds than the dispatcher's C slots (LAST_SLOTS)
    st.integers(-5, 5), st.integers(2 ** 63, 2 ** 70), st.booleans(), st.floats(allow_nan=False), st.none(),
    st.text(max_size=1), st.text(min_size=2, max_size=3), st.tuples(st.integers(0, 3)),
    st.integers(-3, 3).map(Leaf), st.binary(max_size=2), st.lists(st.integers(0, 3), max_size=2))


def trees():
    leaves = st.one_of(st.integers(-9, 9).map(Leaf), st.integers(2 ** 62, 2 ** 64), st.floats(-4, 4))
    return st.recursive(leaves, lambda inner: st.one_of(st.tuples(inner, inner).map(lambda lr: Pair(*lr)),
                                                        inner.map(Negated)), max_leaves=12)


@settings(max_examples=60, deadline=None)
@given(calls=st.lists(ARGUMENTS, min_size=1, max_size=30))
def test_calls_rotating_through_more_signatures_than_slots_are_cpythons(calls):
    jitted = jit(show, backend="cython", strict=True)
    assert [outcome(lambda: jitted(value)) for value in calls] == [outcome(lambda: show(value)) for value in calls]


@settings(max_examples=40, deadline=None)
@given(tree=trees())
def test_a_recursive_evaluator_over_several_classes_is_cpythons(tree):
    namespace = dict(evaluate.__globals__)
    twin = type(evaluate)(evaluate.__code__, namespace, "evaluate")
    namespace["evaluate"] = jitted = jit(twin, backend="cython", strict=True)   # recursion reaches the jitted one
    assert outcome(lambda: jitted(tree)) == outcome(lambda: evaluate(tree))

"""Method sites whose receiver is a class (``cls.name(args)``, ``backends/cython/method_sites.py``): a classmethod
called with the class first, a staticmethod, a plain function or a builtin type's method descriptor called without
it — jitted ones through their compiled entries — against CPython. The same site sees jitted and plain classes, a
class with its own metaclass and an instance; the classes are then changed (another classmethod, a builtin
staticmethod, a deleted override, a method descriptor, a non-callable, a classmethod subclass with its own
``__get__``). Random programs of such steps run plainly and jitted on two fresh copies of the same world."""
from __future__ import annotations

import sys

from hypothesis import given, settings, strategies as hs

import moshjit
from tests.cython.agree import jitted


def build_each(receivers, values):
    """The site under test: ``r.build(v)`` on receivers read from a list (typed ``object``)."""
    out = []
    for v in values:
        for r in receivers:
            try:
                out.append(r.build(v))
            except (TypeError, AttributeError, ValueError) as exc:
                out.append((type(exc).__name__, str(exc)))
    return out


def build_with_keyword(receivers):
    """Keywords through a class receiver: named in order (bound in place) and out of order (the dispatcher's)."""
    return [(r.build(3, scale=4), r.build(v=5)) for r in receivers]


def make_world(jit_classes: bool):
    """Fresh classes: with jit_classes, Shape and Square are ``@jit`` classes (their classmethod and staticmethod
    wrap jitted functions); Circle, Tagged and the rest stay plain."""

    class Shape:
        @classmethod
        def build(cls, v):
            if v == "boom":
                raise ValueError("boom in " + cls.__name__)
            return (cls.__name__, "classmethod", v)

    class Square(Shape):
        @staticmethod
        def build(v, scale=2):
            return ("Square static", v, scale)

    class Circle:
        def build(v):                           # a plain function, called on the class without an instance
            return ("Circle plain", v)

    class Meta(type):
        def build(cls, v):
            return ("Meta", cls.__name__, v)

    class Tagged(metaclass=Meta):              # its metaclass finds build: not a class record
        pass

    class Special(Shape):
        pass

    if jit_classes:
        Shape = moshjit.jit(Shape, backend="cython")
        Square = moshjit.jit(Square, backend="cython")
    classes = {"Shape": Shape, "Square": Square, "Circle": Circle, "Special": Special}
    return classes, [Shape, Square, Circle, Tagged, Special, Shape(), Square]


class loud_classmethod(classmethod):
    """A classmethod subclass with its own ``__get__``: CPython's lookup calls it, so the site must too."""

    def __get__(self, obj, cls=None):
        return lambda v: ("loud", cls.__name__, v)


def mutate(classes, step: int) -> None:
    Shape, Square, Circle, Special = (classes[k] for k in ("Shape", "Square", "Circle", "Special"))
    if step == 0:
        Shape.build = classmethod(lambda cls, v: ("new classmethod", cls.__name__, v))
    elif step == 1:
        Square.build = staticmethod(len)                             # a builtin: len(1) raises its TypeError
    elif step == 2:
        del Square.build                                             # Shape's classmethod, with Square first
    elif step == 3:
        Circle.build = str.upper                                     # a method descriptor of a builtin type
    elif step == 4:
        Shape.build = 5                                              # not callable
    elif step == 5:
        Special.build = loud_classmethod(lambda cls, v: v)
    elif step == 6:
        Circle.build = classmethod(len)                              # bound through len's (absent) __get__


VALUES = [1, "boom", 2 ** 70, 2.5]


def run_program(steps, call, jit_classes: bool) -> list:
    classes, receivers = make_world(jit_classes)
    seen = []
    for step in steps:
        if step == "call":
            seen.append(call(receivers, VALUES))
        else:
            try:
                mutate(classes, step)
                seen.append("ok")
            except AttributeError as exc:                            # deleting twice
                seen.append(("AttributeError", str(exc)))
    return seen


def agree(steps):
    assert run_program(steps, jitted(build_each), True) == run_program(steps, build_each, False)


def test_class_receivers_call_as_cpython():
    agree(["call", "call", "call"])
    assert "mj_site_call2('build', &_mj_ms0, " in str(jitted(build_each).inspect_code())


def test_changes_after_the_site_filled_are_seen():
    for step in range(7):
        agree(["call", "call", step, "call", "call"])


@settings(max_examples=30, deadline=None)
@given(hs.lists(hs.sampled_from(["call", *range(7)]), min_size=1, max_size=10))
def test_random_programs_of_calls_and_changes(steps):
    agree(steps)


def test_keywords_and_defaults_through_a_class_receiver():
    def world(jit_classes):
        class Scaled:
            @classmethod
            def build(cls, v, scale=1):
                return (cls.__name__, v, scale)

        class Fixed:
            @staticmethod
            def build(v, scale=1):
                return ("Fixed", v, scale)

        if jit_classes:
            Scaled, Fixed = moshjit.jit(Scaled, backend="cython"), moshjit.jit(Fixed, backend="cython")
        return [Scaled, Fixed, Scaled(), Fixed()]

    fast, plain = world(True), world(False)
    for _ in range(3):                                              # the site filled, then hit
        assert jitted(build_with_keyword)(fast) == build_with_keyword(plain)


def name_of(receiver, v):
    """``cls.__name__(v)``: type's own data descriptor wins over the class's attribute of that name."""
    try:
        return receiver.__name__(v)
    except TypeError as exc:
        return ("TypeError", str(exc))


def test_an_attribute_of_type_itself_stays_generic():
    class Named:
        @staticmethod
        def __name__(v):                     # shadowed by type.__name__ on the class: never called
            return ("called", v)

    for _ in range(3):
        assert jitted(name_of)(Named, 1) == name_of(Named, 1) == ("TypeError", "'str' object is not callable")
    assert jitted(name_of)(Named(), 1) == name_of(Named(), 1) == ("called", 1)


def make_counter():
    class Counter:
        @classmethod
        def down(cls, n):
            return 0 if n == 0 else 1 + cls.down(n - 1)
    return Counter


def test_recursion_through_a_class_receiver_counts_frames():
    fast, plain = moshjit.jit(make_counter(), backend="cython"), make_counter()
    assert fast.down(50) == plain.down(50) == 50
    depth = sys.getrecursionlimit() + 10
    for counter in (plain, fast):
        try:
            counter.down(depth)
        except RecursionError:
            continue
        raise AssertionError(f"{counter.__name__}.down({depth}) did not raise RecursionError")

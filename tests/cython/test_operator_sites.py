"""Binary operators on instances of classes with jitted dunders through per-site caches
(``backends/cython/operator_sites.py``) against CPython: one function applies ``+ - * / %`` to pairs of operands —
instances of a jitted class, of a subclass with a reflected dunder (which CPython tries first), of an unrelated
class, of a list subclass (``+`` falls back to concatenation), floats (NaN, ±inf, −0.0, a float subclass), ints,
strs — while the classes change between calls (dunders monkey-patched with plain or jitted functions, removed,
``__class__`` assigned). Random programs of such steps run plainly and jitted on two fresh copies of the same
world, which must end in the same observations."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as hs

import moshjit
from tests.cython.agree import jitted


def apply_operators(cases):
    """The sites under test: ``a <op> b`` for (op, a, b) read from a list."""
    out = []
    for op, a, b in cases:
        try:
            if op == "-":
                r = a - b
            elif op == "+":
                r = a + b
            elif op == "*":
                r = a * b
            elif op == "/":
                r = a / b
            else:
                r = a % b
            out.append(r.key() if hasattr(r, "key") else r)
        except (TypeError, ZeroDivisionError) as exc:
            out.append((type(exc).__name__, str(exc)))
    return out


class FloatSub(float):
    pass


def make_world(jit_classes: bool):
    """Fresh classes (jitted with ``jit(cls)`` or not) and operands; returns (classes, operands)."""
    decorate = moshjit.jit if jit_classes else (lambda c: c)

    @decorate
    class Vec:
        def __init__(self, x, y):
            self.x = x
            self.y = y

        def key(self):
            return (type(self).__name__, self.x, self.y)

        def __sub__(self, other):
            if isinstance(other, Vec):
                return Vec(self.x - other.x, self.y - other.y)
            if isinstance(other, (int, float)):
                return Vec(self.x - other, self.y - other)
            return NotImplemented

        def __add__(self, other):
            if isinstance(other, Vec):
                return Vec(self.x + other.x, self.y + other.y)
            return NotImplemented                    # float/int: then their own slot, then TypeError

        def __mul__(self, other):
            if isinstance(other, float):
                return Vec(self.x * other, self.y * other)
            return NotImplemented

        def __truediv__(self, other):
            if other == 0:
                raise ZeroDivisionError("Vec division by zero")
            return Vec(self.x / other, self.y / other)

        def __mod__(self, other, extra=1):           # a default: not a two-parameter entry
            return ("mod", extra)

    class Reflecting(Vec):                           # plain subclasses: only Vec's dunders are jitted
        def __rsub__(self, other):                   # a subclass: CPython tries it before Vec.__sub__
            return ("rsub", getattr(other, "x", other))

    class Unrelated:
        def __rsub__(self, other):
            return ("unrelated rsub", other.x)

        def __radd__(self, other):
            return NotImplemented

    @decorate
    class Items(list):
        def __add__(self, other):
            return NotImplemented                    # then list concatenation

    classes = [Vec, Reflecting, Unrelated, Items]
    v, w = Vec(1.5, -2.0), Vec(0.25, 4)
    # each dunder sees few argument kinds: every kind is a specialisation compiled (in CI with an empty cache)
    operands = [("-", v, w), ("-", v, 2.0), ("-", v, float("nan")), ("-", v, float("-inf")), ("-", v, -0.0),
                ("-", Reflecting(2, 2), v), ("-", v, Reflecting(1, 1)), ("-", v, Unrelated()), ("-", 2.5, v),
                ("-", 7, 2), ("-", "a", "b"), ("+", v, w), ("+", v, 3), ("+", Items([1]), Items([2])),
                ("+", 1.0, -0.0), ("*", v, 2.0), ("*", v, FloatSub(1.5)), ("/", v, 0), ("/", v, 2.0),
                ("%", v, w), ("%", 7, 2)]
    return classes, operands


def _plain_sub(self, other):
    return ("patched", type(other).__name__)


def mutate(classes, operands, step: int, jit_classes: bool) -> None:
    Vec, Reflecting, Unrelated, Items = classes
    if step == 0:
        Vec.__sub__ = _plain_sub                                           # monkey-patched: a plain function
    elif step == 1:
        Vec.__sub__ = moshjit.jit(_plain_sub) if jit_classes else _plain_sub     # ... or a jitted one
    elif step == 2:
        del Reflecting.__rsub__                                            # the reflected dunder removed
    elif step == 3:
        Vec.__rsub__ = lambda self, other: ("Vec rsub", type(other).__name__)            # a reflected dunder added
    elif step == 4:
        operands[0][1].__class__ = Reflecting                              # an operand changes class
    elif step == 5:
        operands[0][1].__sub__ = lambda other: "instance attributes never shadow dunders"
    elif step == 6:
        Vec.__add__ = lambda self, other: ("add patched", type(other).__name__)


def run_program(steps, jit_classes: bool, apply) -> list:
    classes, operands = make_world(jit_classes)
    seen = []
    for step in steps:
        if step == "ops":
            seen.append(apply(operands))
        else:
            try:
                mutate(classes, operands, step, jit_classes)
                seen.append("ok")
            except AttributeError as exc:       # deleting twice
                seen.append(("AttributeError", str(exc)))
    return seen


def agree(steps):
    """Compared as reprs: NaN results are not equal to themselves."""
    assert repr(run_program(steps, True, jitted(apply_operators))) == repr(run_program(steps, False, apply_operators))


def test_every_operand_combination_computes_as_cpython():
    agree(["ops", "ops"])


@pytest.mark.parametrize("step", range(7))
def test_class_changes_after_the_site_filled_are_seen(step):
    agree(["ops", step, "ops"])


@settings(max_examples=10, deadline=None)
@given(hs.lists(hs.sampled_from(["ops"] + list(range(7))), min_size=1, max_size=8))
def test_random_programs_of_operators_and_class_changes(steps):
    agree(steps)


def difference(a, b):
    return a - b


def test_an_operator_on_jitted_instances_runs_the_dunder_compiled_entry():
    """The site is emitted, and the dunder is called through its compiled entry: one specialisation, reached
    without the dispatcher (whose call counter would otherwise see every call)."""
    @moshjit.jit(backend="cython")
    class Point:
        def __init__(self, x):
            self.x = x

        def __sub__(self, other):
            return Point(self.x - other.x)

    site = jitted(difference)
    assert site(Point(5.0), Point(1.5)).x == 3.5
    assert site(Point(-0.0), Point(0.0)).x == -0.0 == difference(Point(-0.0), Point(0.0)).x
    assert "mj_op_subtract(&_mj_os0, " in str(site.inspect_code())
    assert len(vars(Point)["__sub__"].signatures) == 1
    assert site(3, 1) == 2 and site(0.5, 2) == -1.5 and site({1, 2}, {2}) == {1}

"""Method calls on any receiver through per-site inline caches (``backends/cython/method_sites.py``) against
CPython: one call site ``o.m(k)`` whose receivers are list items sees jitted methods, subclasses overriding them
(jitted or plain), a ``__getattribute__`` override, ``__slots__``, more than four receiver types, and arguments of
every dispatch kind; between calls the world changes (a method monkey-patched with a plain or a jitted function, an
instance attribute shadowing the method and then deleted, a method added to a subclass, ``__class__`` assigned).
Random programs of such steps run plainly and jitted on two fresh copies of the same world, which must end in the
same observations."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as hs

import moshjit
from tests.cython.agree import jitted


def call_each(objs, ks):
    """The site under test: ``o.m(k)`` for receivers read from a list, arguments of several kinds."""
    out = []
    for k in ks:
        for o in objs:
            try:
                out.append(o.m(k))
            except (TypeError, AttributeError, ValueError) as exc:
                out.append((type(exc).__name__, str(exc)))
    return out


def call_without_argument(objs):
    out = []
    for o in objs:
        try:
            out.append(o.m())
        except TypeError as exc:
            out.append(("TypeError", str(exc)))
    return out


def call_with_two(objs, k):
    """A second site: two arguments, the second a float."""
    return [o.n(k, 0.5) for o in objs]


def call_with_keywords(objs, k):
    """Sites passing keywords and leaving a parameter to its default (the dispatcher binds them in C)."""
    out = []
    for o in objs:
        try:
            out.append((o.n(k, f=0.25), o.n(f=1.5, k=k), o.p(k), o.p(k, scale=3), o.p(scale=k, k=1)))
        except (TypeError, AttributeError) as exc:
            out.append((type(exc).__name__, str(exc)))
    return out


def make_world(jit_classes: bool):
    """Fresh classes (jitted with ``jit(cls)`` or not) and objects; returns (classes, objects)."""
    decorate = moshjit.jit if jit_classes else (lambda c: c)

    @decorate
    class Base:
        def __init__(self, v):
            self.v = v

        def m(self, k):
            if k == "boom":
                raise ValueError("boom " + str(self.v))
            return ("Base.m", self.v, k)

        def n(self, k, f):
            return self.v * f + len(str(k))

        def p(self, k, scale=2):
            return ("Base.p", self.v, k, scale)

    @decorate
    class Sub(Base):
        def m(self, k):
            return ("Sub.m", self.v, k)

    class PlainSub(Base):
        def m(self, k):
            return ("PlainSub.m", self.v, k)

    class Slotted:
        __slots__ = ("v",)

        def __init__(self, v):
            self.v = v

        def m(self, k):
            return ("Slotted.m", self.v, k)

        def n(self, k, f):
            return -f

    if jit_classes:                  # only the method the sites call (each specialisation costs a C compile)
        Slotted.m = moshjit.jit(Slotted.m)

    class Intercepting(Base):
        def __getattribute__(self, name):
            if name == "m":
                return lambda k: ("intercepted", k)
            return object.__getattribute__(self, name)

    class Other(Base):
        pass

    class Sixth(Other):
        def m(self, k):
            return ("Sixth.m", k)

    classes = [Base, Sub, PlainSub, Slotted, Intercepting, Other, Sixth]
    objs = [Base(1), Sub(2), PlainSub(3), Slotted(4), Intercepting(5), Other(6), Sixth(7), Base(8)]
    return classes, objs


def _replacement(self, k):
    return ("patched", self.v, k)


def mutate(classes, objs, step: int, jit_classes: bool) -> None:
    Base, Sub, PlainSub, Slotted, Intercepting, Other, Sixth = classes
    if step == 0:
        Base.m = _replacement                                        # monkey-patched with a plain function
    elif step == 1:
        Base.m = moshjit.jit(_replacement) if jit_classes else _replacement     # ... or a jitted one
    elif step == 2:
        objs[0].m = lambda k: ("instance attribute", k)             # shadows the method
    elif step == 3:
        vars(objs[0]).pop("m", None)                                 # the method shows again
    elif step == 4:
        Other.m = lambda self, k: ("Other.m added", k)               # a subclass gains an override
    elif step == 5:
        objs[-1].__class__ = Sub                                     # an object changes class
    elif step == 6:
        del Sub.m                                                    # an override removed: Base.m again
    elif step == 7:
        Base.n = lambda self, k, f: ("n patched", k, f)
    elif step == 8:
        Base.p = lambda self, k, scale=5: ("p patched", k, scale)   # another default


ARGUMENTS = [3, 2 ** 70, "boom"]     # int64, big int, str (Base.m raises on it)


def run_program(steps, jit_classes: bool, calls) -> list:
    classes, objs = make_world(jit_classes)
    seen = []
    for step in steps:
        if isinstance(step, str):
            seen.append(calls[step](objs))
        else:
            try:
                mutate(classes, objs, step, jit_classes)
                seen.append("ok")
            except AttributeError as exc:       # deleting twice
                seen.append(("AttributeError", str(exc)))
    return seen


def programs(fns):
    return {
        "m": lambda objs: fns[0](objs, ARGUMENTS),
        **{f"m{i}": (lambda objs, i=i: fns[0](objs, ARGUMENTS[i:i + 1])) for i in range(len(ARGUMENTS))},
        "none": lambda objs: fns[1](objs),
        "n": lambda objs: fns[2](objs[:4] + objs[5:], 7),
        "kw": lambda objs: fns[3](objs, 7),
    }


PLAIN = programs([call_each, call_without_argument, call_with_two, call_with_keywords])
JITTED = programs([jitted(call_each), jitted(call_without_argument), jitted(call_with_two),
                   jitted(call_with_keywords)])


def agree(steps):
    assert run_program(steps, True, JITTED) == run_program(steps, False, PLAIN)


@pytest.mark.parametrize("program", ["m0", "m1", "m2", "none", "n", "kw", "m"])    # one argument kind at a time first
def test_every_receiver_kind_and_argument_kind_calls_as_cpython(program):
    agree([program])


def test_class_and_instance_changes_after_the_site_filled_are_seen():
    for step in range(9):
        agree(["m0", "n", "kw", step, "m0", "n", "none", "kw"])


@settings(max_examples=30, deadline=None)
@given(hs.lists(hs.sampled_from(list(PLAIN) + list(range(9))), min_size=1, max_size=12))
def test_random_programs_of_calls_and_class_changes(steps):
    agree(steps)


def test_a_jitted_method_called_through_a_site_runs_its_compiled_entry():
    @moshjit.jit(backend="cython")
    class Counter:
        def __init__(self):
            self.calls = 0

        def bump(self, k):
            self.calls += k
            return self.calls

    objs = [Counter(), Counter()]
    site = jitted(call_bump)
    assert site([], 2) == []            # compiled on an empty list: no item's class to inline for, a method site
    assert site(objs, 2) == [2, 2] and site(objs, 3) == [5, 5]
    assert "mj_site_call2('bump', &_mj_ms0, " in str(site.inspect_code())
    assert len(vars(Counter)["bump"].signatures) == 1          # one specialisation, reached from the site
    try:                                                         # a typed tuple: the dispatcher's own path
        site(objs, (1, 2))
    except TypeError as exc:
        assert str(exc) == "unsupported operand type(s) for +=: 'int' and 'tuple'"
    else:
        raise AssertionError("no TypeError")


def call_bump(objs, k):
    return [o.bump(k) for o in objs]


def make_chain(jit_class: bool):
    class Node:
        def down(self, depth):
            """Recursion through a site: the receiver is an attribute, not a parameter."""
            return depth if depth == 0 else self.child.down(depth - 1)

    if jit_class:
        Node = moshjit.jit(backend="cython")(Node)
    node = Node()
    node.child = node
    return node


def test_recursion_through_sites_stops_as_cpython_stops():
    import sys

    plain, fast = make_chain(False), make_chain(True)
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(300)
        assert fast.down(100) == plain.down(100) == 0
        for node in (plain, fast):
            try:
                node.down(10 ** 6)
            except RecursionError as exc:
                assert "maximum recursion depth exceeded" in str(exc)
            else:
                raise AssertionError("no RecursionError")
    finally:
        sys.setrecursionlimit(limit)


def test_keyword_and_default_calls_take_the_site():
    """``o.m(k, f=x)`` and ``o.p(k)`` (a default) are emitted as site calls, keywords passed by name."""
    agree(["kw"])
    code = str(jitted(call_with_keywords).inspect_code())
    assert "mj_site_callkw3('n', &_mj_ms0, " in code and "mj_site_callkw3('n', &_mj_ms1, " in code
    assert "mj_site_call2('p', &_mj_ms2, " in code and "mj_site_callkw3('p', &_mj_ms3, " in code


def define_keyword_world():
    class Square:
        def __init__(self, pos):
            self.pos = pos
            self.other = self

        def find(self, update=False, *, k=0):
            return (self.pos, update, k)

        def two(self, a, b=2, c=3):
            return (a, b, c)

        def only(self, a, /, b=5):
            return (a, b)

    return Square


def keyword_calls(o):
    """Keywords naming the next parameters in order (the site turns them into a positional call), keywords out
    of order, keyword-only ones, positional-only ones named, a duplicate and a misspelt name."""
    out = [o.find(update=True), o.find(), o.find(True), o.find(update=1, k=3), o.find(k=4)]
    out += [o.two(1, b=7), o.two(1, c=9), o.two(a=1, b=2, c=3), o.two(1, b=2, c=3), o.two(1, c=1, b=0)]
    for call in (lambda: o.only(a=1), lambda: o.two(1, a=2), lambda: o.find(updat=1), lambda: o.two(1, 2, 3, c=4)):
        try:
            out.append(call())
        except TypeError as exc:
            out.append(("TypeError", str(exc)))
    out.append(o.only(1, b=2))
    return out


def test_keywords_naming_the_next_parameters_in_order_call_as_cpython():
    plain = define_keyword_world()
    compiled = moshjit.jit(define_keyword_world())
    calls = jitted(keyword_calls)
    for _ in range(3):                                          # the site filled, then hit
        assert calls(compiled(1).other) == keyword_calls(plain(1).other)
    compiled.find = lambda self, update=False, k=0: ("replaced", update, k)
    plain.find = lambda self, update=False, k=0: ("replaced", update, k)
    assert calls(compiled(1)) == keyword_calls(plain(1))

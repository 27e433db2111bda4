"""Constructor calls of jitted classes through per-site caches (``backends/cython/constructor_sites.py``) against
CPython: ``Point(...)`` from jitted code with positional arguments, keywords and defaults, wrong arguments, an
``__init__`` that raises or returns a value, and between calls the class changes (``__init__`` replaced by a
plain or a jitted function, a ``__new__`` added, the class made abstract, ``__init__`` deleted so object's runs, an
``__init__`` that rebinds the class's own ``__init__`` while it runs). Random programs of such steps run plainly
and jitted on two fresh copies of the same world, which must end in the same observations."""
from __future__ import annotations

from hypothesis import given, settings, strategies as hs

import moshjit


def make_world(jit_classes: bool):
    """A fresh class (jitted with ``jit(cls)`` or not) and a module-like namespace the constructing code reads."""
    decorate = moshjit.jit if jit_classes else (lambda c: c)

    @decorate
    class Point:
        def __init__(self, x, y=0.5):
            if x == "boom":
                raise ValueError("boom")
            if x == "value":
                return 7                                   # type.__call__ rejects it: TypeError
            if x == "rebind":
                type(self).__init__ = lambda s, *a, **k: setattr(s, "rebound", a)
            self.x = x
            self.y = y

    return Point


def observe(obj) -> tuple:
    return (type(obj).__name__, sorted(vars(obj).items()) if hasattr(obj, "__dict__") else repr(obj))


VALUES = [1.5, "boom", "value"]          # two signatures of __init__: few compiles


def _plain_init(self, x, y=9.0):
    self.x = ("plain", x)


def _new(cls, *args, **kwargs):
    obj = object.__new__(cls)
    obj.made_by_new = True
    return obj


def mutate(Point, step: int, jit_classes: bool) -> None:
    if step == 0:
        Point.__init__ = _plain_init                                     # a plain function
    elif step == 1:
        Point.__init__ = moshjit.jit(_plain_init) if jit_classes else _plain_init
    elif step == 2:
        Point.__new__ = _new                                             # object.__new__ no longer makes them
    elif step == 3:
        Point.__abstractmethods__ = frozenset({"area"})                  # cannot be instantiated
    elif step == 4:
        Point.__abstractmethods__ = frozenset()
    elif step == 5:
        del Point.__init__                                               # object.__init__: arguments rejected


def build_world_function(Point, oracle: bool = False):
    """A function constructing ``Point`` as a compile-time constant: the class is this module's global.

    The oracle (the plain run) calls ``type.__call__(Point, ...)``, what ``Point(...)`` means for a class whose
    metaclass is ``type``, so that CPython's inline caches play no part: CPython 3.13.0's
    ``CALL_ALLOC_AND_ENTER_INIT`` constructs a class made abstract (by ``__abstractmethods__``) once its call site
    specialised, where 3.11, 3.12 and the unspecialised instruction raise ``TypeError``.
    """
    namespace = {"Point": Point, "observe": observe, "type_call": type.__call__}
    source = construct_source.replace("Point(", "type_call(Point, ") if oracle else construct_source
    exec(compile(source, __file__, "exec"), namespace)
    return namespace["construct"]


construct_source = '''
def construct(values):
    out = []
    for v in values:
        for make in range(5):
            try:
                if make == 0:
                    obj = Point(v, 2.0)
                elif make == 1:
                    obj = Point(v)
                elif make == 2:
                    obj = Point(x=v, y=3.0)
                elif make == 3:
                    obj = Point(v, y=2.5)
                else:
                    obj = Point()
                out.append(observe(obj))
            except (TypeError, ValueError) as exc:
                out.append((type(exc).__name__, str(exc)))
    return out
'''


def reset(Point, init) -> None:
    """Undo every change ``mutate`` makes but a ``__new__`` (a world is reused: each new class would compile
    the constructing function again)."""
    Point.__init__ = init
    Point.__abstractmethods__ = frozenset()


def fresh_world(jit_classes: bool):
    Point = make_world(jit_classes)
    construct = build_world_function(Point, oracle=not jit_classes)
    if jit_classes:
        construct = moshjit.jit(construct, backend="cython")
    return Point, vars(Point)["__init__"], construct


WORLDS = {True: fresh_world(True), False: fresh_world(False)}


def run_program(steps, jit_classes: bool, world=None) -> list:
    Point, init, construct = world or WORLDS[jit_classes]
    reset(Point, init)
    seen = []
    for step in steps:
        if step == "make":
            seen.append(construct(VALUES))
        elif step == "rebind":
            seen.append(construct(["rebind", 1.0]))
        else:
            try:
                mutate(Point, step, jit_classes)
                seen.append("ok")
            except AttributeError as exc:
                seen.append(("AttributeError", str(exc)))
    return seen


def agree(steps):
    assert run_program(steps, True) == run_program(steps, False)


def test_constructor_calls_of_a_jitted_class_agree_with_cpython():
    agree(["make", "make", "rebind", "make"])


def test_class_changes_after_the_site_filled_are_seen():
    for step in (0, 1, 3, 4, 5):
        agree(["make", step, "make", 4, "make"])


def test_a_new_method_added_later_makes_the_instances():
    steps = ["make", 2, "make", 0, "make"]
    assert run_program(steps, True, fresh_world(True)) == run_program(steps, False, fresh_world(False))


@settings(max_examples=15, deadline=None)
@given(hs.lists(hs.sampled_from(["make", "rebind", 0, 1, 3, 4, 5]), min_size=1, max_size=8))
def test_random_programs_of_constructions_and_class_changes(steps):
    agree(steps)


def test_the_site_is_emitted_for_a_jitted_class_only():
    construct = WORLDS[True][2]
    reset(*WORLDS[True][:2])
    construct([1.0])
    code = str(construct.inspect_code())
    assert "mj_new_call2(&_mj_ns0, " in code and "mj_new_call1(&_mj_ns1, " in code
    assert "mj_new_callkw2(&_mj_ns2, " in code and "mj_new_call0(&_mj_ns4, " in code
    plain = moshjit.jit(build_world_function(make_world(False)), backend="cython")
    plain([1.0])
    assert "mj_new_call" not in str(plain.inspect_code()).split("def construct")[1]

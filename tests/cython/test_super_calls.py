"""``super().name(...)`` compiled as one op (``passes/super_calls.py``, ``moshjit_rt``'s ``mj_super_call_method``)
against CPython: the same classes run plain and with ``@jit`` on each, on inputs hypothesis draws — single and
diamond inheritance, keywords and many arguments, base attributes that are functions, jitted methods, static and
class methods, properties and plain callables, and what must go through a real super object (a class as the
second argument, an instance that is not one of the class, a missing name) with CPython's errors."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import moshjit

SOURCE = '''
class Root:
    def __init__(self, x):
        self.x = x

    def describe(self, a, *, scale=1):
        return ("root", self.x, a * scale)

    def many(self, a, b, c, d, e, f, g, h, i):
        return (a, b, c, d, e, f, g, h, i)

    @staticmethod
    def static(a):
        return ("static", a)

    @classmethod
    def made(cls, a):
        return (cls.__name__, a)

    @property
    def getter(self):
        return lambda a: ("property", self.x, a)

    helper = len


class Left(Root):
    def __init__(self, x):
        super().__init__(x + 1)

    def describe(self, a, *, scale=1):
        return ("left",) + super().describe(a, scale=scale)


class Right(Root):
    def describe(self, a, *, scale=1):
        return ("right",) + super().describe(a + 1, scale=scale)


class Diamond(Left, Right):
    def describe(self, a, *, scale=1):
        return ("diamond",) + super().describe(a, scale=scale)

    def calls(self, a):
        return (super().many(a, a, a, a, a, a, a, a, a), super().static(a), super().made(a), super().getter(a),
                super().helper([a, a]))

    def missing(self, a):
        return super().nowhere(a)

    def unrelated(self, other):
        return super(Diamond, other).describe(1)

    @classmethod
    def on_the_class(cls, a):
        return super().made(a)
'''

CLASSES = ("Root", "Left", "Right", "Diamond")


def _namespaces():
    plain, jitted = {}, {}
    exec(compile(SOURCE, "<super samples>", "exec"), plain)
    exec(compile(SOURCE, "<super samples>", "exec"), jitted)
    for name in CLASSES:
        moshjit.jit(jitted[name])
    return plain, jitted


PLAIN, JITTED = _namespaces()


def outcome(call):
    try:
        return ("value", call())
    except Exception as exc:                 # the exception is part of the behaviour under test
        return ("raise", type(exc), str(exc))


def runs(ns, x, a):
    d = ns["Diamond"](x)
    return [outcome(lambda: d.describe(a, scale=2)), outcome(lambda: d.calls(a)), outcome(lambda: d.missing(a)),
            outcome(lambda: d.unrelated(ns["Root"](x))), outcome(lambda: d.unrelated(d)),
            outcome(lambda: ns["Diamond"].on_the_class(a)), outcome(lambda: ns["Left"](x).describe(a))]


@settings(max_examples=40, deadline=None)
@given(st.integers(-5, 5), st.integers(-3, 3) | st.text(max_size=2))
def test_super_calls_match_cpython(x, a):
    assert runs(JITTED, x, a) == runs(PLAIN, x, a)


def test_the_hot_methods_compile_the_fused_op_or_inline_the_method():
    d = JITTED["Diamond"](1)
    d.describe(2)
    d.calls(3)
    method = JITTED["Diamond"].__dict__["describe"]
    assert "super_call_method['describe', ('scale',)]" in method.inspect_types()
    calls = JITTED["Diamond"].__dict__["calls"].inspect_types()
    assert "super_is[<class 'Diamond'>, 'many', <class 'Diamond'>" in calls.replace("<class Diamond>",
                                                                                    "<class 'Diamond'>")
    assert "call <class super>" not in calls


@pytest.mark.parametrize("namespace", ["plain", "jitted"])
def test_the_method_is_looked_up_at_each_call(namespace):
    """A base method replaced after compiling is the one called; an instance attribute never shadows it."""
    plain, jitted = _namespaces()
    ns = plain if namespace == "plain" else jitted
    d = ns["Diamond"](0)
    assert d.describe(1)[:4] == ("diamond", "left", "right", "root")
    assert d.calls(2)[0] == (2,) * 9
    ns["Right"].describe = lambda self, a, *, scale=1: ("replaced", a)
    ns["Root"].many = lambda self, *args: ("replaced", len(args))     # the inlined method's guard fails
    d.describe = d.many = lambda *args, **kwargs: "instance"
    assert ns["Diamond"].describe(d, 1) == ("diamond", "left", "replaced", 1)
    assert ns["Diamond"].calls(d, 2)[0] == ("replaced", 9)

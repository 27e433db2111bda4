"""``backends/cython/method_calls.direct_methods`` on small functions: which ``obj.m(...)`` calls are bound to a
compiled entry (receiver an argument whose class has a jitted ``m`` taking exactly these positional arguments, every
argument kind known) and which keep the generic call. The context is a stub answering with a marker entry."""
from __future__ import annotations

import moshjit
from moshjit.backends.cython.method_calls import direct_methods
from moshjit.context import CompileContext
from moshjit.functions import class_attribute
from moshjit.ir import ops


class StubContext(CompileContext):
    def __init__(self, function, key):
        super().__init__(function, key)
        self.asked = []

    def native_entry(self, dispatcher, key):
        self.asked.append((dispatcher, key))
        return ("entry", key)


def make_class():
    class Shape:
        def grow(self, k):
            return k

        def plain(self, k):
            return k

        def defaults(self, k, j=1):
            return k + j

    Shape.grow = moshjit.jit(Shape.grow)
    Shape.defaults = moshjit.jit(Shape.defaults)
    return Shape


def caller(self, k, other):
    self.grow(k)            # bound: (Shape, int64)
    self.plain(k)           # not jitted
    self.grow(k=k)          # keywords
    self.defaults(k)        # defaults: the entry takes every parameter
    other.grow(k)           # receiver's kind is not a class
    return self.grow(other)


def bound(fn, key):
    ir = moshjit.to_ssa(fn)
    ctx = StubContext(fn, key)
    found = direct_methods(ir, ctx)
    calls = [op for block in ir.blocks for op in block.ops if isinstance(op, ops.CallMethod)]
    return calls, found, ctx


def test_only_exact_positional_calls_of_jitted_methods_on_class_arguments_are_bound():
    Shape = make_class()
    calls, found, ctx = bound(caller, (Shape, "int64", "int64"))
    assert [(op.name, op in found) for op in calls] == [("grow", True), ("plain", False), ("grow", False),
                                                        ("defaults", False), ("grow", False), ("grow", True)]
    assert [key for _, key in ctx.asked] == [(Shape, "int64"), (Shape, "int64")]
    cls, method, entry = found[calls[0]]
    assert cls is Shape and method is vars(Shape)["grow"] and entry == ("entry", (Shape, "int64"))
    assert id(method) in ctx.dependencies


def test_nothing_is_bound_without_an_entry_or_for_unknown_argument_kinds():
    Shape = make_class()

    class NoEntry(StubContext):
        def native_entry(self, dispatcher, key):
            return None

    ir = moshjit.to_ssa(caller)
    assert direct_methods(ir, NoEntry(caller, (Shape, "int64", "int64"))) == {}
    _, found, _ = bound(caller, (Shape, int, "int64"))       # a big int: the kind holds for this call too
    assert len(found) == 2


def test_class_attribute_follows_the_mro_without_calling_descriptors():
    class Base:
        x = property(lambda self: 1 / 0)
        y = None

    class Sub(Base):
        pass

    assert class_attribute(Sub, "x") is vars(Base)["x"]
    assert class_attribute(Sub, "y") is None and class_attribute(Sub, "z") is None

"""Float arguments that are only handed on as objects — stored into attributes, returned, passed to method and
constructor sites — stay the float object the caller passed (``plan.py``'s ``boxed_arguments``): no unboxing
at entry and boxing again at each use. That is also what CPython does: the stored attribute *is* the argument
(``o.x is x``, and a NaN found by identity in a list), which unboxing would have broken. An argument used in
arithmetic stays a double."""
from __future__ import annotations

import moshjit
from moshjit.backends.cython.out_of_ssa import out_of_ssa
from moshjit.backends.cython.plan import EmissionPlan
from moshjit.compiler import typed_ssa
from moshjit.typeof import type_of_key


def define():
    class Vec:
        def __init__(self, x, y):
            self.x = x
            self.y = y

        def scaled(self, k):
            return Vec(self.x * k, self.y * k)

        def same(self, v):
            return v

        def doubled(self, v):
            return v * 2.0

    return Vec


def observe(Vec):
    nan, half = float("nan"), 0.5
    v = Vec(nan, half)
    w = v.scaled(2.0)
    return [v.x is nan, v.y is half, nan in [v.x], v.same(half) is half, repr(w.x), w.y, v.doubled(1.5)]


def test_stored_and_returned_float_arguments_are_the_callers_objects():
    plain, compiled = define(), define()
    moshjit.jit(compiled)
    assert observe(compiled) == observe(plain) == [True, True, True, True, "nan", 1.0, 3.0]


def test_the_plan_keeps_only_arguments_handed_on_as_objects_boxed():
    Vec = define()

    def plan_of(fn):
        key = (Vec, float, float)[:fn.__code__.co_argcount]
        ir = typed_ssa(fn, [type_of_key(k) for k in key], assume_globals=False)
        return ir, EmissionPlan(ir, out_of_ssa(ir))

    ir, plan = plan_of(Vec.__init__)
    assert {a.name for a in plan.boxed_arguments} == {"x", "y"}
    assert plan.decl_type(ir.args[1]) == "object"
    ir, plan = plan_of(Vec.doubled)
    assert not plan.boxed_arguments and plan.decl_type(ir.args[1]) == "double"


def test_the_entry_takes_the_object():
    Vec = moshjit.jit(define())
    Vec(1.0, 2.0)
    code = str(Vec.__init__.inspect_code())
    assert "object a_x, object a_y):" in code and "double a_x" not in code

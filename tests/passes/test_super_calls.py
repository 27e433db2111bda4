"""``super(C, obj).name(...)`` becomes one ``super_call_method`` op (``passes/super_calls.py``): on hand-built IR, and
on real methods, whose compiled calls are checked against CPython in ``tests/cython/test_super_calls.py``."""
from __future__ import annotations

import pytest

import moshjit
from moshjit.ir import ops
from moshjit.ir.verifier import verify
from moshjit.passes.super_calls import super_calls
from tests.ir.handmade import blocks, const, emit, new_function


def _super_then_method(between=None, super_=super, super_args=2, uses=1):
    """f(c, o, x) = super(c, o).m(x), with an op of ``between(x)`` in between; returns (fn, super call, method call)."""
    fn = new_function("c", "o", "x")
    (b0,) = blocks(fn, 1)
    c, o, x = fn.args
    made = emit(b0, ops.Call(const(super_), [c, o][:super_args], ()))
    if between is not None:
        emit(b0, between(x))
    call = emit(b0, ops.CallMethod(made, [x], "m", ()))
    for _ in range(uses - 1):
        emit(b0, ops.CallMethod(made, [], "n", ()))
    emit(b0, ops.Return(call))
    return fn, made, call


def test_the_super_object_and_the_method_call_become_one_op():
    fn, made, call = _super_then_method(between=lambda x: ops.BuildTuple([x]))
    super_calls(fn)
    verify(fn)
    (fused,) = [op for op in fn.blocks[0].ops if isinstance(op, ops.SuperCallMethod)]
    assert made not in fn.blocks[0].ops and call not in fn.blocks[0].ops
    assert (fused.cls, fused.obj, fused.args, fused.name) == (fn.args[0], fn.args[1], [fn.args[2]], "m")
    assert fn.blocks[0].terminator.value is fused


def test_every_pair_in_a_block_is_fused_in_one_sweep():
    fn = new_function("c", "o", "x")
    (b0,) = blocks(fn, 1)
    c, o, x = fn.args
    results = []
    for name in ("m", "n", "p"):
        made = emit(b0, ops.Call(const(super), [c, o], ()))
        results.append(emit(b0, ops.CallMethod(made, [x], name, ())))
    emit(b0, ops.Return(emit(b0, ops.BuildTuple(results))))
    super_calls(fn)
    verify(fn)
    assert [type(op).__name__ for op in fn.blocks[0].ops] == ["SuperCallMethod"] * 3 + ["BuildTuple"]
    assert [op.name for op in fn.blocks[0].ops[:3]] == ["m", "n", "p"]
    assert fn.blocks[0].ops[3].items == fn.blocks[0].ops[:3]


@pytest.mark.parametrize("case", [
    dict(between=lambda x: ops.BinaryOp(x, x, "+", False)),   # may raise after super() ran, before the lookup
    dict(super_=object),                                      # not the builtin super
    dict(super_args=1),                                       # an unbound super object
    dict(uses=2),                                             # the super object is used again
])
def test_left_alone(case):
    fn, made, call = _super_then_method(**case)
    super_calls(fn)
    verify(fn)
    assert made in fn.blocks[0].ops and call in fn.blocks[0].ops


class Base:
    def greet(self, word, *, times=1):
        return (type(self).__name__, word * times)


class Derived(Base):
    def greet(self, word, *, times=1):
        return ("derived",) + super().greet(word, times=times)

    def checked(self, word):
        return super().greet(word + "!")      # the argument may raise between super() and the call


def test_real_methods_fuse_once_globals_are_resolved():
    ssa = moshjit.jit(Derived.greet, backend="cython")
    assert ssa(Derived(), "a", times=2) == Derived().greet("a", times=2)
    text = ssa.inspect_types()
    assert "super_call_method['greet', ('times',)]" in text and "call <class 'super'>" not in text
    checked = moshjit.jit(Derived.checked, backend="cython")
    assert checked(Derived(), "b") == Derived().checked("b")
    assert "super_call_method" not in checked.inspect_types()

"""Type inference of ``arg.m(args)`` where the dispatch key fixes the argument's class and ``m`` is a jitted method:
the result has the type the method's code returns (asked of the context, as for jitted functions), and the call is
recorded in ``ctx.method_assumptions`` for the backend to check at entry. Tiny functions, a stub context."""
from __future__ import annotations

import moshjit
from moshjit.context import CompileContext
from moshjit.ir import ops
from moshjit.ir.types import OBJECT, STR, ConstType, ListType
from moshjit.passes.typeinfer import infer_types


class Stub(CompileContext):
    """Answers every callee's return type with ``returns`` and notes what it was asked."""

    def __init__(self, function, key, returns, assume_globals=True):
        super().__init__(function, key, assume_globals=assume_globals)
        self.returns, self.asked = returns, []

    def callee_return_type(self, py_function, arg_types):
        self.asked.append((py_function, arg_types))
        return self.returns


def make_class():
    class Shape:
        def words(self, text):
            return text.split()

        def plain(self, text):
            return text

    Shape.words = moshjit.jit(Shape.words)
    return Shape


def caller(self, text, other):
    a = self.words(text)       # typed from the method
    b = self.plain(text)       # not jitted
    c = other.words(text)      # the receiver's class is not fixed
    d = self.words(text, 1)    # not the method's arity
    return a, b, c, d


def typed(key, returns, assume_globals=True, arg_types=(OBJECT, STR, OBJECT)):
    ir = moshjit.to_ssa(caller)
    ctx = Stub(caller, key, returns, assume_globals)
    infer_types(ir, list(arg_types), ctx)
    calls = [op for block in ir.blocks for op in block.ops if isinstance(op, ops.CallMethod)]
    return calls, ctx


def test_a_jitted_methods_return_type_types_the_call_and_is_recorded():
    Shape = make_class()
    calls, ctx = typed((Shape, str, int), ListType(STR))
    assert [str(op.type) for op in calls] == ["list[str]", "object", "object", "object"]
    assert ctx.method_assumptions == {calls[0]: (Shape, vars(Shape)["words"], ListType(STR))}
    assert {(function, tuple(arg_types)) for function, arg_types in ctx.asked} == {
        (vars(Shape)["words"].py_func, (OBJECT, STR))}          # asked at each sweep (the driver memoises)


def test_nothing_is_assumed_without_global_assumptions_or_for_an_unchecked_type():
    Shape = make_class()
    calls, ctx = typed((Shape, str, int), ListType(STR), assume_globals=False)
    assert calls[0].type == OBJECT and ctx.method_assumptions == {} and ctx.asked == []
    calls, ctx = typed((Shape, str, int), ConstType(len))      # a callable: no run-time check decides it
    assert calls[0].type == OBJECT and ctx.method_assumptions == {}


def test_a_tiered_methods_plain_function_copy_stands_for_its_dispatcher():
    Shape = make_class()
    dispatcher = vars(Shape)["words"]
    from moshjit.cold_copy import counting_copy
    Shape.words = counting_copy(dispatcher.py_func, True, dispatcher)
    calls, ctx = typed((Shape, str, int), STR)
    assert calls[0].type == STR and ctx.method_assumptions[calls[0]][1] is dispatcher

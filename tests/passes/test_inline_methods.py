"""``inline._inline_method``: ``self.m(args)`` where the dispatch key fixes ``self``'s class and ``m`` is a small
jitted method is inlined behind a ``method_is`` guard, the call kept for when the guard fails. Tiny functions,
checked by the verifier and run by the SSA interpreter against CPython: the method as compiled, replaced on the
class, shadowed by the instance."""
from __future__ import annotations

import moshjit
from moshjit.compiler import DriverContext
from moshjit.frontend import build_ssa
from moshjit.ir import ops
from moshjit.ir.interpreter import method_is, run_function
from moshjit.ir.verifier import verify
from moshjit.passes.inline import inline_calls
from moshjit.passes.pipeline import run_passes
from moshjit.passes.resolve_globals import resolve_globals


def make_class():
    class Counter:
        def __init__(self, step):
            self.step = step

        def bump(self, n):
            return n + self.step

        def twice(self, n):
            return self.bump(self.bump(n))

    return moshjit.jit(Counter)


def inlined(function, key, assume_globals=True):
    ir = build_ssa(function, optimize=False)
    ctx = DriverContext(function, key, fallback=lambda *args: None, assume_globals=assume_globals)
    resolve_globals(ir, ctx)
    inline_calls(ir, ctx, (function.__code__,))
    run_passes(ir)
    verify(ir)
    return ir


def op_names(ir):
    return [type(op).__name__ for block in ir.blocks for op in block.ops]


def test_a_small_jitted_method_is_inlined_behind_its_guard():
    Counter = make_class()
    twice = vars(Counter)["twice"].py_func
    ir = inlined(twice, (Counter, "int64"))
    names = op_names(ir)
    assert names.count("MethodIs") == 2 and names.count("CallMethod") == 2      # the calls kept for a miss
    guards = [op for block in ir.blocks for op in block.ops if isinstance(op, ops.MethodIs)]
    assert all(g.owner is Counter and g.method is vars(Counter)["bump"] and g.name == "bump" for g in guards)
    assert all(isinstance(block.terminator, ops.Branch) for block in ir.blocks if block.ops
               and isinstance(block.ops[-1], ops.MethodIs))


def test_nothing_is_inlined_without_a_class_in_the_key():
    Counter = make_class()
    twice = vars(Counter)["twice"].py_func
    assert "MethodIs" not in op_names(inlined(twice, (object, "int64")))
    # the guard is checked at each call, not assumed: the specialisation without assumptions inlines too
    assert op_names(inlined(twice, (Counter, "int64"), assume_globals=False)).count("MethodIs") == 2


def test_an_inlined_methods_own_calls_on_self_are_inlined_too():
    Counter = make_class()

    def four(self, n):
        return self.twice(self.twice(n))
    ir = inlined(four, (Counter, "int64"))
    guards = [op.name for block in ir.blocks for op in block.ops if isinstance(op, ops.MethodIs)]
    assert guards.count("twice") == 2 and guards.count("bump") == 4
    assert run_function(ir, [Counter(1), 0]) == four(Counter(1), 0) == 4


def test_the_inlined_ir_gives_cpythons_results_as_the_method_changes():
    Counter = make_class()
    twice = vars(Counter)["twice"].py_func
    ir = inlined(twice, (Counter, "int64"))
    obj = Counter(3)
    assert run_function(ir, [obj, 10]) == 16
    obj.bump = lambda n: n * 100                       # shadowed by the instance: the call, not the body
    assert run_function(ir, [obj, 1]) == twice(obj, 1) == 10000
    del obj.bump
    Counter.bump = lambda self, n: -n                  # replaced on the class
    assert run_function(ir, [obj, 5]) == twice(obj, 5) == 5


def test_method_is_takes_the_tiered_copy_for_its_dispatcher_and_refuses_other_types():
    Counter = make_class()
    dispatcher = vars(Counter)["bump"]
    obj = Counter(1)
    assert method_is(obj, "bump", Counter, dispatcher)
    from moshjit.cold_copy import counting_copy
    Counter.bump = counting_copy(dispatcher.py_func, True, dispatcher)
    assert method_is(obj, "bump", Counter, dispatcher)

    class Sub(Counter):
        pass
    assert not method_is(Sub(1), "bump", Counter, dispatcher)

    class Slots:
        __slots__ = ()
        bump = dispatcher
    assert method_is(Slots(), "bump", Slots, dispatcher) and not method_is(Slots(), "bump", Slots, object())


def test_a_call_leaving_parameters_to_defaults_is_not_inlined():
    """The defaults such a call takes are the dispatcher's, read at each call (assignable on it)."""
    class Padded:
        def pad(self, n, by=2):
            return n + by

        def use(self, n):
            return self.pad(n) + self.pad(n, 1)
    Padded = moshjit.jit(Padded)
    guards = [op.name for block in inlined(vars(Padded)["use"].py_func, (Padded, "int64")).blocks
              for op in block.ops if isinstance(op, ops.MethodIs)]
    assert guards == ["pad"]                          # only the call passing every argument


def test_a_method_bigger_than_the_limit_stays_a_call():
    from moshjit.passes.inline import MAX_METHOD_SIZE
    body = "\n".join(f"        n = n * {k} + {k}" for k in range(MAX_METHOD_SIZE))
    namespace = {}
    exec(f"class Big:\n    def grow(self, n):\n{body}\n        return n\n\n"
         f"    def small(self, n):\n        return n + 1\n\n"
         f"    def use(self, n):\n        return self.grow(n) + self.small(n)\n", namespace)
    Big = moshjit.jit(namespace["Big"])
    guards = [op.name for block in inlined(vars(Big)["use"].py_func, (Big, "int64")).blocks
              for op in block.ops if isinstance(op, ops.MethodIs)]
    assert guards == ["small"]

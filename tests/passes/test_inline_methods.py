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


class Leaf:
    def __init__(self, v):
        self.v = v

    def get(self):
        return self.v


class Node:
    """Its attribute holds a leaf made in its ``__init__`` (classes at module level, as programs define them:
    the guess reads the class a global names)."""
    def __init__(self, v):
        self.leaf = Leaf(v)

    def value(self):
        return self.leaf.get() + 1


Leaf, Node = moshjit.jit(Leaf), moshjit.jit(Node)


class Grid:
    def __init__(self, n):
        self.cells = list(range(n))

    def __getitem__(self, i):
        return self.cells[i]

    def __setitem__(self, i, v):
        self.cells[i] = v


Grid = moshjit.jit(Grid)


def bump(grid, i):
    grid[i] = grid[i] + 1
    return grid[i]


def read_twice(grid, i):
    return read(grid, i) * 2


def read(grid, i):
    return grid[i]


def guards_of(ir):
    return [(op.owner.__name__, op.name) for block in ir.blocks for op in block.ops if isinstance(op, ops.MethodIs)]


def test_a_method_of_an_attribute_is_inlined_behind_the_guessed_class():
    value = vars(Node)["value"].py_func
    ir = inlined(value, (Node,))
    assert guards_of(ir) == [("Leaf", "get")]
    node = Node(4)
    assert run_function(ir, [node]) == value(node) == 5

    class Fake:                                   # another class in the attribute: the call itself
        def get(self):
            return 40
    node.leaf = Fake()
    assert run_function(ir, [node]) == value(node) == 41


def test_constructor_results_and_phis_that_agree_give_the_class():

    def made(v):
        return Leaf(v).get()

    def either(node, flag):
        other = node if flag else Node(3)
        return other.value()
    assert guards_of(inlined(made, ("int64",))) == [("Leaf", "get")]
    ir = inlined(either, (Node, "bool"))
    assert ("Node", "value") in guards_of(ir) and ("Leaf", "get") in guards_of(ir)
    for flag in (True, False):
        assert run_function(ir, [Node(1), flag]) == either(Node(1), flag)


def test_subscripts_of_a_class_with_item_methods_are_inlined():
    ir = inlined(bump, (Grid, "int64"))
    assert sorted(guards_of(ir)) == [("Grid", "__getitem__"), ("Grid", "__getitem__"), ("Grid", "__setitem__")]
    assert "CallMethod" not in op_names(ir)       # a failed guard takes the subscript itself
    grid, plain = Grid(5), Grid(5)
    assert run_function(ir, [grid, 2]) == bump(plain, 2) == 3 and grid.cells == plain.cells


def test_an_inlined_subscript_follows_cpythons_rules_when_the_class_or_instance_changes():
    """The type slot looks in the class only: an instance attribute named ``__getitem__`` changes nothing (the
    guard refuses it and the subscript runs); a method replaced on the class is the one called."""
    ir = inlined(bump, (Grid, "int64"))
    grid, plain = Grid(5), Grid(5)
    grid.__getitem__ = plain.__getitem__ = lambda i: 100
    assert run_function(ir, [grid, 1]) == bump(plain, 1) == 2
    original = vars(Grid)["__getitem__"]
    try:
        Grid.__getitem__ = lambda self, i: -self.cells[i]
        assert run_function(ir, [grid, 3]) == bump(plain, 3) == -(-3 + 1)
        assert grid.cells == plain.cells
    finally:
        Grid.__getitem__ = original


def test_an_inlined_functions_body_is_looked_at_again_with_the_callers_classes():
    ir = inlined(read_twice, (Grid, "int64"))
    assert guards_of(ir) == [("Grid", "__getitem__")]
    assert run_function(ir, [Grid(4), 3]) == read_twice(Grid(4), 3) == 6


class Summer:
    def __init__(self):
        self.inner = Looper()

    def total(self, xs):
        return self.inner.add_all(xs) + self.inner.first(xs)


class Looper:
    def add_all(self, xs):
        t = 0
        for x in xs:
            t += x
        return t

    def first(self, xs):
        return xs[0]


Summer, Looper = moshjit.jit(Summer), moshjit.jit(Looper)


def test_a_method_with_a_loop_is_inlined_on_known_receivers_only():
    """On a guessed receiver the call stays: the method's own specialisation is typed by the run-time kinds of
    its arguments, which a caller that knows less would lose (a loop pays for the call); a loop-free method is
    inlined."""
    ir = inlined(vars(Summer)["total"].py_func, (Summer, "list"))
    assert guards_of(ir) == [("Looper", "first")]
    assert guards_of(inlined(vars(Looper)["first"].py_func, (Looper, "list"))) == []

    def both(looper, xs):
        return looper.add_all(xs) + looper.first(xs)
    assert sorted(guards_of(inlined(both, (Looper, "list")))) == [("Looper", "add_all"), ("Looper", "first")]


def make_hierarchy():
    class Base:
        def step(self, n):
            return n + 1

    class Child(Base):
        def step(self, n):
            return super().step(n) * 2

        def guarded(self, n):
            return super().step(n + 1)             # n + 1 may raise between super() and the call: not inlined

    return moshjit.jit(Base), moshjit.jit(Child)


def test_a_super_method_is_inlined_behind_its_own_guard_without_a_super_object():
    Base, Child = make_hierarchy()
    step = vars(Child)["step"].py_func
    ir = inlined(step, (Child, "int64"))
    (guard,) = [op for block in ir.blocks for op in block.ops if isinstance(op, ops.SuperIs)]
    assert (guard.start, guard.owner, guard.method, guard.name) == (Child, Child, vars(Base)["step"], "step")
    names = op_names(ir)
    assert "SuperCallMethod" in names and "Call" not in names     # the miss calls the method without a super object
    assert run_function(ir, [Child(), 5]) == 12 == Child().step(5)
    Base.step = lambda self, n: -n                              # the guard now fails: super's own lookup
    assert run_function(ir, [Child(), 5]) == -10 == Child().step(5)


def test_a_super_call_after_something_that_may_raise_is_not_inlined():
    Base, Child = make_hierarchy()
    ir = inlined(vars(Child)["guarded"].py_func, (Child, "int64"))
    names = op_names(ir)
    assert "SuperIs" not in names and names.count("Call") == 1 and "CallMethod" in names

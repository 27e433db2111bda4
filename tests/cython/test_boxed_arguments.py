"""Float (and int64) arguments that are only handed on as objects — stored into attributes, returned, passed to method and
constructor sites — stay the float object the caller passed (``plan.py``'s ``boxed_arguments``): no unboxing
at entry and boxing again at each use. That is also what CPython does: the stored attribute *is* the argument
(``o.x is x``, and a NaN found by identity in a list), which unboxing would have broken. An argument used in
arithmetic stays a double. An int64 argument also stays the caller's int where it is compared or combined with a
value held as an object (``self.mark != mark``): unboxed, it was boxed again at that use, a new int per call.
A float or int64 argument used both ways is unboxed once for its arithmetic, and its other uses (returned, stored,
put in a display, a list or a dict, tested with ``is``/``in``) still read the caller's object (``plan.py``'s
``caller_objects``).
A computed float is boxed once per definition however many uses need it as an object (``boxed_once``), and a
computed number compared with ``is`` stays the object it was (``identity_compared``); an argument's test reads the
caller's object. A φ of C numbers keeps the object its value came in as (``phi_objects``): the caller's object
through a branch or a loop, one object for a computed value however often it is handed on."""
from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

import moshjit
from moshjit.backends.cython.out_of_ssa import out_of_ssa
from moshjit.backends.cython.plan import EmissionPlan
from moshjit.compiler import typed_ssa
from moshjit.typeof import type_of_key
from tests.cython import agree
from tests.number_identity import accumulated, larger, same_kind_pairs


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


def define_marks():
    class Node:
        def __init__(self, mark):
            self.mark = mark
            self.value = None

        def stale(self, mark):
            return self.mark != mark

        def keep(self, v):
            self.value = v
            return self.value is v, v

        def total(self, n):
            s = 0
            for i in range(n):
                s += i
            return s

    return Node


def observe_marks(Node):
    node, big = Node(1000), 10 ** 6
    return [node.stale(1000), node.stale(1001), node.keep(big), node.keep(-(2 ** 63)), node.keep(7),
            node.value is node.keep(node.value)[1], node.total(10)]


def test_int_arguments_keep_their_identity_and_compare_as_cpython_does():
    plain, compiled = define_marks(), define_marks()
    moshjit.jit(compiled)
    assert observe_marks(compiled) == observe_marks(plain)
    assert observe_marks(compiled)[2] == (True, 10 ** 6)         # the stored int *is* the argument


def test_int_arguments_meeting_objects_stay_objects_and_counters_stay_native():
    Node = moshjit.jit(define_marks())
    node = Node(5)
    node.stale(6), node.keep(10 ** 6), node.total(3)
    assert "object a_self, object a_mark):" in str(Node.stale.inspect_code())
    assert "object a_self, object a_v):" in str(Node.keep.inspect_code())
    assert "object a_self, Py_ssize_t a_n):" in str(Node.total.inspect_code())


def mixed_uses(x, k, out):
    """``x`` in arithmetic and, as the object the caller passed, in a display compared, a membership test, a list,
    an identity test and the return value (the result tuple holds both)."""
    scaled = x * k
    out.append(x)
    out.append(scaled)
    return (x, 1) == (x, 1), x in [x], out[0] is x, x, scaled < x


@settings(deadline=None)          # the first example compiles
@given(x=st.floats(allow_nan=True), k=st.floats(allow_nan=True))
def test_a_float_argument_used_natively_is_still_the_callers_object_elsewhere(x, k):
    jitted = agree.jitted(mixed_uses)
    expected, out = mixed_uses(x, k, []), []
    got = jitted(x, k, out)
    assert repr(got) == repr(expected) and got[:3] == expected[:3]
    assert got[3] is x and out[0] is x
    if math.isnan(x):
        assert got[:3] == (True, True, True)


def test_the_plan_reads_the_callers_object_only_where_a_float_is_used_as_an_object():
    ir = typed_ssa(mixed_uses, [type_of_key(k) for k in (float, float, list)], assume_globals=False)
    plan = EmissionPlan(ir, out_of_ssa(ir))
    x = ir.args[0]
    assert not plan.boxed_arguments and plan.decl_type(x) == "double"
    kinds = sorted(type(op).__name__ for op in plan.caller_objects[x])
    # the unfolded (x, 1), (x,) for ``in [x]`` (CPython builds a tuple), the returned tuple; append; ==, in, is
    assert kinds == ["BuildTuple"] * 3 + ["CallMethod"] + ["Compare"] * 3, kinds
    assert {op.op for op in plan.caller_objects[x] if type(op).__name__ == "Compare"} == {"==", "in", "is"}
    assert ir.args[1] not in plan.caller_objects          # ``k`` only multiplies


def int_mixed_uses(n, out, seen):
    """``n`` in int arithmetic and, as the object the caller passed, appended, a dict key and value, in a display, a
    membership test, an identity test and the return value."""
    out.append(n)
    seen[n] = n
    return n + 1, (n, 2), n in out, out[0] is n, n


@settings(deadline=None)          # the first example compiles
@given(n=st.integers(-2 ** 63, 2 ** 63 - 1))
def test_an_int64_argument_used_natively_is_still_the_callers_object_elsewhere(n):
    jitted = agree.jitted(int_mixed_uses)
    expected = int_mixed_uses(n, [], {})
    out, seen = [], {}
    got = jitted(n, out, seen)
    assert got == expected and got[3] is True
    assert got[4] is n and got[1][0] is n and out[0] is n
    assert next(iter(seen)) is n and seen[n] is n


def test_the_plan_reads_the_callers_int_only_where_it_is_used_as_an_object():
    ir = typed_ssa(int_mixed_uses, [type_of_key(k) for k in ("int64", list, dict)], assume_globals=False)
    plan = EmissionPlan(ir, out_of_ssa(ir))
    n = ir.args[0]
    assert not plan.boxed_arguments and plan.decl_type(n) == "Py_ssize_t"
    assert not any(type(op).__name__ == "BinaryOp" for op in plan.caller_objects[n])
    assert {type(op).__name__ for op in plan.caller_objects[n]} >= {"CallMethod", "SetItem", "BuildTuple", "Compare"}


def store_at(buf, i, seen):
    """``i`` indexes a list (its C value), keys a dict (the caller's object) and is counted on."""
    buf[i] = 7
    seen[i] = 0
    return i + 1


@settings(deadline=None)          # the first example compiles
@given(i=st.integers(-5, 5) | st.integers(2 ** 40, 2 ** 41))
def test_an_int64_argument_indexes_a_list_natively_and_keys_a_dict_as_the_callers_int(i):
    agree.same(store_at, [0, 1, 2], i, {})            # IndexError's type and message outside the list
    if -3 <= i < 3:
        seen = {}
        agree.jitted(store_at)([0, 1, 2], i, seen)
        assert next(iter(seen)) is i


def test_a_list_index_from_an_int64_argument_reads_the_c_value():
    ir = typed_ssa(store_at, [type_of_key(k) for k in (list, "int64", dict)], assume_globals=False)
    plan = EmissionPlan(ir, out_of_ssa(ir))
    stores = [type(op.obj.type).__name__ for op in plan.caller_objects[ir.args[1]] if type(op).__name__ == "SetItem"]
    assert stores == ["DictType"], stores


def builtins_on(n, k):
    """Builtins Cython computes on the C value of ``n``, in a loop."""
    t = 0
    for _ in range(k):
        t += len(chr(n % 1114112)) + abs(n) + max(n, 3)
    return t


@settings(deadline=None)          # the first example compiles
@given(n=st.integers(-2 ** 62, 2 ** 62), k=st.integers(0, 3))
def test_builtins_computed_on_c_ints_take_an_int64_argument_as_its_c_value(n, k):
    agree.same(builtins_on, n, k)
    ir = typed_ssa(builtins_on, [type_of_key(key) for key in ("int64", "int64")], assume_globals=False)
    assert ir.args[0] not in EmissionPlan(ir, out_of_ssa(ir)).caller_objects


def test_the_entry_takes_the_int_object_and_unboxes_it_once():
    jitted = moshjit.jit(int_mixed_uses, backend="cython")
    jitted(10 ** 6, [], {})
    code = str(jitted.inspect_code())
    assert "(object o_n, list a_out, dict a_seen):" in code, code
    assert "    a_n = o_n\n" in code and "cdef Py_ssize_t a_n" in code


def test_the_entry_takes_the_float_object_and_unboxes_it_once():
    jitted = moshjit.jit(mixed_uses, backend="cython")
    jitted(1.5, 2.0, [])
    code = str(jitted.inspect_code())
    assert "(object o_x, double a_k, list a_out):" in code, code
    assert "    a_x = o_x\n" in code and "cdef double a_x" in code


def boxed_twice(a, b, out):
    y = a * b
    out.append(y)
    out.append(y)
    return out[0] is out[1], (y, y), y


def boxed_in_a_loop(a, n):
    y = a - a                               # NaN for an infinite a
    out = []
    for _ in range(n):
        out.append(y)
    return out.count(y), [v is out[0] for v in out], y in out


def boxed_on_a_branch(a, flag):
    y = a * 2.0
    if flag:
        return [y, y].count(y)
    return y


def ints_compared_by_identity(xs, n):
    big = n * 1000
    return [x is xs[0] for x in xs], big is big, big is n


special_floats = st.sampled_from([float("inf"), float("-inf"), float("nan"), 0.0, -0.0]) | st.floats()


@settings(deadline=None)
@given(a=special_floats, b=special_floats, flag=st.booleans(), n=st.integers(0, 4))
def test_a_computed_float_is_one_object_however_often_it_is_used_as_one(a, b, flag, n):
    for fn, args in [(boxed_twice, (a, b, [])), (boxed_in_a_loop, (a, n)), (boxed_on_a_branch, (a, flag))]:
        expected = fn(*args[:-1], []) if fn is boxed_twice else fn(*args)
        got = agree.jitted(fn)(*args[:-1], []) if fn is boxed_twice else agree.jitted(fn)(*args)
        assert repr(got) == repr(expected), fn.__name__


@settings(deadline=None)
@given(st.lists(st.integers(-300, 300) | st.sampled_from([10 ** 6, 2 ** 62]), min_size=1, max_size=4),
       st.integers(-5, 5))
def test_numbers_compared_by_identity_are_the_objects_cpython_compares(xs, n):
    xs = [xs[0]] + xs                       # the same object twice
    assert agree.jitted(ints_compared_by_identity)(xs, n) == ints_compared_by_identity(xs, n)
    floats = [float(x) for x in xs]
    floats[1] = floats[0]
    assert agree.jitted(boxed_in_a_loop)(float("inf"), 2)[1] == [True, True]
    assert [v is floats[0] for v in floats] == agree.jitted(identity_over)(floats)


def identity_over(values):
    return [v is values[0] for v in values]


def swapped(x, y, n):
    """The φs of ``x`` and ``y`` swap on every pass: their objects must swap with them."""
    for _ in range(n):
        x, y = y, x
    return x, y


def larger_twice(x, y, out):
    m = x * 2.0 if x > y else y * 3.0      # computed on both sides: one object however often it is handed on
    out.append(m)
    out.append(m)
    return (m, m), m


def larger_int_twice(n, k, out):
    m = n * 1000 if n > k else k * 1000
    out.append(m)
    return m, m


def doubled_pairs(x, n, out):
    """A φ that starts as an argument and changes on every pass, handed on twice per pass."""
    m = x
    for _ in range(n):
        out.append((m, m))
        m = m * 2.0 + 1.0
    return m


def identities(result, args):
    """Which of ``args`` each leaf of ``result`` is, and which leaves are one another: what CPython hands on."""
    leaves = list(result) if isinstance(result, tuple) else [result]
    leaves = [x for leaf in leaves for x in (leaf if isinstance(leaf, (tuple, list)) else [leaf])]
    return ([next((i for i, a in enumerate(args) if leaf is a), None) for leaf in leaves],
            [[leaf is other for other in leaves] for leaf in leaves])


@settings(deadline=None)          # the first example compiles
@given(pair=same_kind_pairs, n=st.integers(0, 3))
def test_a_number_argument_through_a_phi_is_the_callers_object(pair, n):
    """``x if x > y else y`` and an accumulator that starts as an argument hand on the argument itself when the
    value is that argument (CPython returns ``x``, not a number equal to it), on every path."""
    x, y = pair
    step = type(x)(1)
    for fn, args in [(larger, (x, y)), (accumulated, (x, n, step)), (swapped, (x, y, n))]:
        expected = fn(*args)
        got = agree.jitted(fn)(*args)
        assert repr(got) == repr(expected), fn.__name__
        assert identities(got, args) == identities(expected, args), fn.__name__


@settings(deadline=None)
@given(x=special_floats, y=special_floats, n=st.integers(-2 ** 40, 2 ** 40), k=st.integers(-2 ** 40, 2 ** 40))
def test_a_computed_phi_is_one_object_however_often_it_is_handed_on(x, y, n, k):
    """``(m, m)`` and two appends of ``m`` hold one object, also when ``m`` changes on every pass of a loop."""
    for fn, args in [(larger_twice, (x, y)), (larger_int_twice, (n, k)), (doubled_pairs, (x, 3))]:
        expected_out, got_out = [], []
        expected = fn(*args, expected_out)
        got = agree.jitted(fn)(*args, got_out)
        assert repr(got) == repr(expected), fn.__name__
        assert identities((got, got_out), ()) == identities((expected, expected_out), ()), fn.__name__


def test_the_plan_gives_a_phi_of_c_numbers_a_twin_only_where_its_object_is_read():
    def plan_of(fn, kinds):
        ir = typed_ssa(fn, [type_of_key(k) for k in kinds], assume_globals=False)
        return ir, EmissionPlan(ir, out_of_ssa(ir))

    ir, plan = plan_of(larger, (float, float))
    # a φ of doubles with a twin on 3.11 (3.12 returns from each branch: no φ); either way both arguments come
    # with their objects
    assert all(plan.decl_type(phi) == "double" for phi in plan.phi_objects) and len(plan.phi_objects) <= 1
    assert set(plan.caller_objects) == set(ir.args)
    ir, plan = plan_of(accumulated, (float, "int64", float))
    assert len(plan.phi_objects) == 1 and ir.args[0] in plan.caller_objects
    assert ir.args[2] not in plan.caller_objects             # ``step`` only adds
    ir, plan = plan_of(accumulated, ("int64", "int64", "int64"))
    assert not plan.phi_objects and ir.args[0] in plan.caller_objects      # an int φ held as an object: ``x``'s
    ir, plan = plan_of(builtins_on, ("int64", "int64"))
    assert not plan.phi_objects                              # ``t`` is only returned, computed on every path

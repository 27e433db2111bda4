"""Unboxed float chains (``backends/cython/float_chains.py``) against CPython: arithmetic on values read from
attributes and lists, whose intermediate results stay C doubles while the operands are floats, computes what
CPython computes for every kind of operand — floats (NaN, ±inf, −0.0), small and big ints, float subclasses,
objects with their own ``__add__``, strs (TypeError), zero divisors — including attributes that hold ints and
become floats and back between calls. The decisions are pinned on tiny typed functions, and the generated code
is checked for the guarded native operations."""
from __future__ import annotations

import math

from hypothesis import given, settings, strategies as hs

import moshjit

from moshjit.backends.cython.float_chains import FloatChains
from moshjit.compiler import typed_ssa
from moshjit.ir import ops
from moshjit.ir.types import FLOAT
from tests.cython import chain_plans
from tests.cython.agree import jitted, outcome


class Body:
    def __init__(self, x, y, m):
        self.x = x
        self.y = y
        self.m = m


def energy(bodies, dt):
    """Chains through attributes and list items; a chain value used twice; an in-place update; a division."""
    total = 0.0
    for a in bodies:
        for b in bodies:
            dx = a.x - b.x
            dy = a.y - b.y
            d2 = dx * dx + dy * dy + 0.5
            a.m -= dx * dt
            total += a.m * b.m / d2
    return total


def mixed(values, k):
    """A chain with an int constant, a native double and list items; the result escapes into a list."""
    out = []
    for i in range(len(values) - 1):
        out.append((values[i] * 2 + values[i + 1]) / k - 1)
    return out


class Weird:
    def __init__(self, v):
        self.v = v

    def __add__(self, other):
        return ("add", self.v)

    def __radd__(self, other):
        return ("radd", self.v)

    def __sub__(self, other):
        return Weird(self.v + 1)

    def __mul__(self, other):
        return 3.5

    __rmul__ = __mul__

    def __truediv__(self, other):
        return Weird(-1)

    def __repr__(self):
        return f"Weird({self.v!r})"


class F(float):
    def __sub__(self, other):
        return F(float(self) + 1000.0)


numbers = hs.sampled_from([0.0, -0.0, 1.5, -2.25, float("nan"), float("inf"), float("-inf"), 3, 0, -7, 2 ** 40,
                           2 ** 70, True, F(2.5), Weird(1), "s", 1e308])


def agree(fn, *args):
    """Compared as reprs (NaN results are not equal to themselves); bodies are copied for each run."""
    def run(f):
        fresh = [[Body(b.x, b.y, b.m) for b in a] if isinstance(a, list) and a and isinstance(a[0], Body) else a
                 for a in args]
        result = outcome(f, *fresh)
        state = [[(b.x, b.y, b.m) for b in a] for a in fresh if isinstance(a, list) and a and isinstance(a[0], Body)]
        return repr((result, state))
    assert run(jitted(fn)) == run(fn)


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.tuples(numbers, numbers, numbers), min_size=1, max_size=3), hs.sampled_from([0.25, 0.0, -1.0]))
def test_chains_through_attributes_compute_as_cpython(rows, dt):
    agree(energy, [Body(*row) for row in rows], dt)


@settings(max_examples=60, deadline=None)
@given(hs.lists(numbers, min_size=1, max_size=5), hs.sampled_from([2.0, 0.0, -0.0, float("inf")]))
def test_chains_through_list_items_compute_as_cpython(values, k):
    agree(mixed, values, k)


def test_attributes_that_change_between_int_and_float_compute_as_cpython():
    bodies = [Body(1, 2, 3), Body(0.5, -1, 2.0)]
    for step in range(4):
        agree(energy, bodies, 0.5)
        for b in bodies:                              # ints become floats, then ints again
            b.x, b.y, b.m = (float(b.x), b.y / 2, b.m * 1.0) if step % 2 == 0 else (int(b.x), 3, 2)


def chains_of(fn, key) -> FloatChains:
    return chain_plans.chains_of(FloatChains, fn, key)


def dot(a, b):
    return a.x * b.x + a.y * b.y


def scaled(a, k):
    t = a.x * k
    return [t, t + 1]             # t escapes into a list: boxed, not unboxed


def test_the_products_of_a_sum_are_unboxed_and_the_sum_is_a_chain_link():
    chains = chains_of(dot, (Body, Body))
    products = {op for op in chains.links if op.op == "*"}
    total = [op for op in chains.links if op.op == "+"]
    assert len(products) == 2 and len(total) == 1
    assert chains.unboxed == products                 # the sum is used by the return: boxed once
    assert chains.takes(total[0]) and all(chains.takes(p) for p in products)


def test_a_value_that_escapes_is_not_unboxed():
    chains = chains_of(scaled, (Body, float))
    assert not chains.unboxed                         # t's users: the + and the list build
    assert all(op.op in ("*", "+") for op in chains.links)
    assert not any(chains.takes(op) for op in chains.links)


def test_native_doubles_are_not_links():
    def native(x, y):
        return x * y + 1.0
    chains = chains_of(native, (float, float))
    assert not chains.links and all(op.type == FLOAT for b in typed_ssa(native, [FLOAT, FLOAT]).blocks
                                    for op in b.ops if isinstance(op, ops.BinaryOp))


def test_the_generated_code_guards_each_native_operation():
    code = str(jitted(dot).inspect_code()) if jitted(dot)(Body(1.0, 2.0, 0), Body(3.0, 4.0, 0)) == 11.0 else ""
    assert "if mj_float_operands(" in code and "_u = True" in code
    assert "_u = mj_chain_float(" in code                        # the generic path unboxes a float result
    assert ":\n            v" in code or "= <double>(" in code      # the sum is boxed once


# ---- chain ends and the other chain operations: comparisons, unary minus, ``**`` with a constant, math.sqrt ----


class Ordered:
    """Overloads every operator a chain may meet, so a wrongly native operation shows."""

    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        return ("lt", self.v)

    def __gt__(self, other):
        return "gt"

    def __ge__(self, other):
        return 0

    def __neg__(self):
        return Ordered(-1)

    def __pow__(self, other):
        return 2.5

    def __sub__(self, other):
        return Ordered(self.v)

    def __rsub__(self, other):
        return -4.0

    def __mul__(self, other):
        return self

    __rmul__ = __mul__

    def __float__(self):
        return 16.0

    def __repr__(self):
        return f"Ordered({self.v!r})"


def ends(a, b):
    """Chain values that end in comparisons, feed unary minus, ``**`` and math.sqrt."""
    d = a.x - b.x
    out = []
    if d < 0:
        out.append("neg")
    if d * d >= a.y:
        out.append("far")
    out.append(d == b.y)
    out.append(-(d * 2.0) + a.m)
    out.append(d ** 2 + a.y ** 3 - b.m ** -1)
    out.append((a.y * a.y) ** 0.5)
    out.append(math.sqrt(d * d + 1.0))
    out.append(math.sqrt(a.m))
    return out


more_numbers = hs.sampled_from([0.0, -0.0, 1.5, -2.25, float("nan"), float("inf"), float("-inf"), 3, 0, -7,
                                2 ** 40, 2 ** 70, True, F(2.5), Weird(1), "s", 1e308, 1e-170, -1e200,
                                Ordered(1), 0.5])


@settings(max_examples=80, deadline=None)
@given(more_numbers, more_numbers, more_numbers, more_numbers, more_numbers, more_numbers)
def test_comparisons_minus_powers_and_square_roots_compute_as_cpython(ax, ay, am, bx, by, bm):
    agree(ends, Body(ax, ay, am), Body(bx, by, bm))


def test_every_special_float_meets_every_new_chain_end():
    specials = [0.0, -0.0, 1.0, -1.0, 2.0, float("nan"), float("inf"), float("-inf"), 1e308, 1e-170, 5e-324, 3, -2]
    for x in specials:
        for y in specials:
            agree(ends, Body(x, y, x), Body(y, x, 1.5))


def test_a_monkey_patched_math_sqrt_is_called():
    body = Body(3.0, 4.0, 9.0)
    fn = moshjit.jit(ends, backend="cython")          # its own dispatcher: this one is recompiled unbound
    fn(body, body)
    original = math.sqrt
    try:
        math.sqrt = lambda x: ("patched", x)
        assert fn(body, body) == ends(body, body)
    finally:
        math.sqrt = original
    assert fn(body, body) == ends(body, body)


def test_values_ending_in_comparisons_and_square_roots_are_unboxed():
    chains = chains_of(ends, (Body, Body))
    subtraction = [op for op in chains.links if getattr(op, "op", None) == "-" and isinstance(op.left, ops.LoadAttr)]
    assert subtraction and subtraction[0] in chains.unboxed     # d: used by comparisons and chain links only
    assert {op.op for op in chains.comparisons} == {"<", ">=", "=="}
    assert len(chains.square_roots) == 2
    assert any(isinstance(op, ops.UnaryOp) for op in chains.links)
    powers = [op for op in chains.links if getattr(op, "op", None) == "**"]
    assert len(powers) == 4 and sum(p in chains.unboxed for p in powers) == 3    # one goes into the list
    square_root_arguments = {op.args[0] for op in chains.square_roots}
    assert any(v in chains.unboxed for v in square_root_arguments)       # d * d + 1.0 feeds only the sqrt


def below(a, b):
    return a.x - b.x < 0


def powered(a):
    return a.x ** a.y                   # the exponent is not a constant: no chain link


def test_a_value_used_only_by_a_comparison_is_unboxed_and_a_variable_exponent_is_no_link():
    chains = chains_of(below, (Body, Body))
    (difference,) = chains.links
    assert chains.unboxed == {difference} and chains.takes(next(iter(chains.comparisons)))
    assert not chains_of(powered, (Body,)).links


def test_the_generated_code_of_the_new_chain_ends():
    fn = jitted(ends)
    fn(Body(1.0, 2.0, 3.0), Body(0.5, 1.0, 2.0))
    code = str(fn.inspect_code())
    assert "_d < (<double>0)" in code                                  # d < 0 on the double
    assert "mj_chain_pow(" in code and "mj_number_power(mj_chain_box(" in code
    assert "_d = -" in code                                            # unary minus on the double
    assert ">= 0.0:" in code and "= mj_chain_sqrt(" in code          # math.sqrt of a non-negative double
    assert "mj_richcompare(mj_chain_box(" in code                      # the generic comparison boxes on demand


def squared_deviations(xs, mean):
    total = 0.0
    for x in xs:
        total += (x - mean) ** 2
    return total


def test_a_constant_power_is_libms_pow_not_a_product():
    """CPython's float ** 2 calls libm's pow, which is not always the correctly rounded x * x that gcc folds
    pow(x, 2.0) into (found by the frontend samples' mean_and_variance: 1 ulp apart)."""
    xs = [260593.78490262944, 780922.875435604, 594717.0, -1.5]
    mean = sum(xs) / 4
    # glibc 2.36's pow((xs[2] - mean), 2.0) differs from the product by 1 ulp: the input tells the two apart
    assert outcome(jitted(squared_deviations), xs, mean) == outcome(squared_deviations, xs, mean)


def divided_by_an_int_chain(x, n, start):
    """``-5 % total`` is an int chain while ``total`` may be an int; the division ending it is emitted by the int
    chain, so the float chain of ``total *= ...`` must read its result as an object (a fuzzed program's module
    named ``v18_d``, which only float links have, and did not compile)."""
    total = start
    for _ in range(n):
        total *= (float(x) / (-5 % total))
    return total


@settings(max_examples=40, deadline=None)
@given(hs.sampled_from([0.5, -1.5, 3.0]), hs.integers(0, 3), hs.sampled_from([math.inf, 2, 0.5, -3, 7.0]))
def test_a_division_ending_an_int_chain_feeds_a_float_chain(x, n, start):
    assert repr(outcome(jitted(divided_by_an_int_chain), x, n, start)) == repr(outcome(divided_by_an_int_chain, x, n,
                                                                                        start))

"""Comparisons with CPython's semantics: of numbers (ints and floats compared exactly), ``None``, list and tuple
objects, and ``is``.

Above ``conversions`` and below the op modules, which compare items with ``compare_values`` (``in``,
``list.count``, ``min``/``max``). Membership itself (``in``) is lowered by ``sequences`` and ``native_list_ops``.
"""
from __future__ import annotations

import llvmlite.ir as ir

from moshjit.backends.llvm.conversions import TWO_63, to_int
from moshjit.backends.llvm.reprs import F64, I1, I32, I64, BoolR, BoxedTupleR, FloatR, IntR, ListR, Repr, TupleR, UnitR
from moshjit.ir import ops

_SIGNED = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!="}


def lower_compare(low, op: ops.Compare) -> ir.Value:
    """Every comparison but ``in`` and ``not in`` (membership is lowered by the container's module)."""
    left, right = low.repr(op.left), low.repr(op.right)
    if op.op in ("is", "is not"):
        return identity(low, op)
    return compare_values(low, op.op, low.get(op.left), left, low.get(op.right), right)


def compare_values(low, operator: str, a, left: Repr, b, right: Repr) -> ir.Value:
    builder = low.b
    numeric = (IntR, BoolR, FloatR)
    if isinstance(left, numeric) and isinstance(right, numeric):
        if isinstance(left, FloatR) and isinstance(right, FloatR):
            return float_compare(builder, operator, a, b)
        if isinstance(left, FloatR) or isinstance(right, FloatR):
            return mixed_compare(low, operator, a, left, b, right)
        return builder.icmp_signed(_SIGNED[operator], to_int(low, a, left), to_int(low, b, right))
    none_left = isinstance(left, UnitR) and left.what == "None"
    none_right = isinstance(right, UnitR) and right.what == "None"
    if operator in ("==", "!=") and (none_left or none_right):
        both = none_left and none_right
        if both or isinstance(left, numeric) or isinstance(right, numeric):
            return ir.Constant(I1, int(both == (operator == "==")))
    if isinstance(left, (ListR, TupleR, BoxedTupleR)) and isinstance(right, (ListR, TupleR, BoxedTupleR)):
        return compare_sequences(low, operator, a, left, b, right)
    low.not_native(f"'{operator}' between {left.describe()} and {right.describe()}")


def float_compare(builder, operator, a, b) -> ir.Value:
    if operator == "!=":
        return builder.fcmp_unordered("!=", a, b)
    return builder.fcmp_ordered(operator, a, b)


def mixed_compare(low, operator, a, left, b, right) -> ir.Value:
    """int vs float compared exactly, as CPython does (not by converting the int to a float)."""
    builder = low.b
    if isinstance(left, FloatR):
        flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}[operator]
        return mixed_compare(low, flipped, b, right, a, left)
    order = builder.call(int_float_order_helper(low.rt), [to_int(low, a, left), b])
    is_ = lambda n: builder.icmp_signed("==", order, ir.Constant(I32, n))
    if operator == "<":
        return is_(-1)
    if operator == ">":
        return is_(1)
    if operator == "==":
        return is_(0)
    if operator == "!=":
        return builder.icmp_signed("!=", order, ir.Constant(I32, 0))
    if operator == "<=":
        return builder.or_(is_(-1), is_(0))
    return builder.or_(is_(1), is_(0))


def int_float_order_helper(rt) -> ir.Function:
    """-1, 0 or 1 as the int is below, equal to or above the float; 2 when the float is NaN."""
    def build(b, i, x):
        f = b.function
        nan, below, above, equal = (f.append_basic_block(n) for n in ("nan", "below", "above", "equal"))
        rounded_eq, exact = f.append_basic_block("rounded_eq"), f.append_basic_block("exact")
        check_above = f.append_basic_block("check_above")
        b.cbranch(b.fcmp_unordered("uno", x, x), nan, rounded_eq)
        b.position_at_end(rounded_eq)
        d = b.sitofp(i, F64)
        b.cbranch(b.fcmp_ordered("<", d, x), below, check_above)
        b.position_at_end(check_above)
        b.cbranch(b.fcmp_ordered(">", d, x), above, equal)
        b.position_at_end(equal)
        b.cbranch(b.fcmp_ordered(">=", x, ir.Constant(F64, TWO_63)), below, exact)
        b.position_at_end(exact)
        j = b.fptosi(x, I64)
        lt = b.icmp_signed("<", i, j)
        gt = b.icmp_signed(">", i, j)
        b.ret(b.select(lt, ir.Constant(I32, -1), b.select(gt, ir.Constant(I32, 1), ir.Constant(I32, 0))))
        for block, code in ((nan, 2), (below, -1), (above, 1)):
            b.position_at_end(block)
            b.ret(ir.Constant(I32, code))
    return rt.helper("mj_int_float_order", ir.FunctionType(I32, [I64, F64]), build)


_RICH = {"<": 0, "<=": 1, "==": 2, "!=": 3, ">": 4, ">=": 5}


def compare_sequences(low, operator, a, left: Repr, b_value, right: Repr) -> ir.Value:
    """Comparison of two lists (or tuple objects) of ints/bools, exactly through PyObject_RichCompareBool."""
    def plain(r):
        if isinstance(r, (ListR, BoxedTupleR)):
            return r.item is None or isinstance(r.item, (IntR, BoolR)) or plain(r.item)
        return False
    if not (plain(left) and plain(right) and type(left) is type(right)):
        low.not_native(f"'{operator}' between {left.describe()} and {right.describe()}")
    b = low.b
    status = low.rt.call(b, "PyObject_RichCompareBool", a, b_value, ir.Constant(I32, _RICH[operator]))
    low.guard_status(status)
    return b.trunc(status, I1)


def identity(low, op: ops.Compare) -> ir.Value:
    """``is``: None, bools and containers (by address); other identities depend on CPython's caching."""
    left, right = low.repr(op.left), low.repr(op.right)
    same = None
    if isinstance(left, UnitR) or isinstance(right, UnitR):
        both_none = isinstance(left, UnitR) and isinstance(right, UnitR) and left.what == right.what == "None"
        same = ir.Constant(I1, int(both_none))
        if not both_none and not (isinstance(left, UnitR) and left.what == "None"
                                  or isinstance(right, UnitR) and right.what == "None"):
            low.not_native(f"'is' between {left.describe()} and {right.describe()}")
    elif isinstance(left, BoolR) and isinstance(right, BoolR):
        same = low.b.icmp_unsigned("==", low.get(op.left), low.get(op.right))
    elif isinstance(left, (ListR, BoxedTupleR)) and isinstance(right, (ListR, BoxedTupleR)):
        same = low.b.icmp_unsigned("==", low.get(op.left), low.get(op.right))
    if same is None:
        low.not_native(f"'is' between {left.describe()} and {right.describe()}")
    return same if op.op == "is" else low.b.xor(same, ir.Constant(I1, 1))


OPS = {ops.Compare: lower_compare}

"""Constants and conversions between representations: the bottom layer of the lowering modules.

bool → int, int → float, list and tuple kinds, ``int(float)`` with CPython's errors, and constants in any
representation. It imports only ``reprs``, so every other lowering module may use it.
"""
from __future__ import annotations

import llvmlite.ir as ir

from moshjit.backends.llvm.reprs import F64, I1, I64, I8, BoolR, BoxedTupleR, FloatR, IntR, ListR, Repr, TupleR, UnitR
from moshjit.ir.types import INT64_MAX, INT64_MIN

TWO_63 = float(2 ** 63)


def constant(low, value, representation: Repr) -> ir.Value:
    if isinstance(representation, UnitR):
        return ir.Constant(I8, 0)
    if isinstance(representation, BoolR):
        return ir.Constant(I1, int(bool(value)))
    if isinstance(representation, IntR):
        if not INT64_MIN <= int(value) <= INT64_MAX:
            low.not_native(f"the int constant {value} (does not fit in 64 bits)")
        return ir.Constant(I64, int(value))
    if isinstance(representation, FloatR):
        return ir.Constant(F64, float(value))
    if isinstance(representation, TupleR) and isinstance(value, tuple):
        return ir.Constant.literal_struct([constant(low, v, r) for v, r in zip(value, representation.items)])
    low.not_native(f"the constant {value!r:.40}")


def coerce(low, value: ir.Value, source: Repr, target: Repr) -> ir.Value:
    """Convert between representations of the same Python value (bool → int, int → float, list item kinds)."""
    if source == target or isinstance(target, UnitR):
        return value if not isinstance(target, UnitR) else ir.Constant(I8, 0)
    if isinstance(target, IntR) and isinstance(source, BoolR):
        return low.b.zext(value, I64)
    if isinstance(target, FloatR):
        return to_float(low, value, source)
    if isinstance(target, (ListR, BoxedTupleR)) and isinstance(source, type(target)):
        return value
    if isinstance(target, TupleR) and isinstance(source, TupleR) and len(target.items) == len(source.items):
        result = ir.Constant(target.llvm, ir.Undefined)
        for i, (s, t) in enumerate(zip(source.items, target.items)):
            result = low.b.insert_value(result, coerce(low, low.b.extract_value(value, i), s, t), i)
        return result
    low.not_native(f"a value of kind {source.describe()} used as {target.describe()}")


def to_int(low, value: ir.Value, source: Repr) -> ir.Value:
    if isinstance(source, BoolR):
        return low.b.zext(value, I64)
    if isinstance(source, IntR):
        return value
    low.not_native(f"{source.describe()} used as an int")


def to_float(low, value: ir.Value, source: Repr) -> ir.Value:
    if isinstance(source, FloatR):
        return value
    if isinstance(source, BoolR):
        return low.b.uitofp(value, F64)
    if isinstance(source, IntR):
        return low.b.sitofp(value, F64)
    low.not_native(f"{source.describe()} used as a float")


def operand_int(low, value) -> ir.Value:
    return to_int(low, low.get(value), low.repr(value))


def operand_float(low, value) -> ir.Value:
    return to_float(low, low.get(value), low.repr(value))


def float_to_int(low, x: ir.Value) -> ir.Value:
    """int(x) of an integral-valued or any float, with CPython's errors; beyond 64 bits the current op continues
    in the interpreter."""
    b = low.b
    low.guard(b.fcmp_unordered("uno", x, x), ValueError, "cannot convert float NaN to integer")
    is_inf = b.fcmp_ordered("==", b.call(low.rt.intrinsic("llvm.fabs", [F64]), [x]), ir.Constant(F64, float("inf")))
    low.guard(is_inf, OverflowError, "cannot convert float infinity to integer")
    out_of_range = b.or_(b.fcmp_ordered(">=", x, ir.Constant(F64, TWO_63)),
                         b.fcmp_ordered("<", x, ir.Constant(F64, -TWO_63)))
    low.deoptimize_if(out_of_range)                  # CPython makes a big int
    return b.fptosi(x, I64)

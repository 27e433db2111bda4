"""Truth values and lengths of every representation (``bool(x)``, ``len(x)``).

Above ``containers`` and ``native_lists``, whose sizes it reads, and below the op modules: ``not``, ``bool()``,
branch conditions and ``len()`` use it.
"""
from __future__ import annotations

import llvmlite.ir as ir

from moshjit.backends.llvm import native_lists
from moshjit.backends.llvm.containers import object_size, range_length
from moshjit.backends.llvm.reprs import (F64, I1, I64, ArrayR, BoolR, BoxedTupleR, FloatR, IntR, ListR, NListR, RangeR,
                                         Repr, TupleR, UnitR)
from moshjit.ir.ops import Constant


def truth(low, value) -> ir.Value:
    """bool(value) as an i1."""
    if isinstance(value, Constant):
        return ir.Constant(I1, int(bool(value.value)))
    return truth_of(low, low.get(value), low.repr(value))


def truth_of(low, v: ir.Value, representation: Repr) -> ir.Value:
    b = low.b
    if isinstance(representation, BoolR):
        return v
    if isinstance(representation, IntR):
        return b.icmp_signed("!=", v, ir.Constant(I64, 0))
    if isinstance(representation, FloatR):
        return b.fcmp_unordered("!=", v, ir.Constant(F64, 0.0))
    if isinstance(representation, UnitR) and representation.what == "None":
        return ir.Constant(I1, 0)
    if isinstance(representation, (ListR, NListR, BoxedTupleR, RangeR, ArrayR)):
        return b.icmp_signed("!=", length_of(low, v, representation), ir.Constant(I64, 0))
    if isinstance(representation, TupleR):
        return ir.Constant(I1, int(bool(representation.items)))
    low.not_native(f"the truth value of {representation.describe()}")


def length_of(low, value: ir.Value, representation: Repr) -> ir.Value:
    b = low.b
    if isinstance(representation, (ListR, BoxedTupleR)):
        return object_size(low, value)
    if isinstance(representation, NListR):
        return native_lists.length(low, value)
    if isinstance(representation, TupleR):
        return ir.Constant(I64, len(representation.items))
    if isinstance(representation, RangeR):
        return range_length(low, value)
    if isinstance(representation, ArrayR):
        return b.extract_value(value, 1)
    low.not_native(f"len() of {representation.describe()}")

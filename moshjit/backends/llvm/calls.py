"""Calls in native code: builtins, the ``math`` module, list methods, other jitted functions, and ``raise``.

Builtins and ``math`` functions are rows in ``BUILTINS`` / ``MATH``; a ``math`` function follows CPython's
``math_1``/``math_2`` error rules (a NaN from a non-NaN argument is "math domain error", an infinity from finite
arguments is "math range error" or a domain error). Calls of jitted or plain Python functions become direct calls
of their native specialisation in the same module (recursion included); a callee that deoptimised returns its
result as an object and the caller continues in the interpreter from the call (``deopt.DeoptPoints.after_call``).
"""
from __future__ import annotations

import builtins
import functools
import math

import llvmlite.ir as ir

from moshjit.backends.llvm import (arith, comparisons, containers, conversions, iterators, native_list_ops,
                                   native_lists, sequences, truth)
from moshjit.backends.llvm.layout import OB_SIZE
from moshjit.backends.llvm.cold_paths import is_builtin_exception
from moshjit.backends.llvm.native_types import ExceptionType, bind_arguments, normalize, python_callee
from moshjit.cpython import COMPENSATED_FLOAT_SUM, empty_min_max_message, zero_division_message
from moshjit.backends.llvm.reprs import (F64, I1, I32, I64, PTR, ArrayR, BoolR, FloatR, IntR, ListR, NListR, RangeR,
                                         UnitR, number_positions, repr_of)
from moshjit.ir import ops
from moshjit.ir.ops import Constant
from moshjit.ir.types import INT64_MIN, type_of_value

I128 = ir.IntType(128)


def _function_of(op) -> object:
    return op.func.value if isinstance(op.func, Constant) else None


def lower_call(low, op: ops.Call):
    target = _function_of(op)
    if target is None:
        low.not_native("calling a value that is not known when compiling")
    callee = python_callee(target)
    if callee is not None:
        return native_call(low, op, callee)
    if is_builtin_exception(target):
        if not isinstance(op.type, ExceptionType):
            low.not_native(f"{target.__name__}(...) with arguments other than one constant string")
        return ir.Constant(ir.IntType(8), 0)
    if target in iterators.ITERATOR_FUNCTIONS:
        return iterators.lower_iterator_call(low, op, target)
    handler = BUILTINS.get(target) if _hashable(target) else None
    if handler is None:
        handler = _math_handler(target)
    if handler is None:
        low.not_native(f"a call of {getattr(target, '__qualname__', target)!r}")
    if op.kwnames:
        low.not_native(f"{target.__name__}() with keyword arguments")
    return handler(low, op, op.args)


def _hashable(value) -> bool:
    try:
        hash(value)
        return True
    except TypeError:
        return False


# ---- native calls ---------------------------------------------------------------------------------------------
def native_call(low, op, callee) -> ir.Value:
    bound = bind_arguments(callee, op)
    if bound is None:
        low.not_native(f"a call of {callee.__qualname__} whose arguments do not bind statically")
    arg_types = tuple(normalize(v.type if not isinstance(v, Constant) else type_of_value(v.value)) for v in bound)
    found = low.symbols.get((callee, arg_types))
    if found is None:
        low.not_native(f"a call of {callee.__qualname__}{arg_types}")
    sig, function, index = found
    low.deopt.table.add_call(low.deopt.function, low.index[op], index)
    args = [conversions.coerce(low, low.get(v), low.repr(v), repr_of(t)) if not isinstance(v, Constant)
            else low.constant(v.value, repr_of(t)) for v, t in zip(bound, arg_types)]
    for position in number_positions(arg_types):     # the objects of the number arguments: the caller's, if any
        obj = low.object_of(bound[position], repr_of(arg_types[position]))
        args.append(ir.Constant(PTR, None) if obj is None else obj)
    reads = len(function.args) - len(args) - (1 if sig.recursive else 0)
    if reads:                       # the module globals the compiled function reads come after its arguments
        if sig is not low.sig:      # only the root reads them, read once by its entry: a call of itself has them
            low.not_native(f"a call of {callee.__qualname__}, which reads module globals, from another function")
        args.extend(low.function.args[len(args):len(args) + reads])
    if sig.recursive:               # the count the caller holds, or the running thread's
        args.append(low.recursion_count if low.recursion_count is not None
                    else low.rt.call(low.b, "mj_recursion_count"))
    pair = low.b.call(function, args)
    low.branch_unless(low.b.extract_value(pair, 1), low.deopt.after_call(op))
    if isinstance(low.reprs[op], UnitR):
        return ir.Constant(ir.IntType(8), 0)
    if repr_of(sig.return_type) == low.reprs[op]:
        low.origins[op] = _returned_origin(low, low.b.extract_value(pair, 2), bound, arg_types)
    return conversions.coerce(low, low.b.extract_value(pair, 0), repr_of(sig.return_type), low.reprs[op])


def _returned_origin(low, returned: ir.Value, bound: list, arg_types: tuple) -> ir.Value:
    """The caller's origin of a native call's result: the origin of the argument the callee says it returned
    (``returned``, its position there), as the caller passed it unchanged; -1 for a computed result."""
    origin = ir.Constant(I32, -1)
    for position, (value, kind) in enumerate(zip(bound, arg_types)):
        if isinstance(value, Constant):
            continue
        passed = low.origin(value, repr_of(kind))
        if not (isinstance(passed, ir.Constant) and passed.constant == -1):
            origin = low.b.select(low.b.icmp_signed("==", returned, ir.Constant(I32, position)), passed, origin)
    return origin


# ---- builtins --------------------------------------------------------------------------------------------------
def _args(low, args):
    return [(low.get(a), low.repr(a)) for a in args]


def _len(low, op, args):
    (value, representation), = _args(low, args)
    return truth.length_of(low, value, representation)


def _abs(low, op, args):
    (value, representation), = _args(low, args)
    if isinstance(representation, FloatR):
        return low.b.call(low.rt.intrinsic("llvm.fabs", [F64]), [value])
    value = conversions.to_int(low, value, representation)
    if not arith.proven(op):
        low.deoptimize_after(low.b.icmp_signed("==", value, ir.Constant(I64, INT64_MIN)), 2 ** 63, "literal")
    negative = low.b.icmp_signed("<", value, ir.Constant(I64, 0))
    return low.b.select(negative, low.b.sub(ir.Constant(I64, 0), value), value)


def _min_max(which: str):
    operator = "<" if which == "min" else ">"

    def lower(low, op, args):
        result_repr = low.reprs[op]
        if len(args) == 1:
            return _min_max_of_sequence(low, args[0], operator, which, result_repr)
        values = [conversions.coerce(low, v, r, result_repr) for v, r in _args(low, args)]
        best = values[0]
        for candidate in values[1:]:
            better = comparisons.compare_values(low, operator, candidate, result_repr, best, result_repr)
            best = low.b.select(better, candidate, best)
        return best
    return lower


def _min_max_of_sequence(low, sequence, operator, which, result_repr):
    b = low.b
    representation = low.repr(sequence)
    if not isinstance(result_repr, (IntR, FloatR, BoolR)):
        low.not_native(f"{which}() of {representation.describe()}")
    iterator = iterators.iterator_over(low, sequence, result_repr)
    best = low.alloca(result_repr.llvm)
    empty, loop, done = (low.new_block(f"{which}.{n}") for n in ("empty", "loop", "done"))
    item = iterator.next(low, empty)
    b.store(conversions.coerce(low, item, result_repr, result_repr), best)
    b.branch(loop)
    b.position_at_end(loop)
    candidate = iterator.next(low, done)
    current = b.load(best)
    better = comparisons.compare_values(low, operator, candidate, result_repr, current, result_repr)
    b.store(b.select(better, candidate, current), best)
    b.branch(loop)
    b.position_at_end(empty)
    iterator.release(low)
    low.rt.call(b, "mj_raise", low.rt.exception_type(b, ValueError),
                low.rt.cstring(empty_min_max_message(which)))
    b.branch(low.fail_block())
    b.position_at_end(done)
    iterator.release(low)
    return b.load(best)


def _sum(low, op, args):
    """sum() of ints accumulates in 128 bits, so only a final result beyond int64 leaves native code (the
    function continues in the interpreter with that total); floats add up in order, with Neumaier's compensation
    where CPython does it (3.12+, see ``moshjit.cpython``)."""
    b = low.b
    result_repr = low.reprs[op]
    item_repr = repr_of(normalize(_item_type(args[0])))
    is_float = isinstance(result_repr, FloatR)
    wide = F64 if is_float else I128
    iterator = iterators.iterator_over(low, args[0], item_repr)
    total = low.alloca(wide)
    compensation = low.alloca(F64) if is_float and COMPENSATED_FLOAT_SUM and isinstance(item_repr, FloatR) else None
    start = conversions.coerce(low, *(_args(low, args[1:])[0] if len(args) > 1 else (ir.Constant(I64, 0), IntR())),
                               result_repr)
    b.store(start if is_float else b.sext(start, I128), total)
    if compensation is not None:
        b.store(ir.Constant(F64, 0.0), compensation)
    loop, done = low.new_block("sum.loop"), low.new_block("sum.done")
    b.branch(loop)
    b.position_at_end(loop)
    item = iterator.next(low, done)
    current = b.load(total)
    if compensation is not None:
        _compensated_add(low, total, compensation, current, item)
    elif is_float:
        b.store(b.fadd(current, conversions.to_float(low, item, item_repr)), total)
    else:
        b.store(b.add(current, b.sext(conversions.to_int(low, item, item_repr), I128)), total)
    b.branch(loop)
    b.position_at_end(done)
    iterator.release(low)
    result = b.load(total)
    if compensation is not None:
        return _with_compensation(low, result, b.load(compensation))
    if is_float:
        return result
    narrow = b.trunc(result, I64)
    low.deoptimize_after(b.icmp_signed("!=", b.sext(narrow, I128), result), result, "i128")
    return narrow


def _compensated_add(low, total, compensation, current, x) -> None:
    """One step of CPython's float ``sum`` (3.12+): ``t = f + x``, and the rounding error of the bigger operand
    goes to the compensation term (NaNs take the ``else`` side, as C's ``>=`` is false for them)."""
    b = low.b
    fabs = low.rt.intrinsic("llvm.fabs", [F64])
    t = b.fadd(current, x)
    bigger_total = b.fcmp_ordered(">=", b.call(fabs, [current]), b.call(fabs, [x]))
    error = b.select(bigger_total, b.fadd(b.fsub(current, t), x), b.fadd(b.fsub(x, t), current))
    b.store(b.fadd(b.load(compensation), error), compensation)
    b.store(t, total)


def _with_compensation(low, result, c):
    """The final float sum: the compensation is added when it is non-zero and finite (no NaN from inf - inf)."""
    b = low.b
    finite = b.fcmp_ordered("<", b.call(low.rt.intrinsic("llvm.fabs", [F64]), [c]), ir.Constant(F64, math.inf))
    nonzero = b.fcmp_ordered("!=", c, ir.Constant(F64, 0.0))
    return b.select(b.and_(finite, nonzero), b.fadd(result, c), result)


def _item_type(value):
    from moshjit.primitives.signatures import item_type
    return item_type(value.type if not isinstance(value, Constant) else type_of_value(value.value))


def _int(low, op, args):
    if not args:
        return ir.Constant(I64, 0)
    (value, representation), = _args(low, args)
    if isinstance(representation, FloatR):
        return conversions.float_to_int(low, low.b.call(low.rt.intrinsic("llvm.trunc", [F64]), [value]))
    return conversions.to_int(low, value, representation)


def _float(low, op, args):
    if not args:
        return ir.Constant(F64, 0.0)
    (value, representation), = _args(low, args)
    return conversions.to_float(low, value, representation)


def _bool(low, op, args):
    if not args:
        return ir.Constant(I1, 0)
    return truth.truth(low, args[0])


def _round(low, op, args):
    (value, representation), = _args(low, args)
    if not isinstance(representation, FloatR):
        return conversions.to_int(low, value, representation)
    return conversions.float_to_int(low, low.b.call(low.rt.intrinsic("llvm.roundeven", [F64]), [value]))


def _divmod(low, op, args):
    (a, ar), (b_value, br) = _args(low, args)
    result = low.reprs[op]
    b = low.b
    if isinstance(result.items[0], IntR):
        x, y = conversions.to_int(low, a, ar), conversions.to_int(low, b_value, br)
        quotient = arith.int_floordiv(low, x, y)
        remainder = arith.int_mod(low, x, y, zero_division_message("int", "divmod"))
    else:
        x, y = conversions.to_float(low, a, ar), conversions.to_float(low, b_value, br)
        low.guard(b.fcmp_ordered("==", y, ir.Constant(F64, 0.0)), ZeroDivisionError,
                  zero_division_message("float", "divmod"))
        pair = b.call(arith.float_divmod_helper(low.rt), [x, y])
        quotient, remainder = b.extract_value(pair, 0), b.extract_value(pair, 1)
    value = ir.Constant(result.llvm, ir.Undefined)
    return b.insert_value(b.insert_value(value, quotient, 0), remainder, 1)


def _range(low, op, args):
    b = low.b
    values = [conversions.to_int(low, v, r) for v, r in _args(low, args)]
    if len(values) == 1:
        start, stop, step = ir.Constant(I64, 0), values[0], ir.Constant(I64, 1)
    elif len(values) == 2:
        (start, stop), step = values, ir.Constant(I64, 1)
    else:
        start, stop, step = values
        if not (isinstance(args[2], Constant) and args[2].value != 0):
            low.guard(b.icmp_signed("==", step, ir.Constant(I64, 0)), ValueError, "range() arg 3 must not be zero")
    result = ir.Constant(RangeR().llvm, ir.Undefined)
    for i, part in enumerate((start, stop, step)):
        result = b.insert_value(result, part, i)
    return result


def _list(low, op, args):
    if isinstance(low.reprs[op], NListR):
        return _native_list(low, op)
    b, rt = low.b, low.rt
    if not args:
        return low.guard_null(rt.call(b, "PyList_New", ir.Constant(I64, 0)))
    source = low.repr(args[0])
    value = low.get(args[0])
    if isinstance(source, ListR):
        return low.guard_null(rt.call(b, "PyList_GetSlice", value, ir.Constant(I64, 0),
                                      containers.object_size(low, value)))
    result = low.guard_null(rt.call(b, "PyList_New", ir.Constant(I64, 0)))
    target = low.reprs[op]
    iterator = iterators.iterator_over(low, args[0], target.item)
    loop, done = low.new_block("list.loop"), low.new_block("list.done")
    b.branch(loop)
    b.position_at_end(loop)
    item = iterator.next(low, done)
    boxed = containers.box(low, item, target.item, [(result, None)])
    low.guard_status(rt.call(b, "mj_list_append", result, boxed), [(result, None)])
    b.branch(loop)
    b.position_at_end(done)
    iterator.release(low)
    return result


def _native_list(low, op) -> ir.Value:
    """list(), list(range(...)), list(native list) giving a native list."""
    representation = low.reprs[op]
    if not op.args:
        return native_lists.new(low, ir.Constant(I64, 0), representation)
    if isinstance(low.repr(op.args[0]), NListR):
        return native_list_ops.copy(low, low.get(op.args[0]), representation)
    b = low.b
    result = native_lists.new(low, ir.Constant(I64, 0), representation)
    iterator = iterators.iterator_over(low, op.args[0], representation.item)
    loop, done = low.new_block("list.loop"), low.new_block("list.done")
    b.branch(loop)
    b.position_at_end(loop)
    item = iterator.next(low, done)
    size = native_lists.length(low, result)
    grown = b.add(size, ir.Constant(I64, 1))
    status = low.rt.call(b, "mj_nlist_reserve", result, grown, ir.Constant(I64, representation.item_size))
    low.guard_status(status, [(result, representation)])
    native_lists.store(low, result, size, item, representation)
    native_lists.set_length(low, result, grown)
    b.branch(loop)
    b.position_at_end(done)
    iterator.release(low)
    return result


BUILTINS = {
    builtins.len: _len,
    builtins.abs: _abs,
    builtins.min: _min_max("min"),
    builtins.max: _min_max("max"),
    builtins.sum: _sum,
    builtins.int: _int,
    builtins.float: _float,
    builtins.bool: _bool,
    builtins.round: _round,
    builtins.divmod: _divmod,
    builtins.range: _range,
    builtins.list: _list,
}


# ---- math ------------------------------------------------------------------------------------------------------
# name -> (libm symbol or intrinsic, can overflow); domain and range errors follow CPython's math_1
MATH_1 = {
    "sqrt": ("llvm.sqrt", False), "exp": ("exp", True), "exp2": ("exp2", True), "expm1": ("expm1", True),
    "log": ("log", False), "log2": ("log2", False), "log10": ("log10", False), "log1p": ("log1p", False),
    "sin": ("sin", False), "cos": ("cos", False), "tan": ("tan", False), "asin": ("asin", False),
    "acos": ("acos", False), "atan": ("atan", False), "sinh": ("sinh", True), "cosh": ("cosh", True),
    "tanh": ("tanh", False), "asinh": ("asinh", False), "acosh": ("acosh", False), "atanh": ("atanh", False),
    "erf": ("erf", False), "erfc": ("erfc", False), "cbrt": ("cbrt", False), "fabs": ("llvm.fabs", False),
}


def _math_handler(target):
    if getattr(target, "__module__", None) != "math" or getattr(math, target.__name__, None) is not target:
        return None
    name = target.__name__
    if name in MATH_1:
        symbol, can_overflow = MATH_1[name]
        if name == "log":
            return _math_log
        return functools.partial(_math_1, symbol=symbol, can_overflow=can_overflow)
    return {"floor": _math_round("llvm.floor"), "ceil": _math_round("llvm.ceil"), "trunc": _math_round("llvm.trunc"),
            "isnan": _math_test("isnan"), "isinf": _math_test("isinf"), "isfinite": _math_test("isfinite"),
            "copysign": _math_copysign, "atan2": _math_atan2, "fmod": _math_fmod, "pow": _math_pow,
            "degrees": _math_scale(180.0 / math.pi), "radians": _math_scale(math.pi / 180.0),
            "gcd": _math_gcd}.get(name)


def _float_arg(low, value) -> ir.Value:
    return conversions.to_float(low, low.get(value), low.repr(value))


def _libm(low, symbol, arity=1):
    if symbol.startswith("llvm."):
        return low.rt.intrinsic(symbol, [F64])
    return low.rt.libm(symbol, arity)


def _is_nan(b, x):
    return b.fcmp_unordered("uno", x, x)


def _is_finite(low, x):
    fabs = low.rt.intrinsic("llvm.fabs", [F64])
    return low.b.fcmp_ordered("<", low.b.call(fabs, [x]), ir.Constant(F64, float("inf")))


def _is_inf(low, x):
    fabs = low.rt.intrinsic("llvm.fabs", [F64])
    return low.b.fcmp_ordered("==", low.b.call(fabs, [x]), ir.Constant(F64, float("inf")))


def math_1_checks(low, x, r, can_overflow: bool) -> None:
    b = low.b
    low.guard(b.and_(_is_nan(b, r), b.xor(_is_nan(b, x), ir.Constant(I1, 1))), ValueError, "math domain error")
    range_error = b.and_(_is_inf(low, r), _is_finite(low, x))
    if can_overflow:
        low.guard(range_error, OverflowError, "math range error")
    else:
        low.guard(range_error, ValueError, "math domain error")


def _math_1(low, op, args, symbol, can_overflow):
    x = _float_arg(low, args[0])
    r = low.b.call(_libm(low, symbol), [x])
    math_1_checks(low, x, r, can_overflow)
    return r


def _math_log(low, op, args):
    def log_of(value):
        x = _float_arg(low, value)
        r = low.b.call(_libm(low, "log"), [x])
        math_1_checks(low, x, r, False)
        return r
    if len(args) == 1:
        return log_of(args[0])
    numerator, denominator = log_of(args[0]), log_of(args[1])
    return arith.float_binary(low, "/", numerator, denominator)


def _math_round(symbol):
    def lower(low, op, args):
        (value, representation), = _args(low, args)
        if not isinstance(representation, FloatR):
            return conversions.to_int(low, value, representation)
        return conversions.float_to_int(low, low.b.call(low.rt.intrinsic(symbol, [F64]), [value]))
    return lower


def _math_test(which):
    def lower(low, op, args):
        x = _float_arg(low, args[0])
        if which == "isnan":
            return _is_nan(low.b, x)
        if which == "isinf":
            return _is_inf(low, x)
        return _is_finite(low, x)
    return lower


def _math_copysign(low, op, args):
    return low.b.call(low.rt.intrinsic("llvm.copysign", [F64]), [_float_arg(low, args[0]), _float_arg(low, args[1])])


def math_2_checks(low, x, y, r) -> None:
    b = low.b
    not_nan = lambda v: b.xor(_is_nan(b, v), ir.Constant(I1, 1))
    low.guard(b.and_(_is_nan(b, r), b.and_(not_nan(x), not_nan(y))), ValueError, "math domain error")
    low.guard(b.and_(_is_inf(low, r), b.and_(_is_finite(low, x), _is_finite(low, y))), OverflowError,
              "math range error")


def _math_atan2(low, op, args):
    y, x = _float_arg(low, args[0]), _float_arg(low, args[1])
    r = low.b.call(low.rt.libm("atan2", 2), [y, x])
    math_2_checks(low, y, x, r)
    return r


def _math_fmod(low, op, args):
    b = low.b
    x, y = _float_arg(low, args[0]), _float_arg(low, args[1])
    r = b.frem(x, y)
    both = b.and_(b.xor(_is_nan(b, x), ir.Constant(I1, 1)), b.xor(_is_nan(b, y), ir.Constant(I1, 1)))
    low.guard(b.and_(_is_nan(b, r), both), ValueError, "math domain error")
    return b.select(b.and_(_is_inf(low, y), _is_finite(low, x)), x, r)


def _math_pow(low, op, args):
    """math.pow: special cases for non-finite arguments, then libm pow with CPython's error mapping."""
    b = low.b
    x, y = _float_arg(low, args[0]), _float_arg(low, args[1])
    special = b.call(math_pow_special_helper(low.rt), [x, y])
    finite = b.and_(_is_finite(low, x), _is_finite(low, y))
    r = b.call(low.rt.libm("pow", 2), [x, y])
    domain = b.or_(_is_nan(b, r), b.and_(_is_inf(low, r), b.fcmp_ordered("==", x, ir.Constant(F64, 0.0))))
    low.guard(b.and_(finite, domain), ValueError, "math domain error")
    low.guard(b.and_(finite, _is_inf(low, r)), OverflowError, "math range error")
    return b.select(finite, r, special)


def math_pow_special_helper(rt) -> ir.Function:
    def build(b, x, y):
        fabs = rt.intrinsic("llvm.fabs", [F64])
        copysign = rt.intrinsic("llvm.copysign", [F64])
        one, zero = ir.Constant(F64, 1.0), ir.Constant(F64, 0.0)
        inf = ir.Constant(F64, float("inf"))
        nan = lambda v: b.fcmp_unordered("uno", v, v)
        is_inf = lambda v: b.fcmp_ordered("==", b.call(fabs, [v]), inf)
        odd_y = b.and_(b.fcmp_ordered("<", b.call(fabs, [y]), inf),
                       b.fcmp_ordered("==", b.frem(b.call(fabs, [y]), ir.Constant(F64, 2.0)), one))
        inf_x = b.select(b.fcmp_ordered(">", y, zero), b.select(odd_y, x, b.call(fabs, [x])),
                         b.select(b.fcmp_ordered("==", y, zero), one,
                                  b.select(odd_y, b.call(copysign, [zero, x]), zero)))
        ax = b.call(fabs, [x])
        inf_y = b.select(b.fcmp_ordered("==", ax, one), one,
                         b.select(b.and_(b.fcmp_ordered(">", y, zero), b.fcmp_ordered(">", ax, one)), y,
                                  b.select(b.and_(b.fcmp_ordered("<", y, zero), b.fcmp_ordered("<", ax, one)),
                                           b.fneg(y), zero)))
        result = b.select(is_inf(y), inf_y, inf_x)
        result = b.select(nan(y), b.select(b.fcmp_ordered("==", x, one), one, y), result)
        result = b.select(nan(x), b.select(b.fcmp_ordered("==", y, zero), one, x), result)
        b.ret(result)
    return rt.helper("mj_math_pow_special", ir.FunctionType(F64, [F64, F64]), build)


def _math_scale(factor):
    def lower(low, op, args):
        return low.b.fmul(_float_arg(low, args[0]), ir.Constant(F64, factor))
    return lower


def _math_gcd(low, op, args):
    """gcd of the magnitudes as unsigned 64-bit ints (|INT64_MIN| fits); only a result of 2**63 deoptimises."""
    b = low.b
    values = [conversions.to_int(low, v, r) for v, r in _args(low, args)]
    if not values:
        return ir.Constant(I64, 0)
    magnitude = lambda v: b.select(b.icmp_signed("<", v, ir.Constant(I64, 0)), b.sub(ir.Constant(I64, 0), v), v)
    result = magnitude(values[0])
    for value in values[1:]:
        result = b.call(gcd_helper(low.rt), [result, magnitude(value)])
    low.deoptimize_if(b.icmp_signed("<", result, ir.Constant(I64, 0)))
    return result


def gcd_helper(rt) -> ir.Function:
    def build(b, x, y):
        f = b.function
        entry = b.block
        loop, body, done = f.append_basic_block("loop"), f.append_basic_block("body"), f.append_basic_block("done")
        b.branch(loop)
        b.position_at_end(loop)
        a = b.phi(I64)
        c = b.phi(I64)
        a.add_incoming(x, entry)
        c.add_incoming(y, entry)
        b.cbranch(b.icmp_signed("==", c, ir.Constant(I64, 0)), done, body)
        b.position_at_end(body)
        a.add_incoming(c, body)
        c.add_incoming(b.urem(a, c), body)
        b.branch(loop)
        b.position_at_end(done)
        b.ret(a)
    return rt.helper("mj_gcd", ir.FunctionType(I64, [I64, I64]), build)


# ---- methods ---------------------------------------------------------------------------------------------------
def lower_call_method(low, op: ops.CallMethod):
    receiver = low.repr(op.obj)
    if isinstance(receiver, NListR) and not op.kwnames:
        return native_list_ops.method(low, op, low.get(op.obj), receiver)
    if op.kwnames or not isinstance(receiver, ListR):
        low.not_native(f"method {op.name}() of {receiver.describe()}")
    handler = LIST_METHODS.get(op.name)
    if handler is None:
        low.not_native(f"list.{op.name}()")
    return handler(low, op, low.get(op.obj), receiver)


def _append(low, op, lst, receiver):
    if len(op.args) != 1:
        low.not_native("list.append() with other than one argument")
    item_repr = low.repr(op.args[0])
    containers.check_item_kind(low, receiver, item_repr)
    boxed = containers.box_value(low, op.args[0], item_repr)
    low.guard_status(low.rt.call(low.b, "mj_list_append", lst, boxed))


def _pop(low, op, lst, receiver):
    b, rt = low.b, low.rt
    if receiver.item is None or len(op.args) > 1:
        low.not_native("list.pop() here")
    size = containers.object_size(low, lst)
    if not op.args:
        low.guard(b.icmp_signed("==", size, ir.Constant(I64, 0)), IndexError, "pop from empty list")
        index = b.sub(size, ir.Constant(I64, 1))
        item = rt.call(b, "mj_list_item", lst, index)
        b.store(index, b.gep(lst, [ir.Constant(I64, OB_SIZE)], source_etype=ir.IntType(8)))
    else:
        low.guard(b.icmp_signed("==", size, ir.Constant(I64, 0)), IndexError, "pop from empty list")
        index = containers.normalize_index(low, conversions.operand_int(low, op.args[0]), size,
                                           "pop index out of range")
        item = rt.call(b, "mj_list_item", lst, index)
        rt.call(b, "mj_incref", item)
        low.guard_status(rt.call(b, "PyList_SetSlice", lst, index, b.add(index, ir.Constant(I64, 1)),
                                 ir.Constant(PTR, None)), [(item, None)])
    value = containers.unbox_item(low, item, receiver.item)
    rt.call(b, "mj_decref", item)
    return value


def _extend(low, op, lst, receiver):
    if len(op.args) != 1:
        low.not_native("list.extend() with other than one argument")
    sequences.extend(low, op.obj, op.args[0])


def _insert(low, op, lst, receiver):
    b, rt = low.b, low.rt
    index, item = op.args
    item_repr = low.repr(item)
    containers.check_item_kind(low, receiver, item_repr)
    boxed = containers.box_value(low, item, item_repr)
    status = rt.call(b, "PyList_Insert", lst, conversions.operand_int(low, index), boxed)
    rt.call(b, "mj_decref", boxed)
    low.guard_status(status)


def _reverse(low, op, lst, receiver):
    low.guard_status(low.rt.call(low.b, "PyList_Reverse", lst))


def _sort(low, op, lst, receiver):
    if op.args:
        low.not_native("list.sort() with arguments")
    low.guard_status(low.rt.call(low.b, "PyList_Sort", lst))


def _clear(low, op, lst, receiver):
    low.guard_status(low.rt.call(low.b, "PyList_SetSlice", lst, ir.Constant(I64, 0),
                                 containers.object_size(low, lst), ir.Constant(PTR, None)))


def _copy(low, op, lst, receiver):
    return low.guard_null(low.rt.call(low.b, "PyList_GetSlice", lst, ir.Constant(I64, 0),
                                      containers.object_size(low, lst)))


def _count(low, op, lst, receiver):
    b = low.b
    if not isinstance(receiver.item, (IntR, BoolR)) or len(op.args) != 1:
        low.not_native("list.count() here")
    item, item_repr = low.get(op.args[0]), low.repr(op.args[0])
    total = low.alloca(I64)
    b.store(ir.Constant(I64, 0), total)
    with containers.counted_loop(low, containers.object_size(low, lst)) as i:
        candidate = containers.unbox_item(low, low.rt.call(b, "mj_list_item", lst, i), receiver.item)
        hit = comparisons.compare_values(low, "==", candidate, receiver.item, item, item_repr)
        b.store(b.add(b.load(total), b.zext(hit, I64)), total)
    return b.load(total)


LIST_METHODS = {"append": _append, "pop": _pop, "extend": _extend, "insert": _insert, "reverse": _reverse,
                "sort": _sort, "clear": _clear, "copy": _copy, "count": _count}


# ---- attributes and raise --------------------------------------------------------------------------------------
def lower_load_attr(low, op: ops.LoadAttr):
    if isinstance(op.obj, Constant) and op.obj.value is math and op.name in ("pi", "e", "tau", "inf", "nan"):
        return ir.Constant(F64, getattr(math, op.name))
    receiver = low.repr(op.obj)
    if isinstance(receiver, ArrayR):
        value = low.get(op.obj)
        b = low.b
        if op.name == "shape":
            shape = ir.Constant(low.reprs[op].llvm, ir.Undefined)
            for axis in range(receiver.ndim):
                shape = b.insert_value(shape, b.extract_value(value, axis + 1), axis)
            return shape
        if op.name == "ndim":
            return ir.Constant(I64, receiver.ndim)
        if op.name == "size":
            size = b.extract_value(value, 1)
            return size if receiver.ndim == 1 else b.mul(size, b.extract_value(value, 2))
    low.not_native(f"attribute '{op.name}' of {receiver.describe()}")


def lower_raise(low, term: ops.Raise) -> None:
    """raise of a builtin exception class or instance made from a constant message."""
    if term.exc is None:
        low.not_native("a bare 'raise'")
    if term.cause is not None and not (isinstance(term.cause, Constant) and term.cause.value is None):
        low.not_native("'raise ... from ...'")
    exc = term.exc
    if isinstance(exc, Constant) and is_builtin_exception(exc.value):
        cls, args = exc.value, ()
    elif isinstance(getattr(exc, "type", None), ExceptionType):
        cls, args = exc.type.cls, exc.type.args
    else:
        low.not_native("raising something other than a builtin exception with a constant message")
    if not exception_symbol_exists(cls):
        low.not_native(f"raising {cls.__name__}")
    b, rt = low.b, low.rt
    kind = rt.exception_type(b, cls)
    if args:
        rt.call(b, "mj_raise", kind, rt.cstring(args[0]))
    else:
        rt.call(b, "PyErr_SetNone", kind)
    b.branch(low.fail_block())


@functools.lru_cache(maxsize=None)
def exception_symbol_exists(cls) -> bool:
    import ctypes
    try:
        getattr(ctypes.pythonapi, f"PyExc_{cls.__name__}")
    except AttributeError:
        return False
    return True


OPS = {
    ops.Call: lower_call,
    ops.CallMethod: lower_call_method,
    ops.LoadAttr: lower_load_attr,
}

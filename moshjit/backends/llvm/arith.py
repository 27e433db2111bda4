"""Numbers with CPython's semantics: checked int64 arithmetic, floor division and modulo, true division, powers,
shifts and ``not``, with CPython's exception messages.

An int op whose result type was proven to fit in int64 (typeinfer's intervals) is emitted without a check;
otherwise a result beyond 64 bits deoptimises: the function continues in the interpreter from that op, with
Python's ints (never a wrapped value, never an error CPython would not raise). Float ``//``, ``%`` and ``**``
follow ``float_floor_div``, ``float_rem`` and ``float_pow`` of CPython 3.11 step by step; a negative float to a
fractional power, a complex number in CPython, deoptimises too.
"""
from __future__ import annotations

import llvmlite.ir as ir

from moshjit.backends.llvm.conversions import operand_float, operand_int
from moshjit.backends.llvm.reprs import F64, I1, I32, I64, BoolR, FloatR, IntR, ListR
from moshjit.backends.llvm.truth import truth
from moshjit.cpython import zero_division_message
from moshjit.ir import ops
from moshjit.ir.ops import UNDEFINED, Phi
from moshjit.ir.types import INT64_MAX, INT64_MIN, IntType


# ---- binary operators --------------------------------------------------------------------------------------------
def lower_binary(low, op: ops.BinaryOp) -> ir.Value:
    """Operators on numbers (``lower`` sends those on lists and tuples elsewhere)."""
    left, right = low.repr(op.left), low.repr(op.right)
    result = low.reprs[op]
    if isinstance(result, BoolR):
        a, b = low.get(op.left), low.get(op.right)
        return {"&": low.b.and_, "|": low.b.or_, "^": low.b.xor}[op.op](a, b)
    if isinstance(result, IntR):
        return int_binary(low, op.op, operand_int(low, op.left), operand_int(low, op.right), proven(op))
    if isinstance(result, FloatR):
        if op.op == "/" and isinstance(left, (IntR, BoolR)) and isinstance(right, (IntR, BoolR)):
            return int_true_divide(low, operand_int(low, op.left), operand_int(low, op.right))
        return float_binary(low, op.op, operand_float(low, op.left), operand_float(low, op.right))
    low.not_native(f"'{op.op}' giving {result.describe()}")


def proven(op) -> bool:
    """Whether the op's result was proven to fit in int64 (so the overflow check can go)."""
    return isinstance(op.type, IntType) and op.type.fits_int64


def int_binary(low, operator: str, a: ir.Value, b: ir.Value, safe: bool) -> ir.Value:
    builder = low.b
    if operator in ("+", "-", "*"):
        if safe:
            return {"+": builder.add, "-": builder.sub, "*": builder.mul}[operator](a, b, flags=["nsw"])
        bounds = _constant_operand_bounds(operator, a, b)
        if bounds is not None:      # x op constant: a range check on x, and nsw arithmetic LLVM can reason about
            variable, (lowest, highest) = bounds
            if (lowest, highest) != (INT64_MIN, INT64_MAX):
                offset = builder.sub(variable, ir.Constant(I64, lowest))
                low.deoptimize_if(builder.icmp_unsigned(">", offset, ir.Constant(I64, _as_signed(highest - lowest))))
            return {"+": builder.add, "-": builder.sub, "*": builder.mul}[operator](a, b, flags=["nsw"])
        checked = {"+": builder.sadd_with_overflow, "-": builder.ssub_with_overflow,
                   "*": builder.smul_with_overflow}[operator](a, b)
        overflowed, wrapped = builder.extract_value(checked, 1), builder.extract_value(checked, 0)
        if operator == "*":
            low.deoptimize_if(overflowed)
        else:                       # the exact sum is the wrapped one -+ 2**64: the operands need not stay alive
            low.deoptimize_after(overflowed, wrapped, "wrapped")
        return wrapped
    if operator == "//":
        return int_floordiv(low, a, b, safe, exact_after=True)
    if operator == "%":
        return int_mod(low, a, b)
    if operator == "**":
        return int_power(low, a, b)
    if operator == "&":
        return builder.and_(a, b)
    if operator == "|":
        return builder.or_(a, b)
    if operator == "^":
        return builder.xor(a, b)
    if operator == "<<":
        return int_lshift(low, a, b)
    if operator == ">>":
        return int_rshift(low, a, b)
    low.not_native(f"int '{operator}'")


def _constant_operand_bounds(operator: str, a, b):
    """(the variable operand, (lowest, highest) value it may have so that the result fits in 64 bits) for
    ``x + c``, ``c + x``, ``x - c``, ``x * c`` and ``c * x`` with an int constant ``c``; None otherwise."""
    if isinstance(a, ir.Constant) == isinstance(b, ir.Constant) or operator == "-" and isinstance(a, ir.Constant):
        return None
    variable, c = (b, a.constant) if isinstance(a, ir.Constant) else (a, b.constant)
    if operator == "*":
        if c == 0:
            return variable, (INT64_MIN, INT64_MAX)
        ends = (INT64_MIN, INT64_MAX) if c > 0 else (INT64_MAX, INT64_MIN)
        lowest, highest = -((-ends[0]) // c), ends[1] // c          # ceil and floor of the ends divided by c
    else:
        step = c if operator == "+" else -c
        lowest, highest = INT64_MIN - step, INT64_MAX - step
    return variable, (max(lowest, INT64_MIN), min(highest, INT64_MAX))


def _as_signed(value: int) -> int:
    """An unsigned 64-bit constant as the signed one LLVM takes."""
    return value - (1 << 64) if value >= 1 << 63 else value


def int_floordiv(low, a, b, safe=False, exact_after=False) -> ir.Value:
    """a // b; the one overflow, INT64_MIN // -1, deoptimises: after the op with its value 2**63 when the op
    is this division (``exact_after``), else at the op."""
    builder = low.b
    zero = ir.Constant(I64, 0)
    low.guard(builder.icmp_signed("==", b, zero), ZeroDivisionError, zero_division_message("int", "//"))
    if not safe and not (isinstance(b, ir.Constant) and b.constant != -1):
        overflowed = builder.and_(builder.icmp_signed("==", a, ir.Constant(I64, INT64_MIN)),
                                  builder.icmp_signed("==", b, ir.Constant(I64, -1)))
        if exact_after:
            low.deoptimize_after(overflowed, 2 ** 63, "literal")
        else:
            low.deoptimize_if(overflowed)
    quotient = builder.sdiv(a, b)
    remainder = builder.srem(a, b)
    adjust = builder.and_(builder.icmp_signed("!=", remainder, zero),
                          builder.icmp_signed("<", builder.xor(remainder, b), zero))
    return builder.sub(quotient, builder.zext(adjust, I64))


def int_mod(low, a, b, message=None) -> ir.Value:
    builder = low.b
    message = message or zero_division_message("int", "%")
    zero = ir.Constant(I64, 0)
    low.guard(builder.icmp_signed("==", b, zero), ZeroDivisionError, message)
    divisor = builder.select(builder.icmp_signed("==", b, ir.Constant(I64, -1)), ir.Constant(I64, 1), b)
    remainder = builder.srem(a, divisor)
    adjust = builder.and_(builder.icmp_signed("!=", remainder, zero),
                          builder.icmp_signed("<", builder.xor(remainder, b), zero))
    return builder.select(adjust, builder.add(remainder, b), remainder)


def int_power(low, base, exponent) -> ir.Value:
    """base ** exponent for a non-negative exponent (type inference only types that case as an int)."""
    pair = low.b.call(int_power_helper(low.rt), [base, exponent])
    low.deoptimize_if(low.b.extract_value(pair, 1))
    return low.b.extract_value(pair, 0)


def int_power_helper(rt) -> ir.Function:
    def build(b, base, exponent):
        f = b.function
        loop, odd, step, square, done = (f.append_basic_block(n) for n in ("loop", "odd", "step", "square", "done"))
        overflow = f.append_basic_block("overflow")
        entry = b.block
        b.branch(loop)
        b.position_at_end(loop)
        result = b.phi(I64)
        power = b.phi(I64)
        remaining = b.phi(I64)
        result.add_incoming(ir.Constant(I64, 1), entry)
        power.add_incoming(base, entry)
        remaining.add_incoming(exponent, entry)
        b.cbranch(b.icmp_signed("==", remaining, ir.Constant(I64, 0)), done, odd)
        b.position_at_end(odd)
        is_odd = b.trunc(remaining, I1)
        product = b.smul_with_overflow(result, power)
        bad = b.and_(is_odd, b.extract_value(product, 1))
        new_result = b.select(is_odd, b.extract_value(product, 0), result)
        b.cbranch(bad, overflow, step)
        b.position_at_end(step)
        shifted = b.lshr(remaining, ir.Constant(I64, 1))
        b.cbranch(b.icmp_signed("==", shifted, ir.Constant(I64, 0)), done, square)
        b.position_at_end(square)
        squared = b.smul_with_overflow(power, power)
        result.add_incoming(new_result, square)
        power.add_incoming(b.extract_value(squared, 0), square)
        remaining.add_incoming(shifted, square)
        b.cbranch(b.extract_value(squared, 1), overflow, loop)
        b.position_at_end(done)
        final = b.phi(I64)
        final.add_incoming(result, loop)
        final.add_incoming(new_result, step)
        pair = ir.Constant(b.function.return_value.type, ir.Undefined)
        pair = b.insert_value(pair, final, 0)
        b.ret(b.insert_value(pair, ir.Constant(I1, 0), 1))
        b.position_at_end(overflow)
        b.ret(b.insert_value(ir.Constant(b.function.return_value.type, ir.Undefined), ir.Constant(I1, 1), 1))
    return rt.helper("mj_int_pow", ir.FunctionType(ir.LiteralStructType([I64, I1]), [I64, I64]), build)


def int_lshift(low, a, b) -> ir.Value:
    builder = low.b
    zero = ir.Constant(I64, 0)
    low.guard(builder.icmp_signed("<", b, zero), ValueError, "negative shift count")
    count = builder.select(builder.icmp_signed(">", b, ir.Constant(I64, 63)), ir.Constant(I64, 63), b)
    shifted = builder.shl(a, count)
    lost = builder.or_(builder.icmp_signed("!=", builder.ashr(shifted, count), a),
                       builder.icmp_signed(">", b, ir.Constant(I64, 63)))
    low.deoptimize_if(builder.and_(lost, builder.icmp_signed("!=", a, zero)))
    return builder.select(builder.icmp_signed("==", a, zero), zero, shifted)


def int_rshift(low, a, b) -> ir.Value:
    builder = low.b
    low.guard(builder.icmp_signed("<", b, ir.Constant(I64, 0)), ValueError, "negative shift count")
    count = builder.select(builder.icmp_signed(">", b, ir.Constant(I64, 63)), ir.Constant(I64, 63), b)
    return builder.ashr(a, count)


def int_true_divide(low, a, b) -> ir.Value:
    """a / b for ints: exact in doubles when both are below 2**53, else CPython's correctly rounded division."""
    builder = low.b
    low.guard(builder.icmp_signed("==", b, ir.Constant(I64, 0)), ZeroDivisionError,
              zero_division_message("int", "/"))
    limit = ir.Constant(I64, 2 ** 53)
    small = builder.and_(_abs_le(builder, a, limit), _abs_le(builder, b, limit))
    fast_block, slow_block, done = low.new_block("div.fast"), low.new_block("div.slow"), low.new_block("div.done")
    builder.cbranch(small, fast_block, slow_block)
    builder.position_at_end(fast_block)
    fast = builder.fdiv(builder.sitofp(a, F64), builder.sitofp(b, F64))
    builder.branch(done)
    builder.position_at_end(slow_block)
    boxed_a = low.guard_null(low.rt.call(builder, "PyLong_FromLongLong", a))
    boxed_b = low.guard_null(low.rt.call(builder, "PyLong_FromLongLong", b), [(boxed_a, ListR(None))])
    quotient = low.rt.call(builder, "PyNumber_TrueDivide", boxed_a, boxed_b)
    low.rt.call(builder, "mj_decref", boxed_a)
    low.rt.call(builder, "mj_decref", boxed_b)
    low.guard_null(quotient)
    slow = low.rt.call(builder, "mj_unbox_float", quotient)
    low.rt.call(builder, "mj_decref", quotient)
    slow_end = builder.block
    builder.branch(done)
    builder.position_at_end(done)
    result = builder.phi(F64)
    result.add_incoming(fast, fast_block)
    result.add_incoming(slow, slow_end)
    return result


def _abs_le(builder, x, limit) -> ir.Value:
    """|x| <= limit without overflow for INT64_MIN."""
    return builder.and_(builder.icmp_signed("<=", x, limit), builder.icmp_signed(">=", x, builder.neg(limit)))


# ---- floats ----------------------------------------------------------------------------------------------------
def float_binary(low, operator: str, a: ir.Value, b: ir.Value) -> ir.Value:
    builder = low.b
    zero = ir.Constant(F64, 0.0)
    if operator == "+":
        return builder.fadd(a, b)
    if operator == "-":
        return builder.fsub(a, b)
    if operator == "*":
        return builder.fmul(a, b)
    if operator == "/":
        low.guard(builder.fcmp_ordered("==", b, zero), ZeroDivisionError, zero_division_message("float", "/"))
        return builder.fdiv(a, b)
    if operator == "//":
        low.guard(builder.fcmp_ordered("==", b, zero), ZeroDivisionError,
                  zero_division_message("float", "//"))
        return builder.extract_value(builder.call(float_divmod_helper(low.rt), [a, b]), 0)
    if operator == "%":
        low.guard(builder.fcmp_ordered("==", b, zero), ZeroDivisionError, zero_division_message("float", "%"))
        return float_mod(low, a, b)
    if operator == "**":
        return float_power(low, a, b)
    low.not_native(f"float '{operator}'")


def float_mod(low, a, b) -> ir.Value:
    """CPython's float_rem: fmod, then the sign of the divisor."""
    builder = low.b
    zero = ir.Constant(F64, 0.0)
    mod = builder.frem(a, b)
    nonzero = builder.fcmp_unordered("!=", mod, zero)
    signs_differ = builder.xor(builder.fcmp_ordered("<", b, zero), builder.fcmp_ordered("<", mod, zero))
    adjusted = builder.select(signs_differ, builder.fadd(mod, b), mod)
    signed_zero = builder.call(low.rt.intrinsic("llvm.copysign", [F64]), [zero, b])
    return builder.select(nonzero, adjusted, signed_zero)


def float_divmod_helper(rt) -> ir.Function:
    """CPython's _float_div_mod: (floor quotient, modulo) of a nonzero divisor."""
    def build(b, vx, wx):
        zero = ir.Constant(F64, 0.0)
        copysign = rt.intrinsic("llvm.copysign", [F64])
        floor = rt.intrinsic("llvm.floor", [F64])
        mod = b.frem(vx, wx)
        div = b.fdiv(b.fsub(vx, mod), wx)
        nonzero = b.fcmp_unordered("!=", mod, zero)
        signs_differ = b.xor(b.fcmp_ordered("<", wx, zero), b.fcmp_ordered("<", mod, zero))
        fix = b.and_(nonzero, signs_differ)
        mod = b.select(fix, b.fadd(mod, wx), mod)
        div = b.select(fix, b.fsub(div, ir.Constant(F64, 1.0)), div)
        mod = b.select(nonzero, mod, b.call(copysign, [zero, wx]))
        floored = b.call(floor, [div])
        snapped = b.select(b.fcmp_ordered(">", b.fsub(div, floored), ir.Constant(F64, 0.5)),
                           b.fadd(floored, ir.Constant(F64, 1.0)), floored)
        zero_quotient = b.call(copysign, [zero, b.fdiv(vx, wx)])
        quotient = b.select(b.fcmp_unordered("!=", div, zero), snapped, zero_quotient)
        pair = ir.Constant(ir.LiteralStructType([F64, F64]), ir.Undefined)
        b.ret(b.insert_value(b.insert_value(pair, quotient, 0), mod, 1))
    return rt.helper("mj_float_divmod", ir.FunctionType(ir.LiteralStructType([F64, F64]), [F64, F64]), build)


POW_OK, POW_ZERO_NEGATIVE, POW_COMPLEX, POW_OVERFLOW = 0, 1, 2, 3


def float_power(low, a, b) -> ir.Value:
    builder = low.b
    pair = builder.call(float_power_helper(low.rt), [a, b])
    code = builder.extract_value(pair, 1)
    low.guard(builder.icmp_signed("==", code, ir.Constant(I32, POW_ZERO_NEGATIVE)), ZeroDivisionError,
              "0.0 cannot be raised to a negative power")
    low.deoptimize_if(builder.icmp_signed("==", code, ir.Constant(I32, POW_COMPLEX)))      # a complex result
    overflow_block = low.new_block("pow.overflow")
    low.branch_unless(builder.icmp_signed("==", code, ir.Constant(I32, POW_OVERFLOW)), overflow_block)
    saved = builder.block
    builder.position_at_end(overflow_block)
    errno = low.rt.call(builder, "__errno_location")
    builder.store(ir.Constant(ir.IntType(32), 34), errno)            # ERANGE, as float_pow reports it
    low.rt.call(builder, "PyErr_SetFromErrno", low.rt.exception_type(builder, OverflowError))
    builder.branch(low.fail_block())
    builder.position_at_end(saved)
    return builder.extract_value(pair, 0)


def float_power_helper(rt) -> ir.Function:
    """CPython 3.11's float_pow special cases, then libm pow; returns (result, status code)."""
    def build(b, iv, iw):
        f = b.function
        kind = f.return_value.type
        fabs = rt.intrinsic("llvm.fabs", [F64])
        copysign = rt.intrinsic("llvm.copysign", [F64])
        floor = rt.intrinsic("llvm.floor", [F64])
        zero, one, inf = ir.Constant(F64, 0.0), ir.Constant(F64, 1.0), ir.Constant(F64, float("inf"))

        def give(value, code=POW_OK):
            pair = b.insert_value(ir.Constant(kind, ir.Undefined), value, 0)
            b.ret(b.insert_value(pair, ir.Constant(I32, code), 1))

        def when(cond, then):
            yes, no = f.append_basic_block(), f.append_basic_block()
            b.cbranch(cond, yes, no)
            b.position_at_end(yes)
            then()
            b.position_at_end(no)

        def is_odd_integer(x):
            return b.fcmp_ordered("==", b.frem(b.call(fabs, [x]), ir.Constant(F64, 2.0)), one)

        when(b.fcmp_ordered("==", iw, zero), lambda: give(one))
        when(b.fcmp_unordered("uno", iv, iv), lambda: give(iv))
        when(b.fcmp_unordered("uno", iw, iw),
             lambda: give(b.select(b.fcmp_ordered("==", iv, one), one, iw)))

        def infinite_exponent():
            a = b.call(fabs, [iv])
            when(b.fcmp_ordered("==", a, one), lambda: give(one))
            same = b.icmp_unsigned("==", b.fcmp_ordered(">", iw, zero), b.fcmp_ordered(">", a, one))
            give(b.select(same, b.call(fabs, [iw]), zero))
        when(b.fcmp_ordered("==", b.call(fabs, [iw]), inf), infinite_exponent)

        def infinite_base():
            odd = is_odd_integer(iw)
            positive = b.select(odd, iv, b.call(fabs, [iv]))
            negative = b.select(odd, b.call(copysign, [zero, iv]), zero)
            give(b.select(b.fcmp_ordered(">", iw, zero), positive, negative))
        when(b.fcmp_ordered("==", b.call(fabs, [iv]), inf), infinite_base)

        def zero_base():
            when(b.fcmp_ordered("<", iw, zero), lambda: give(zero, POW_ZERO_NEGATIVE))
            give(b.select(is_odd_integer(iw), iv, zero))
        when(b.fcmp_ordered("==", iv, zero), zero_base)

        negative = b.fcmp_ordered("<", iv, zero)
        when(b.and_(negative, b.fcmp_ordered("!=", iw, b.call(floor, [iw]))), lambda: give(zero, POW_COMPLEX))
        negate = b.and_(negative, is_odd_integer(iw))
        base = b.call(fabs, [iv])
        when(b.fcmp_ordered("==", base, one), lambda: give(b.select(negate, ir.Constant(F64, -1.0), one)))
        result = b.call(rt.libm("pow", 2), [base, iw])
        when(b.fcmp_ordered("==", b.call(fabs, [result]), inf), lambda: give(zero, POW_OVERFLOW))
        give(b.select(negate, b.fneg(result), result))
    return rt.helper("mj_float_pow", ir.FunctionType(ir.LiteralStructType([F64, I32]), [F64, F64]), build)


# ---- unary operators ---------------------------------------------------------------------------------------------
def lower_unary(low, op: ops.UnaryOp) -> ir.Value:
    builder = low.b
    if op.op == "not":
        return builder.xor(truth(low, op.operand), ir.Constant(I1, 1))
    source = low.repr(op.operand)
    if isinstance(source, FloatR):
        value = low.get(op.operand)
        return builder.fneg(value) if op.op == "neg" else value
    if isinstance(source, (IntR, BoolR)):
        value = operand_int(low, op.operand)
        if op.op == "pos":
            return value
        if op.op == "invert":
            return builder.xor(value, ir.Constant(I64, -1))
        if proven(op):
            return builder.sub(ir.Constant(I64, 0), value, flags=["nsw"])
        low.deoptimize_after(builder.icmp_signed("==", value, ir.Constant(I64, INT64_MIN)), 2 ** 63, "literal")
        return builder.sub(ir.Constant(I64, 0), value)
    low.not_native(f"unary '{op.op}' on {source.describe()}")


# ---- possibly unbound variables ----------------------------------------------------------------------------------
def lower_check_bound(low, op: ops.CheckBound) -> ir.Value:
    if _may_be_undefined(op.value, set()):
        low.not_native(f"'{op.name}' may be unbound here")
    return low.get(op.value)


def _may_be_undefined(value, seen: set) -> bool:
    if value is UNDEFINED:
        return True
    if isinstance(value, Phi) and value not in seen:
        seen.add(value)
        return any(_may_be_undefined(v, seen) for v in value.incoming.values())
    return False


OPS = {
    ops.BinaryOp: lower_binary,
    ops.UnaryOp: lower_unary,
    ops.CheckBound: lower_check_bound,
}

"""Unboxed float chains: object arithmetic (``+ - * /`` on values typed ``object`` — attribute loads, list items)
whose result only feeds more such arithmetic keeps that result as a C double while the operands are floats, and
boxes once where the chain ends. ``self.x * o.x + self.y * o.y + self.z * o.z`` makes one float object, not five.

Every chain value ``v`` whose users are all chain operations ("unboxed") gets, beside its object variable, a
``double`` (``v_d``) and a flag (``v_u``): set when the value is a float held in ``v_d``. Each chain operation is
emitted as a guarded native operation — taken when every operand is a float (unboxed values by their flag, object
operands by an exact ``float`` check, one-digit ints converted exactly as ``float_add`` converts them when the other
operand is a float, ``mj_float_operands`` of ``number_fast_paths.py`` when both are objects) and a divisor is
non-zero — and otherwise as the generic operation (``PyNumber_*``, the number fast paths, operator sites) on the
operands boxed on demand, whose result is unboxed again when it is an exact float. The operations run in program
order either way, so errors, overloads (a ``Vector`` operand) and side effects are CPython's; native double
arithmetic is IEEE as ``float``'s (NaN, infinities, −0.0 included; generated code is compiled without FMA
contraction).

Besides ``+ - * /``, a chain may hold unary minus (``float_neg``), ``x ** k`` with a constant exponent (the steps of
``float_pow`` with the same libm ``pow``; its special cases — a zero, infinite or NaN base, a negative base with a
fractional exponent, a range error — take the generic path), and end in a comparison (``d < 0``, ``a < b``): a
comparison reading an unboxed value compares the doubles, as ``float_richcompare`` does for two floats (a one-digit
int beside a float converts exactly), and otherwise takes the generic rich comparison. ``math.sqrt(x)`` of a chain
value or an object takes the double while it is a non-negative float (or one-digit int, converted exactly as
``PyFloat_AsDouble`` converts it): C's ``sqrt``, which ``math.sqrt`` calls; anything else calls ``math.sqrt``.
"""
from __future__ import annotations

import math

from moshjit.ir import ops
from moshjit.ir.ops import Constant

CHAIN_OPERATORS = ("+", "-", "*", "/")
COMPARISONS = {"<": 0, "<=": 1, "==": 2, "!=": 3, ">": 4, ">=": 5}          # Py_LT … Py_GE
SMALL_INT = 1 << 30                  # an int constant converted to double exactly, as mj_small_int's ints are

FLOAT_CHAINS_C = r'''
    #include <errno.h>
    /* An exact float, or a one-digit int (exact as a double), as a double: the other operand is a float. */
    static inline int mj_chain_number(PyObject *o, double *d) {
        long long i;
        if (PyFloat_CheckExact(o)) { *d = PyFloat_AS_DOUBLE(o); return 1; }
        if (mj_small_int(o, &i)) { *d = (double)i; return 1; }
        return 0;
    }
    static inline int mj_chain_float(PyObject *o, double *d) {
        if (!PyFloat_CheckExact(o)) return 0;
        *d = PyFloat_AS_DOUBLE(o);
        return 1;
    }
    /* x ** w for a float x and a constant w as float_pow computes it (Objects/floatobject.c), when none of its
       special cases applies: 1 with *r set, or 0 (a zero, infinite or NaN base, a negative base with a fractional
       exponent, a range error: the generic path then gives CPython's result or error). */
    static inline int mj_chain_pow(double iv, double iw, double *r) {
        int negate = 0;
        if (iw == 0.0) { *r = 1.0; return 1; }
        if (!isfinite(iv) || !isfinite(iw) || iv == 0.0) return 0;
        if (iv < 0.0) {
            if (iw != floor(iw)) return 0;
            iv = -iv;
            negate = fmod(fabs(iw), 2.0) == 1.0;
        }
        if (iv == 1.0) { *r = negate ? -1.0 : 1.0; return 1; }
        errno = 0;
        /* libm's pow, as float_pow calls it: with a constant exponent after inlining, gcc would make pow(x, 2.0)
           x * x, which is not always libm's result (1 ulp apart on some inputs) */
        volatile double exponent = iw;
        *r = pow(iv, exponent);
        if (errno == 0 && (*r == HUGE_VAL || *r == -HUGE_VAL)) return 0;          /* _Py_ADJUST_ERANGE1 */
        if (errno != 0 && !(errno == ERANGE && *r == 0.0)) return 0;
        if (negate) *r = -*r;
        return 1;
    }
    static inline double mj_chain_sqrt(double x) { return sqrt(x); }
    /* An unboxed chain value as an object (a new reference): a new float while its flag is set. */
    static inline PyObject *mj_chain_box(int unboxed, double d, PyObject *o) {
        if (unboxed) return PyFloat_FromDouble(d);
        Py_INCREF(o);
        return o;
    }
'''

FLOAT_CHAINS_DECLARATIONS = '''\
    bint mj_chain_number(object, double *)
    bint mj_chain_float(object, double *)
    bint mj_chain_pow(double, double, double *)
    double mj_chain_sqrt(double)
    bint mj_float_operands(object, object, double *, double *)
    object mj_chain_box(bint, double, object)
'''


class FloatChains:
    """Which binary operations of one function form float chains, decided from the emitter's types and users."""

    def __init__(self, fn, users, ctype, excluded):
        self.ctype = ctype
        self.links = {op for block in fn.blocks for op in block.ops
                      if op not in excluded and self._link(op)}
        self.comparisons = {op for block in fn.blocks for op in block.ops
                            if op not in excluded and self._comparison(op)}
        self.square_roots = {op for block in fn.blocks for op in block.ops
                             if op not in excluded and self._square_root(op)}
        ends = self.links | self.comparisons | self.square_roots
        self.unboxed = {op for op in self.links
                        if users.get(op) and all(user in ends for user in users[op])}
        self.used = False
        self.bound_at_entry: set = set()     # object variables of unboxed values: bound to None on entry, since
        # the native path leaves them unassigned and Cython checks an object variable read while maybe unbound

    def _operand_kind(self, value) -> str | None:
        """'float' (a double or float constant), 'int' (a small int constant), 'object', or None: not a link."""
        if isinstance(value, Constant):
            v = value.value
            if type(v) is float:
                return "float"
            return "int" if type(v) is int and -SMALL_INT < v < SMALL_INT else None
        kind = self.ctype(value)
        return "float" if kind == "double" else "object" if kind == "object" else None

    def _link(self, op) -> bool:
        if self.ctype(op) != "object":
            return False
        if isinstance(op, ops.UnaryOp):
            return op.op == "neg" and self._operand_kind(op.operand) in ("object", "float")
        if not isinstance(op, ops.BinaryOp):
            return False
        if op.op == "**":
            return (isinstance(op.right, Constant) and self._operand_kind(op.right) is not None
                    and self._operand_kind(op.left) in ("object", "float"))
        kinds = [self._operand_kind(v) for v in (op.left, op.right)]
        return op.op in CHAIN_OPERATORS and None not in kinds and kinds != ["int", "int"]

    def _comparison(self, op) -> bool:
        """``a < b`` … ``a != b`` whose operands could be chain values (a chain may end in a comparison)."""
        if not (isinstance(op, ops.Compare) and op.op in COMPARISONS):
            return False
        kinds = [self._operand_kind(v) for v in (op.left, op.right)]
        return None not in kinds and kinds != ["int", "int"]

    def _square_root(self, op) -> bool:
        """``math.sqrt(x)`` of one positional argument that may be a chain value or an object."""
        return (isinstance(op, ops.Call) and isinstance(op.func, Constant) and op.func.value is math.sqrt
                and len(op.args) == 1 and not op.kwnames and self.ctype(op) in ("double", "object")
                and self._operand_kind(op.args[0]) == "object")

    @staticmethod
    def _operands_of(op) -> tuple:
        if isinstance(op, ops.UnaryOp):
            return (op.operand,)
        return tuple(op.args) if isinstance(op, ops.Call) else (op.left, op.right)

    def takes(self, op) -> bool:
        """Whether ``op`` is emitted as a chain operation: it is unboxed, reads an unboxed value, or is a square
        root of an object."""
        if op in self.square_roots:
            return True
        if op not in self.links and op not in self.comparisons:
            return False
        reads_unboxed = any(v in self.unboxed for v in self._operands_of(op))
        return reads_unboxed or op in self.unboxed

    def emit(self, emitter, op, depth: int, generic) -> None:
        """The guarded native operation and its generic fallback; ``generic(left, right)`` writes the generic
        expression for two object operands."""
        self.used = True
        if op in self.comparisons:
            self._emit_comparison(emitter, op, depth)
            return
        if op in self.square_roots:
            self._emit_square_root(emitter, op, depth)
            return
        tests, values = self._operands(emitter, op)
        boxed = [self._boxed(emitter, v) for v in self._operands_of(op)]
        if isinstance(op, ops.UnaryOp):
            native, generic_text = f"-{values[0]}", f"(-{boxed[0]})"         # PyNumber_Negative
        elif op.op == "**":
            emitter.decls["_mj_fr"] = "double"
            tests.append(f"mj_chain_pow({values[0]}, {values[1]}, &_mj_fr)")
            native, generic_text = "_mj_fr", generic(*boxed)
        else:
            if op.op == "/":
                tests.append(f"{values[1]} != 0.0")
            native, generic_text = f"{values[0]} {op.op} {values[1]}", generic(*boxed)
        name = emitter.var(op)
        emitter.emit(f"if {' and '.join(tests)}:", depth)
        if op in self.unboxed:
            self.bound_at_entry.add(name)
            emitter.decls[f"{name}_d"] = "double"
            emitter.decls[f"{name}_u"] = "bint"
            emitter.emit(f"{name}_d = {native}", depth + 1)
            emitter.emit(f"{name}_u = True", depth + 1)
            emitter.emit("else:", depth)
            emitter.emit(f"{name} = {generic_text}", depth + 1)
            emitter.emit(f"{name}_u = mj_chain_float({name}, &{name}_d)", depth + 1)
        else:
            emitter.assign(op, f"<double>({native})", depth + 1)
            emitter.emit("else:", depth)
            emitter.assign(op, generic_text, depth + 1)

    def _emit_comparison(self, emitter, op, depth: int) -> None:
        """A comparison reading an unboxed value: the doubles compared while both operands are floats (IEEE, as
        ``float_richcompare`` compares two floats), the generic rich comparison otherwise."""
        tests, values = self._operands(emitter, op)
        boxed = [self._boxed(emitter, v) for v in (op.left, op.right)]
        generic = f"mj_richcompare({boxed[0]}, {boxed[1]}, {COMPARISONS[op.op]})"
        emitter.emit(f"if {' and '.join(tests)}:", depth)
        emitter.assign(op, f"{values[0]} {op.op} {values[1]}", depth + 1)
        emitter.emit("else:", depth)
        emitter.assign(op, generic if emitter.decl_type(op) != "bint" else f"mj_truth({generic})", depth + 1)

    def _emit_square_root(self, emitter, op, depth: int) -> None:
        """C's ``sqrt`` of a non-negative float (``math.sqrt`` computes just that: -0.0 and inf included), the
        call of ``math.sqrt`` otherwise (its errors, ``__float__``/``__index__`` of other objects)."""
        tests, values = self._operands(emitter, op)
        tests.append(f"{values[0]} >= 0.0")
        emitter.emit(f"if {' and '.join(tests)}:", depth)
        emitter.assign(op, f"mj_chain_sqrt({values[0]})", depth + 1)
        emitter.emit("else:", depth)
        emitter.assign(op, f"{emitter.callee(op.func)}({self._boxed(emitter, op.args[0])})", depth + 1)

    def _operands(self, emitter, op):
        """The tests that make the native operation valid, and each operand's double expression."""
        emitter.decls["_mj_fx"] = emitter.decls["_mj_fy"] = "double"
        sides = list(zip(self._operands_of(op), ("_mj_fx", "_mj_fy")))
        if len(sides) == 2 and all(v not in self.unboxed and self._operand_kind(v) == "object" for v, _ in sides):
            a, b = (emitter.ref(v) for v, _ in sides)
            return [f"mj_float_operands({a}, {b}, &_mj_fx, &_mj_fy)"], ["_mj_fx", "_mj_fy"]
        # a one-digit int operand converts exactly only where float arithmetic would convert it: beside a float
        # operand of + - * / or a comparison, or as the base of a float exponent (-x and x ** 2 of an int are ints)
        if isinstance(op, ops.Call):
            other_is_float = [True]                        # math.sqrt converts an int argument to double
        elif isinstance(op, ops.UnaryOp):
            other_is_float = [False]
        elif op.op == "**":
            other_is_float = [self._operand_kind(op.right) == "float", False]
        else:
            other_is_float = [self._is_float(op.right), self._is_float(op.left)]
        tests, values = [], []
        for (value, slot), float_beside in zip(sides, other_is_float):
            if value in self.unboxed:
                name = emitter.var(value)
                tests.append(f"{name}_u")
                values.append(f"{name}_d")
            elif self._operand_kind(value) == "object":
                check = "mj_chain_number" if float_beside else "mj_chain_float"
                tests.append(f"{check}({emitter.ref(value)}, &{slot})")
                values.append(slot)
            else:
                text = emitter.ref(value)
                values.append(f"(<double>{text})" if self._operand_kind(value) == "int" else text)
        return tests or ["True"], values

    def _is_float(self, value) -> bool:
        """A float whenever the native operation runs: unboxed (its flag is tested), a double, a float constant."""
        return value in self.unboxed or self._operand_kind(value) == "float"

    def _boxed(self, emitter, value) -> str:
        if value in self.unboxed:
            name = emitter.var(value)
            return f"mj_chain_box({name}_u, {name}_d, {name})"
        return emitter.obj(value)

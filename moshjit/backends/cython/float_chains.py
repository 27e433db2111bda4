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
"""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.ops import Constant

CHAIN_OPERATORS = ("+", "-", "*", "/")
SMALL_INT = 1 << 30                  # an int constant converted to double exactly, as mj_small_int's ints are

FLOAT_CHAINS_C = r'''
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
    bint mj_float_operands(object, object, double *, double *)
    object mj_chain_box(bint, double, object)
'''


class FloatChains:
    """Which binary operations of one function form float chains, decided from the emitter's types and users."""

    def __init__(self, fn, users, ctype, excluded):
        self.ctype = ctype
        self.links = {op for block in fn.blocks for op in block.ops
                      if op not in excluded and self._link(op)}
        self.unboxed = {op for op in self.links
                        if users.get(op) and all(user in self.links for user in users[op])}
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
        if not (isinstance(op, ops.BinaryOp) and op.op in CHAIN_OPERATORS and self.ctype(op) == "object"):
            return False
        kinds = [self._operand_kind(v) for v in (op.left, op.right)]
        return None not in kinds and kinds != ["int", "int"]

    def takes(self, op) -> bool:
        """Whether ``op`` is emitted as a chain operation: it is unboxed, or reads an unboxed value."""
        return op in self.links and (op in self.unboxed or op.left in self.unboxed or op.right in self.unboxed)

    def emit(self, emitter, op, depth: int, generic) -> None:
        """The guarded native operation and its generic fallback; ``generic(left, right)`` writes the generic
        expression for two object operands."""
        self.used = True
        tests, values = self._operands(emitter, op)
        if op.op == "/":
            tests.append(f"{values[1]} != 0.0")
        native = f"{values[0]} {op.op} {values[1]}"
        boxed = [self._boxed(emitter, v) for v in (op.left, op.right)]
        name = emitter.var(op)
        emitter.emit(f"if {' and '.join(tests)}:", depth)
        if op in self.unboxed:
            self.bound_at_entry.add(name)
            emitter.decls[f"{name}_d"] = "double"
            emitter.decls[f"{name}_u"] = "bint"
            emitter.emit(f"{name}_d = {native}", depth + 1)
            emitter.emit(f"{name}_u = True", depth + 1)
            emitter.emit("else:", depth)
            emitter.emit(f"{name} = {generic(*boxed)}", depth + 1)
            emitter.emit(f"{name}_u = mj_chain_float({name}, &{name}_d)", depth + 1)
        else:
            emitter.assign(op, f"<double>({native})", depth + 1)
            emitter.emit("else:", depth)
            emitter.assign(op, generic(*boxed), depth + 1)

    def _operands(self, emitter, op):
        """The tests that make the native operation valid, and each operand's double expression."""
        emitter.decls["_mj_fx"] = emitter.decls["_mj_fy"] = "double"
        sides = [(op.left, "_mj_fx"), (op.right, "_mj_fy")]
        if all(v not in self.unboxed and self._operand_kind(v) == "object" for v, _ in sides):
            a, b = (emitter.ref(v) for v, _ in sides)
            return [f"mj_float_operands({a}, {b}, &_mj_fx, &_mj_fy)"], ["_mj_fx", "_mj_fy"]
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

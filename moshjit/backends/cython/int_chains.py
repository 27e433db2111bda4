"""Unboxed int chains: int arithmetic (``+ - * // %``) whose result is typed ``object`` only because it may leave
int64 (``i + j`` of two C integers, ``(i + j) * (i + j + 1) // 2 + i + 1``) keeps its values as C ``long long``
while they fit, and makes an int object only where a value leaves the chain.

A link is such an operation whose inferred type is an int and whose operands are C integers, int constants, other
links, or values typed ``object`` that inference proves are ints. Every link ``v`` whose users are all links
("unboxed") gets, beside its object variable, a ``long long`` (``v_i``) and a flag (``v_u``): set when the value
is held in ``v_i``. Each link is emitted as a guarded native operation — taken when every operand is held natively
(unboxed values by their flag, objects by an exact int check that fits ``long long``) and the C operation neither
overflows (``__builtin_*_overflow``) nor divides by zero or ``LLONG_MIN`` by -1 — and otherwise as the generic
operation on the operands boxed on demand, which gives CPython's big int, or its ``ZeroDivisionError``. Floor
division and modulo follow Python's signs (the quotient rounds toward minus infinity, the remainder takes the
divisor's sign). A value that left the native path stays an object for the rest of its chain. A chain may end
in an int operation typed a C integer (inference proved its result fits: ``(t + i) % 1000003``), native while its
operands are, the generic operation's int converted otherwise; or in a true division by or of a float
(``1.0 / (…)``): ``float_div`` converts the int operand to a double exactly as C converts a ``long long``
(correctly rounded), so the doubles are divided while the divisor is not zero.

Past a long long, two narrower native forms take over before the generic operation: ``&``, ``|``, ``^``, ``~`` and
``>>`` of exact ints below 2**64 in magnitude are computed on 65 bits (``mj_wide``: bitboards, 64-bit masks), a
bitwise link only branched on keeping just whether it is zero; and a ``+ - * <<`` link whose users are all ``&``,
``%`` of it, or such links ("masked") keeps its exact value in 128 bits (``mj_i128_op``), which the ``&`` or ``%``
reduces without making the int (``(h * PRIME) & MASK``, ``(h * BASE + c) % PRIME``).
"""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.ops import Constant
from moshjit.ir.types import OBJECT, IntType

INT_OPERATORS = {"+": "mj_int_add", "-": "mj_int_sub", "*": "mj_int_mul", "//": "mj_int_floordiv", "%": "mj_int_mod",
                 "&": "mj_int_and", "|": "mj_int_or", "^": "mj_int_xor", ">>": "mj_int_rshift", "<<": "mj_int_lshift"}
# Operators whose operands may also be values of unknown type (typed ``object``: list items, attribute loads),
# checked at run time: the bitwise ones, and ``//``/``%`` beside an operand known to be an int. ``+ - *`` of unknown
# values are the float chains' (``float_chains.py``).
BITWISE = ("&", "|", "^", ">>", "<<")
# Bitwise operators whose operands past a long long may still be computed in C on 65 bits (``mj_wide``).
WIDE_OPERATORS = {"&": "mj_wide_and", "|": "mj_wide_or", "^": "mj_wide_xor", ">>": "mj_wide_rshift"}
# Links whose users are all ``&`` or such links keep their value in 128 bits past a long long
# (``mj_i128_op``): the C codes.
MASKED_OPERATORS = {"+": 0, "-": 1, "*": 2, "<<": 3}
WIDE_TRUTH = {operator: f"((_mj_wx.low {operator} _mj_wy.low) != 0) | (_mj_wx.negative {operator} _mj_wy.negative)"
              for operator in ("&", "|", "^")}
WIDE_TRUTH[">>"] = "_mj_wx.negative | ((_mj_wy.low < 64) & ((_mj_wx.low >> (_mj_wy.low & 63)) != 0))"
UNKNOWN_BESIDE_INT = ("//", "%")

INT_CHAINS_C = r'''
    #include <limits.h>
    /* Python's &, |, ^, ~ and >> act on an int's infinite two's complement. An exact int of magnitude below 2**64
       is its low 64 bits and its sign (every higher bit equals the sign), so those operators on such ints are C
       operations on 65 bits: bitboards and 64-bit masks past a long long stay out of CPython's long_bitwise. */
    typedef struct { unsigned long long low; int negative; } mj_wide;
    /* An exact int of magnitude below 2**64 as a wide value (0: anything else). */
    static inline int mj_wide_int(PyObject *o, mj_wide *w) {
        const digit *d;
        Py_ssize_t n;
        int negative;
        unsigned long long m;
        if (!PyLong_CheckExact(o) || PyLong_SHIFT != 30) return 0;
    #if PY_VERSION_HEX >= 0x030C0000
        n = (Py_ssize_t)(((PyLongObject *)o)->long_value.lv_tag >> 3);      /* digits << 3 | sign (2: -) */
        negative = (((PyLongObject *)o)->long_value.lv_tag & 3) == 2;
        d = ((PyLongObject *)o)->long_value.ob_digit;
    #else
        n = Py_SIZE(o);
        negative = n < 0;
        if (negative) n = -n;
        d = ((PyLongObject *)o)->ob_digit;
    #endif
        switch (n) {
        case 0: m = 0; break;
        case 1: m = d[0]; break;
        case 2: m = (unsigned long long)d[0] | (unsigned long long)d[1] << 30; break;
        case 3:
            if (d[2] >> 4) return 0;
            m = (unsigned long long)d[0] | (unsigned long long)d[1] << 30 | (unsigned long long)d[2] << 60;
            break;
        default: return 0;
        }
        w->low = negative ? 0ULL - m : m;
        w->negative = negative;
        return 1;
    }
    /* An exact int that fits a long long, as one (0: anything else): read in place up to three digits (32-bit
       words and hashes have two), so an int past a long long fails without PyLong_AsLongLongAndOverflow's walk
       and its overflow check. */
    static inline int mj_int_value(PyObject *o, long long *x) {
        int overflow;
        mj_wide w;
        if (mj_small_int(o, x)) return 1;
        if (!PyLong_CheckExact(o)) return 0;
        if (PyLong_SHIFT != 30) {
            *x = PyLong_AsLongLongAndOverflow(o, &overflow);
            return !overflow;
        }
        if (!mj_wide_int(o, &w) || (int)(w.low >> 63) != w.negative) return 0;
        *x = (long long)w.low;          /* -2**63 <= value < 2**63: its 64 bits are the long long */
        return 1;
    }
    /* An exact list's or tuple's item at i (Python's negative indexes counted from the end), borrowed; NULL for
       anything else or an index out of range. */
    static inline PyObject *mj_sequence_item(PyObject *container, long long i) {
        Py_ssize_t n;
        if (PyList_CheckExact(container)) n = PyList_GET_SIZE(container);
        else if (PyTuple_CheckExact(container)) n = PyTuple_GET_SIZE(container);
        else return NULL;
        if (i < -(long long)n || i >= (long long)n) return NULL;
        if (i < 0) i += n;
        return PyList_CheckExact(container) ? PyList_GET_ITEM(container, i) : PyTuple_GET_ITEM(container, i);
    }
    /* container[i]'s int, read where the item is (no reference taken), when it is an exact list's or tuple's item
       that is an exact int fitting a long long; 0 otherwise (the subscript is then made as usual). */
    static inline int mj_int_item(PyObject *container, long long i, long long *out) {
        PyObject *item = mj_sequence_item(container, i);
        return item != NULL && mj_int_value(item, out);
    }
    /* container[i] for an index a chain holds natively: an exact list's or tuple's item, else the generic
       subscript with the index as an int (CPython's IndexError and TypeError, a class's own __getitem__). A new
       reference, or NULL with the exception set. */
    static PyObject *mj_int_subscript(PyObject *container, long long i) {
        PyObject *key, *item = mj_sequence_item(container, i);
        if (item != NULL) {
            Py_INCREF(item);
            return item;
        }
        key = PyLong_FromLongLong(i);
        if (key == NULL) return NULL;
        item = PyObject_GetItem(container, key);
        Py_DECREF(key);
        return item;
    }
    static inline int mj_int_add(long long a, long long b, long long *r) { return !__builtin_add_overflow(a, b, r); }
    static inline int mj_int_sub(long long a, long long b, long long *r) { return !__builtin_sub_overflow(a, b, r); }
    static inline int mj_int_mul(long long a, long long b, long long *r) { return !__builtin_mul_overflow(a, b, r); }
    /* a // b rounded toward minus infinity, as long_div; 0 for a zero divisor and LLONG_MIN // -1. */
    static inline int mj_int_floordiv(long long a, long long b, long long *r) {
        long long q;
        if (b == 0 || (b == -1 && a == LLONG_MIN)) return 0;
        q = a / b;
        if (a % b != 0 && ((a < 0) != (b < 0))) q -= 1;
        *r = q;
        return 1;
    }
    /* a % b with the divisor's sign, as long_mod; 0 for a zero divisor and LLONG_MIN % -1. */
    static inline int mj_int_mod(long long a, long long b, long long *r) {
        long long m;
        if (b == 0 || (b == -1 && a == LLONG_MIN)) return 0;
        m = a % b;
        if (m != 0 && ((m < 0) != (b < 0))) m += b;
        *r = m;
        return 1;
    }
    static inline int mj_int_and(long long a, long long b, long long *r) { *r = a & b; return 1; }
    static inline int mj_int_or(long long a, long long b, long long *r) { *r = a | b; return 1; }
    static inline int mj_int_xor(long long a, long long b, long long *r) { *r = a ^ b; return 1; }
    /* a >> b as long_rshift (an arithmetic shift: -1 or 0 once every bit is shifted out); 0 for a negative count
       (the generic operation raises CPython's ValueError). */
    static inline int mj_int_rshift(long long a, long long b, long long *r) {
        if (b < 0) return 0;
        *r = b >= 63 ? (a < 0 ? -1 : 0) : a >> b;
        return 1;
    }
    /* a << b while the result fits a long long; 0 for a negative count or a result that does not (the generic
       operation raises, or makes the big int). */
    static inline int mj_int_lshift(long long a, long long b, long long *r) {
        long long shifted;
        if (b < 0 || (b > 62 && a != 0)) return 0;
        if (a == 0) { *r = 0; return 1; }
        shifted = (long long)((unsigned long long)a << b);
        if ((shifted >> b) != a) return 0;
        *r = shifted;
        return 1;
    }
    static inline int mj_wide_pair(PyObject *a, PyObject *b, mj_wide *x, mj_wide *y) {
        return mj_wide_int(a, x) && mj_wide_int(b, y);
    }
    /* The int of a wide value (-2**64 <= value < 2**64): a new reference. */
    static PyObject *mj_wide_box(unsigned long long low, int negative) {
        unsigned char bytes[9];
        int i;
        if (!negative) return PyLong_FromUnsignedLongLong(low);
        if (low >> 63) return PyLong_FromLongLong((long long)low);
        for (i = 0; i < 8; i++) bytes[i] = (unsigned char)(low >> (8 * i));
        bytes[8] = 0xFF;                                     /* little-endian two's complement of 72 bits */
        return _PyLong_FromByteArray(bytes, 9, 1, 1);
    }
    static PyObject *mj_wide_and(mj_wide x, mj_wide y) { return mj_wide_box(x.low & y.low, x.negative & y.negative); }
    static PyObject *mj_wide_or(mj_wide x, mj_wide y) { return mj_wide_box(x.low | y.low, x.negative | y.negative); }
    static PyObject *mj_wide_xor(mj_wide x, mj_wide y) { return mj_wide_box(x.low ^ y.low, x.negative ^ y.negative); }
    /* x >> y for a count y that is not negative: an arithmetic shift of the 65 bits (-1 or 0 past 63). */
    static PyObject *mj_wide_rshift(mj_wide x, mj_wide y) {
        unsigned long long low;
        if (y.low >= 64) low = x.negative ? ~0ULL : 0;
        else low = x.negative ? ~(~x.low >> y.low) : x.low >> y.low;
        return mj_wide_box(low, x.negative);
    }
    /* A link whose users are all &, % of it, or such links (``(h * PRIME) & MASK``, ``(state * MULT + INC) & MASK``,
       ``(h * BASE + c) % PRIME``) keeps its exact value in 128 bits while it fits, no int made: the & then needs only
       its low 64 bits when the mask is a wide value that is not negative, the % its remainder when the modulus is
       positive; otherwise the value is made as the int it is. */
    typedef __int128 mj_i128;
    enum { MJ_MASKED_ADD, MJ_MASKED_SUB, MJ_MASKED_MUL, MJ_MASKED_LSHIFT };
    static inline mj_i128 mj_wide_value(mj_wide w) {
        return (mj_i128)w.low - (w.negative ? (mj_i128)1 << 64 : 0);
    }
    /* An operand of a masked link in 128 bits: a long long held natively, a masked link's 128 bits, or an exact int
       below 2**64 in magnitude (0: anything else). */
    static inline int mj_i128_operand(int unboxed, long long i, int wide, mj_i128 w, PyObject *o, mj_i128 *out) {
        mj_wide v;
        if (unboxed) { *out = i; return 1; }
        if (wide) { *out = w; return 1; }
        if (!mj_wide_int(o, &v)) return 0;
        *out = mj_wide_value(v);
        return 1;
    }
    /* a op b in 128 bits; 0 when the result does not fit or the shift count is not in [0, 64). */
    static inline int mj_i128_op(mj_i128 a, mj_i128 b, int op, mj_i128 *r) {
        mj_i128 shifted;
        switch (op) {
        case MJ_MASKED_ADD: return !__builtin_add_overflow(a, b, r);
        case MJ_MASKED_SUB: return !__builtin_sub_overflow(a, b, r);
        case MJ_MASKED_MUL: return !__builtin_mul_overflow(a, b, r);
        default:
            if (b < 0 || b >= 64) return 0;
            shifted = (mj_i128)((unsigned __int128)a << (int)b);
            if ((shifted >> (int)b) != a) return 0;
            *r = shifted;
            return 1;
        }
    }
    /* The int of a 128-bit value: a new reference. */
    static PyObject *mj_int128_box(mj_i128 v) {
        unsigned char bytes[16];
        unsigned __int128 u = (unsigned __int128)v;
        int i;
        if (v >= LLONG_MIN && v <= LLONG_MAX) return PyLong_FromLongLong((long long)v);
        for (i = 0; i < 16; i++) bytes[i] = (unsigned char)(u >> (8 * i));
        return _PyLong_FromByteArray(bytes, 16, 1, 1);
    }
    /* A masked link as an object (a new reference): its long long, its 128-bit value, or its object. */
    static inline PyObject *mj_masked_box(int unboxed, long long i, int wide, mj_i128 w, PyObject *o) {
        if (unboxed) return PyLong_FromLongLong(i);
        if (wide) return mj_int128_box(w);
        Py_INCREF(o);
        return o;
    }
    /* v % m for a modulus that is a wide value, positive: Python's remainder takes the modulus's sign. */
    static inline unsigned long long mj_masked_mod(mj_i128 v, mj_wide m) {
        mj_i128 r = v % (mj_i128)m.low;
        return (unsigned long long)(r < 0 ? r + (mj_i128)m.low : r);
    }
    /* v & mask for a mask that is a wide value and not negative: only v's low 64 bits count. */
    static inline unsigned long long mj_masked_low(mj_i128 v, mj_wide mask) {
        return (unsigned long long)v & mask.low;
    }
    /* ~o: an exact int's on its 65 bits, anything else's by the protocol (a bool's warning on 3.12+, a class's
       __invert__, CPython's TypeError). A new reference. */
    static PyObject *mj_wide_invert(PyObject *o) {
        mj_wide w;
        if (mj_wide_int(o, &w)) return mj_wide_box(~w.low, !w.negative);
        return PyNumber_Invert(o);
    }
    /* x.bit_length() of a C integer and of an exact int (the bits of its magnitude). */
    static inline Py_ssize_t mj_c_bit_length(long long x) {
        unsigned long long m = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
        return m == 0 ? 0 : 64 - __builtin_clzll(m);
    }
    static inline Py_ssize_t mj_int_bit_length(PyObject *o) { return (Py_ssize_t)_PyLong_NumBits(o); }
    /* An unboxed chain value as an object (a new reference): a new int while its flag is set. */
    static inline PyObject *mj_int_box(int unboxed, long long i, PyObject *o) {
        if (unboxed) return PyLong_FromLongLong(i);
        Py_INCREF(o);
        return o;
    }
'''

INT_CHAINS_DECLARATIONS = '''\
    bint mj_int_value(object, long long *)
    bint mj_int_add(long long, long long, long long *)
    bint mj_int_sub(long long, long long, long long *)
    bint mj_int_mul(long long, long long, long long *)
    bint mj_int_floordiv(long long, long long, long long *)
    bint mj_int_mod(long long, long long, long long *)
    bint mj_int_and(long long, long long, long long *)
    bint mj_int_or(long long, long long, long long *)
    bint mj_int_xor(long long, long long, long long *)
    bint mj_int_rshift(long long, long long, long long *)
    bint mj_int_lshift(long long, long long, long long *)
    object mj_int_box(bint, long long, object)
    ctypedef struct mj_wide:
        unsigned long long low
        int negative
    bint mj_wide_pair(object, object, mj_wide *, mj_wide *)
    object mj_wide_and(mj_wide, mj_wide)
    object mj_wide_or(mj_wide, mj_wide)
    object mj_wide_xor(mj_wide, mj_wide)
    object mj_wide_rshift(mj_wide, mj_wide)
    object mj_wide_invert(object)
    bint mj_wide_int(object, mj_wide *)
    ctypedef long long mj_i128
    bint mj_i128_operand(bint, long long, bint, mj_i128, object, mj_i128 *)
    bint mj_i128_op(mj_i128, mj_i128, int, mj_i128 *)
    object mj_masked_box(bint, long long, bint, mj_i128, object)
    unsigned long long mj_masked_low(mj_i128, mj_wide)
    unsigned long long mj_masked_mod(mj_i128, mj_wide)
    object mj_int_subscript(object, long long)
    bint mj_int_item(object, long long, long long *)
    Py_ssize_t mj_c_bit_length(long long)
    Py_ssize_t mj_int_bit_length(object)
'''


def _strength_reduced(op) -> tuple[str, str | None]:
    """The helper for a link and, for ``x % 2**k`` and ``x // 2**k`` (a constant positive power of two), the mask
    or shift that gives Python's result for every ``x`` (its modulo takes the divisor's sign, its floor division
    rounds toward minus infinity: an ``&`` and an arithmetic shift) without a C division."""
    divisor = op.right.value if isinstance(op.right, Constant) and type(op.right.value) is int else 0
    if op.op in ("%", "//") and 1 < divisor < 1 << 63 and divisor & (divisor - 1) == 0:
        if op.op == "%":
            return "mj_int_and", f"<long long>{divisor - 1}"
        return "mj_int_rshift", f"<long long>{divisor.bit_length() - 1}"
    return INT_OPERATORS[op.op], None


class IntChains:
    """Which binary operations of one function form int chains, decided from the emitter's types and users."""

    def __init__(self, fn, users, ctype, excluded):
        self.ctype = ctype
        self.links: set = set()
        for block in fn.blocks:                 # operands before their users in a block: a link may read a link
            for op in block.ops:
                if op not in excluded and self._link(op):
                    self.links.add(op)
        self.masked = self._masked(fn, users, excluded)
        self.links |= self.masked
        self.float_divisions = {op for block in fn.blocks for op in block.ops
                                if op not in excluded and self._float_division(op)}
        self.native_ends = {op for block in fn.blocks for op in block.ops
                            if op not in excluded and self._native_end(op)}
        self.subscripts = {op for block in fn.blocks for op in block.ops
                           if op not in excluded and self._subscript(op)}
        ends = self.links | self.float_divisions | self.native_ends
        self.unboxed = {op for op in self.links if users.get(op) and all(
            user in ends or user in self.subscripts and user.key is op and user.obj is not op for user in users[op])}
        # a subscript only links read (``T1[i] ^ T2[j]``), by a C integer or an unboxed link: its item's int is
        # read where the item is, no reference taken; held like an unboxed link's value
        self.item_reads = {op for block in fn.blocks for op in block.ops
                           if op not in excluded and self._item_read(op) and users.get(op)
                           and all(user in self.links for user in users[op])}
        self.unboxed |= self.item_reads
        # a bitwise link only branched on (``if board & mask:``) is never boxed: its int64 in its C variable, and
        # past a long long on 65 bits only whether it is zero (``mj_wide``)
        self.truth_tested = {op for op in self.links if op.op in WIDE_OPERATORS and users.get(op) and all(
            isinstance(user, ops.Branch) and user.cond is op for user in users[op])}
        self.unboxed |= self.truth_tested
        self.used = False
        self.bound_at_entry: set = set()     # object variables of unboxed values: bound to None on entry, since
        # the native path leaves them unassigned and Cython checks an object variable read while maybe unbound

    def _operand_kind(self, value) -> str | None:
        """'c' (a C integer or an int constant), 'link', 'object' (an int held as an object), 'unknown' (a value
        of unknown type, held as an object), or None."""
        if isinstance(value, Constant):
            if type(value.value) is not int:
                return None
            return "c" if self.ctype(value) == "Py_ssize_t" else "object"      # past a long long: an int object
        if value in self.links:
            return "link"
        kind = self.ctype(value)
        if kind == "Py_ssize_t":
            return "c"
        if kind != "object":
            return None
        held = getattr(value, "type", None)
        return "object" if isinstance(held, IntType) else "unknown" if held == OBJECT else None

    def _link(self, op) -> bool:
        if not (isinstance(op, ops.BinaryOp) and op.op in INT_OPERATORS and self.ctype(op) == "object"):
            return False
        kinds = (self._operand_kind(op.left), self._operand_kind(op.right))
        if None in kinds:
            return False
        known = [kind in ("c", "object") or kind == "link" and isinstance(value.type, IntType)
                 for kind, value in zip(kinds, (op.left, op.right))]
        if all(known) and isinstance(op.type, IntType):
            return True
        return op.op in BITWISE or op.op in UNKNOWN_BESIDE_INT and any(known)

    def _masked(self, fn, users, excluded) -> set:
        """``+``, ``-``, ``*`` and ``<<`` giving an object, of operands a link may read, whose users are all ``&``
        links, ``%`` of an int (``_ends_masked``) or such operations themselves: only an int result can end in the
        ``&`` (a float's raises there, as generically), so values of unknown type are int links here too."""
        found = {op for block in fn.blocks for op in block.ops
                 if op not in excluded and isinstance(op, ops.BinaryOp) and op.op in MASKED_OPERATORS
                 and self.ctype(op) == "object" and users.get(op)
                 and None not in (self._operand_kind(op.left), self._operand_kind(op.right))}
        while True:
            kept = {op for op in found if all(user in found or self._ends_masked(user, op)
                                              for user in users[op])}
            if kept == found:
                return found
            found = kept

    def _ends_masked(self, user, op) -> bool:
        """Whether ``user`` of ``op`` needs only what ``op``'s 128 bits give: an ``&`` link, or a ``%`` link of which
        ``op``, known to be an int, is the dividend (a positive modulus below 2**64 takes the remainder of the 128
        bits; a float dividend is the float chains')."""
        if not isinstance(user, ops.BinaryOp):
            return False
        if user in self.links and user.op == "&":
            return True
        # a remainder typed a C integer (inference bounded it by a constant modulus) ends the chain natively
        ends_here = user in self.links or self.ctype(user) == "Py_ssize_t" and self._operand_kind(user.right) == "c"
        return (user.op == "%" and user.left is op and user.right is not op and isinstance(op.type, IntType)
                and ends_here)

    def _native_end(self, op) -> bool:
        """An int operation on a link whose result inference proved fits a C integer (its variable is one): the
        chain ends there without boxing."""
        if not (isinstance(op, ops.BinaryOp) and op.op in INT_OPERATORS and self.ctype(op) == "Py_ssize_t"
                and (op.left in self.links or op.right in self.links)):
            return False
        return all(self._operand_kind(value) in ("c", "link", "object") for value in (op.left, op.right))

    def _float_division(self, op) -> bool:
        """``x / v`` or ``v / x`` of a link and a float: ``float_div`` converts the int as C converts a long long."""
        if not (isinstance(op, ops.BinaryOp) and op.op == "/" and self.ctype(op) in ("double", "object")):
            return False
        sides = [self._operand_kind(op.left), self.ctype(op.left), self._operand_kind(op.right), self.ctype(op.right)]
        return sides[0] == "link" and sides[3] == "double" or sides[2] == "link" and sides[1] == "double"

    def _subscript(self, op) -> bool:
        """``c[v]`` of a link ``v`` (``table[(w >> 8) & 255]``) on a list, a tuple or a value of unknown type,
        giving an object: ``mj_int_subscript`` takes the C integer."""
        return (isinstance(op, ops.GetItem) and op.key in self.links and not isinstance(op.obj, Constant)
                and self.ctype(op) == "object" and self.ctype(op.obj) in ("list", "tuple", "object"))

    def _item_read(self, op) -> bool:
        """``c[k]`` giving an object, ``c`` a list, a tuple or a value of unknown type, ``k`` a C integer or an
        unboxed link that is not ``c`` itself."""
        if not (isinstance(op, ops.GetItem) and not isinstance(op.obj, Constant) and self.ctype(op) == "object"
                and self.ctype(op.obj) in ("list", "tuple", "object")):
            return False
        return self._operand_kind(op.key) == "c" or op.key in self.unboxed and op.obj is not op.key

    def emit_item_read(self, emitter, op, depth: int, generic) -> None:
        """``c[k]``'s int where the item is while it is an exact int that fits (flag set), else the subscript as
        it would be without the chain (its object in the variable, flag clear)."""
        self.used = True
        name = emitter.var(op)
        self.bound_at_entry.add(name)
        emitter.decls[f"{name}_i"] = "long long"
        emitter.decls[f"{name}_u"] = "bint"
        if op.key in self.unboxed:
            key = emitter.var(op.key)
            test, index = f"{key}_u and ", f"{key}_i"
        else:
            test, index = "", f"<long long>{emitter.ref(op.key)}"
        emitter.emit(f"if {test}mj_int_item({emitter.obj(op.obj)}, {index}, &{name}_i):", depth)
        emitter.emit(f"{name}_u = True", depth + 1)
        emitter.emit("else:", depth)
        if op.key in self.unboxed:
            self.emit_subscript(emitter, op, depth + 1, generic)
        else:
            generic(depth + 1)
        emitter.emit(f"{name}_u = False", depth + 1)

    def taken(self, fn) -> set:
        """Every op of ``fn`` emitted here (``takes``): float chains must leave them alone."""
        return {op for block in fn.blocks for op in block.ops if self.takes(op)}

    def takes(self, op) -> bool:
        """Whether ``op`` is emitted here: a link, or a float division, a chain end typed a C integer or a subscript
        reading an unboxed link."""
        return (op in self.links
                or (op in self.float_divisions or op in self.native_ends)
                and (op.left in self.unboxed or op.right in self.unboxed)
                or op in self.subscripts and op.key in self.unboxed or op in self.item_reads)

    def emit_subscript(self, emitter, op, depth: int, generic) -> None:
        """``c[v]`` with ``v``'s C integer while the chain holds it; ``generic(depth)`` writes the subscript as it
        would be without the chain (the index then in its object variable)."""
        self.used = True
        name = emitter.var(op.key)
        emitter.emit(f"if {name}_u:", depth)
        emitter.assign(op, f"mj_int_subscript({emitter.obj(op.obj)}, {name}_i)", depth + 1)
        emitter.emit("else:", depth)
        generic(depth + 1)

    def emit(self, emitter, op, depth: int, generic) -> None:
        """The guarded native operation and its generic fallback; ``generic(left, right)`` writes the generic
        expression for two object operands."""
        self.used = True
        if op in self.float_divisions:
            self._emit_float_division(emitter, op, depth, generic)
            return
        tests, values = [], []
        for value, slot in ((op.left, "_mj_ix"), (op.right, "_mj_iy")):
            if value in self.unboxed:
                name = emitter.var(value)
                tests.append(f"{name}_u")
                values.append(f"{name}_i")
            elif self._operand_kind(value) == "c":
                values.append(f"<long long>{emitter.ref(value)}")
            else:
                emitter.decls[slot] = "long long"
                tests.append(f"mj_int_value({emitter.ref(value)}, &{slot})")
                values.append(slot)
        name = emitter.var(op)
        target = f"{name}_i" if op in self.unboxed else "_mj_ir"
        helper, right = _strength_reduced(op)
        tests.append(f"{helper}({values[0]}, {values[1] if right is None else right}, &{target})")
        left, right = self._boxed(emitter, op.left), self._boxed(emitter, op.right)
        generic_text = generic(left, right)
        unboxed = op in self.unboxed

        def held(text):                         # the result as an object
            if unboxed:
                emitter.emit(f"{name} = {text}", depth + 1)
                emitter.emit(f"{name}_u = False", depth + 1)
            else:
                emitter.assign(op, text, depth + 1)

        def held_as(text):                      # the result as an object, or only whether it is zero if tested
            if op in self.truth_tested:
                emitter.emit(f"{name}_i = {text[1]}", depth + 1)
                emitter.emit(f"{name}_u = True", depth + 1)
            else:
                held(text[0])

        emitter.emit(f"if {' and '.join(tests)}:", depth)
        if unboxed:
            self.bound_at_entry.add(name)
            emitter.decls[f"{name}_i"] = "long long"
            emitter.decls[f"{name}_u"] = "bint"
            emitter.emit(f"{name}_u = True", depth + 1)
        else:
            emitter.decls["_mj_ir"] = "long long"
            emitter.assign(op, "_mj_ir", depth + 1)
        if op in self.masked:
            emitter.decls[f"{name}_w"] = "mj_i128"
            emitter.decls[f"{name}_wu"] = "bint"
            emitter.decls["_mj_qa"] = emitter.decls["_mj_qb"] = "mj_i128"
            emitter.emit(f"{name}_wu = False", depth + 1)
            emitter.emit(f"elif {self._i128_operand(emitter, op.left, '_mj_qa')} and "
                         f"{self._i128_operand(emitter, op.right, '_mj_qb')} and "
                         f"mj_i128_op(_mj_qa, _mj_qb, {MASKED_OPERATORS[op.op]}, &{name}_w):", depth)
            emitter.emit(f"{name}_u = False", depth + 1)
            emitter.emit(f"{name}_wu = True", depth + 1)
        masked = [value for value in (op.left, op.right) if value in self.masked and self._ends_masked(op, value)]
        if masked:                              # a masked operand held in 128 bits, a mask not negative
            kept = emitter.var(masked[0])
            emitter.decls["_mj_wy"] = "mj_wide"
            modulus = " and _mj_wy.low != 0" if op.op == "%" else ""         # by zero: CPython's ZeroDivisionError
            emitter.emit(f"elif {kept}_wu and mj_wide_int({right if masked[0] is op.left else left}, &_mj_wy) "
                         f"and not _mj_wy.negative{modulus}:", depth)
            low = f"{'mj_masked_mod' if op.op == '%' else 'mj_masked_low'}({kept}_w, _mj_wy)"
            held_as((low, f"{low} != 0"))
        if self._emit_wide_test(emitter, op, left, right, depth):
            held_as((f"{WIDE_OPERATORS[op.op]}(_mj_wx, _mj_wy)", WIDE_TRUTH[op.op]))
        emitter.emit("else:", depth)
        held(generic_text)
        if op in self.masked:
            emitter.emit(f"{name}_wu = False", depth + 1)

    @staticmethod
    def _emit_wide_test(emitter, op, left: str, right: str, depth: int) -> bool:
        """For ``&``, ``|``, ``^`` and ``>>``: the ``elif`` whose branch computes the operator on 65 bits (``_mj_wx`` and
        ``_mj_wy``, ``mj_wide``) when both operands are exact ints of magnitude below 2**64 that the native test
        did not take; whether it was written."""
        if op.op not in WIDE_OPERATORS:
            return False
        emitter.decls["_mj_wx"] = emitter.decls["_mj_wy"] = "mj_wide"
        count = " and not _mj_wy.negative" if op.op == ">>" else ""      # a negative count: CPython's ValueError
        emitter.emit(f"elif mj_wide_pair({left}, {right}, &_mj_wx, &_mj_wy){count}:", depth)
        return True

    def _emit_float_division(self, emitter, op, depth: int, generic) -> None:
        """The doubles divided while the link is native and the divisor is not zero (the generic division raises
        CPython's ``ZeroDivisionError``)."""
        native, tests = [], []
        for value in (op.left, op.right):
            if value in self.unboxed:
                name = emitter.var(value)
                tests.append(f"{name}_u")
                native.append(f"(<double>{name}_i)")
            else:
                native.append(f"(<double>{emitter.ref(value)})")
        tests.append(f"{native[1]} != 0.0")
        emitter.emit(f"if {' and '.join(tests)}:", depth)
        emitter.assign(op, f"{native[0]} / {native[1]}", depth + 1)
        emitter.emit("else:", depth)
        emitter.assign(op, generic(self._boxed(emitter, op.left), self._boxed(emitter, op.right)), depth + 1)

    def _i128_operand(self, emitter, value, slot: str) -> str:
        """The test reading ``value`` into ``slot`` in 128 bits (``mj_i128_operand``): from its long long, its own 128
        bits if it is masked, or its object."""
        if self._operand_kind(value) == "c":
            return f"mj_i128_operand(True, <long long>{emitter.ref(value)}, False, 0, None, &{slot})"
        if value in self.unboxed:
            name = emitter.var(value)
            wide = f"{name}_wu, {name}_w" if value in self.masked else "False, 0"
            return f"mj_i128_operand({name}_u, {name}_i, {wide}, {name}, &{slot})"
        return f"mj_i128_operand(False, 0, False, 0, {emitter.ref(value)}, &{slot})"

    def _boxed(self, emitter, value) -> str:
        if value in self.masked:
            name = emitter.var(value)
            return f"mj_masked_box({name}_u, {name}_i, {name}_wu, {name}_w, {name})"
        if value in self.unboxed:
            name = emitter.var(value)
            return f"mj_int_box({name}_u, {name}_i, {name})"
        return emitter.obj(value)

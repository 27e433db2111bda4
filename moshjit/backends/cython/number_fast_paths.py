"""Object arithmetic and comparisons with CPython's own specialisations inlined (``BINARY_OP_ADD_FLOAT``,
``BINARY_OP_ADD_INT``, ``COMPARE_OP_FLOAT_JUMP``, ``COMPARE_OP_STR_JUMP``, ``BINARY_OP_ADD_UNICODE``, …): a
value read from an attribute or a list is typed ``object``, and when both operands are exact floats, or ints of one
machine digit, the result is computed in C as ``float_add``/``long_add``/``float_richcompare``/… would compute it,
two exact strs are compared for (in)equality or concatenated as ``unicode_compare_eq``/``PyUnicode_Concat`` would,
and an exact list, tuple or str indexed by such an int is read directly; any other operands (subclasses, big ints, a
zero divisor, other types) go through ``PyNumber_*``/``PyObject_RichCompare``, so errors and overloads are
CPython's.

Exactness: a one-digit int (at most 30 bits) converts to double exactly, so mixed int/float operations give what
``float_add`` computes after its own conversion; ``int / int`` of such ints divides their exact doubles once, as
``long_true_divide``'s fast path does; products of two such ints fit in 62 bits.
"""

NUMBER_FAST_PATHS_C = r'''
    /* One machine digit? (what differs between versions: 3.11 keeps the signed digit count in ob_size, 3.12+
       exposes compactness; a compact int on 3.12+ is at most one 30-bit digit as well.) */
    #if PY_VERSION_HEX >= 0x030C0000
    static inline int mj_small_int(PyObject *v, long long *out) {
        if (!PyLong_CheckExact(v) || !PyUnstable_Long_IsCompact((PyLongObject *)v)) return 0;
        *out = (long long)PyUnstable_Long_CompactValue((PyLongObject *)v);
        return 1;
    }
    #else
    static inline int mj_small_int(PyObject *v, long long *out) {
        Py_ssize_t size;
        if (!PyLong_CheckExact(v)) return 0;
        size = Py_SIZE(v);
        if (size < -1 || size > 1) return 0;
        *out = size * (long long)((PyLongObject *)v)->ob_digit[0];
        return 1;
    }
    #endif
    /* Both operands as doubles when both are exact floats or small ints, at least one a float. */
    static inline int mj_float_operands(PyObject *a, PyObject *b, double *x, double *y) {
        long long i;
        int floats = 0;
        if (PyFloat_CheckExact(a)) { *x = PyFloat_AS_DOUBLE(a); floats++; }
        else if (mj_small_int(a, &i)) *x = (double)i;
        else return 0;
        if (PyFloat_CheckExact(b)) { *y = PyFloat_AS_DOUBLE(b); floats++; }
        else if (mj_small_int(b, &i)) *y = (double)i;
        else return 0;
        return floats > 0;
    }
    /* strs: 1 for + (BINARY_OP_ADD_UNICODE: two exact strs concatenate directly, what PyNumber_Add and
       PyNumber_InPlaceAdd reach through str's sq_concat after trying the number slots it lacks), 0 otherwise. */
    #define MJ_ARITH(name, op, generic, strs)                                                \
    static PyObject *name(PyObject *a, PyObject *b) {                                        \
        long long i, j;                                                                      \
        double x, y;                                                                         \
        if (mj_small_int(a, &i) && mj_small_int(b, &j)) return PyLong_FromLongLong(i op j); \
        if (mj_float_operands(a, b, &x, &y)) return PyFloat_FromDouble(x op y);              \
        if (strs && PyUnicode_CheckExact(a) && PyUnicode_CheckExact(b)) return PyUnicode_Concat(a, b); \
        return generic(a, b);                                                                \
    }
    MJ_ARITH(mj_fast_add, +, PyNumber_Add, 1)
    MJ_ARITH(mj_fast_subtract, -, PyNumber_Subtract, 0)
    MJ_ARITH(mj_fast_multiply, *, PyNumber_Multiply, 0)
    MJ_ARITH(mj_fast_inplace_add, +, PyNumber_InPlaceAdd, 1)
    MJ_ARITH(mj_fast_inplace_subtract, -, PyNumber_InPlaceSubtract, 0)
    MJ_ARITH(mj_fast_inplace_multiply, *, PyNumber_InPlaceMultiply, 0)
    #define MJ_DIVIDE(name, generic)                                                         \
    static PyObject *name(PyObject *a, PyObject *b) {                                        \
        long long i, j;                                                                      \
        double x, y;                                                                         \
        if (mj_small_int(a, &i) && mj_small_int(b, &j)) {                                    \
            if (j != 0) return PyFloat_FromDouble((double)i / (double)j);                    \
        } else if (mj_float_operands(a, b, &x, &y) && y != 0.0) {                            \
            return PyFloat_FromDouble(x / y);                                                \
        }                                                                                    \
        return generic(a, b);                                                                \
    }
    MJ_DIVIDE(mj_fast_truedivide, PyNumber_TrueDivide)
    MJ_DIVIDE(mj_fast_inplace_truedivide, PyNumber_InPlaceTrueDivide)
    static PyObject *mj_fast_richcompare(PyObject *a, PyObject *b, int op) {
        long long i, j;
        double x, y;
        int truth;
        if (mj_small_int(a, &i) && mj_small_int(b, &j)) {
            switch (op) {
                case Py_LT: truth = i < j; break;   case Py_LE: truth = i <= j; break;
                case Py_EQ: truth = i == j; break;  case Py_NE: truth = i != j; break;
                case Py_GT: truth = i > j; break;   default: truth = i >= j;
            }
        } else if (PyFloat_CheckExact(a) && PyFloat_CheckExact(b)) {
            x = PyFloat_AS_DOUBLE(a);
            y = PyFloat_AS_DOUBLE(b);
            switch (op) {
                case Py_LT: truth = x < y; break;   case Py_LE: truth = x <= y; break;
                case Py_EQ: truth = x == y; break;  case Py_NE: truth = x != y; break;
                case Py_GT: truth = x > y; break;   default: truth = x >= y;
            }
        } else if ((op == Py_EQ || op == Py_NE) && PyUnicode_CheckExact(a) && PyUnicode_CheckExact(b)) {
            truth = mj_str_cmp(a, b, op);                                     /* COMPARE_OP_STR_JUMP */
        } else {
            return PyObject_RichCompare(a, b, op);
        }
        if (truth) Py_RETURN_TRUE;
        Py_RETURN_FALSE;
    }
    /* d[key] as BINARY_SUBSCR_LIST_INT, BINARY_SUBSCR_TUPLE_INT and 3.12's BINARY_SUBSCR_STR_INT read it: an exact
       list, tuple or str and a one-digit int index in range (negative ones counted from the end, as list_subscript
       and unicode_subscript count them). mj_indexes_fast says whether they apply; mj_index_item then reads the item
       (a new reference; a str's character as unicode_getitem makes it, through the same cache of 1-char strs). */
    static inline int mj_indexes_fast(PyObject *d, PyObject *key, Py_ssize_t *at) {
        long long i;
        Py_ssize_t n;
        if (!mj_small_int(key, &i)) return 0;
        if (PyList_CheckExact(d)) n = PyList_GET_SIZE(d);
        else if (PyTuple_CheckExact(d)) n = PyTuple_GET_SIZE(d);
        else if (PyUnicode_CheckExact(d)) n = PyUnicode_GET_LENGTH(d);
        else return 0;
        if (i < 0) i += n;
        if (i < 0 || i >= n) return 0;                       /* the generic path raises IndexError */
        *at = (Py_ssize_t)i;
        return 1;
    }
    static inline PyObject *mj_index_item(PyObject *d, Py_ssize_t i) {
        if (PyList_CheckExact(d)) return Py_NewRef(PyList_GET_ITEM(d, i));
        if (PyTuple_CheckExact(d)) return Py_NewRef(PyTuple_GET_ITEM(d, i));
        return PyUnicode_FromOrdinal(PyUnicode_READ_CHAR(d, i));
    }
'''

"""The head of every generated module: directives, C helpers for counted range loops, the runtime imports,
and the per-module state (globals dict, builtins, closure cells, constants) set by ``_mj_setup``."""
from moshjit.cpython import UNICODE_EQUAL

RUNTIME_MODULE = "moshjit_rt"

PRELUDE = r'''
# cython: language_level=3, boundscheck=True, wraparound=True, cdivision=False, infer_types=False
# cython: initializedcheck=False, nonecheck=False, embedsignature=False, binding=False, warn.unreachable=False
cimport cython
from moshjit_rt cimport (CharBuffer, mj_set_handled, _mj_load_global, _mj_load_deref, _mj_unbound_local, _mj_unbound_free,
                         _mj_unpack, _mj_unpack_ex, _mj_list_extend, _mj_merge, _mj_before_with, _mj_exc_match,
                         _mj_push_exc, _mj_reraise_handled, _mj_import_from, _mj_make_function, _mj_range_check,
                         mj_category, _mj_is_int64, _mj_call_ex, _mj_exception, _mj_cell_new, _mj_cell_empty,
                         _mj_cell_get, _mj_cell_set, _mj_cell_delete, _mj_make_closure)
import moshjit_rt

cdef extern from *:
    """
    #include <math.h>
    MJ_DECLARE_UNICODE_EQUAL
    /* str == str and str != str: identity, then length/kind/memcmp (CPython's own unicode_eq). Cython 3.3
       compares exact strs with PyUnicode_Compare, a full ordering comparison without those shortcuts. A str
       subclass (which may define __eq__/__ne__) gets the ordinary rich comparison. */
    static int mj_str_cmp(PyObject *a, PyObject *b, int op) {
        PyObject *result;
        int truth;
        if (PyUnicode_CheckExact(a) && PyUnicode_CheckExact(b)) {
            truth = a == b || MJ_UNICODE_EQUAL(a, b);
            return op == Py_EQ ? truth : !truth;
        }
        result = PyObject_RichCompare(a, b, op);
        if (result == NULL) return -1;
        truth = PyObject_IsTrue(result);
        Py_DECREF(result);
        return truth;
    }
    /* Number of items of range(start, stop, step), step != 0, computed without overflow. */
    static size_t mj_range_len(Py_ssize_t start, Py_ssize_t stop, Py_ssize_t step) {
        if (step > 0) {
            return start < stop ? ((size_t)stop - (size_t)start - 1) / (size_t)step + 1 : 0;
        }
        return start > stop ? ((size_t)start - (size_t)stop - 1) / ((size_t)0 - (size_t)step) + 1 : 0;
    }
    static Py_ssize_t mj_range_item(Py_ssize_t start, size_t k, Py_ssize_t step) {
        return (Py_ssize_t)((size_t)start + k * (size_t)step);
    }
    /* float // and % exactly as CPython's float_divmod (Objects/floatobject.c); wx != 0. */
    static double mj_float_divmod(double vx, double wx, double *mod) {
        double div, floordiv;
        *mod = fmod(vx, wx);
        div = (vx - *mod) / wx;
        if (*mod) {
            if ((wx < 0) != (*mod < 0)) { *mod += wx; div -= 1.0; }
        } else {
            *mod = copysign(0.0, wx);
        }
        if (div) {
            floordiv = floor(div);
            if (div - floordiv > 0.5) floordiv += 1.0;
        } else {
            floordiv = copysign(0.0, vx / wx);
        }
        return floordiv;
    }
    static double mj_float_floordiv(double vx, double wx) { double m; return mj_float_divmod(vx, wx, &m); }
    static double mj_float_mod(double vx, double wx) { double m; mj_float_divmod(vx, wx, &m); return m; }
    """
    int mj_str_cmp(object, object, int) except -1
    size_t mj_range_len(Py_ssize_t, Py_ssize_t, Py_ssize_t)
    Py_ssize_t mj_range_item(Py_ssize_t, size_t, Py_ssize_t)
    double mj_float_floordiv(double, double)
    double mj_float_mod(double, double)

cdef object _MJ_UNBOUND = moshjit_rt.UNBOUND
cdef object _MJ_STOP = moshjit_rt.STOP
cdef dict _g = {}
cdef dict _b = {}
cdef tuple _cl = ()


def _mj_setup(dict globals_, dict builtins_, tuple closure, tuple constants):
    global _g, _b, _cl
    _g, _b, _cl = globals_, builtins_, closure
    _mj_set_constants(constants)
'''
# The str equality function this CPython exports (3.13 exports it without declaring it in Python.h).
_DECLARATION = "" if UNICODE_EQUAL == "_PyUnicode_EQ" else f"int {UNICODE_EQUAL}(PyObject *, PyObject *);"
PRELUDE = PRELUDE.replace("MJ_UNICODE_EQUAL", UNICODE_EQUAL).replace("MJ_DECLARE_UNICODE_EQUAL", _DECLARATION)

"""The head of every generated module: directives, C helpers for counted range loops, the runtime imports,
and the per-module state (globals dict, builtins, closure cells, constants, source) set by ``_mj_setup``."""
import unicodedata

from moshjit.backends.cython.number_fast_paths import NUMBER_FAST_PATHS_C
from moshjit.backends.cython.reference_counts import REFERENCE_COUNTS_C
from moshjit.cpython import UNICODE_EQUAL
from moshjit.passes.loop_ticks import TICK_EVERY
from moshjit.primitives.unicode_categories import CATEGORY_CODES

RUNTIME_MODULE = "moshjit.runtime.moshjit_rt"

PRELUDE = r'''
# cython: language_level=3, boundscheck=True, wraparound=True, cdivision=False, infer_types=False
# cython: initializedcheck=False, nonecheck=False, embedsignature=False, binding=False, warn.unreachable=False
cimport cython
from moshjit.runtime.moshjit_rt cimport (CharBuffer, Summation as _MjSummation, mj_set_handled, _mj_load_global, _mj_load_deref, _mj_unbound_local, _mj_unbound_free,
                         _mj_unpack, _mj_unpack_ex, _mj_list_extend, _mj_merge, _mj_before_with, _mj_exc_match,
                         _mj_push_exc, _mj_reraise_handled, _mj_import_from, _mj_make_function, _mj_range_check,
                         mj_category, mj_category_code, _mj_is_int64, _mj_call_ex, _mj_exception, _mj_cell_new,
                         mj_dict_versions, _mj_cell_empty, _mj_cell_get, _mj_cell_set, _mj_cell_delete, _mj_make_closure,
                         _mj_match_sequence, _mj_match_mapping, _mj_match_class, _mj_match_keys,
                         _mj_yield_from_iterable, _mj_awaitable, _mj_awaitable_in_with, _mj_super_call_method,
                         _mj_display_compare, mj_loop_breaker)
from moshjit.runtime.moshjit_text cimport (MjStrView, mj_view_slice, mj_view_prefixed, mj_view_str, mj_view_in_dict,
                                          mj_str_in_dict, mj_dict_get_str, mj_dict_getitem_str, mj_getitem_any, PY_SSIZE_T_MAX,
                                          mj_clamp_count, mj_repeat_count, mj_concat_size, mj_list_of_size,
                                          mj_fill_list, mj_fill_repeat, mj_str_char)
from moshjit.runtime.moshjit_rt import UNBOUND as _MJ_RT_UNBOUND, STOP as _MJ_RT_STOP

cdef extern from *:
    """
    MJ_REFERENCE_COUNTS
    #include <math.h>
    MJ_DECLARE_UNICODE_EQUAL
    #include <pthread.h>
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
    /* category_code of the ASCII characters (from this interpreter's unicodedata, as the runtime's table):
       read here, without the call into moshjit_rt that other characters take. */
    static const unsigned char mj_ascii_category_codes[128] = {MJ_ASCII_CATEGORY_CODES};
    /* A loop over s.split() without the list: the start of the next word at or after *pos, *pos moved to its
       end; -1 when no word is left. Words are separated by runs of Py_UNICODE_ISSPACE characters, as in
       CPython's split_whitespace (Objects/stringlib/split.h). */
    static Py_ssize_t mj_split_next(PyObject *s, Py_ssize_t *pos) {
        Py_ssize_t n = PyUnicode_GET_LENGTH(s), i = *pos, start;
        int kind = PyUnicode_KIND(s);
        const void *data = PyUnicode_DATA(s);
        while (i < n && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i))) i++;
        if (i >= n) { *pos = n; return -1; }
        start = i;
        while (i < n && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i))) i++;
        *pos = i;
        return start;
    }
    /* A for loop over a value of unknown type: an exact list or tuple is read by index as its iterator reads it
       (CPython's listiter/tupleiter: the length read at each step), without making the iterator; anything else
       through iter() and its tp_iternext. *at is the next index, -1 for an iterator. */
    static PyObject *mj_for_begin(PyObject *obj, Py_ssize_t *at) {
        if (PyList_CheckExact(obj) || PyTuple_CheckExact(obj)) {
            *at = 0;
            Py_INCREF(obj);
            return obj;
        }
        *at = -1;
        return PyObject_GetIter(obj);
    }
    /* The loop's next item (a new reference); stop (a new reference) when there is none; NULL with the
       exception of the iterator's __next__, StopIteration excepted. */
    static PyObject *mj_for_next(PyObject *it, Py_ssize_t *at, PyObject *stop) {
        Py_ssize_t i = *at;
        PyObject *item;
        if (i >= 0) {
            if (i < Py_SIZE(it)) {
                item = PyList_CheckExact(it) ? PyList_GET_ITEM(it, i) : PyTuple_GET_ITEM(it, i);
                *at = i + 1;
                Py_INCREF(item);
                return item;
            }
            Py_INCREF(stop);
            return stop;
        }
        item = Py_TYPE(it)->tp_iternext(it);
        if (item != NULL) return item;
        if (PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_StopIteration)) return NULL;
            PyErr_Clear();
        }
        Py_INCREF(stop);
        return stop;
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
    /* int64 <op> double compared exactly, as CPython's float_richcompare does (never through a rounded double):
       beyond 2**63 in magnitude the double decides by its sign; else compare with its floor, then its fraction. */
    static int mj_cmp_int_float(Py_ssize_t i, double d, int op) {
        int c;                                    /* -1, 0, 1: i <, ==, > d */
        double fl;
        if (isnan(d)) return op == Py_NE;
        if (d >= 9223372036854775808.0) c = -1;
        else if (d < -9223372036854775808.0) c = 1;
        else {
            fl = floor(d);
            if (i < (Py_ssize_t)fl) c = -1;
            else if (i > (Py_ssize_t)fl) c = 1;
            else c = d > fl ? -1 : 0;
        }
        switch (op) {
            case Py_LT: return c < 0;  case Py_LE: return c <= 0;  case Py_EQ: return c == 0;
            case Py_NE: return c != 0; case Py_GT: return c > 0;   default: return c >= 0;
        }
    }
    static int mj_cmp_float_int(double d, Py_ssize_t i, int op) {
        static const int swapped[] = {Py_GT, Py_GE, Py_EQ, Py_NE, Py_LT, Py_LE};
        return mj_cmp_int_float(i, d, swapped[op]);
    }
    /* Compiled code recursing (through its dispatcher, or Python code in between) uses C stack on every level,
       however high sys.setrecursionlimit is set: raise RecursionError while a margin of this thread's stack is
       left (an eighth of it, at least 256 KiB), instead of crashing. The bounds are read once per thread and kept
       in thread-local storage; the main thread's usable range is also kept in plain statics, so its check is two
       compares with no TLS access (a __thread variable of a dlopen'ed module costs a __tls_get_addr call). Only
       the main thread's: its stack lasts as long as the process, so a frame inside that range is on it and above
       its floor whichever thread runs, where an exited thread's range can be reused by a new thread's stack with
       another floor (a new thread would then overflow its stack unchecked). */
    static __thread char *mj_stack_floor = NULL;
    static __thread char *mj_stack_top = NULL;
    static char *mj_stack_usable_low = NULL, *mj_stack_usable_high = NULL;
    static int __attribute__((noinline, cold)) mj_stack_check_slow(char *here) {
        if (mj_stack_floor == NULL) {
            pthread_attr_t attr;
            void *low;
            size_t size, margin;
            mj_stack_floor = (char *)1;                       /* bounds unknown: never trips */
            if (pthread_getattr_np(pthread_self(), &attr) == 0) {
                if (pthread_attr_getstack(&attr, &low, &size) == 0) {
                    margin = size / 8 > 262144 ? size / 8 : 262144;
                    if (margin < size && here > (char *)low + margin) {
                        mj_stack_floor = (char *)low + margin;
                        mj_stack_top = (char *)low + size;
                        if ((unsigned long)PyThread_get_thread_native_id() == (unsigned long)getpid()) {
                            mj_stack_usable_low = mj_stack_floor;      /* the main thread (its id is the pid) */
                            mj_stack_usable_high = mj_stack_top;
                        }
                    }
                }
                pthread_attr_destroy(&attr);
            }
        }
        if (here < mj_stack_floor) {
            PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded");
            return -1;
        }
        return 0;
    }
    static inline int mj_stack_check(void) {
        char *here = (char *)__builtin_frame_address(0);
        if (here >= mj_stack_usable_low && here < mj_stack_usable_high) return 0;
        return mj_stack_check_slow(here);
    }
    /* Back-edges (ops.LoopTick) count a function's own countdown down to the next look at the eval loop's
       flags (moshjit_rt's mj_loop_breaker, out of the loop's way). The countdown's address never leaves the
       inlined fast path, so it stays in a register across the loop's calls. */
    typedef int (*mj_loop_breaker_t)(void);
    static int __attribute__((noinline, cold)) mj_loop_tick_slow(mj_loop_breaker_t breaker) {
        return breaker();
    }
    static inline __attribute__((always_inline)) int mj_loop_tick(int *left, mj_loop_breaker_t breaker) {
        if (__builtin_expect(--*left > 0, 1)) return 0;
        *left = MJ_TICK_EVERY;
        return mj_loop_tick_slow(breaker);
    }
    static int mj_zero_division(const char *message) {
        PyErr_SetString(PyExc_ZeroDivisionError, message);
        return -1;
    }
MJ_NUMBER_FAST_PATHS
    /* BUILD_STRING: the n strs joined as CPython's own instruction joins them, with no list to hold them
       (``mj_join_strs<n>(a0, ...)``, n up to emit.MAX_JOINED_PARTS). */
    PyAPI_FUNC(PyObject *) _PyUnicode_JoinArray(PyObject *separator, PyObject *const *items, Py_ssize_t seqlen);
    static PyObject *mj_join_array(PyObject *const *items, Py_ssize_t n) {
        static PyObject *empty = NULL;
        if (empty == NULL && (empty = PyUnicode_FromStringAndSize(NULL, 0)) == NULL) return NULL;
        return _PyUnicode_JoinArray(empty, items, n);
    }
MJ_JOIN_MACROS
    /* The truth of a comparison's result (Cython owns and releases the result object itself). */
    static int mj_truth(PyObject *result) { return PyObject_IsTrue(result); }
    /* RERAISE: make exc the raised exception again, unchanged. Cython's `raise exc` (PyErr_SetObject) would
       re-chain exc.__context__ to the exception being handled at that point, which CPython's RERAISE never does.
       Returns NULL, so the caller's error path runs (and adds its traceback entry, as the interpreter does). */
    static PyObject *mj_reraised(PyObject *exc) {
        PyObject *tb = PyException_GetTraceback(exc);
        Py_INCREF(Py_TYPE(exc));
        Py_INCREF(exc);
        PyErr_Restore((PyObject *)Py_TYPE(exc), exc, tb);
        return NULL;
    }
    """
    int mj_str_cmp(object, object, int) except -1
    size_t mj_range_len(Py_ssize_t, Py_ssize_t, Py_ssize_t)
    Py_ssize_t mj_range_item(Py_ssize_t, size_t, Py_ssize_t)
    const unsigned char mj_ascii_category_codes[128]
    Py_ssize_t mj_split_next(object, Py_ssize_t *)
    str mj_split_word "PyUnicode_Substring"(object, Py_ssize_t, Py_ssize_t)   # the str itself when whole
    object mj_for_begin(object, Py_ssize_t *)
    object mj_for_next(object, Py_ssize_t *, object)
    double mj_float_floordiv(double, double)
    double mj_float_mod(double, double)
    bint mj_cmp_int_float(Py_ssize_t, double, int)
    bint mj_cmp_float_int(double, Py_ssize_t, int)
    int mj_truth(object) except -1
MJ_JOIN_DECLARATIONS
    object mj_reraised(object)
    int mj_stack_check() except -1
    int mj_loop_tick(int *, int (*)() except -1) except -1
    int mj_zero_division(const char *) except -1
    object mj_richcompare "mj_fast_richcompare"(object, object, int)
    bint mj_indexes_fast(object, object, Py_ssize_t *)
    object mj_index_item(object, Py_ssize_t)
    # Python-object arithmetic exactly as CPython's BINARY_OP (see ``emit.python_number_op``); + - * / and
    # comparisons with the float and small-int specialisations inlined (``number_fast_paths.py``)
    object mj_number_add "mj_fast_add"(object, object)
    object mj_number_subtract "mj_fast_subtract"(object, object)
    object mj_number_multiply "mj_fast_multiply"(object, object)
    object mj_number_truedivide "mj_fast_truedivide"(object, object)
    object mj_number_floordivide "PyNumber_FloorDivide"(object, object)
    object mj_number_remainder "PyNumber_Remainder"(object, object)
    object mj_number_power "PyNumber_Power"(object, object, object)
    object mj_number_matrixmultiply "PyNumber_MatrixMultiply"(object, object)
    object mj_number_lshift "PyNumber_Lshift"(object, object)
    object mj_number_rshift "PyNumber_Rshift"(object, object)
    object mj_number_and "PyNumber_And"(object, object)
    object mj_number_or "PyNumber_Or"(object, object)
    object mj_number_xor "PyNumber_Xor"(object, object)
    object mj_number_inplace_add "mj_fast_inplace_add"(object, object)
    object mj_number_inplace_subtract "mj_fast_inplace_subtract"(object, object)
    object mj_number_inplace_multiply "mj_fast_inplace_multiply"(object, object)
    object mj_number_inplace_truedivide "mj_fast_inplace_truedivide"(object, object)
    object mj_number_inplace_floordivide "PyNumber_InPlaceFloorDivide"(object, object)
    object mj_number_inplace_remainder "PyNumber_InPlaceRemainder"(object, object)
    object mj_number_inplace_power "PyNumber_InPlacePower"(object, object, object)
    object mj_number_inplace_matrixmultiply "PyNumber_InPlaceMatrixMultiply"(object, object)
    object mj_number_inplace_lshift "PyNumber_InPlaceLshift"(object, object)
    object mj_number_inplace_rshift "PyNumber_InPlaceRshift"(object, object)
    object mj_number_inplace_and "PyNumber_InPlaceAnd"(object, object)
    object mj_number_inplace_or "PyNumber_InPlaceOr"(object, object)
    object mj_number_inplace_xor "PyNumber_InPlaceXor"(object, object)

cdef inline Py_ssize_t _mj_category_code(Py_UCS4 ch) noexcept:
    return mj_ascii_category_codes[ch] if ch < 128 else mj_category_code(ch)

cdef object _MJ_UNBOUND = _MJ_RT_UNBOUND
cdef int _mj_call_ticks = MJ_TICK_EVERY       # the entries' countdown (emit.CALLING_OPS)
cdef object _MJ_STOP = _MJ_RT_STOP
cdef dict _g = {}
cdef dict _b = {}
cdef tuple _cl = ()


cdef extern from *:
    # Defined in the C by moshjit's build (runtime/toolchain.py, with_user_frames).
    int mj_set_source(object filename, object function, tuple lines) except -1


def _mj_setup(tuple state):
    """Bind the module's state and name the user's source, in one call (each further ``def`` costs the C compiler
    its argument parsing): (globals dict, builtins dict, closure cells, constants, then the file, the function
    and the lines traceback entries show: default, then .pyx/user pairs)."""
    global _g, _b, _cl
    _g, _b, _cl = state[0], state[1], state[2]
    _mj_set_constants(state[3])
    mj_set_source(state[4], state[5], state[6])
'''
# The str equality function this CPython exports (3.13 exports it without declaring it in Python.h).
_DECLARATION = "" if UNICODE_EQUAL == "_PyUnicode_EQ" else f"int {UNICODE_EQUAL}(PyObject *, PyObject *);"
PRELUDE = PRELUDE.replace("MJ_UNICODE_EQUAL", UNICODE_EQUAL).replace("MJ_DECLARE_UNICODE_EQUAL", _DECLARATION)
_ASCII_CATEGORY_CODES = ",".join(str(CATEGORY_CODES[unicodedata.category(chr(cp))]) for cp in range(128))
PRELUDE = PRELUDE.replace("MJ_ASCII_CATEGORY_CODES", _ASCII_CATEGORY_CODES)
PRELUDE = PRELUDE.replace("MJ_TICK_EVERY", str(TICK_EVERY))
MAX_JOINED_PARTS = 16          # f-strings of at most this many parts are joined by ``mj_join_strs<n>``
_JOINED = range(2, MAX_JOINED_PARTS + 1)
PRELUDE = PRELUDE.replace("MJ_JOIN_MACROS\n", "".join(
    f"    #define mj_join_strs{n}({', '.join(f'a{i}' for i in range(n))}) "
    f"mj_join_array((PyObject *const []){{{', '.join(f'a{i}' for i in range(n))}}}, {n})\n" for n in _JOINED))
PRELUDE = PRELUDE.replace("MJ_JOIN_DECLARATIONS\n", "".join(
    f"    str mj_join_strs{n}({', '.join(['object'] * n)})\n" for n in _JOINED))
PRELUDE = PRELUDE.replace("MJ_NUMBER_FAST_PATHS\n", NUMBER_FAST_PATHS_C.lstrip("\n"))
PRELUDE = PRELUDE.replace("    MJ_REFERENCE_COUNTS\n", REFERENCE_COUNTS_C.lstrip("\n"))

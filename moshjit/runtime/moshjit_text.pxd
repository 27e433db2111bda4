# Declarations of moshjit_text for generated modules (`from moshjit_text cimport ...`): str views and native dict
# lookups (moshjit_text.pyx), and the inline helpers that build a list of known size in one go (list_builds.py).
from cpython.object cimport PyObject

cdef extern from "Python.h":
    Py_UCS4 mj_str_char "PyUnicode_READ_CHAR"(object s, Py_ssize_t index) noexcept   # index < len(s)
    int PySlice_AdjustIndices "PySlice_AdjustIndices"(Py_ssize_t length, Py_ssize_t *start, Py_ssize_t *stop,
                                                      Py_ssize_t step)
    Py_ssize_t PY_SSIZE_T_MAX


# ``prefix + base[start:stop]`` not yet built (prefix NULL: no prefix). The pointers are borrowed: the generated
# code keeps the base and the prefix in variables of their own for as long as the view is live.
ctypedef struct MjStrView:
    PyObject *base
    PyObject *prefix
    Py_ssize_t start
    Py_ssize_t stop


cdef inline MjStrView mj_view_slice(str base, Py_ssize_t start, Py_ssize_t stop) noexcept:
    """``base[start:stop]`` (indices as CPython's slice adjusts them; PY_SSIZE_T_MAX for an omitted stop)."""
    cdef MjStrView view
    cdef Py_ssize_t length = len(base)
    if not (0 <= start <= stop <= length):         # in range already (WordPiece's probes): nothing to adjust
        PySlice_AdjustIndices(length, &start, &stop, 1)
    view.base = <PyObject *>base
    view.prefix = NULL
    view.start = start
    view.stop = stop if stop > start else start
    return view


cdef inline MjStrView mj_view_prefixed(str prefix, MjStrView view) noexcept:
    """``prefix + view`` for a view without a prefix."""
    view.prefix = <PyObject *>prefix
    return view


cdef str mj_view_str(MjStrView view)
cdef bint mj_view_in_dict(object d, MjStrView view) except -1
cdef bint mj_str_in_dict(object d, str key) except -1
cdef object mj_dict_get_str(dict d, str key, object default)
cdef object mj_dict_getitem_str(object d, str key)
cdef object mj_getitem_any(object d, object key)


cdef extern from *:
    """
    /* [x] * n, a + b, ... built as one list of the final size (backends/cython/list_builds.py). */
    static inline Py_ssize_t mj_clamp_count(Py_ssize_t n) { return n > 0 ? n : 0; }
    static Py_ssize_t mj_repeat_count(PyObject *count) {     /* as CPython's sequence repeat converts it */
        Py_ssize_t n = PyNumber_AsSsize_t(count, PyExc_OverflowError);
        if (n == -1 && PyErr_Occurred()) return -1;
        return n > 0 ? n : 0;
    }
    static inline Py_ssize_t mj_concat_size(Py_ssize_t a, Py_ssize_t b) {      /* list_concat's check */
        if (a > PY_SSIZE_T_MAX - b) { PyErr_NoMemory(); return -1; }
        return a + b;
    }
    static inline Py_ssize_t mj_fill_list(PyObject *dst, Py_ssize_t at, PyObject *src) {
        Py_ssize_t i, n = PyList_GET_SIZE(src);
        for (i = 0; i < n; i++) {
            PyObject *item = PyList_GET_ITEM(src, i);
            Py_INCREF(item);
            PyList_SET_ITEM(dst, at + i, item);
        }
        return at + n;
    }
    static inline Py_ssize_t mj_fill_repeat(PyObject *dst, Py_ssize_t at, PyObject *item, Py_ssize_t count) {
        Py_ssize_t i;
        for (i = 0; i < count; i++) {
            Py_INCREF(item);
            PyList_SET_ITEM(dst, at + i, item);
        }
        return at + count;
    }
    """
    Py_ssize_t mj_clamp_count(Py_ssize_t n) noexcept
    Py_ssize_t mj_repeat_count(object count) except -1
    Py_ssize_t mj_concat_size(Py_ssize_t a, Py_ssize_t b) except -1
    list mj_list_of_size "PyList_New"(Py_ssize_t size)
    Py_ssize_t mj_fill_list(object dst, Py_ssize_t at, object src) noexcept
    Py_ssize_t mj_fill_repeat(object dst, Py_ssize_t at, object item, Py_ssize_t count) noexcept

# Declarations of moshjit_text for generated modules (`from moshjit_text cimport ...`).
from cpython.object cimport PyObject

cdef extern from "Python.h":
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
    PySlice_AdjustIndices(len(base), &start, &stop, 1)
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
cdef bint mj_view_in_dict(dict d, MjStrView view) except -1
cdef bint mj_str_in_dict(dict d, str key) except -1
cdef object mj_dict_get_str(dict d, str key, object default)
cdef object mj_dict_getitem_str(dict d, str key)

# cython: language_level=3, boundscheck=False, wraparound=False, binding=False
"""moshjit_dispatch: the C-level call path of ``@jit`` functions.

``DispatcherCore.__call__`` classifies the arguments (exact type; ints split by "fits in int64", strs by "one
character"), looks the signature up and calls the native entry with the same argument tuple. Binding keyword
arguments and defaults, and compiling a new signature, are left to the Python subclass (``_bind``,
``_specialize``).
"""
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.dict cimport PyDict_GetItem
from cpython.ref cimport PyObject

cdef str INT64 = "int64"
cdef str CHAR = "char"


cdef str TUPLE = "tuple"
cdef Py_ssize_t MAX_TYPED_TUPLE = 8


cdef object kind_of(object value):
    """Same classification as ``moshjit.dispatcher.key_of`` (keep the two in step)."""
    cdef int overflow = 0
    cdef type kind = type(value)
    if kind is int:
        PyLong_AsLongLongAndOverflow(value, &overflow)
        return INT64 if overflow == 0 else int
    if kind is str:
        return CHAR if len(<str>value) == 1 else str
    if kind is tuple and len(<tuple>value) <= MAX_TYPED_TUPLE:
        return (TUPLE,) + tuple([kind_of(item) for item in <tuple>value])
    if kind.__name__ == "ndarray":
        from moshjit.dispatcher import array_key
        return array_key(value, kind)
    return kind


cdef class DispatcherCore:
    cdef public dict _entries
    cdef public Py_ssize_t _positional_count
    cdef tuple _last_key                   # the signature of the previous call, and its entry
    cdef object _last_entry

    def __cinit__(self, *args, **kwargs):
        self._entries = {}
        self._positional_count = -1

    def __call__(self, *args, **kwargs):
        cdef Py_ssize_t n = len(args), i
        cdef tuple key
        cdef PyObject *found
        if not kwargs and n == self._positional_count and self._last_key is not None:
            for i in range(n):             # same kinds as last time (identity of types / interned names)?
                if kind_of(args[i]) is not (<tuple>self._last_key)[i]:
                    break
            else:
                return mj_vectorcall(self._last_entry, args)
        if kwargs or n != self._positional_count:
            args = self._bind(args, kwargs)
            n = len(args)
        key = PyTuple_New_filled(n)          # filled in place: nobody else holds it yet
        for i in range(n):
            _set_item(key, i, kind_of(args[i]))
        found = PyDict_GetItem(self._entries, key)
        if found is NULL:
            entry = self._specialize(key)
        else:
            entry = <object>found
        if not kwargs:
            self._last_key, self._last_entry = key, entry
        return mj_vectorcall(entry, args)


cdef extern from *:
    """
    /* Call with the tuple's items as a vector: compiled entries take vectorcall, so no argument re-packing. */
    static PyObject *mj_vectorcall(PyObject *callable, PyObject *args) {
        return PyObject_Vectorcall(callable, &PyTuple_GET_ITEM(args, 0), PyTuple_GET_SIZE(args), NULL);
    }
    static PyObject *PyTuple_New_filled(Py_ssize_t n) {
        PyObject *t = PyTuple_New(n);
        Py_ssize_t i;
        if (t == NULL) return NULL;
        for (i = 0; i < n; i++) { Py_INCREF(Py_None); PyTuple_SET_ITEM(t, i, Py_None); }
        return t;
    }
    static int _set_item(PyObject *t, Py_ssize_t i, PyObject *v) {
        PyObject *old = PyTuple_GET_ITEM(t, i);
        Py_INCREF(v);
        PyTuple_SET_ITEM(t, i, v);
        Py_XDECREF(old);
        return 0;
    }
    """
    tuple PyTuple_New_filled(Py_ssize_t n)
    object mj_vectorcall(object callable, tuple args)
    int _set_item(tuple t, Py_ssize_t i, object v) except -1

# Declarations of moshjit_match for generated modules (`from moshjit.runtime.moshjit_match cimport ClassDispatch`).
from cpython.object cimport PyObject


cdef enum:
    MAX_CLASSES = 8


cdef class ArgsSite:
    cdef readonly tuple guess
    cdef readonly object missing
    cdef object admitted_class
    cdef unsigned int admitted_tag


cdef class ClassDispatch:
    cdef dict module_globals
    cdef readonly tuple names
    cdef readonly tuple guards               # per class: its ArgsSite, or None
    cdef list classes                        # what the names held at ``globals_tag`` (None: not usable)
    cdef unsigned long long globals_tag
    cdef Py_ssize_t count
    cdef PyObject *class_at[MAX_CLASSES]     # borrowed from ``classes``
    cdef unsigned int checked_tag[MAX_CLASSES]  # the class's tag when its instances were last found decidable
    cdef tuple answers

    cdef bint _resolve(self)
    cdef bint _decidable(self, Py_ssize_t index)
    cdef Py_ssize_t index(self, object subject) except -1

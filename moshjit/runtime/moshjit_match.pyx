# cython: language_level=3, boundscheck=False, wraparound=False, binding=False
"""moshjit_match: the ``__match_args__`` guard of rewritten class patterns (``moshjit.extensions``), in C.

A positional class pattern whose class's ``__match_args__`` the rewrite guessed loads attributes by name when
the class's ``__match_args__`` is exactly the guessed tuple. CPython reads ``C.__match_args__`` at every match;
for a class whose metaclass is exactly ``type`` that read runs no user code and its result depends only on the
dicts of the class's MRO, which cannot change while the class keeps its version tag (any change to the class
or a base gives it a new one). So ``C in site`` (one ``sq_contains`` slot call, no attribute read) answers
"a read now would give the guessed tuple" for the class and version tag a read was last admitted at; anything
else reads the attribute as CPython does (``site.read(C)``). ``moshjit.extensions.runtime.PyArgsSite`` is the
same in Python, for an installation without this module.
"""
from cpython.object cimport PyObject, PyTypeObject

cdef extern from *:
    """
    #include <Python.h>
    /* cls's version tag when its metaclass is exactly type (0: none, or another metaclass) */
    static unsigned int mj_plain_class_tag(PyObject *cls) {
        if (!Py_IS_TYPE(cls, &PyType_Type)) return 0;
        return ((PyTypeObject *)cls)->tp_version_tag;
    }
    /* whether type.__getattribute__(cls, name) is the plain MRO value `value` (type has no such attribute) */
    static int mj_plain_class_value(PyObject *cls, PyObject *name, PyObject *value) {
        return _PyType_Lookup(&PyType_Type, name) == NULL && _PyType_Lookup((PyTypeObject *)cls, name) == value;
    }
    /* cls.<name> as CPython's MATCH_CLASS reads __match_args__: `missing` if that raised AttributeError */
    static PyObject *mj_read_match_args(PyObject *cls, PyObject *name, PyObject *missing) {
        PyObject *value = PyObject_GetAttr(cls, name);
        if (value == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            Py_INCREF(missing);
            return missing;
        }
        return value;
    }
    """
    unsigned int mj_plain_class_tag(object cls)
    bint mj_plain_class_value(object cls, object name, object value)
    object mj_read_match_args(object cls, object name, object missing)

cdef str MATCH_ARGS = "__match_args__"


cdef class ArgsSite:
    """The guard of one class's patterns: ``guess`` is the ``__match_args__`` the rewrite read from the source,
    ``missing`` what a read gives for a class without one (``match_reference.NO_MATCH_ARGS``)."""

    cdef readonly tuple guess
    cdef readonly object missing
    cdef object admitted_class
    cdef unsigned int admitted_tag

    __moshjit_constant__ = True     # a site is made once, at its module's import: @jit binds it (resolve_globals)

    def __init__(self, tuple guess, missing):
        self.guess = guess
        self.missing = missing
        self.admitted_class = None
        self.admitted_tag = 0

    def __reduce__(self):
        """A copy in another process starts afresh: a class and version tag mean nothing there."""
        return ArgsSite, (self.guess, self.missing)

    def __contains__(self, cls):
        """True only if ``cls`` is the class last admitted and still has the version tag it had then."""
        return (cls is self.admitted_class and self.admitted_tag != 0
                and mj_plain_class_tag(cls) == self.admitted_tag)

    def accepts(self, match_args):
        """Whether ``match_args`` (a value of ``__match_args__``) is the guess: an exact tuple of exact strings."""
        cdef Py_ssize_t i, n = len(self.guess)
        if type(match_args) is not tuple or len(<tuple>match_args) != n:
            return False
        for i in range(n):
            item = (<tuple>match_args)[i]
            if type(item) is not str or item != self.guess[i]:
                return False
        return True

    def read(self, cls):
        """``cls.__match_args__`` read as CPython's MATCH_CLASS reads it: True if it is the guess (remembered for
        ``in`` when the read could not observe anything), else ``(value,)`` (``missing`` if there is none)."""
        cdef unsigned int before = mj_plain_class_tag(cls)
        value = mj_read_match_args(cls, MATCH_ARGS, self.missing)
        if value is self.missing or not self.accepts(value):
            return (value,)
        if before != 0 and mj_plain_class_tag(cls) == before and mj_plain_class_value(cls, MATCH_ARGS, value):
            self.admitted_class = cls
            self.admitted_tag = before
        return True

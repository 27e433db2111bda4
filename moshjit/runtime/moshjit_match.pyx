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
cdef str CLASS = "__class__"


cdef class ArgsSite:
    """The guard of one class's patterns: ``guess`` is the ``__match_args__`` the rewrite read from the source,
    ``missing`` what a read gives for a class without one (``match_reference.NO_MATCH_ARGS``)."""

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


cdef extern from *:
    """
    /* the version tag of a dict (PEP 509), or 0 where CPython has none (3.14+: then nothing is dispatched) */
    static unsigned long long mj_dict_tag(PyObject *d) {
    #if PY_VERSION_HEX < 0x030E0000
        return ((PyDictObject *)d)->ma_version_tag;
    #else
        return 0;
    #endif
    }
    /* cls's version tag, assigned now if it has none (0: the class cannot have one) */
    static unsigned int mj_type_tag(PyObject *cls, PyObject *name) {
        PyTypeObject *type = (PyTypeObject *)cls;
        if (type->tp_version_tag == 0) {  /* PyType_Modified sets it to 0 (3.13 no longer sets a flag) */
            (void)_PyType_Lookup(type, name);  /* a lookup through the type cache assigns one */
        }
        return type->tp_version_tag;
    }
    /* whether a failed isinstance(x, C) of an instance of `type` reads x.__class__ without running user code:
       the type's attribute lookup is the generic one and its __class__ is object's own descriptor */
    static int mj_plain_class_read(PyObject *type, PyObject *name) {
        PyObject *object_class;
        if (((PyTypeObject *)type)->tp_getattro != PyObject_GenericGetAttr) return 0;
        object_class = _PyType_Lookup(&PyBaseObject_Type, name);
        return object_class != NULL && _PyType_Lookup((PyTypeObject *)type, name) == object_class;
    }
    static int mj_is_subtype(PyObject *a, PyObject *b) {
        return PyType_IsSubtype((PyTypeObject *)a, (PyTypeObject *)b);
    }
    static PyObject *mj_type_of(PyObject *o) { return (PyObject *)Py_TYPE(o); }
    static PyObject *mj_dict_get(PyObject *d, PyObject *key) { return PyDict_GetItemWithError(d, key); }
    """
    unsigned long long mj_dict_tag(object d)
    unsigned int mj_type_tag(object cls, object name)
    bint mj_plain_class_read(object type, object name)
    bint mj_is_subtype(object a, object b)
    PyObject *mj_type_of(object o)
    PyObject *mj_dict_get(object d, object key) except? NULL


cdef class ClassDispatch:
    """The class tests at the top of one match, answered at once: ``dispatch[s]`` is ``i`` (from 1) when the
    type of ``s`` is exactly the ``i``-th class (so ``isinstance(s, C_i)`` holds without calling anything),
    ``isinstance(s, C_j)`` is false for every other class without running user code, and the ``i``-th class's
    guard (its ``ArgsSite``, if its patterns have one) would pass without reading ``__match_args__``; else 0
    (the generated code then makes the tests one by one). The classes are the module globals ``names`` of
    ``module_globals``, looked up again whenever that dict's version tag (PEP 509) changes; at most
    ``MAX_CLASSES`` (8) of them."""

    # attributes in moshjit_match.pxd (generated modules call ``index`` directly)
    __moshjit_constant__ = True     # made once, at its module's import: @jit binds it (resolve_globals)
    __moshjit_index_range__ = (0, MAX_CLASSES)  # ``dispatch[s]`` is an int in this range (typeinfer)

    def __init__(self, module_globals, tuple names, tuple guards):
        if len(names) > MAX_CLASSES or len(guards) != len(names):
            raise ValueError(f"a ClassDispatch takes up to {MAX_CLASSES} class names and one guard (or None) each")
        if not all(guard is None or isinstance(guard, ArgsSite) for guard in guards):
            raise TypeError("a ClassDispatch's guards are ArgsSites or None")
        # a dict subclass may look names up its own way (LOAD_GLOBAL calls its __getitem__): never answer there
        self.module_globals = module_globals if type(module_globals) is dict else {}
        self.names = names
        self.guards = guards
        self.count = len(names)
        self.classes = None
        self.globals_tag = 0
        self.answers = tuple(range(len(names) + 1))
        for i in range(MAX_CLASSES):
            self.class_at[i] = NULL
            self.checked_tag[i] = 0

    def __reduce__(self):
        """A copy in another process knows no module's globals: it answers 0 (every test made) for good."""
        return ClassDispatch, ({}, self.names, self.guards)

    cdef bint _resolve(self):
        """Look the names up again: usable only if each is a module global holding a class whose metaclass is
        exactly ``type`` (no ``__instancecheck__`` to call). What was checked stays only if every class is the same."""
        cdef PyObject *found
        cdef Py_ssize_t i
        cdef unsigned long long tag = mj_dict_tag(self.module_globals)
        self.globals_tag = tag
        previous, self.classes = self.classes, None
        if tag == 0:
            return False
        classes = []
        for name in self.names:
            found = mj_dict_get(self.module_globals, name)
            if found == NULL or type(<object>found) is not type:
                return False
            classes.append(<object>found)
        changed = previous is None or any(previous[i] is not classes[i] for i in range(self.count))
        for i in range(self.count):
            if changed:  # what was checked depends on every class
                self.checked_tag[i] = 0
            self.class_at[i] = <PyObject *>classes[i]
        self.classes = classes
        return True

    cdef bint _decidable(self, Py_ssize_t index):
        """Whether instances of exactly the ``index``-th class fail every other class's ``isinstance`` without
        running user code: not a subclass of any, and ``x.__class__`` (read by a failing ``isinstance``) is
        object's own descriptor found by the generic attribute lookup."""
        cdef Py_ssize_t j
        cdef object cls = <object>self.class_at[index]
        if not mj_plain_class_read(cls, CLASS):
            return False
        for j in range(self.count):
            if j != index and mj_is_subtype(cls, <object>self.class_at[j]):
                return False
        return True

    def __getitem__(self, subject):
        return self.answers[self.index(subject)]

    cdef Py_ssize_t index(self, object subject) except -1:
        """``self[subject]`` as a C integer: compiled code calls this instead of the subscript."""
        cdef PyObject *subject_type = mj_type_of(subject)
        cdef Py_ssize_t i
        cdef unsigned int tag
        cdef ArgsSite site
        if mj_dict_tag(self.module_globals) != self.globals_tag:
            self._resolve()
        if self.classes is None:
            return 0
        for i in range(self.count):
            if self.class_at[i] == subject_type:
                break
        else:
            return 0
        tag = mj_type_tag(<object>subject_type, CLASS)
        if tag == 0:
            return 0
        if tag != self.checked_tag[i]:
            if not self._decidable(i):
                return 0
            self.checked_tag[i] = tag
        guard = self.guards[i]
        if guard is not None:
            site = <ArgsSite>guard
            if not (<object>subject_type is site.admitted_class and site.admitted_tag == tag):
                return 0
        return i + 1


cdef class ClassGuard:
    """The class test and ``__match_args__`` guard of a nested class pattern, at once: ``v in guard`` is True when
    the type of ``v`` is exactly the class the module global ``name`` holds (so ``isinstance(v, C)`` holds
    without calling anything) and the class's ``ArgsSite`` would pass without reading ``__match_args__``; else
    False (the generated code then makes both tests). The name is looked up again whenever the module dict's
    version tag (PEP 509) changes."""

    cdef dict module_globals
    cdef readonly str name
    cdef readonly ArgsSite site
    cdef object resolved                     # what the name held at ``globals_tag`` (None: not usable)
    cdef unsigned long long globals_tag

    __moshjit_constant__ = True     # made once, at its module's import: @jit binds it (resolve_globals)

    def __init__(self, module_globals, str name, ArgsSite site not None):
        # a dict subclass may look names up its own way (LOAD_GLOBAL calls its __getitem__): never answer there
        self.module_globals = module_globals if type(module_globals) is dict else {}
        self.name = name
        self.site = site
        self.resolved = None
        self.globals_tag = 0

    def __reduce__(self):
        """A copy in another process knows no module's globals: it answers False (both tests made) for good."""
        return ClassGuard, ({}, self.name, self.site)

    def __contains__(self, subject):
        cdef PyObject *found
        cdef unsigned long long tag = mj_dict_tag(self.module_globals)
        if tag != self.globals_tag:
            self.globals_tag = tag
            found = mj_dict_get(self.module_globals, self.name)
            self.resolved = <object>found if tag != 0 and found != NULL and type(<object>found) is type else None
        cls = self.resolved
        if cls is None or mj_type_of(subject) != <PyObject *>cls:
            return False
        return (cls is self.site.admitted_class and self.site.admitted_tag != 0
                and mj_plain_class_tag(cls) == self.site.admitted_tag)

# cython: language_level=3, boundscheck=True, wraparound=True, cdivision=False, binding=False
"""moshjit_rt: runtime helpers shared by every generated module (cimported through moshjit_rt.pxd).

They reproduce what CPython's bytecode does where Cython's own code would differ: exact error messages of
unpacking, ``[*x]``, ``{**x}`` and ``f(**x)``; special-method lookup for ``with``; the handled-exception state.
"""
cimport cython
from cpython.dict cimport PyDict_Update

cdef extern from *:
    """
    #include <Python.h>
    static PyObject* mj_get_handled(void) {
        PyObject *e = PyErr_GetHandledException();
        if (e == NULL) { Py_RETURN_NONE; }
        return e;
    }
    static void mj_set_handled_impl(PyObject *e) { PyErr_SetHandledException(e == Py_None ? NULL : e); }
    """
    object mj_get_handled()
    void mj_set_handled_impl(object)

cdef extern from "moshjit_unicode.h":
    int MJ_CATEGORY_COUNT
    const char *mj_category_names[]
    unsigned char mj_category_id(Py_UCS4 ch)

import sys as _sys

cdef tuple _CATEGORY_NAMES = tuple(_sys.intern(mj_category_names[i].decode("ascii"))
                                   for i in range(MJ_CATEGORY_COUNT))


cdef str mj_category(Py_UCS4 ch):
    """unicodedata.category for one character: an interned string from a table built from unicodedata."""
    return <str>_CATEGORY_NAMES[mj_category_id(ch)]


cdef Py_ssize_t mj_category_code(Py_UCS4 ch) noexcept:
    """primitives.unicode_categories.category_code for one character: its category's code, from the table."""
    return mj_category_id(ch)


from cpython.long cimport PyLong_AsLongAndOverflow, PyLong_AsLongLongAndOverflow
from cpython.number cimport PyNumber_Add
from libc.limits cimport LONG_MAX, LONG_MIN
from libc.math cimport fabs, isfinite
from cpython.mem cimport PyMem_Malloc, PyMem_Realloc, PyMem_Free
from libc.string cimport memcpy
from cpython.cellobject cimport PyCell_New, PyCell_Set
from cpython.object cimport PyObject, Py_EQ, Py_NE
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

cdef extern from "Python.h":
    PyObject *_mj_cell_ref "PyCell_GET"(object cell)     # borrowed; NULL when the cell is empty, no error set

cdef extern from "Python.h":
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND


cdef extern from *:
    """
    /* The str of n code points whose bitwise or is bits, exactly as CPython builds it from them: the kind is the
       smallest that holds every code point (or-ing keeps each power-of-two threshold: all below 2**k iff the or
       is), and an empty or one-character result is CPython's shared object, as PyUnicode_FromKindAndData gives. */
    static PyObject *mj_chars_to_str(const Py_UCS4 *data, Py_ssize_t n, unsigned int bits) {
        PyObject *s;
        Py_ssize_t i;
        if (n <= 1) return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, data, n);
        s = PyUnicode_New(n, bits > 0xFFFF ? 0x10FFFF : bits);
        if (s == NULL) return NULL;
        switch (PyUnicode_KIND(s)) {
        case PyUnicode_1BYTE_KIND: {
            Py_UCS1 *out = PyUnicode_1BYTE_DATA(s);
            for (i = 0; i < n; i++) out[i] = (Py_UCS1)data[i];
            break;
        }
        case PyUnicode_2BYTE_KIND: {
            Py_UCS2 *out = PyUnicode_2BYTE_DATA(s);
            for (i = 0; i < n; i++) out[i] = (Py_UCS2)data[i];
            break;
        }
        default:
            memcpy(PyUnicode_4BYTE_DATA(s), data, (size_t)n * sizeof(Py_UCS4));
        }
        return s;
    }
    """
    object mj_chars_to_str(const Py_UCS4 *data, Py_ssize_t n, unsigned int bits)


cdef enum:
    MJ_SUM_INTS = 0
    MJ_SUM_FLOATS = 1
    MJ_SUM_GENERIC = 2


@cython.final
@cython.freelist(8)
cdef class Summation:
    """``primitives.summation.Summation`` in C: CPython 3.12+'s ``sum()`` loop (``builtin_sum_impl``) one item at a
    time, for the generated code of an inlined ``sum(generator)``. Exact ints in a C long, then doubles with
    Neumaier's compensation, then plain ``+`` for good; no interpreted method call per item. Additions of objects
    call PyNumber_Add itself: Cython's inline int/float paths return the other operand for a 0 (``0 + -0.0`` would
    be ``-0.0``, CPython's is ``0.0``)."""

    def __init__(self, start):
        cdef int overflow = 0
        self.total = start
        self.compensation = 0.0
        self.phase = MJ_SUM_GENERIC
        if type(start) is int:
            self.int_total = PyLong_AsLongAndOverflow(start, &overflow)
            if not overflow:
                self.phase = MJ_SUM_INTS
        elif type(start) is float:
            self.float_total = <double>start
            self.phase = MJ_SUM_FLOATS

    cdef int add(self, object item) except -1:
        cdef int overflow = 0
        cdef long value
        cdef double x, t
        if self.phase == MJ_SUM_INTS:
            if type(item) is int or type(item) is bool:
                value = PyLong_AsLongAndOverflow(item, &overflow)
                if not overflow and (value <= LONG_MAX - self.int_total if self.int_total >= 0
                                     else value >= LONG_MIN - self.int_total):
                    self.int_total += value
                    return 0
            self.total = PyNumber_Add(self.int_total, item)
            if type(self.total) is float:
                self.float_total = <double>self.total
                self.compensation = 0.0
                self.phase = MJ_SUM_FLOATS
            else:
                self.phase = MJ_SUM_GENERIC
            return 0
        if self.phase == MJ_SUM_FLOATS:
            if type(item) is float:
                x = <double>item
                t = self.float_total + x
                if fabs(self.float_total) >= fabs(x):
                    self.compensation += (self.float_total - t) + x
                else:
                    self.compensation += (x - t) + self.float_total
                self.float_total = t
                return 0
            if isinstance(item, int):
                value = PyLong_AsLongAndOverflow(item, &overflow)
                if not overflow:
                    self.float_total += <double>value
                    return 0
            self.total = PyNumber_Add(self._compensated(), item)
            self.phase = MJ_SUM_GENERIC
            return 0
        self.total = PyNumber_Add(self.total, item)
        return 0

    cdef double _compensated(self):
        """The float total with the compensation added, unless that would turn inf or an overflow into nan."""
        if self.compensation != 0.0 and isfinite(self.compensation):
            return self.float_total + self.compensation
        return self.float_total

    cdef object result(self):
        if self.phase == MJ_SUM_INTS:
            return self.int_total
        if self.phase == MJ_SUM_FLOATS:
            return self._compensated()
        return self.total


@cython.final
@cython.freelist(16)
cdef class CharBuffer:
    """A list of characters that is only appended to, tested, measured and joined: kept as a Py_UCS4 array
    so no one-character string object is made per character. Short contents stay in the object itself and
    freed buffers are kept for reuse (one per word in the BERT pipeline: no allocation but the result's)."""

    def __cinit__(self):
        self.data = self.inline_data
        self.capacity = MJ_INLINE_CHARS
        self.length = 0
        self.bits = 0

    def __dealloc__(self):
        if self.data != self.inline_data:
            PyMem_Free(self.data)

    cdef int append(self, Py_UCS4 ch) except -1:
        cdef Py_UCS4 *grown
        if self.length == self.capacity:
            if self.data == self.inline_data:
                grown = <Py_UCS4 *>PyMem_Malloc(2 * self.capacity * sizeof(Py_UCS4))
                if grown is not NULL:
                    memcpy(grown, self.data, self.length * sizeof(Py_UCS4))
            else:
                grown = <Py_UCS4 *>PyMem_Realloc(self.data, 2 * self.capacity * sizeof(Py_UCS4))
            if grown is NULL:
                raise MemoryError()
            self.data = grown
            self.capacity *= 2
        self.data[self.length] = ch
        self.bits |= <unsigned int>ch
        self.length += 1
        return 0

    cdef str join(self):
        return <str>mj_chars_to_str(self.data, self.length, self.bits)


UNBOUND = object()
STOP = object()
cdef object _mj_missing = object()


cdef object mj_set_handled(object exc):
    mj_set_handled_impl(exc)


# The version tags generated modules give the dicts they write directly (an attribute stored at its hint in an
# instance dict, ``attribute_cache.py``): one counter for the process, so no two writes give one tag. It starts at
# 2**62, above any tag CPython's own counter reaches, and steps over the low 12 bits (3.12+'s watcher bits).
cdef unsigned long long _mj_dict_version_counter = 1ULL << 62


cdef unsigned long long *mj_dict_versions() noexcept:
    """The process-wide counter of the dict version tags generated code gives."""
    return &_mj_dict_version_counter


cdef bint _mj_is_int64(object value):
    """An int that fits a Py_ssize_t (what a global assumed to be a machine int must still hold)."""
    cdef int overflow = 0
    if type(value) is not int:
        return False
    PyLong_AsLongLongAndOverflow(value, &overflow)
    return overflow == 0


cdef object _mj_load_global(dict globals_, dict builtins_, str name):
    value = globals_.get(name, _mj_missing)
    if value is _mj_missing:
        value = builtins_.get(name, _mj_missing)
        if value is _mj_missing:
            raise NameError(f"name '{name}' is not defined", name=name)
    return value


cdef object _mj_load_deref(tuple closure, Py_ssize_t index, str name):
    cdef bint empty = False
    try:
        return closure[index].cell_contents
    except ValueError:
        empty = True
    if empty:                         # raised outside the except clause: no ValueError in the context chain
        raise NameError(f"cannot access free variable '{name}' where it is not associated with a value in "
                        f"enclosing scope", name=name)


cdef object _mj_cell_new(object initial):
    """A cell holding ``initial`` (MAKE_CELL of an argument or a bound variable)."""
    return PyCell_New(<PyObject *>initial)


cdef object _mj_cell_empty():
    """An empty cell (MAKE_CELL of a variable not bound yet)."""
    return PyCell_New(NULL)


cdef object _mj_cell_get(object cell, str name, bint free):
    """LOAD_DEREF of a cell: its contents, or CPython's error for an empty one."""
    cdef PyObject *value = _mj_cell_ref(cell)
    if value is NULL:
        if free:
            _mj_unbound_free(name)
        _mj_unbound_local(name)
    return <object>value


cdef object _mj_cell_set(object cell, object value):
    PyCell_Set(cell, <PyObject *>value)


cdef object _mj_cell_delete(object cell, str name, bint free):
    """DELETE_DEREF: empty the cell, raising as LOAD_DEREF does when it is empty already."""
    _mj_cell_get(cell, name, free)
    PyCell_Set(cell, NULL)


cdef object _mj_unbound_local(str name):
    raise UnboundLocalError(f"cannot access local variable '{name}' where it is not associated with a value")


cdef object _mj_unbound_free(str name):
    raise NameError(f"cannot access free variable '{name}' where it is not associated with a value in "
                    f"enclosing scope", name=name)


cdef tuple _mj_unpack(object seq, Py_ssize_t count):
    cdef Py_ssize_t n
    if type(seq) is tuple or type(seq) is list:
        n = len(seq)
        if n == count:
            return tuple(seq)
        if n < count:
            raise ValueError(f"not enough values to unpack (expected {count}, got {n})")
        raise ValueError(f"too many values to unpack (expected {count})")
    if not _mj_iterable(seq):
        raise TypeError(f"cannot unpack non-iterable {type(seq).__name__} object")
    it = iter(seq)
    items = []
    for item in it:
        if len(items) == count:
            raise ValueError(f"too many values to unpack (expected {count})")
        items.append(item)
    if len(items) < count:
        raise ValueError(f"not enough values to unpack (expected {count}, got {len(items)})")
    return tuple(items)


cdef bint _mj_iterable(object obj):
    """CPython's test before 'must be an iterable' errors: the type has __iter__ or is a sequence."""
    return getattr(type(obj), "__iter__", None) is not None or hasattr(type(obj), "__getitem__")


cdef tuple _mj_unpack_ex(object seq, Py_ssize_t before, Py_ssize_t after):
    cdef Py_ssize_t n, i
    cdef tuple out
    cdef object item
    if type(seq) is list or type(seq) is tuple:  # iterating them reads their items in order: read them directly
        n = len(seq)
        if n >= before + after:
            out = PyTuple_New(before + 1 + after)
            for i in range(before + 1 + after):
                if i < before:
                    item = seq[i]
                elif i == before:
                    item = (<list>seq)[before:n - after] if type(seq) is list else list((<tuple>seq)[before:n - after])
                else:
                    item = seq[n - after + i - before - 1]
                Py_INCREF(item)
                PyTuple_SET_ITEM(out, i, item)
            return out
    if not _mj_iterable(seq):
        raise TypeError(f"cannot unpack non-iterable {type(seq).__name__} object")
    it = iter(seq)
    head = []
    if before:
        for item in it:
            head.append(item)
            if len(head) == before:
                break
    if len(head) < before:
        raise ValueError(f"not enough values to unpack (expected at least {before + after}, got {len(head)})")
    rest = list(it)
    if len(rest) < after:
        raise ValueError(f"not enough values to unpack (expected at least {before + after}, "
                         f"got {before + len(rest)})")
    tail = rest[len(rest) - after:] if after else []
    if after:
        del rest[len(rest) - after:]
    return tuple(head) + (rest,) + tuple(tail)


cdef object _mj_list_extend(list target, object iterable):
    if not _mj_iterable(iterable):
        raise TypeError(f"Value after * must be an iterable, not {type(iterable).__name__}")
    target.extend(iterable)


cdef object _mj_call_ex(object func, object args, object kwargs):
    """func(*args, **kwargs) with CPython's CALL_FUNCTION_EX checks and messages."""
    if type(args) is not tuple:
        if not _mj_iterable(args):
            raise TypeError(f"{_mj_function_str(func)} argument after * must be an iterable, "
                            f"not {type(args).__name__}")
        args = tuple(args)
    if kwargs is None:
        return func(*args)
    if type(kwargs) is not dict:
        merged = {}
        _mj_merge(merged, kwargs, func, True)
        kwargs = merged
    return func(*args, **kwargs)


cdef str _mj_function_str(object func):
    try:
        qualname = func.__qualname__
    except AttributeError:
        return str(func)
    module = getattr(func, "__module__", None)
    if module is not None and module != "builtins":
        return f"{module}.{qualname}()"
    return f"{qualname}()"


cdef object _mj_merge(dict target, object other, object func, bint merge_kwargs):
    """DICT_UPDATE (``{**other}``) and DICT_MERGE (``f(**other)``, which refuses a key ``target`` already has)."""
    if type(other) is dict and (not merge_kwargs or not target):
        PyDict_Update(target, other)       # what both do for a dict, when no key can repeat: no view, no iterator
        return
    if type(other) is dict:
        items = (<dict>other).items()
    else:
        if not hasattr(type(other), "keys"):        # checked first: no AttributeError in the context chain
            if merge_kwargs:
                raise TypeError(f"{_mj_function_str(func)} argument after ** must be a mapping, "
                                f"not {type(other).__name__}")
            raise TypeError(f"'{type(other).__name__}' object is not a mapping")
        items = [(k, other[k]) for k in other.keys()]
    for key, value in items:
        if merge_kwargs and key in target:
            raise TypeError(f"{_mj_function_str(func)} got multiple values for keyword argument '{key}'")
        target[key] = value


cdef extern from *:
    """
    /* CPython's _PyObject_LookupSpecial: the attribute found on the type's MRO (not the instance), bound by its
       type's tp_descr_get if it has one; a new reference, ``missing`` (itself, held) when the MRO has none. */
    static PyObject *mj_lookup_special(PyObject *obj, PyObject *name, PyObject *missing) {
        PyObject *found = _PyType_Lookup(Py_TYPE(obj), name);
        descrgetfunc bind;
        if (found == NULL) {
            Py_INCREF(missing);
            return missing;
        }
        bind = Py_TYPE(found)->tp_descr_get;
        if (bind == NULL) {
            Py_INCREF(found);
            return found;
        }
        Py_INCREF(found);              /* binding may run code that takes it off the type */
        obj = bind(found, obj, (PyObject *)Py_TYPE(obj));
        Py_DECREF(found);
        return obj;
    }
    """
    object mj_lookup_special(object obj, object name, object missing)


cdef object _mj_lookup_special(object obj, str name):
    return mj_lookup_special(obj, name, _mj_missing)


cdef tuple _mj_before_with(object manager, bint asynchronous):
    """BEFORE_WITH / BEFORE_ASYNC_WITH: (bound ``__exit__``, what ``__enter__()`` returned), or ``__aexit__`` and
    ``__aenter__()``, with CPython's messages."""
    enter = _mj_lookup_special(manager, "__aenter__" if asynchronous else "__enter__")
    if enter is _mj_missing:
        _mj_not_a_manager(manager, asynchronous, "")
    exit_ = _mj_lookup_special(manager, "__aexit__" if asynchronous else "__exit__")
    if exit_ is _mj_missing:
        _mj_not_a_manager(manager, asynchronous, f" (missed __{'a' if asynchronous else ''}exit__ method)")
    return (exit_, enter())


cdef int _mj_not_a_manager(object manager, bint asynchronous, str missed) except -1:
    """CPython's TypeError for a ``with`` object lacking a method of the protocol (the type named as ``%.200s`` of
    its ``tp_name`` prints it)."""
    protocol = "asynchronous context manager" if asynchronous else "context manager"
    raise TypeError(f"'{_mj_tp_name(type(manager))[:200]}' object does not support the {protocol} protocol{missed}")


cdef extern from "Python.h":
    int PyErr_GivenExceptionMatches(object given, object exc)
    bint PyType_IsSubtype(type a, type b)


cdef bint _mj_exc_match(object exc, object match) except -1:
    """CHECK_EXC_MATCH: the MRO decides (PyType_IsSubtype), not isinstance or a metaclass's __instancecheck__."""
    if type(match) is tuple:
        for klass in <tuple>match:
            _mj_check_catchable(klass)
    else:
        _mj_check_catchable(match)
    return PyErr_GivenExceptionMatches(exc, match) != 0


cdef inline int _mj_check_catchable(object klass) except -1:
    if not (isinstance(klass, type) and PyType_IsSubtype(<type>klass, BaseException)):
        raise TypeError("catching classes that do not inherit from BaseException is not allowed")
    return 0


cdef object _mj_push_exc(object exc):
    previous = mj_get_handled()
    mj_set_handled(exc)
    return previous


cdef object _mj_reraise_handled():
    exc = mj_get_handled()
    if exc is None:
        raise RuntimeError("No active exception to reraise")
    raise exc


cdef object _mj_import_from(object module, str name):
    value = getattr(module, name, _mj_missing)
    if value is not _mj_missing:
        return value
    package = getattr(module, "__name__", None)
    import sys
    if isinstance(package, str) and f"{package}.{name}" in sys.modules:
        return sys.modules[f"{package}.{name}"]
    where = getattr(module, "__file__", None) or "unknown location"
    raise ImportError(f"cannot import name '{name}' from '{package}' ({where})", name=package,
                      path=getattr(module, "__file__", None))


cdef extern from *:
    """
    /* MAKE_FUNCTION as CPython's instruction does it: PyFunction_New (name and qualified name from the code,
       __module__ from the globals), then the defaults, keyword-only defaults and closure cells set as given
       (None: none). */
    static PyObject *mj_make_function(PyObject *code, PyObject *globals, PyObject *defaults, PyObject *kwdefaults,
                                      PyObject *closure) {
        PyObject *function = PyFunction_New(code, globals);
        if (function == NULL) return NULL;
        if ((defaults != Py_None && PyFunction_SetDefaults(function, defaults) < 0) ||
                (kwdefaults != Py_None && PyFunction_SetKwDefaults(function, kwdefaults) < 0) ||
                (closure != Py_None && PyFunction_SetClosure(function, closure) < 0)) {
            Py_DECREF(function);
            return NULL;
        }
        return function;
    }
    """
    object mj_make_function(object code, object globals_, object defaults, object kwdefaults, object closure)


cdef object _mj_make_function(object code, dict globals_, object defaults, object kwdefaults):
    """MAKE_FUNCTION: a plain Python function of ``code``, as CPython makes it."""
    return mj_make_function(code, globals_, defaults, kwdefaults, None)


cdef object _mj_make_closure(object code, dict globals_, object defaults, object kwdefaults, tuple closure):
    """MAKE_FUNCTION with a closure: a plain Python function sharing ``closure``'s cells, as CPython makes it."""
    return mj_make_function(code, globals_, defaults, kwdefaults, closure)


cdef object _mj_exception(object value, bint is_cause):
    """The exception ``raise value`` (or ``from value``) raises, with CPython's checks and messages."""
    if value is None and is_cause:
        return None
    if isinstance(value, type) and issubclass(value, BaseException):
        value = value()
        if not isinstance(value, BaseException):
            raise TypeError(f"calling {value!r} should have returned an instance of BaseException, not "
                            f"{type(value).__name__}")
        return value
    if isinstance(value, BaseException):
        return value
    raise TypeError("exception causes must derive from BaseException" if is_cause
                    else "exceptions must derive from BaseException")


cdef object _mj_range_check(Py_ssize_t step):
    if step == 0:
        raise ValueError("range() arg 3 must not be zero")


# ---- yield from and await: the checks of GET_YIELD_FROM_ITER and GET_AWAITABLE (ceval.c, genobject.c) ------------
from cpython.object cimport PyTypeObject
import types as _types
import inspect as _inspect

# C-level names: a module global read at each await would be a dict lookup on 3.12+ (no dict version tags there)
cdef type _CoroutineType = _types.CoroutineType
cdef type _GeneratorType = _types.GeneratorType
cdef long _CO_ITERABLE_COROUTINE = _inspect.CO_ITERABLE_COROUTINE

cdef extern from "Python.h":
    bint PyIter_Check(object)


async def _mj_coroutine_probe():
    """Made once, to learn the type of the coroutines that Cython modules make (they share one type)."""


_probe = _mj_coroutine_probe()
cdef type _MJ_CYTHON_COROUTINE = type(_probe)
_probe.close()
del _probe


cdef inline bint _mj_is_coroutine(object value):
    """A coroutine as GET_AWAITABLE sees one: native, Cython's (a jitted ``async def``'s, native in the plain
    program), or a generator of a ``@types.coroutine`` function."""
    kind = type(value)
    return (kind is _CoroutineType or kind is _MJ_CYTHON_COROUTINE
            or kind is _GeneratorType and value.gi_code.co_flags & _CO_ITERABLE_COROUTINE)


cdef object _mj_yield_from_iterable(object value):
    """``yield from value`` in a generator: CPython refuses a coroutine (Cython's ``yield from`` would iterate a
    native one's ``__iter__``-less object, or delegate to its own), then iterates anything else once, as Cython
    does."""
    kind = type(value)
    if kind is _CoroutineType or kind is _MJ_CYTHON_COROUTINE:
        raise TypeError("cannot 'yield from' a coroutine object in a non-coroutine generator")
    return value


@cython.final
cdef class _MjAwaitedIterator:
    """What Cython's ``await`` is given for an object whose ``__await__`` was already called: its iterator."""
    cdef object iterator

    def __await__(self):
        return self.iterator


cdef object _mj_awaitable(object value):
    """``await value`` as CPython's GET_AWAITABLE: a coroutine as it is (a native one that another coroutine is
    awaiting refused; Cython checks its own), else ``__await__()`` called once and its result checked, with
    CPython's messages. Cython's ``await`` then delegates to what this returns exactly as CPython's SEND would."""
    cdef _MjAwaitedIterator awaited
    if _mj_is_coroutine(value):
        if type(value) is _CoroutineType and value.cr_await is not None:
            raise RuntimeError("coroutine is being awaited already")
        return value
    method = _mj_lookup_special(value, "__await__")
    if method is _mj_missing:
        raise TypeError(f"object {_mj_tp_name(type(value))[:100]} can't be used in 'await' expression")
    iterator = method()
    if _mj_is_coroutine(iterator):
        raise TypeError("__await__() returned a coroutine")
    if not PyIter_Check(iterator):
        raise TypeError(f"__await__() returned non-iterator of type '{_mj_tp_name(type(iterator))[:100]}'")
    awaited = _MjAwaitedIterator.__new__(_MjAwaitedIterator)
    awaited.iterator = iterator
    return awaited


cdef object _mj_awaitable_in_with(object value, str method):
    """GET_AWAITABLE 1/2: ``_mj_awaitable`` for what ``async with`` got from ``method`` (``__aenter__`` or
    ``__aexit__``), whose TypeError for an object without ``__await__`` names the statement and the method."""
    if not _mj_is_coroutine(value) and _mj_lookup_special(value, "__await__") is _mj_missing:
        raise TypeError(f"'async with' received an object from {method} that does not implement __await__: "
                        f"{_mj_tp_name(type(value))[:100]}")
    return _mj_awaitable(value)


# ---- super(C, obj).name(...): super's lookup (typeobject.c, super_getattro) without the super object ---------------
cdef extern from *:
    """
    /* Call f with obj before the call's own arguments (args: positional then keyword values; kwnames or NULL). */
    static PyObject *mj_call_with_first(PyObject *f, PyObject *obj, PyObject *args, PyObject *kwnames) {
        PyObject *small[8], **stack = small, *result;
        Py_ssize_t i, n = PyTuple_GET_SIZE(args), npos = n - (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
        if (n + 1 > 8 && (stack = PyMem_Malloc((size_t)(n + 1) * sizeof(PyObject *))) == NULL)
            return PyErr_NoMemory();
        stack[0] = obj;
        for (i = 0; i < n; i++) stack[i + 1] = PyTuple_GET_ITEM(args, i);
        result = PyObject_Vectorcall(f, stack, (size_t)(npos + 1), kwnames);
        if (stack != small) PyMem_Free(stack);
        return result;
    }

    /* name in the class's own dict, borrowed (NULL: absent, or an error set). 3.12+ keeps the dicts of static
       builtin types (object, ...) per interpreter: their tp_dict is NULL. */
    static PyObject *mj_class_dict_item(PyTypeObject *type, PyObject *name) {
    #if PY_VERSION_HEX >= 0x030C0000
        PyObject *dict = PyType_GetDict(type), *found;
        if (dict == NULL) return NULL;
        found = PyDict_GetItemWithError(dict, name);
        Py_DECREF(dict);                    /* the type keeps it, and found in it */
        return found;
    #else
        return PyDict_GetItemWithError(type->tp_dict, name);
    #endif
    }

    /* super(cls, obj).name(*args): for an instance obj of the class cls, the first class after cls in type(obj)'s
       MRO that has the name gives the attribute, bound to obj as super binds it; a function or other method
       descriptor is called with obj first instead of being bound. Anything else (obj a class, not an instance of
       cls, cls not a class, the name nowhere after cls, or __class__, which super answers itself) goes through
       a real super object: the same result, the same errors. */
    static PyObject *mj_super_call_method(PyObject *cls, PyObject *obj, PyObject *name, PyObject *args,
                                          PyObject *kwnames) {
        PyTypeObject *start = Py_TYPE(obj);
        PyObject *mro, *found = NULL, *callable, *made, *result;
        Py_ssize_t i, n, npos;
        descrgetfunc get;
        if (PyTuple_GET_SIZE(kwnames) == 0) kwnames = NULL;
        npos = PyTuple_GET_SIZE(args) - (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
        if (PyType_Check(cls) && !PyType_Check(obj) && PyType_IsSubtype(start, (PyTypeObject *)cls)
                && (mro = start->tp_mro) != NULL && PyUnicode_CompareWithASCIIString(name, "__class__") != 0) {
            n = PyTuple_GET_SIZE(mro);
            for (i = 0; i + 1 < n; i++) if (PyTuple_GET_ITEM(mro, i) == cls) break;
            Py_INCREF(mro);                 /* a lookup may run code that replaces start's MRO */
            for (i++; i < n; i++) {
                found = mj_class_dict_item((PyTypeObject *)PyTuple_GET_ITEM(mro, i), name);
                if (found != NULL) break;
                if (PyErr_Occurred()) { Py_DECREF(mro); return NULL; }
            }
            Py_DECREF(mro);
            if (found != NULL) {
                Py_INCREF(found);
                if (PyType_HasFeature(Py_TYPE(found), Py_TPFLAGS_METHOD_DESCRIPTOR)) {
                    result = mj_call_with_first(found, obj, args, kwnames);
                    Py_DECREF(found);
                    return result;
                }
                get = Py_TYPE(found)->tp_descr_get;
                if (get != NULL) {
                    callable = get(found, obj, (PyObject *)start);
                    Py_DECREF(found);
                    if (callable == NULL) return NULL;
                } else {
                    callable = found;
                }
                result = PyObject_Vectorcall(callable, &PyTuple_GET_ITEM(args, 0), (size_t)npos, kwnames);
                Py_DECREF(callable);
                return result;
            }
        }
        made = PyObject_CallFunctionObjArgs((PyObject *)&PySuper_Type, cls, obj, NULL);
        if (made == NULL) return NULL;
        callable = PyObject_GetAttr(made, name);
        Py_DECREF(made);
        if (callable == NULL) return NULL;
        result = PyObject_Vectorcall(callable, &PyTuple_GET_ITEM(args, 0), (size_t)npos, kwnames);
        Py_DECREF(callable);
        return result;
    }
    """
    object mj_super_call_method(object, object, object, object, object)


cdef object _mj_super_call_method(object cls, object obj, str name, tuple args, tuple kwnames):
    """``super(cls, obj).name(*args)`` with the last ``len(kwnames)`` of args as keywords (``SuperCallMethod``)."""
    return mj_super_call_method(cls, obj, name, args, kwnames)


# ---- a tuple display compared with ==/!=: CPython's tuplerichcompare, without making the tuple ------------------

from cpython.object cimport PyObject_RichCompare, PyObject_RichCompareBool


cdef object _mj_display_compare(object a, object b, object c, Py_ssize_t n, object other, int op,
                                bint display_left):
    """``(a, b) == other`` (``c`` unused) or ``(a, b, c) != other``, ``op`` Py_EQ or Py_NE, the display on the
    left (else on the right): against an exact tuple, item by item as ``tuplerichcompare`` does (each pair through
    ``PyObject_RichCompareBool``, the left operand's item first, up to the first that differs, then the sizes);
    against anything else the display is made and compared as CPython would (a tuple subclass's ``__eq__``, a
    reflected ``__eq__``, ``NotImplemented``)."""
    cdef Py_ssize_t length, i
    cdef object mine
    if type(other) is not tuple:
        display = (a, b) if n == 2 else (a, b, c)
        return PyObject_RichCompare(display, other, op) if display_left else PyObject_RichCompare(other, display, op)
    length = len(<tuple>other)
    for i in range(n if n < length else length):
        mine = a if i == 0 else b if i == 1 else c
        if not (PyObject_RichCompareBool(mine, (<tuple>other)[i], Py_EQ) if display_left
                else PyObject_RichCompareBool((<tuple>other)[i], mine, Py_EQ)):
            return op == Py_NE
    return (n == length) == (op == Py_EQ)


# ---- structural pattern matching: CPython's match_class and match_keys (ceval.c), through the C API ----------------

cdef extern from "Python.h":
    unsigned long Py_TPFLAGS_HEAPTYPE
    unsigned long _Py_TPFLAGS_MATCH_SELF

cdef str _MJ_NOT_A_CLASS = ("called match pattern must be a type" if _sys.version_info < (3, 12)
                            else "called match pattern must be a class")
cdef object _mj_no_attribute = object()


cdef str _mj_tp_name(object cls):
    """``tp_name``, as CPython's messages print it with ``%s``."""
    return (<PyTypeObject*>cls).tp_name.decode("utf-8")


cdef object _mj_match_attribute(object subject, object cls, str name, set seen):
    if name in seen:
        raise TypeError(f"{_mj_tp_name(cls)}() got multiple sub-patterns for attribute {name!r}")
    seen.add(name)
    try:
        return getattr(subject, name)
    except AttributeError:
        return _mj_no_attribute


cdef object _mj_match_class(object subject, object cls, tuple names, Py_ssize_t count):
    """MATCH_CLASS: the tuple of attributes ``cls(<count positional>, *names)`` reads, or None (no match)."""
    cdef bint match_self = False
    cdef Py_ssize_t allowed
    if not isinstance(cls, type):
        raise TypeError(_MJ_NOT_A_CLASS)
    if not isinstance(subject, cls):
        return None
    seen = set()
    values = []
    if count:
        try:
            match_args = cls.__match_args__
        except AttributeError:
            match_args = ()
            match_self = ((<PyTypeObject*>cls).tp_flags & _Py_TPFLAGS_MATCH_SELF) != 0
        else:
            if type(match_args) is not tuple:
                raise TypeError(f"{_mj_tp_name(cls)}.__match_args__ must be a tuple (got "
                                f"{_mj_tp_name(type(match_args))})")
        allowed = 1 if match_self else len(<tuple>match_args)
        if allowed < count:
            raise TypeError(f"{_mj_tp_name(cls)}() accepts {allowed} positional sub-pattern"
                            f"{'' if allowed == 1 else 's'} ({count} given)")
        if match_self:
            values.append(subject)
        else:
            for name in (<tuple>match_args)[:count]:
                if type(name) is not str:
                    raise TypeError(f"__match_args__ elements must be strings (got {_mj_tp_name(type(name))})")
                value = _mj_match_attribute(subject, cls, <str>name, seen)
                if value is _mj_no_attribute:
                    return None
                values.append(value)
    for name in names:
        value = _mj_match_attribute(subject, cls, <str>name, seen)
        if value is _mj_no_attribute:
            return None
        values.append(value)
    return tuple(values)


cdef object _mj_match_keys(object subject, tuple keys):
    """MATCH_KEYS: ``subject.get(key, <missing>)`` for each key, or None at the first one missing."""
    if not keys:
        return ()
    get = subject.get
    seen = set()
    missing = object()
    values = []
    for key in keys:
        if isinstance(key, set):  # PySet_Contains hashes a set key (TypeError) where ``in`` tries a frozenset
            hash(key)
        if key in seen:
            raise ValueError(f"mapping pattern checks duplicate key ({key!r})")
        seen.add(key)
        value = get(key, missing)
        if value is missing:
            return None
        values.append(value)
    return tuple(values)


# ---- loops' back-edges: signals and other threads ----------------------------------------------------------------
cdef extern from *:
    """
    #include <dlfcn.h>
    /* One flag of the eval loop (moshjit.cpython.EVAL_BREAKER_FLAGS): the 32-bit word at offset bytes into
       _PyRuntime (base 0), the interpreter (1) or the thread state (2), and its bits; base -1: not known here,
       read as set (signals checked and the GIL offered at every look: correct, a little slower). */
    typedef struct { int base; Py_ssize_t offset; unsigned int mask; } MjEvalFlag;
    static MjEvalFlag mj_signals_flag = {-1, 0, 0}, mj_gil_flag = {-1, 0, 0};
    static char *mj_runtime_state = NULL;
    static void mj_set_eval_flag(int which, int base, Py_ssize_t offset, unsigned int mask) {
        MjEvalFlag *flag = which ? &mj_gil_flag : &mj_signals_flag;
        if (base == 0 && mj_runtime_state == NULL) {
            mj_runtime_state = (char *)dlsym(RTLD_DEFAULT, "_PyRuntime");
            if (mj_runtime_state == NULL) return;
        }
        flag->base = base;
        flag->offset = offset;
        flag->mask = mask;
    }
    static unsigned int mj_eval_flag(const MjEvalFlag *flag) {
        char *base;
        switch (flag->base) {
            case 0: base = mj_runtime_state; break;
            case 1: base = (char *)PyInterpreterState_Get(); break;
            case 2: base = (char *)PyThreadState_Get(); break;
            default: return 1;
        }
        return *(volatile unsigned int *)(base + flag->offset) & flag->mask;
    }
    /* What CPython's eval loop does when its eval breaker is set, for what a loop can see: run the signal
       handlers that are due (main thread only; a handler's exception, e.g. KeyboardInterrupt, is returned as -1)
       and, when another thread asked for the GIL, let it go (dropping it with the request set hands it over). */
    static int mj_loop_breaker_c(void) {
        if (mj_eval_flag(&mj_signals_flag) && PyErr_CheckSignals() < 0) return -1;
        if (mj_eval_flag(&mj_gil_flag)) {
            PyThreadState *thread = PyEval_SaveThread();
            PyEval_RestoreThread(thread);
        }
        return 0;
    }
    """
    void mj_set_eval_flag(int which, int base, Py_ssize_t offset, unsigned int mask)
    int mj_loop_breaker_c() except -1


cdef int mj_loop_breaker() except -1:
    """A loop's back-edge, every ``loop_ticks.TICK_EVERY``: signals and other threads, as CPython's eval loop."""
    return mj_loop_breaker_c()


def _mj_read_eval_flags():
    from moshjit.cpython import EVAL_BREAKER_FLAGS
    bases = {"runtime": 0, "interpreter": 1, "thread": 2}
    for which, name in enumerate(("signals", "gil")):
        if EVAL_BREAKER_FLAGS is not None:
            base, offset, mask = EVAL_BREAKER_FLAGS[name]
            mj_set_eval_flag(which, bases[base], offset, mask)


_mj_read_eval_flags()


cdef extern from *:
    """
    #include <structmember.h>
    /* Where Cython keeps a generator's or coroutine's resume label (0: not started, -1: finished, else the yield it
       stopped at) and its running flag: the last two fields of its object, after ``gi_code`` and ``gi_frame``. The
       offset of the label, from the type's member table, or -1 when the type is not laid out so (another Cython,
       or a build with monitoring fields between them), checked by the object's size. */
    static Py_ssize_t mj_resume_label_offset(PyObject *kind) {
        PyTypeObject *tp = (PyTypeObject *)kind;
        PyMemberDef *member;
        Py_ssize_t label = -1, align = (Py_ssize_t)sizeof(void *);
        for (member = tp->tp_members; member != NULL && member->name != NULL; member++)
            if (strcmp(member->name, "gi_code") == 0 || strcmp(member->name, "cr_code") == 0)
                label = member->offset + 2 * (Py_ssize_t)sizeof(PyObject *);
        if (label < 0 || tp->tp_basicsize != (label + (Py_ssize_t)sizeof(int) + 1 + align - 1) / align * align)
            return -1;
        return label;
    }
    /* 1 when obj (of a type whose label offset is ``label``) has started, is not finished and is not running. */
    static int mj_coroutine_suspended(PyObject *obj, Py_ssize_t label) {
        return *(int *)((char *)obj + label) > 0 && !*((char *)obj + label + sizeof(int));
    }
    """
    Py_ssize_t mj_resume_label_offset(object)
    bint mj_coroutine_suspended(object, Py_ssize_t)


def suspended_getter(object kind):
    """``gi_suspended`` / ``cr_suspended`` for the objects of ``kind``, Cython's generator or coroutine type, as
    CPython's generators answer it (``inspect.getgeneratorstate`` reads it); None when ``kind`` is not laid out
    as this Cython lays them out."""
    cdef Py_ssize_t label = mj_resume_label_offset(kind) if isinstance(kind, type) else -1
    if label < 0:
        return None

    def suspended(coroutine):
        if type(coroutine) is not kind:
            raise TypeError(f"descriptor for '{kind.__name__}' objects doesn't apply to a "
                            f"'{type(coroutine).__name__}' object")
        return mj_coroutine_suspended(coroutine, label)
    return suspended

# Declarations of moshjit_rt for generated modules (`from moshjit_rt cimport ...`).
cimport cython


cdef enum:
    MJ_INLINE_CHARS = 40      # code points a CharBuffer holds before it allocates (words are shorter)


@cython.final
cdef class CharBuffer:
    cdef Py_UCS4 *data
    cdef Py_ssize_t length
    cdef Py_ssize_t capacity
    cdef unsigned int bits    # the bitwise or of the code points: bounds the largest, picks the result's kind
    cdef Py_UCS4 inline_data[MJ_INLINE_CHARS]
    cdef int append(self, Py_UCS4 ch) except -1
    cdef str join(self)


@cython.final
cdef class Summation:
    cdef int phase
    cdef long int_total
    cdef double float_total
    cdef double compensation
    cdef object total
    cdef int add(self, object item) except -1
    cdef double _compensated(self)
    cdef object result(self)


cdef object mj_set_handled(object exc)
cdef object _mj_load_global(dict globals_, dict builtins_, str name)
cdef object _mj_load_deref(tuple closure, Py_ssize_t index, str name)
cdef object _mj_cell_new(object initial)
cdef object _mj_cell_empty()
cdef object _mj_cell_get(object cell, str name, bint free)
cdef object _mj_cell_set(object cell, object value)
cdef object _mj_cell_delete(object cell, str name, bint free)
cdef object _mj_make_closure(object code, dict globals_, object defaults, object kwdefaults, tuple closure)
cdef object _mj_unbound_local(str name)
cdef object _mj_unbound_free(str name)
cdef tuple _mj_unpack(object seq, Py_ssize_t count)
cdef tuple _mj_unpack_ex(object seq, Py_ssize_t before, Py_ssize_t after)
cdef object _mj_list_extend(list target, object iterable)
cdef str _mj_function_str(object func)
cdef object _mj_merge(dict target, object other, object func, bint merge_kwargs)
cdef object _mj_lookup_special(object obj, str name)
cdef tuple _mj_before_with(object manager, bint asynchronous)
cdef bint _mj_exc_match(object exc, object match) except -1
cdef object _mj_yield_from_iterable(object value)
cdef object _mj_awaitable(object value)
cdef object _mj_awaitable_in_with(object value, str method)
cdef object _mj_super_call_method(object cls, object obj, str name, tuple args, tuple kwnames)
cdef object _mj_display_compare(object a, object b, object c, Py_ssize_t n, object other, int op,
                                bint display_left)
cdef object _mj_push_exc(object exc)
cdef object _mj_reraise_handled()
cdef object _mj_import_from(object module, str name)
cdef object _mj_make_function(object code, dict globals_, object defaults, object kwdefaults)
cdef object _mj_range_check(Py_ssize_t step)
cdef str mj_category(Py_UCS4 ch)
cdef Py_ssize_t mj_category_code(Py_UCS4 ch) noexcept
cdef bint _mj_is_int64(object value)
cdef unsigned long long *mj_dict_versions() noexcept
cdef object _mj_call_ex(object func, object args, object kwargs)
cdef bint _mj_iterable(object obj)
cdef object _mj_exception(object value, bint is_cause)
cdef object _mj_match_class(object subject, object cls, tuple names, Py_ssize_t count)
cdef object _mj_match_keys(object subject, tuple keys)

cdef extern from "Python.h":
    unsigned long PyType_GetFlags(type)
    unsigned long Py_TPFLAGS_SEQUENCE
    unsigned long Py_TPFLAGS_MAPPING


cdef inline bint _mj_match_sequence(object subject) noexcept:
    """MATCH_SEQUENCE: the type's Py_TPFLAGS_SEQUENCE bit."""
    return (PyType_GetFlags(type(subject)) & Py_TPFLAGS_SEQUENCE) != 0


cdef inline bint _mj_match_mapping(object subject) noexcept:
    """MATCH_MAPPING: the type's Py_TPFLAGS_MAPPING bit."""
    return (PyType_GetFlags(type(subject)) & Py_TPFLAGS_MAPPING) != 0
cdef int mj_loop_breaker() except -1

"""``Py_INCREF`` for generated modules on CPython 3.12/3.13 as one 64-bit store, so that the ``Py_DECREF`` that
soon follows can read the count back from the store buffer.

CPython 3.12/3.13 increment only the low 32 bits of ``ob_refcnt`` (immortal objects keep them all ones) while
``Py_DECREF`` loads all 64: the load straddles the narrower store still in flight and waits for it to reach the
cache (a store-forwarding stall, ~10–15 cycles on x86-64). Generated code takes and drops references in quick
succession (a constant or a receiver held for one call), and a jitted method call paid several such stalls.

Exactness: the high 32 bits of ``ob_refcnt`` are zero on these versions (``_Py_SetImmortal`` stores
``UINT_MAX``; counts of mortal objects stay below 2**31, beyond which ``_Py_IsImmortal`` holds), so adding one
to the whole word when the low half is not all ones sets exactly the bits CPython's ``Py_INCREF`` sets, and an
immortal object (low half all ones) is left alone as CPython leaves it. Debug, stats, free-threaded, limited-API
and 32-bit builds keep CPython's own definitions.
"""

REFERENCE_COUNTS_C = r'''
    #if PY_VERSION_HEX >= 0x030C0000 && PY_VERSION_HEX < 0x030E0000 && SIZEOF_VOID_P > 4 \
        && !defined(Py_GIL_DISABLED) && !defined(Py_REF_DEBUG) && !defined(Py_STATS) && !defined(Py_LIMITED_API)
    static inline Py_ALWAYS_INLINE void mj_incref(PyObject *op) {
        Py_ssize_t count = op->ob_refcnt;
        if ((uint32_t)(count + 1) == 0) return;          /* immortal: CPython's saturated low half */
        op->ob_refcnt = count + 1;
    }
    static inline Py_ALWAYS_INLINE void mj_xincref(PyObject *op) { if (op != NULL) mj_incref(op); }
    static inline Py_ALWAYS_INLINE PyObject *mj_new_ref(PyObject *op) { mj_incref(op); return op; }
    static inline Py_ALWAYS_INLINE PyObject *mj_xnew_ref(PyObject *op) { mj_xincref(op); return op; }
    #undef Py_INCREF
    #define Py_INCREF(op) mj_incref(_PyObject_CAST(op))
    #undef Py_XINCREF
    #define Py_XINCREF(op) mj_xincref(_PyObject_CAST(op))
    #undef Py_NewRef
    #define Py_NewRef(op) mj_new_ref(_PyObject_CAST(op))
    #undef Py_XNewRef
    #define Py_XNewRef(op) mj_xnew_ref(_PyObject_CAST(op))
    #endif
'''

# cython: language_level=3, boundscheck=False, wraparound=False, binding=False
"""moshjit_dispatch: the C-level call path of ``@jit`` functions.

``DispatcherCore`` classifies the arguments (exact type; ints split by "fits in int64", strs by "one character",
small tuples by their items' kinds), finds the signature's native entry and calls it with the same arguments.
Binding keyword arguments and defaults, and compiling a new signature, are left to the Python subclass (``_bind``,
``_specialize``).

Calls arrive through vectorcall (no argument tuple, no keyword dict). The slot itself, in C, compares a positional
call with the last signature and calls its entry (a Cython def through its C function), completing a call that
leaves parameters to their defaults from ``__defaults__`` first; other calls are checked
against a few recently used signatures without building any key; only a miss builds the key and looks it up in
``_entries``.

A dispatcher is also a method descriptor, as a Python function is: ``tp_descr_get`` binds it to an instance, and
``Py_TPFLAGS_METHOD_DESCRIPTOR`` lets ``obj.method(x)`` call it as ``method(obj, x)`` through vectorcall without
creating a bound method at all (CPython's LOAD_METHOD and Cython's method calls both honour the flag).
"""
from cpython.dict cimport PyDict_GetItem
from cpython.ref cimport PyObject

cdef extern from *:
    """
    #include <time.h>

    /* One machine integer? The same test as key_of's range check; small ints answer from their size alone (at most
       two digits of at most 30 bits), ints of more digits than 64 bits need (the mantissas of mpmath, 256-bit
       keys) from their digit count, others from their bit count (read from the top digit), and a negative int of
       64 bits (only -2**63 fits) by conversion (exact ints cannot make it fail). */
    static inline int mj_fits_int64(PyObject *value) {
        int overflow;
        size_t bits;
    #if PY_VERSION_HEX < 0x030C0000
        Py_ssize_t digits = Py_SIZE(value) < 0 ? -Py_SIZE(value) : Py_SIZE(value);
        if (digits <= 2) return 1;
    #else
        Py_ssize_t digits = (Py_ssize_t)(((PyLongObject *)value)->long_value.lv_tag >> _PyLong_NON_SIZE_BITS);
        if (PyUnstable_Long_IsCompact((PyLongObject *)value)) return 1;
    #endif
        if ((digits - 1) * PyLong_SHIFT >= 64) return 0;     /* at least 2**64 in magnitude */
        bits = _PyLong_NumBits(value);
        if (bits != 64 || _PyLong_Sign(value) > 0) return bits < 64;
        PyLong_AsLongLongAndOverflow(value, &overflow);
        return overflow == 0;
    }

    /* type(value).__name__ == "ndarray", read from tp_name without building a str (type.__name__ is the text
       after the last dot of tp_name for static types, the whole tp_name for heap types). */
    static int mj_named_ndarray(PyTypeObject *kind) {
        const char *name = kind->tp_name;
        if (!(kind->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
            const char *dot = strrchr(name, '.');
            if (dot != NULL) name = dot + 1;
        }
        return strcmp(name, "ndarray") == 0;
    }

    /* What a call of the Python function f takes as its defaults now (a borrowed tuple; empty for none): read at
       every call, as CPython does, so that assigning f.__defaults__ is seen. */
    static PyObject *mj_function_defaults(PyObject *f) {
        PyObject *defaults = PyFunction_GET_DEFAULTS(f);
        static PyObject *none = NULL;
        if (defaults != NULL) return defaults;
        if (none == NULL) none = PyTuple_New(0);
        return none;
    }

    static PyObject **mj_tuple_items(PyObject *t) { return &PyTuple_GET_ITEM(t, 0); }
    /* A function's keyword-only default for a parameter name (borrowed), or NULL (none: the Python binder then
       raises CPython's TypeError). */
    static PyObject *mj_kwdefault(PyObject *f, PyObject *name) {
        PyObject *kwdefaults = PyFunction_GET_KW_DEFAULTS(f);
        return kwdefaults == NULL ? NULL : PyDict_GetItem(kwdefaults, name);
    }
    static PyObject *mj_item(PyObject *t, Py_ssize_t i) { return PyTuple_GET_ITEM(t, i); }      /* borrowed */
    static Py_ssize_t mj_size(PyObject *t) { return PyTuple_GET_SIZE(t); }
    static Py_ssize_t mj_str_length(PyObject *s) { return PyUnicode_GET_LENGTH(s); }
    static PyObject *mj_type_of(PyObject *v) { return (PyObject *)Py_TYPE(v); }
    static Py_ssize_t mj_nargs(size_t nargsf) { return PyVectorcall_NARGS(nargsf); }

    static PyObject *mj_call_vector(PyObject *callable, PyObject **argv, size_t nargsf) {
        return PyObject_Vectorcall(callable, argv, nargsf, NULL);
    }

    static PyObject *mj_tuple_from(PyObject **argv, Py_ssize_t n) {
        PyObject *t = PyTuple_New(n);
        Py_ssize_t i;
        if (t == NULL) return NULL;
        for (i = 0; i < n; i++) { Py_INCREF(argv[i]); PyTuple_SET_ITEM(t, i, argv[i]); }
        return t;
    }

    static PyObject *mj_tuple_of_none(Py_ssize_t n) {
        PyObject *t = PyTuple_New(n);
        Py_ssize_t i;
        if (t == NULL) return NULL;
        for (i = 0; i < n; i++) { Py_INCREF(Py_None); PyTuple_SET_ITEM(t, i, Py_None); }
        return t;
    }

    static void mj_tuple_replace(PyObject *t, Py_ssize_t i, PyObject *v) {
        PyObject *old = PyTuple_GET_ITEM(t, i);
        Py_INCREF(v);
        PyTuple_SET_ITEM(t, i, v);
        Py_DECREF(old);
    }

    /* A call of a jitted function counts as the Python frame it stands for. Until 3.11 Py_EnterRecursiveCall
       counts against sys.getrecursionlimit(), as Python frames do. From 3.12 C recursion has a fixed limit of its
       own, far below it (1,500 on 3.12), and every call of a C function counts there — the native entry this
       dispatches to among them — so a jitted recursion CPython runs 2,000 deep would fail: count the thread's
       Python recursion instead, as _Py_EnterRecursivePy does, and give the entry's C level back. The C stack is
       guarded separately, by the generated code's mj_stack_check. */
    #if PY_VERSION_HEX < 0x030C0000
    #define mj_enter_call() Py_EnterRecursiveCall("")      /* CPython's message for a Python call's frame */
    #define mj_leave_call() Py_LeaveRecursiveCall()
    #else
    static int mj_enter_call(void) {
        PyThreadState *tstate = PyThreadState_Get();
        if (tstate->py_recursion_remaining-- <= 0) {
            tstate->py_recursion_remaining++;
            PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded");
            return -1;
        }
        tstate->c_recursion_remaining++;
        return 0;
    }
    static void mj_leave_call(void) {
        PyThreadState *tstate = PyThreadState_Get();
        tstate->py_recursion_remaining++;
        tstate->c_recursion_remaining--;
    }
    #endif

    /* The Cython half of the vectorcall slot, and the tp_call it stands in for; set by mj_install at init. */
    static PyObject *(*mj_dispatch_impl)(PyObject *, PyObject **, size_t, PyObject *);
    static ternaryfunc mj_core_tp_call;

    /* For a class whose __call__ was reassigned after creation (3.11 keeps the vectorcall flag then). */
    static PyObject *mj_call_through_tp_call(PyObject *self, PyObject *const *argv, size_t nargsf,
                                             PyObject *kwnames) {
        Py_ssize_t n = PyVectorcall_NARGS(nargsf), i;
        PyObject *args = NULL, *kwargs = NULL, *result = NULL;
        if ((args = mj_tuple_from((PyObject **)argv, n)) == NULL) return NULL;
        if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
            if ((kwargs = PyDict_New()) == NULL) goto done;
            for (i = 0; i < PyTuple_GET_SIZE(kwnames); i++)
                if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, i), argv[n + i]) < 0) goto done;
        }
        if (mj_enter_call()) goto done;
        result = Py_TYPE(self)->tp_call(self, args, kwargs);
        mj_leave_call();
    done:
        Py_DECREF(args);
        Py_XDECREF(kwargs);
        return result;
    }

    /* The last signatures a dispatcher called, in C (its ``_last`` array of MJ_LAST_SLOTS): what the vectorcall
       slot compares a positional call's arguments with before anything else, and the entry it then calls; several,
       so that polymorphic calls (a recursive evaluator over node classes; a method whose parameters combine a few
       classes each, as h11's state machine calls its methods with two roles and four event classes) stay on
       this path: a call that misses them refills a slot, which costs more than the interpreter's whole call.
       ``entry`` is borrowed (the dispatcher's ``_last_held`` holds it and the key with the types); NULL: nothing
       remembered. A builtin taking METH_FASTCALL|METH_KEYWORDS (a Cython ``def``) is called through its C
       function, as CPython's own specialised CALL of a builtin does; anything else through its vectorcall slot. */
    enum { MJ_LAST_ARGS = 8, MJ_LAST_SLOTS = 8, MJ_KIND_EXACT = 0, MJ_KIND_INT64, MJ_KIND_BIGINT, MJ_KIND_CHAR, MJ_KIND_STR,
           MJ_KIND_SHAPE, MJ_KIND_NONE, MJ_KIND_ANY };
    typedef PyObject *(*mj_fastcall_kw)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);
    typedef struct {                       /* what a match reads first, in the slot's first cache line */
        char bound;                        /* matched against bound parameters only, never a call's own vector */
        char kinds[MJ_LAST_ARGS];
        PyObject *entry;
        Py_ssize_t n;
        vectorcallfunc call;
        mj_fastcall_kw cfunc;
        PyObject *cself;
        PyObject *types[MJ_LAST_ARGS];
        PyObject *shapes[MJ_LAST_ARGS];    /* MJ_KIND_SHAPE: the key's item (borrowed, as ``entry``) */
    } mj_last_call;
    static Py_ssize_t mj_last_offset;      /* where ``_last[0]`` sits in a dispatcher (set by mj_install) */
    /* How a function with *args or **kwargs and no keyword-only parameters binds a positional call of at least
       ``arity`` arguments (arity -1: it does not take them so): the first ``arity`` arguments, then the rest as
       the *args tuple (``star``), then an empty **kwargs dict (``keywords``). */
    typedef struct { Py_ssize_t arity; int star, keywords; } mj_packing;
    static Py_ssize_t mj_packing_offset;   /* where ``_packing`` sits in a dispatcher (mj_install) */
    /* How the vectorcall slot binds a call with keywords, or one leaving keyword-only parameters to their defaults:
       the parameters' names (borrowed from ``_parameter_names``; NULL when the function has *args or **kwargs, or
       more parameters than a last signature keeps: the Cython half binds those), how many are positional-only and
       how many (the last) keyword-only. */
    typedef struct { PyObject *names; Py_ssize_t positional_only, keyword_only; } mj_keyword_binding;
    static Py_ssize_t mj_keyword_binding_offset;   /* where ``_keyword_binding`` sits in a dispatcher (mj_install) */
    static Py_ssize_t mj_arity_offset;     /* where ``_positional_count`` and ``_defaults_function`` sit (mj_install) */
    static Py_ssize_t mj_defaults_offset;

    /* Whether ``value`` has the kind (``kind_type``, ``kind``) the last signature holds. */
    static inline int mj_has_last_kind(PyObject *value, PyObject *kind_type, char kind) {
        if ((PyObject *)Py_TYPE(value) != kind_type) return 0;
        if (kind == MJ_KIND_EXACT) return 1;
        if (kind == MJ_KIND_INT64 || kind == MJ_KIND_BIGINT) return mj_fits_int64(value) == (kind == MJ_KIND_INT64);
        return (PyUnicode_GET_LENGTH(value) == 1) == (kind == MJ_KIND_CHAR);
    }

    /* The kinds a typed tuple's key item names besides types (``kind_of``): the interned "int64" and "char"; tuples
       longer than ``mj_max_typed_tuple`` are keyed by their type alone. Set by mj_set_kinds at import. */
    static PyObject *mj_kind_int64 = NULL, *mj_kind_char = NULL;
    static Py_ssize_t mj_max_typed_tuple = 0;
    static void mj_set_kinds(PyObject *int64, PyObject *chr, Py_ssize_t max_typed_tuple) {
        mj_kind_int64 = int64;
        mj_kind_char = chr;
        mj_max_typed_tuple = max_typed_tuple;
    }
    /* Whether ``value`` has ``kind`` when ``kind`` is not a typed tuple (1 or 0), else -1. Inline in the loop over
       a typed tuple's items, which then costs no call per item. */
    static inline int mj_has_flat_shape(PyObject *value, PyObject *kind) {
        PyTypeObject *t = Py_TYPE(value);
        if (kind == mj_kind_int64) return t == &PyLong_Type && mj_fits_int64(value);
        if (kind == (PyObject *)&PyLong_Type) return t == &PyLong_Type && !mj_fits_int64(value);
        if (kind == mj_kind_char) return t == &PyUnicode_Type && PyUnicode_GET_LENGTH(value) == 1;
        if (kind == (PyObject *)&PyUnicode_Type) return t == &PyUnicode_Type && PyUnicode_GET_LENGTH(value) != 1;
        if (kind == (PyObject *)&PyTuple_Type) return t == &PyTuple_Type && PyTuple_GET_SIZE(value) > mj_max_typed_tuple;
        if (PyTuple_CheckExact(kind)) return -1;   /* ("tuple", the items' kinds...) */
        return (PyObject *)t == kind;
    }

    /* Whether ``value`` has ``kind`` — what has_kind decides, for the kinds ``shape_checkable`` lets the last
       signatures keep: int64 and int, char and str, long tuples, exact types, typed tuples of those. */
    static int mj_has_shape(PyObject *value, PyObject *kind) {
        Py_ssize_t i, n;
        int found = mj_has_flat_shape(value, kind);
        if (found >= 0) return found;
        n = PyTuple_GET_SIZE(kind) - 1;
        if (Py_TYPE(value) != &PyTuple_Type || PyTuple_GET_SIZE(value) != n) return 0;
        for (i = 0; i < n; i++) {
            PyObject *item = PyTuple_GET_ITEM(value, i), *item_kind = PyTuple_GET_ITEM(kind, i + 1);
            found = mj_has_flat_shape(item, item_kind);
            if (found < 0) found = mj_has_shape(item, item_kind);
            if (!found) return 0;
        }
        return 1;
    }

    /* Whether the call's arguments (positional only) have the last signature. */
    static inline int mj_last_matches(mj_last_call *last, PyObject *const *argv, Py_ssize_t n) {
        Py_ssize_t i;
        if (last->entry == NULL || n != last->n) return 0;
        for (i = 0; i < n; i++) {
            if (last->kinds[i] == MJ_KIND_ANY) continue;
            if (last->kinds[i] == MJ_KIND_SHAPE) {
                if (!mj_has_shape(argv[i], last->shapes[i])) return 0;
            } else if (!mj_has_last_kind(argv[i], last->types[i], last->kinds[i])) {
                return 0;
            }
        }
        return 1;
    }

    /* Remember ``entry`` as the last signature's (its kinds are filled in by the caller); 0 when it has no
       vectorcall slot (then it is not remembered). */
    static int mj_last_set(mj_last_call *last, PyObject *entry, Py_ssize_t n) {
        last->entry = NULL;
        last->cfunc = NULL;
        last->call = PyVectorcall_Function(entry);
        if (last->call == NULL) return 0;
        if (PyCFunction_CheckExact(entry) && PyCFunction_GET_FLAGS(entry) == (METH_FASTCALL | METH_KEYWORDS)) {
            last->cfunc = (mj_fastcall_kw)(void (*)(void))PyCFunction_GET_FUNCTION(entry);
            last->cself = PyCFunction_GET_SELF(entry);
        }
        last->n = n;
        last->entry = entry;
        return 1;
    }

    /* The recursion level of a call made straight to a Cython entry's C function (no C-level call of CPython's
       in between counts one): one Python frame's, as the function it stands for would count. Inline, with the
       thread state kept for the leave; at the limit, CPython's own check decides (on 3.11 it notices a raised
       recursion limit) and raises. */
    #if PY_VERSION_HEX < 0x030C0000
    #define MJ_PY_REMAINING(tstate) ((tstate)->recursion_remaining)
    #else
    #define MJ_PY_REMAINING(tstate) ((tstate)->py_recursion_remaining)
    #endif
    static inline PyThreadState *mj_enter_direct(void) {
        PyThreadState *tstate = PyThreadState_Get();
        if (MJ_PY_REMAINING(tstate)-- > 0) return tstate;
        MJ_PY_REMAINING(tstate)++;
    #if PY_VERSION_HEX < 0x030C0000
        return Py_EnterRecursiveCall("") ? NULL : tstate;
    #else
        PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded");
        return NULL;
    #endif
    }
    static inline void mj_leave_direct(PyThreadState *tstate) { MJ_PY_REMAINING(tstate)++; }

    /* The slot of the last signatures ``argv``'s n values have, among those marked ``bound`` (a bound parameter
       list) or among the others (a positional call's arguments as they came), or -1. */
    static inline int mj_slot_of(mj_last_call *last, PyObject *const *argv, Py_ssize_t n, char bound) {
        int slot;
        for (slot = 0; slot < MJ_LAST_SLOTS; slot++)
            if (last[slot].bound == bound && mj_last_matches(&last[slot], argv, n)) return slot;
        return -1;
    }
    static inline int mj_last_slot_of(mj_last_call *last, PyObject *const *argv, Py_ssize_t n) {
        return mj_slot_of(last, argv, n, 0);
    }

    /* Call a last signature's entry with the full parameter list. */
    static inline PyObject *mj_call_last(mj_last_call *last, PyObject *const *argv, Py_ssize_t n, size_t nargsf) {
        PyObject *result, *entry = last->entry;
        Py_INCREF(entry);                  /* a call may replace the last entry: this one lives until it returns */
        if (last->cfunc != NULL) {
            PyThreadState *tstate = mj_enter_direct();
            if (tstate == NULL) { Py_DECREF(entry); return NULL; }
            result = last->cfunc(last->cself, argv, n, NULL);
            mj_leave_direct(tstate);
        } else {
            if (mj_enter_call()) { Py_DECREF(entry); return NULL; }
            result = last->call(entry, argv, nargsf, NULL);
            mj_leave_call();
        }
        Py_DECREF(entry);
        return result;
    }

    /* A positional call leaving its last parameters to their defaults, completed in C with the function's
       ``__defaults__`` as they are now (held for the call: it may assign them) and matched with the last
       signatures; NULL without an exception when no last signature has the completed list (the Cython half
       binds it then). As CPython's own call does, without a tuple or a dict. */
    static PyObject *mj_call_with_defaults(PyObject *self, mj_last_call *last, PyObject *const *argv, Py_ssize_t n,
                                           int *done) {
        Py_ssize_t want = *(Py_ssize_t *)((char *)self + mj_arity_offset), i, first;
        PyObject *function = *(PyObject **)((char *)self + mj_defaults_offset), *defaults, *result;
        PyObject *full[MJ_LAST_ARGS];
        int slot;
        *done = 0;
        if (n >= want || want > MJ_LAST_ARGS || function == NULL || !PyFunction_Check(function)) return NULL;
        defaults = PyFunction_GET_DEFAULTS(function);
        if (defaults == NULL || n < (first = want - PyTuple_GET_SIZE(defaults))) return NULL;
        for (i = 0; i < want; i++) full[i] = i < n ? argv[i] : PyTuple_GET_ITEM(defaults, i - first);
        if ((slot = mj_last_slot_of(last, full, want)) < 0) return NULL;
        Py_INCREF(defaults);
        result = mj_call_last(&last[slot], full, want, (size_t)want);
        Py_DECREF(defaults);
        *done = 1;
        return result;
    }

    /* Whether any last signature is a bound one of n parameters (else packing a call would be wasted). */
    static inline int mj_has_bound_slot(mj_last_call *last, Py_ssize_t n) {
        int slot;
        for (slot = 0; slot < MJ_LAST_SLOTS; slot++)
            if (last[slot].bound && last[slot].entry != NULL && last[slot].n == n) return 1;
        return 0;
    }

    /* A positional call of a function with *args or **kwargs (no keyword-only parameters), bound in C as CPython
       binds it — the rest of the arguments packed into a new tuple, a new empty dict for **kwargs — and matched
       with the last (bound) signatures; NULL without an exception when it cannot be bound so or no last signature
       has it (the Cython half binds it then). */
    static PyObject *mj_call_packed(PyObject *self, mj_last_call *last, PyObject *const *argv, Py_ssize_t n,
                                    int *done) {
        mj_packing *packing = (mj_packing *)((char *)self + mj_packing_offset);
        Py_ssize_t k = packing->arity, width, i;
        PyObject *bound[MJ_LAST_ARGS], *rest = NULL, *extra = NULL, *result;
        int slot;
        *done = 0;
        width = k + packing->star + packing->keywords;
        if (k < 0 || n < k || (n > k && !packing->star) || width > MJ_LAST_ARGS || !mj_has_bound_slot(last, width))
            return NULL;
        for (i = 0; i < k; i++) bound[i] = argv[i];
        if (packing->star) {
            if ((rest = PyTuple_New(n - k)) == NULL) { *done = 1; return NULL; }
            for (i = k; i < n; i++) {
                Py_INCREF(argv[i]);
                PyTuple_SET_ITEM(rest, i - k, argv[i]);
            }
            bound[k] = rest;
        }
        if (packing->keywords) {
            if ((extra = PyDict_New()) == NULL) { Py_XDECREF(rest); *done = 1; return NULL; }
            bound[width - 1] = extra;
        }
        if ((slot = mj_slot_of(last, bound, width, 1)) < 0) {
            Py_XDECREF(rest);
            Py_XDECREF(extra);
            return NULL;
        }
        *done = 1;
        result = mj_call_last(&last[slot], bound, width, (size_t)width);
        Py_XDECREF(rest);
        Py_XDECREF(extra);
        return result;
    }

    /* A call with keywords, or one leaving keyword-only parameters to their defaults, bound in C as CPython binds
       it — each keyword matched with a parameter's name by identity (call sites pass the interned names the code
       object has), the parameters left out taken from ``__defaults__`` and ``__kwdefaults__`` as they are now,
       held for the call — and matched with the last signatures. NULL without an exception when a keyword is not
       matched so (an equal str, a name that is no parameter, one given twice, a positional-only one), a parameter
       has no value, or no last signature has the bound list: the Cython half binds it then, and raises CPython's
       TypeError for a call CPython rejects. */
    Py_NO_INLINE static PyObject *mj_call_keywords(PyObject *self, mj_last_call *last, PyObject *const *argv,
                                                   Py_ssize_t n, PyObject *kwnames, int *done) {
        mj_keyword_binding *binding = (mj_keyword_binding *)((char *)self + mj_keyword_binding_offset);
        PyObject *function = *(PyObject **)((char *)self + mj_defaults_offset);
        PyObject *names = binding->names, *name, *defaults, *kwdefaults, *result = NULL;
        PyObject *full[MJ_LAST_ARGS], *held[MJ_LAST_ARGS];
        Py_ssize_t count, positional, given = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames), i, k, first;
        Py_ssize_t taken = 0;
        int slot;
        *done = 0;
        if (names == NULL || (given == 0 && binding->keyword_only == 0) || function == NULL ||
            !PyFunction_Check(function))
            return NULL;
        count = PyTuple_GET_SIZE(names);
        positional = count - binding->keyword_only;
        if (n > positional) return NULL;
        for (i = 0; i < count; i++) full[i] = i < n ? argv[i] : NULL;
        for (k = 0; k < given; k++) {
            name = PyTuple_GET_ITEM(kwnames, k);
            for (i = binding->positional_only; i < count && PyTuple_GET_ITEM(names, i) != name; i++) {}
            if (i == count || full[i] != NULL) return NULL;
            full[i] = argv[n + k];
        }
        defaults = PyFunction_GET_DEFAULTS(function);
        first = positional - (defaults == NULL ? 0 : PyTuple_GET_SIZE(defaults));
        for (i = n; i < positional; i++) {
            if (full[i] != NULL) continue;
            if (i < first) return NULL;
            full[i] = PyTuple_GET_ITEM(defaults, i - first);
        }
        kwdefaults = PyFunction_GET_KW_DEFAULTS(function);
        Py_XINCREF(defaults);              /* a lookup below may run Python code that assigns __defaults__ */
        Py_XINCREF(kwdefaults);            /* ... or __kwdefaults__ */
        for (i = positional; i < count; i++) {
            if (full[i] != NULL) continue;
            full[i] = kwdefaults == NULL ? NULL : PyDict_GetItemWithError(kwdefaults, PyTuple_GET_ITEM(names, i));
            if (full[i] == NULL) {
                PyErr_Clear();             /* the Cython half looks it up again and says what CPython says */
                goto release;
            }
            Py_INCREF(full[i]);
            held[taken++] = full[i];
        }
        if ((slot = mj_slot_of(last, full, count, binding->keyword_only > 0)) >= 0) {
            *done = 1;
            result = mj_call_last(&last[slot], full, count, (size_t)count);
        }
    release:
        while (taken > 0) Py_DECREF(held[--taken]);
        Py_XDECREF(kwdefaults);
        Py_XDECREF(defaults);
        return result;
    }

    /* The instances' vectorcall. A positional call with the last signature goes straight to its entry (the
       entry's C function for a Cython def: no argument binding, no key, no Cython frame of the call path), also
       when it leaves parameters to their defaults; any other call to the call path in Cython. Counts towards the
       recursion limit as a Python frame. */
    static PyObject *mj_dispatch_vectorcall(PyObject *self, PyObject *const *argv, size_t nargsf,
                                            PyObject *kwnames) {
        PyObject *result;
        mj_last_call *last = (mj_last_call *)((char *)self + mj_last_offset);
        Py_ssize_t n = PyVectorcall_NARGS(nargsf);
        int slot, done;
        if (Py_TYPE(self)->tp_call != mj_core_tp_call) return mj_call_through_tp_call(self, argv, nargsf, kwnames);
        if (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0) {
            if ((slot = mj_last_slot_of(last, argv, n)) >= 0) return mj_call_last(&last[slot], argv, n, nargsf);
            result = mj_call_with_defaults(self, last, argv, n, &done);
            if (done) return result;
            result = mj_call_packed(self, last, argv, n, &done);
            if (done) return result;
            kwnames = NULL;
        }
        result = mj_call_keywords(self, last, argv, n, kwnames, &done);
        if (done) return result;
        if (mj_enter_call()) return NULL;
        result = mj_dispatch_impl(self, (PyObject **)argv, nargsf, kwnames == NULL ? Py_None : kwnames);
        mj_leave_call();
        return result;
    }

    /* A tier-0 entry runs the plain function, which counts its own Python frame towards the recursion limit; the
       dispatcher's call already counted one for it (mj_enter_call), so the entry gives that back for the call's
       duration: a recursion runs as deep at tier 0 as in CPython. */
    #if PY_VERSION_HEX < 0x030C0000
    #define mj_give_back_frame() (PyThreadState_Get()->recursion_remaining++)
    #define mj_take_back_frame() (PyThreadState_Get()->recursion_remaining--)
    #else
    #define mj_give_back_frame() (PyThreadState_Get()->py_recursion_remaining++)
    #define mj_take_back_frame() (PyThreadState_Get()->py_recursion_remaining--)
    #endif

    /* The Cython half of the tier-0 entries' vectorcall slot; set by mj_install_tier0 at init. */
    static PyObject *(*mj_tier0_impl)(PyObject *, PyObject **, size_t, PyObject *);
    static PyObject *mj_tier0_vectorcall(PyObject *self, PyObject *const *argv, size_t nargsf, PyObject *kwnames) {
        return mj_tier0_impl(self, (PyObject **)argv, nargsf, kwnames == NULL ? Py_None : kwnames);
    }
    static void mj_install_tier0(PyTypeObject *kind, Py_ssize_t offset, void *impl) {
        mj_tier0_impl = (PyObject *(*)(PyObject *, PyObject **, size_t, PyObject *))impl;
        kind->tp_vectorcall_offset = offset;
        kind->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
    }
    static vectorcallfunc mj_tier0_slot(void) { return mj_tier0_vectorcall; }

    static PyObject *mj_call_plain(PyObject *callable, PyObject **argv, size_t nargsf, PyObject *kwnames) {
        PyObject *result;
        mj_give_back_frame();
        result = PyObject_Vectorcall(callable, argv, nargsf, kwnames == Py_None ? NULL : kwnames);
        mj_take_back_frame();
        return result;
    }

    /* Seconds on the clock time.perf_counter() reads (CLOCK_MONOTONIC), read without a Python call. */
    static double mj_seconds(void) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
    }

    /* Call ``hook()`` for its effect only: an exception in flight (the plain function's) is kept as it is, and
       one from the hook is reported as unraisable, never raised into the user's call. */
    static void mj_notify(PyObject *hook) {
        PyObject *type, *value, *traceback, *result;
        PyErr_Fetch(&type, &value, &traceback);
        result = PyObject_CallNoArgs(hook);
        if (result == NULL) PyErr_WriteUnraisable(hook);
        else Py_DECREF(result);
        PyErr_Restore(type, value, traceback);
    }

    static void mj_install(PyTypeObject *core, Py_ssize_t offset, Py_ssize_t last_offset, Py_ssize_t arity_offset,
                           Py_ssize_t defaults_offset, Py_ssize_t packing_offset, Py_ssize_t keyword_binding_offset,
                           void *impl) {
        mj_dispatch_impl = (PyObject *(*)(PyObject *, PyObject **, size_t, PyObject *))impl;
        mj_last_offset = last_offset;
        mj_packing_offset = packing_offset;
        mj_keyword_binding_offset = keyword_binding_offset;
        mj_arity_offset = arity_offset;
        mj_defaults_offset = defaults_offset;
        mj_core_tp_call = core->tp_call;
        core->tp_vectorcall_offset = offset;
        core->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
    }
    static int mj_keeps_core_call(PyTypeObject *kind) { return kind->tp_call == mj_core_tp_call; }

    /* Mark ``kind`` a method descriptor (calling it with the instance first equals binding then calling) when it
       binds with the core's own __get__; a subclass overriding __get__ keeps CPython's generic path. Heap types
       do not inherit the flag, so every Dispatcher class is marked when its first instance is made. */
    static descrgetfunc mj_core_descr_get;
    static void mj_mark_method_descriptor(PyTypeObject *kind) {
        if (kind->tp_descr_get == mj_core_descr_get) kind->tp_flags |= Py_TPFLAGS_METHOD_DESCRIPTOR;
    }
    /* CPython 3.11 specialises obj.method(...) (LOAD_METHOD_WITH_VALUES, ...) only when the descriptor's type is
       immutable: the Dispatcher class moshjit makes is sealed once built. */
    static void mj_seal(PyTypeObject *kind) { kind->tp_flags |= Py_TPFLAGS_IMMUTABLETYPE; }
    static void mj_install_descriptor(PyTypeObject *core) {
        mj_core_descr_get = core->tp_descr_get;
        core->tp_flags |= Py_TPFLAGS_METHOD_DESCRIPTOR;
    }
    static void mj_enable_vectorcall(PyTypeObject *kind) { kind->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL; }
    static vectorcallfunc mj_vectorcall_slot(void) { return mj_dispatch_vectorcall; }
    """
    ctypedef void *vectorcallfunc
    bint mj_fits_int64(object value)
    bint mj_named_ndarray(type kind)
    PyObject **mj_tuple_items(tuple t)
    PyObject *mj_function_defaults(object f)
    PyObject *mj_kwdefault(object f, PyObject *name)
    PyObject *mj_item(PyObject *t, Py_ssize_t i)
    Py_ssize_t mj_size(PyObject *t)
    Py_ssize_t mj_str_length(PyObject *s)
    PyObject *mj_type_of(PyObject *v)
    Py_ssize_t mj_nargs(size_t nargsf)
    object mj_call_vector(object callable, PyObject **argv, size_t nargsf)
    tuple mj_tuple_from(PyObject **argv, Py_ssize_t n)
    tuple mj_tuple_of_none(Py_ssize_t n)
    void mj_tuple_replace(tuple t, Py_ssize_t i, object v)
    ctypedef struct mj_packing:
        Py_ssize_t arity
        int star
        int keywords
    ctypedef struct mj_keyword_binding:
        PyObject *names
        Py_ssize_t positional_only
        Py_ssize_t keyword_only
    void mj_install(type core, Py_ssize_t offset, Py_ssize_t last_offset, Py_ssize_t arity_offset,
                    Py_ssize_t defaults_offset, Py_ssize_t packing_offset, Py_ssize_t keyword_binding_offset,
                    void *impl)
    enum:
        MJ_LAST_ARGS
        MJ_LAST_SLOTS
        MJ_KIND_EXACT
        MJ_KIND_INT64
        MJ_KIND_BIGINT
        MJ_KIND_CHAR
        MJ_KIND_STR
        MJ_KIND_SHAPE
        MJ_KIND_NONE
        MJ_KIND_ANY
    ctypedef struct mj_last_call:
        PyObject *entry
        Py_ssize_t n
        PyObject *types[8]
        PyObject *shapes[8]
        char kinds[8]
        char bound
    void mj_set_kinds(PyObject *int64, PyObject *chr, Py_ssize_t max_typed_tuple)
    bint mj_last_matches(mj_last_call *last, PyObject **argv, Py_ssize_t n)
    bint mj_last_set(mj_last_call *last, PyObject *entry, Py_ssize_t n)
    bint mj_keeps_core_call(type kind)
    void mj_mark_method_descriptor(type kind)
    void mj_install_descriptor(type core)
    void mj_seal(type kind)
    object PyMethod_New(object function, object instance)
    void mj_enable_vectorcall(type kind)
    vectorcallfunc mj_vectorcall_slot()
    object mj_call_plain(object callable, PyObject **argv, size_t nargsf, object kwnames)
    double mj_seconds()
    void mj_notify(object hook)
    void mj_install_tier0(type kind, Py_ssize_t offset, void *impl)
    vectorcallfunc mj_tier0_slot()


cdef str INT64 = "int64"
cdef str CHAR = "char"
cdef str TUPLE = "tuple"
from moshjit.typeof import ANY as _ANY, MAX_TYPED_TUPLE as _MAX_TYPED_TUPLE, STDLIB_ARRAY as _STDLIB_ARRAY, \
    array_key as _array_key
cdef str ANY = _ANY                                    # a megamorphic parameter's kind: every value has it
cdef Py_ssize_t MAX_TYPED_TUPLE = _MAX_TYPED_TUPLE     # the one definition lives in moshjit.typeof
cdef enum:
    RECENT = 16                           # signatures remembered per dispatcher for the allocation-free check (a
                                          # match over tuples of 0..6 items sees 7 signatures in turn)
    LAST_ARGS = MJ_LAST_ARGS              # the last signatures' C copies hold at most this many arguments
    LAST_SLOTS = MJ_LAST_SLOTS            # how many of the last signatures the vectorcall slot checks
    KIND_EXACT = MJ_KIND_EXACT            # how the last signature's arguments are checked: type alone, ...
    KIND_INT64 = MJ_KIND_INT64            # ... an int that fits 64 bits, a bigger one,
    KIND_BIGINT = MJ_KIND_BIGINT
    KIND_CHAR = MJ_KIND_CHAR              # ... a one-character str, another str
    KIND_STR = MJ_KIND_STR
    KIND_SHAPE = MJ_KIND_SHAPE            # ... a tuple (its items' kinds, in C: mj_has_shape),
    KIND_NONE = MJ_KIND_NONE              # (an array, or a tuple holding one: not kept in the C copy)
    KIND_ANY = MJ_KIND_ANY                # ... or not at all (a megamorphic parameter)
    BOUND = 1                             # what _bind_vector did (0: nothing, the Python binder's turn): bound,
    KWDEFAULTS_TAKEN = 2                  # or bound taking keyword-only defaults from __kwdefaults__
    BIND_ARGS = 40                        # keywords and defaults are bound in C for at most this many parameters
                                          # (a NamedTuple's __new__ takes one per field)
SIGNATURES_IN_C = LAST_SLOTS              # read by the tests: moshjit.dispatcher widens past as many signatures

cdef object array_key(object value, type kind):
    """``moshjit.typeof.array_key``: the one definition of how NumPy arrays and ``array.array``s are keyed."""
    return _array_key(value, kind)


cdef inline bint keyed_by_contents(object kind):
    """Arrays: their kind says their item type (``array_key``), so the type alone does not decide it."""
    return kind is _STDLIB_ARRAY or mj_named_ndarray(<type>kind)


cdef object kind_of(object value):
    """Same classification as ``moshjit.typeof.key_of`` (keep the two in step). ``kind`` is an object, not a
    ``type``: Cython checks ``type`` variables exactly, and classes with a metaclass (Enum, ABC) are not."""
    cdef object kind = type(value)
    if kind is int:
        return INT64 if mj_fits_int64(value) else int
    if kind is str:
        return CHAR if len(<str>value) == 1 else str
    if kind is tuple and len(<tuple>value) <= MAX_TYPED_TUPLE:
        return (TUPLE,) + tuple([kind_of(item) for item in <tuple>value])
    if keyed_by_contents(kind):
        return array_key(value, <type>kind)
    return kind


cdef int has_kind(PyObject *value, PyObject *key_item) except -1:
    """Whether ``kind_of(value)`` equals ``key_item`` (an item of a signature key), computed without building it:
    types and the interned "int64"/"char" compare by identity, typed tuples item by item (borrowed pointers
    throughout: nothing is allocated, not even a reference count changes)."""
    cdef PyObject *kind = mj_type_of(value)
    cdef Py_ssize_t n, i
    if key_item == <PyObject *>ANY:
        return 1
    if kind == <PyObject *>int:
        return key_item == (<PyObject *>INT64 if mj_fits_int64(<object>value) else <PyObject *>int)
    if kind == <PyObject *>str:
        return key_item == (<PyObject *>CHAR if mj_str_length(value) == 1 else <PyObject *>str)
    if kind == <PyObject *>tuple:
        n = mj_size(value)
        if n > MAX_TYPED_TUPLE:
            return key_item == <PyObject *>tuple
        if mj_type_of(key_item) != <PyObject *>tuple or mj_size(key_item) != n + 1:
            return 0
        for i in range(n):
            if not has_kind(mj_item(value, i), mj_item(key_item, i + 1)):
                return 0
        return 1
    if keyed_by_contents(<object>kind):
        return array_key(<object>value, <type>kind) == <object>key_item
    return key_item == kind


cdef object exact_type(object key_item):
    """``key_item`` when it is a type all of whose values have that kind (so ``type(value) is key_item`` decides),
    else None: int, str, tuple and arrays are split further by value."""
    if isinstance(key_item, type) and key_item is not int and key_item is not str and key_item is not tuple \
            and not keyed_by_contents(key_item):
        return key_item
    return None


cdef char last_kind(object key_item):
    """How the C copy of the last signature checks an argument of kind ``key_item``."""
    if key_item is ANY:
        return KIND_ANY
    if key_item is INT64:
        return KIND_INT64
    if key_item is int:
        return KIND_BIGINT
    if key_item is CHAR:
        return KIND_CHAR
    if key_item is str:
        return KIND_STR
    if exact_type(key_item) is not None:
        return KIND_EXACT
    return KIND_SHAPE if shape_checkable(key_item) else KIND_NONE


cdef bint shape_checkable(object key_item):
    """Whether ``mj_has_shape`` decides ``key_item`` as ``has_kind`` does: every kind but arrays, at any depth of a
    typed tuple's items."""
    if key_item is INT64 or key_item is CHAR or key_item is int or key_item is str or key_item is tuple:
        return True
    if type(key_item) is tuple:
        return all(shape_checkable(item) for item in (<tuple>key_item)[1:])
    return exact_type(key_item) is not None


cdef Py_ssize_t parameter_index(tuple names, PyObject *name):
    """The index of the parameter a keyword names (the same object, else an equal str, as CPython matches
    them), or -1."""
    cdef Py_ssize_t i
    for i in range(len(names)):
        if <PyObject *>names[i] == name:
            return i
    if type(<object>name) is not str:
        return -1
    for i in range(len(names)):
        if names[i] == <object>name:
            return i
    return -1


cdef object call_entry(object entry, PyObject **argv, size_t nargsf):
    """Call a signature's entry with the argument vector: a tier-0 entry directly (one C call less than through its
    vectorcall slot), any other through vectorcall."""
    if type(entry) is Tier0Entry:
        return tier0_vectorcall(entry, argv, nargsf, None)
    return mj_call_vector(entry, argv, nargsf)


cdef class DispatcherCore:
    cdef vectorcallfunc _vectorcall        # the per-instance vectorcall slot (the type's tp_vectorcall_offset)
    cdef public dict _entries              # signature key -> entry; entries are only ever added
    cdef public Py_ssize_t _positional_count
    cdef public object _native             # an entry that checks its own argument types (LLVM), tried first, or None
    cdef list _recent                      # RECENT slots, each (entry, key, exact types of key) or None
    cdef Py_ssize_t _recent_hit            # the slot that matched last (checked first)
    cdef Py_ssize_t _recent_next           # the slot the next new signature goes to
    cdef list _last_held                   # per slot of _last: (entry, key) of a native entry, holding what it borrows
    cdef Py_ssize_t _last_next             # the slot of _last the next kept signature goes to
    cdef mj_last_call _last[LAST_SLOTS]    # the last signatures in C, which the vectorcall slot checks first
    cdef readonly tuple _parameter_names   # the parameters' names when keywords and defaults can be bound in C
    cdef object _defaults_held             # (else None), the function whose __defaults__ and __kwdefaults__
    cdef readonly Py_ssize_t _positional_only  # complete a call (read at each call), how many cannot be passed
    cdef readonly Py_ssize_t _keyword_only # by keyword, and how many (the last ones) can only be passed by keyword;
    cdef readonly bint _var_positional     # whether it has *args (after the positional parameters in the bound
    cdef readonly bint _var_keyword        # vector) and **kwargs (last), which _bind_vector makes for the call
                                           # (all set by _take_parameters; _keyword_binding borrows the names)
    cdef public tuple _any_positions       # None, or per parameter whether it is keyed ANY (megamorphic)
    cdef PyObject *_defaults_function      # _defaults_held (borrowed), or NULL: what the vectorcall slot reads
    cdef mj_packing _packing               # how the vectorcall slot binds positional calls of *args/**kwargs
    cdef mj_keyword_binding _keyword_binding   # ... and calls with keywords or keyword-only defaults

    @property
    def _defaults_of(self):
        """The function whose ``__defaults__`` and ``__kwdefaults__`` complete a call (None: C binds nothing)."""
        return self._defaults_held

    @_defaults_of.setter
    def _defaults_of(self, function):
        self._defaults_held = function
        self._defaults_function = NULL if function is None else <PyObject *>function

    def __cinit__(self, *args, **kwargs):
        self._vectorcall = mj_vectorcall_slot()
        self._entries = {}
        self._positional_count = -1
        self._keyword_only = 0
        self._packing.arity = -1
        self._any_positions = None
        self._native = None
        self._recent = [None] * RECENT
        self._last_held = [None] * LAST_SLOTS
        if mj_keeps_core_call(type(self)):    # Python 3.11 does not pass vectorcall on to heap subclasses such
            mj_enable_vectorcall(type(self))  # as Dispatcher: turn it on for those that keep our __call__
        mj_mark_method_descriptor(type(self))

    def __get__(self, instance, owner):
        """Bind to ``instance`` as a function does (``obj.method``); on the class, the dispatcher itself."""
        if instance is None:
            return self
        return PyMethod_New(self, instance)

    @staticmethod
    def _seal_class(type kind):
        """Make ``kind`` (the Dispatcher class moshjit builds) immutable, so that CPython specialises method calls
        through its instances as it does through functions."""
        mj_seal(kind)

    @staticmethod
    def _tier0_entry(plain, Py_ssize_t hot_calls, double hot_seconds, on_hot):
        """The counting tier-0 entry of a new signature (``Tier0Entry``, in C like this call path)."""
        return Tier0Entry(plain, hot_calls, hot_seconds, on_hot)

    @staticmethod
    def _cold_counter(Py_ssize_t remaining, on_hot):
        """The counter a cold method's plain-function copy tests (``ColdCounter``)."""
        return ColdCounter(remaining, on_hot)

    @staticmethod
    def _passthrough_entry(plain):
        """``plain`` as an entry, uncounted (a hot ``Tier0Entry``): what runs while a signature compiles, after a
        demotion or a fallback; it gives back the recursion level this call path counted, as tier 0 does."""
        cdef Tier0Entry entry = Tier0Entry(plain, 1, 0.0, None)
        entry.hot = True
        return entry

    def _take_parameters(self, code):
        """Bind calls as the parameter list of ``code`` (the plain function's) says: which calls the vectorcall slot
        binds in C, and what ``_bind_vector`` needs."""
        cdef Py_ssize_t count = code.co_argcount + code.co_kwonlyargcount
        self._positional_count = code.co_argcount if not (code.co_kwonlyargcount or code.co_flags & 0x0C) else -1
        self._parameter_names = code.co_varnames[:count]
        self._positional_only = code.co_posonlyargcount
        self._keyword_only = code.co_kwonlyargcount
        self._var_positional = bool(code.co_flags & 0x04)
        self._var_keyword = bool(code.co_flags & 0x08)
        if self._var_positional or self._var_keyword:
            self._keyword_binding.names = NULL
            if not self._keyword_only:     # positional calls of at least co_argcount arguments are packed in C
                self._packing.arity = code.co_argcount
                self._packing.star = self._var_positional
                self._packing.keywords = self._var_keyword
        else:
            self._keyword_binding.names = <PyObject *>self._parameter_names if count <= LAST_ARGS else NULL
        self._keyword_binding.positional_only = self._positional_only
        self._keyword_binding.keyword_only = self._keyword_only

    def _use_native(self, native):
        """Make ``native`` (an entry that checks its own argument types and hands misses back to ``__call__``)
        the first thing a positional call tries (None: nothing)."""
        self._native = native

    def __call__(self, *args, **kwargs):
        """Reached as ``DispatcherCore.__call__(self, ...)`` (calls on instances take vectorcall)."""
        cdef tuple vector
        if kwargs:
            vector = args + tuple(kwargs.values())
            return self._call_keywords(mj_tuple_items(vector), len(args), tuple(kwargs))
        return self._call_positional(mj_tuple_items(args), len(args), args, len(args))

    cdef object _call_keywords(self, PyObject **argv, Py_ssize_t n, tuple kwnames):
        """A call with keywords (their values follow the ``n`` positional arguments in ``argv``): bound in C when
        the parameters allow, else by ``_bind``."""
        cdef PyObject *bound[BIND_ARGS]
        cdef tuple defaults = self._current_defaults()    # held: the bound vector borrows from it during the call
        cdef list made = [] if self._var_positional or self._var_keyword else None   # *args, **kwargs: held
        cdef int bound_how = self._bind_vector(argv, n, kwnames, bound, defaults, made)
        if bound_how:
            return self._call_bound_vector(bound, bound_how == KWDEFAULTS_TAKEN)
        kwargs = {}
        for i in range(len(kwnames)):
            kwargs[kwnames[i]] = <object>argv[n + i]
        return self._call_bound(self._bind(mj_tuple_from(argv, n), kwargs))

    cdef inline tuple _current_defaults(self):
        """The defaults a call takes now: the function's ``__defaults__`` (None when C does not bind them)."""
        return None if self._defaults_held is None else <tuple>mj_function_defaults(self._defaults_held)

    cdef int _bind_vector(self, PyObject **argv, Py_ssize_t n, tuple kwnames, PyObject **bound, tuple defaults,
                          list made) except -1:
        """Fill ``bound`` with the call's parameters in order (borrowed: from ``argv``, the keyword values after
        it, and ``defaults``, which the caller holds; keyword-only defaults from ``__kwdefaults__``, which
        ``_call_bound_vector`` then holds; the ``*args`` tuple and ``**kwargs`` dict made here, which ``made``
        holds), as CPython binds them: ``BOUND``, or ``KWDEFAULTS_TAKEN`` when a keyword-only default was taken.
        0 when the Python binder must do it: a parameter list it does not cover, or a call CPython rejects
        (``_bind`` then raises CPython's own TypeError)."""
        cdef tuple names = self._parameter_names
        cdef Py_ssize_t count, positional, i, k, first_default, slot, extra_keywords = 0
        cdef Py_ssize_t star = self._var_positional, kwonly_at
        cdef int outcome = BOUND
        if names is None or defaults is None:
            return False
        count = len(names)
        positional = count - self._keyword_only
        kwonly_at = positional + star            # where the keyword-only parameters go: after *args
        if count + star + self._var_keyword > BIND_ARGS or (n > positional and not star):
            return False
        for i in range(count + star):
            bound[i] = argv[i] if i < n and i < positional else NULL
        if kwnames is not None:
            for k in range(len(kwnames)):
                i = parameter_index(names, <PyObject *>kwnames[k])
                if i < self._positional_only:        # not a parameter, or positional-only: for **kwargs
                    if not self._var_keyword:
                        return False
                    extra_keywords += 1
                    continue
                slot = i if i < positional else i + star
                if bound[slot] != NULL:
                    return False
                bound[slot] = argv[n + k]
        first_default = positional - len(defaults)
        for i in range(n, positional):
            if bound[i] == NULL:
                if i < first_default:
                    return False
                bound[i] = <PyObject *>defaults[i - first_default]
        for i in range(positional, count):
            if bound[i + star] == NULL:
                bound[i + star] = mj_kwdefault(self._defaults_held, <PyObject *>names[i])
                if bound[i + star] == NULL:
                    return False
                outcome = KWDEFAULTS_TAKEN
        if star:
            rest = mj_tuple_from(argv + positional, n - positional) if n > positional else ()
            made.append(rest)
            bound[positional] = <PyObject *>rest
        if self._var_keyword:
            extra = {}
            for k in range(len(kwnames) if extra_keywords else 0):
                if parameter_index(names, <PyObject *>kwnames[k]) < self._positional_only:
                    extra[<object>kwnames[k]] = <object>argv[n + k]
            made.append(extra)
            bound[kwonly_at + self._keyword_only] = <PyObject *>extra
        return outcome

    cdef object _call_bound_vector(self, PyObject **bound, bint kwdefaults_taken):
        """Call with the vector ``_bind_vector`` filled; keyword-only defaults it took held for the call (one could
        leave ``__kwdefaults__`` while the call runs; values the caller passed are the caller's)."""
        cdef Py_ssize_t count = len(self._parameter_names) + self._var_positional + self._var_keyword
        cdef Py_ssize_t kwonly_at = count - self._var_keyword - self._keyword_only
        held = mj_tuple_from(bound + kwonly_at, self._keyword_only) if kwdefaults_taken else None
        return self._call_vector(bound, count, count)

    def _forget_recent(self):
        """Drop the remembered signatures: after ``_entries`` changed an entry (tiering swaps native code in), the
        next call of each signature looks its entry up again."""
        self._recent = [None] * RECENT
        self._forget_last()

    cdef inline void _forget_last(self):
        cdef Py_ssize_t slot
        for slot in range(LAST_SLOTS):
            self._last[slot].entry = NULL
        self._last_held = [None] * LAST_SLOTS

    cdef inline object _last_match(self, PyObject **argv, Py_ssize_t n):
        """The entry of one of the last signatures if the arguments have it (compared in C), else None."""
        cdef Py_ssize_t slot
        for slot in range(LAST_SLOTS):
            if mj_last_matches(&self._last[slot], argv, n):
                return <object>self._last[slot].entry
        return None

    cdef int _keep_last(self, tuple key, object entry) except -1:
        """Copy a signature whose entry is native code into the next slot of the C fields the vectorcall slot and
        ``_last_match`` read, in turn (a tier-0 entry is replaced once hot, and arrays need the full check: those
        are not kept)."""
        cdef Py_ssize_t i, n = len(key), slot = self._last_next
        cdef char kind
        if n > LAST_ARGS or type(entry) is Tier0Entry:
            return 0
        for i in range(n):
            if last_kind(key[i]) == KIND_NONE:
                return 0
        self._last[slot].entry = NULL
        self._last_held[slot] = None
        # the vectorcall slot matches positional calls as they come; keyword-only parameters never come that way,
        # and *args and **kwargs are packed by binding: such a signature serves bound parameters only
        self._last[slot].bound = self._positional_count < 0
        for i in range(n):
            kind = last_kind(key[i])
            self._last[slot].kinds[i] = kind
            self._last[slot].types[i] = <PyObject *>(int if kind == KIND_INT64 else str if kind == KIND_CHAR else key[i])
            self._last[slot].shapes[i] = <PyObject *>key[i]
        if mj_last_set(&self._last[slot], <PyObject *>entry, n):
            self._last_held[slot] = (entry, key)
            self._last_next = slot + 1 if slot + 1 < LAST_SLOTS else 0
        return 0

    cdef object _call_positional(self, PyObject **argv, Py_ssize_t n, tuple args, size_t nargsf):
        """A call without keywords: a recently seen signature goes straight to its entry with ``argv`` as is."""
        cdef PyObject *bound[BIND_ARGS]
        cdef int bound_how
        cdef list made
        if n != self._positional_count:
            defaults = self._current_defaults()    # held: the bound vector borrows from it during the call
            made = [] if self._var_positional or self._var_keyword else None     # *args, **kwargs: held
            bound_how = self._bind_vector(argv, n, None, bound, defaults, made)
            if bound_how:
                return self._call_bound_vector(bound, bound_how == KWDEFAULTS_TAKEN)
            return self._call_bound(self._bind(mj_tuple_from(argv, n) if args is None else args, {}))
        return self._call_vector(argv, n, nargsf)

    cdef object _call_vector(self, PyObject **argv, Py_ssize_t n, size_t nargsf):
        """The entry of the signature of ``argv``, the full parameter list, called with it."""
        cdef tuple key
        entry = self._last_match(argv, n)
        if entry is not None:
            return mj_call_vector(entry, argv, nargsf)
        entry = self._recent_entry(argv, n)
        if entry is not None:
            self._keep_last(<tuple>mj_item(<PyObject *>self._recent[self._recent_hit], 1), entry)
            return call_entry(entry, argv, nargsf)
        key = self._key_of(argv, n)
        entry = self._entry_for(key, argv, n)
        self._remember(key, entry)
        self._keep_last(key, entry)
        return call_entry(entry, argv, nargsf)

    cdef object _call_bound(self, tuple args):
        """A call with the parameters bound by ``_bind`` (keywords, defaults, *args)."""
        entry = self._entry_for(self._key_of(mj_tuple_items(args), len(args)), mj_tuple_items(args), len(args))
        return call_entry(entry, mj_tuple_items(args), len(args))

    cdef object _recent_entry(self, PyObject **argv, Py_ssize_t n):
        """The entry of a recently used signature that the arguments have, else None; allocates nothing."""
        cdef Py_ssize_t slot = self._recent_hit, tries, i
        cdef PyObject *slot_items
        cdef PyObject *key
        cdef PyObject *exact
        for tries in range(RECENT):
            recent = self._recent[slot]        # held here: has_kind may run Python code (NumPy arrays)
            if recent is not None:
                slot_items = <PyObject *>recent
                key = mj_item(slot_items, 1)
                if mj_size(key) == n:
                    for i in range(n):
                        exact = mj_item(mj_item(slot_items, 2), i)
                        if exact != <PyObject *>None:
                            if mj_type_of(argv[i]) != exact:
                                break
                        elif not has_kind(argv[i], mj_item(key, i)):
                            break
                    else:
                        self._recent_hit = slot
                        return <object>mj_item(slot_items, 0)
            slot = slot + 1 if slot + 1 < RECENT else 0
        return None

    cdef int _remember(self, tuple key, object entry) except -1:
        """Put a signature in the recent slots, replacing the oldest one."""
        self._recent[self._recent_next] = (entry, key, tuple([exact_type(item) for item in key]))
        self._recent_hit = self._recent_next
        self._recent_next = self._recent_next + 1 if self._recent_next + 1 < RECENT else 0
        return 0

    cdef tuple _key_of(self, PyObject **argv, Py_ssize_t n):
        """The signature key of the arguments (what ``_entries`` and ``_specialize`` are keyed by): ``ANY`` at
        the parameters ``_any_positions`` marks."""
        cdef tuple key = mj_tuple_of_none(n)    # filled in place: nobody else holds it yet
        cdef tuple any_positions = self._any_positions
        cdef Py_ssize_t i
        for i in range(n):
            if any_positions is not None and i < len(any_positions) and any_positions[i]:
                mj_tuple_replace(key, i, ANY)
            else:
                mj_tuple_replace(key, i, kind_of(<object>argv[i]))
        return key

    cdef object _entry_for(self, tuple key, PyObject **argv, Py_ssize_t n):
        """The entry compiled for ``key``, compiling it first if this is a new signature (the call's arguments
        are its sample: ``moshjit.samples``)."""
        cdef PyObject *found = PyDict_GetItem(self._entries, key)
        if found is NULL:
            return self._specialize(key, None, mj_tuple_from(argv, n))
        return <object>found



cdef enum:
    TIMED_FIRST = 32                      # a tier-0 entry times each of its first calls ...
    TIMED_EVERY = 32                      # ... then one call in this many (a power of two)


cdef class Tier0Entry:
    """Tier 0 of one signature: the plain function, called through vectorcall with the caller's arguments (no
    Python frame in between), behind a counter. Hot after ``hot_calls`` calls, or after a timed call of at least
    ``hot_seconds``; calls are timed by sampling (the first ``TIMED_FIRST``, then one in ``TIMED_EVERY``), which
    also gives the interpreter's time per call the trial compares native code against (the first call, with its
    one-time costs, left out of it as the trial leaves out native code's first call). ``on_hot()`` is called
    once the entry is hot (the dispatcher then replaces it); calls still reaching it run the plain function
    uncounted."""
    cdef vectorcallfunc _vectorcall        # the per-instance vectorcall slot
    cdef readonly object plain
    cdef readonly Py_ssize_t calls
    cdef readonly Py_ssize_t timed_calls
    cdef readonly double interpreted_s
    cdef readonly bint hot
    cdef public Py_ssize_t hot_calls      # (the tiers lower it once the function's plain-function copy got hot)
    cdef double hot_seconds
    cdef object on_hot
    cdef public object on_cold             # None, or called once after the timed first calls if not hot by then

    def __cinit__(self, plain, Py_ssize_t hot_calls, double hot_seconds, on_hot):
        self._vectorcall = mj_tier0_slot()
        self.plain = plain
        self.hot_calls = hot_calls
        self.hot_seconds = hot_seconds
        self.on_hot = on_hot

    def __call__(self, *args):
        """Reached when called with an argument tuple (the call paths use vectorcall)."""
        return tier0_vectorcall(self, mj_tuple_items(args), len(args), None)

    cdef int _became_hot(self) except -1:
        self.hot = True
        mj_notify(self.on_hot)
        return 0


cdef object tier0_vectorcall(object entry, PyObject **argv, size_t nargsf, object kwnames):
    """The tier-0 entries' vectorcall (behind ``mj_tier0_vectorcall``): count, sometimes time, call the plain
    function with the arguments as they came."""
    cdef Tier0Entry self = <Tier0Entry>entry
    cdef double start, took
    if self.hot:
        return mj_call_plain(self.plain, argv, nargsf, kwnames)
    self.calls += 1
    if self.calls >= self.hot_calls:
        self._became_hot()
        return mj_call_plain(self.plain, argv, nargsf, kwnames)
    if self.calls == TIMED_FIRST and self.on_cold is not None:
        mj_notify(self.on_cold)
    if self.calls > TIMED_FIRST and self.calls & (TIMED_EVERY - 1):
        return mj_call_plain(self.plain, argv, nargsf, kwnames)
    start = mj_seconds()
    try:
        return mj_call_plain(self.plain, argv, nargsf, kwnames)
    finally:
        took = mj_seconds() - start
        if self.calls > 1:      # the first call pays one-time costs: it decides hotness but is not in the sample
            self.interpreted_s += took
            self.timed_calls += 1
        if took >= self.hot_seconds and not self.hot:
            self._became_hot()


cdef class ColdCounter:
    """The hotness counter of a cold method's plain-function copy (``moshjit.cold_copy``): the copy's prologue
    tests this object's truth — the cheapest thing CPython's eval loop does to an object (one C slot, no call, no
    frame) — and each test counts a call of the copy. At ``remaining`` calls ``on_hot()`` is called once (an
    exception from it is reported as unraisable, never raised into the user's call); it is always true."""
    cdef readonly Py_ssize_t calls
    cdef public Py_ssize_t remaining
    cdef object on_hot

    def __cinit__(self, Py_ssize_t remaining, on_hot):
        self.remaining = remaining
        self.on_hot = on_hot

    def __bool__(self):
        if self.remaining > 0:
            self.calls += 1
            self.remaining -= 1
            if self.remaining == 0:
                mj_notify(self.on_hot)
        return True


cdef Py_ssize_t tier0_vectorcall_offset(Tier0Entry probe):
    return <char *>&probe._vectorcall - <char *><PyObject *>probe


cdef object dispatch_vectorcall(object self, PyObject **argv, size_t nargsf, object kwnames):
    """The vectorcall entry (behind ``mj_dispatch_vectorcall``): a call with keywords, or one leaving parameters
    to their defaults, is bound in C where the parameter list allows (``_bind_vector``)."""
    cdef DispatcherCore core = <DispatcherCore>self
    cdef Py_ssize_t n = mj_nargs(nargsf), i
    if kwnames is None or len(<tuple>kwnames) == 0:
        if core._native is not None and n == core._positional_count:
            return mj_call_vector(core._native, argv, nargsf)
        return core._call_positional(argv, n, None, nargsf)
    return core._call_keywords(argv, n, <tuple>kwnames)


cdef Py_ssize_t vectorcall_offset(DispatcherCore probe):
    """Where ``_vectorcall`` sits in an instance (Cython does not expose offsetof for its own structs)."""
    return <char *>&probe._vectorcall - <char *><PyObject *>probe


cdef Py_ssize_t last_offset(DispatcherCore probe):
    """Where ``_last`` (its first slot) sits in an instance."""
    return <char *>&probe._last[0] - <char *><PyObject *>probe


cdef int install_core() except -1:
    """Install the vectorcall slot (which needs where ``_vectorcall`` and ``_last`` sit in an instance)."""
    cdef DispatcherCore probe = DispatcherCore.__new__(DispatcherCore)
    mj_install(DispatcherCore, vectorcall_offset(probe), last_offset(probe),
               <char *>&probe._positional_count - <char *><PyObject *>probe,
               <char *>&probe._defaults_function - <char *><PyObject *>probe,
               <char *>&probe._packing - <char *><PyObject *>probe,
               <char *>&probe._keyword_binding - <char *><PyObject *>probe, <void *>dispatch_vectorcall)
    mj_set_kinds(<PyObject *>INT64, <PyObject *>CHAR, MAX_TYPED_TUPLE)
    return 0


mj_install_descriptor(DispatcherCore)
install_core()
mj_install_tier0(Tier0Entry, tier0_vectorcall_offset(Tier0Entry.__new__(Tier0Entry, None, 1, 0.0, None)),
                 <void *>tier0_vectorcall)

"""Method calls on any receiver: ``obj.name(args)`` where nothing fixes ``obj``'s class at compile time (an
attribute load, a list item, a local), through a per-call-site inline cache.

Each such site of a generated module owns an ``mj_method_site``. It remembers up to four receiver types and, for
each whose ``name`` is a jitted method (a ``DispatcherCore`` whose call and binding are the core's own), the
method itself; ``mj_method_is`` (``attribute_cache.py``) confirms on every call that the type is unchanged (its
version tag) and that the instance has no attribute of that name shadowing the method. Per type the site keeps the
compiled entries it picked for up to two argument signatures (each argument's exact type, ints split by "fits in
int64" and strs by "one character", as ``moshjit.typeof.key_of`` splits them), so a call whose arguments have a
signature seen before goes straight to that entry: no bound method, no method lookup, no signature search in the
dispatcher. A new signature is looked up in the dispatcher's ``_entries``; tier-0 entries (which the dispatcher
replaces once hot), entries marked ``__moshjit_transient__`` (the tiers' trial timer and failure report, replaced
once decided), typed tuples, arrays, more than ``MJ_SITE_ARGS`` arguments or keywords go through the
dispatcher's own vectorcall (still no lookup and no bound method: it binds keywords in C). A positional call
leaving parameters to their defaults is completed with the defaults the dispatcher binds (the ``__defaults__`` of
its ``_defaults_of`` function, held by the site and read at each call, as CPython reads them) and then matched
like any other. A method that is not jitted but is a method descriptor (a Python function, a builtin type's
method such as ``list.append`` or ``TextIOWrapper.write``) is kept as well and, under the same guard, called with
the receiver first — what CPython's ``LOAD_METHOD`` and ``CALL`` do with it — without looking it up again.
A receiver that is itself a class whose metaclass is exactly ``type`` (``cls.name(args)``, ``Shape.make(x)``) has
a record of its own, keyed by the class and its version tag: an exact classmethod is called with the class first,
an exact staticmethod's callable, a plain or jitted function and a builtin type's method descriptor without it —
what ``type.__getattribute__`` and the call do with them — and jitted ones through their entries as above, so no
bound method is made. Anything else — another type, a ``__getattribute__`` override, another kind of descriptor,
a shadowing instance attribute, a name ``type`` itself has, a class changed after the site was filled — takes
``PyObject_VectorcallMethod``, CPython's own ``obj.name(args)``.

A parameter the method's dispatcher keys "any" (megamorphic: ``_any_positions``) is keyed so here too and never
checked. A site that keeps replacing its receiver records (more receiver types than it keeps, ``MJ_SITE_WINDOW``)
takes the generic call from then on: cheaper than refilling a record at every call.

A cached entry is a compiled specialisation of the method for exactly those argument kinds, so it stays correct
even if the dispatcher later installs another one for the same kinds. The call counts one level of recursion, as
the dispatcher's own call does.
"""
from __future__ import annotations

MAX_SITE_ARGS = 8                # receiver included

FRAME_COUNT_C = r'''
    /* A call made from compiled code counted as a Python frame against the recursion limit, as moshjit_dispatch
       does; ``where`` ends 3.11's message (defined once per module: method sites and in-place awaits use it). */
    #ifndef MJ_FRAME_COUNT
    #define MJ_FRAME_COUNT
    #if PY_VERSION_HEX < 0x030C0000
    #define mj_frame_enter(where) (Py_EnterRecursiveCall(where) ? -1 : 0)   /* 3.11 gives 1 on error */
    #define mj_frame_leave() Py_LeaveRecursiveCall()
    #else
    static int mj_frame_enter(const char *where) {    /* 3.12+: Python frames have their own count */
        PyThreadState *tstate = PyThreadState_Get();
        (void)where;
        if (tstate->py_recursion_remaining-- <= 0) {
            tstate->py_recursion_remaining++;
            PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded");
            return -1;
        }
        return 0;
    }
    static void mj_frame_leave(void) { PyThreadState_Get()->py_recursion_remaining++; }
    #endif
    /* a call of a jitted method: as CPython's for a Python call's frame (no " while calling a Python object") */
    #define mj_site_enter() mj_frame_enter("")
    #define mj_site_leave() mj_frame_leave()
    #endif
'''

ENTRY_CALL_C = FRAME_COUNT_C + r'''
    /* Calling a compiled entry (defined once per module: method sites and nested functions' call paths use it). */
    #ifndef MJ_ENTRY_CALL
    #define MJ_ENTRY_CALL
    /* A compiled entry called with its arguments (the site counted the frame it stands for): a Cython def through
       its C function, as CPython's specialised call of a builtin does (no second C-level call, no second
       recursion level), anything else through vectorcall. */
    static inline PyObject *mj_site_call_entry(PyObject *entry, PyObject **argv, Py_ssize_t n) {
        if (PyCFunction_CheckExact(entry) && PyCFunction_GET_FLAGS(entry) == (METH_FASTCALL | METH_KEYWORDS))
            return ((PyObject *(*)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *))(void (*)(void))
                    PyCFunction_GET_FUNCTION(entry))(PyCFunction_GET_SELF(entry), argv, n, NULL);
        return PyObject_Vectorcall(entry, argv, n, NULL);
    }

    /* A compiled entry the caller holds, called with its arguments as a call of the function would be: counted as
       one Python frame (``method_calls.py``'s direct calls, a nested function's call path). */
    static inline PyObject *mj_entry_call(PyObject *entry, PyObject **argv, Py_ssize_t n) {
        PyObject *result;
        if (mj_site_enter()) return NULL;
        result = mj_site_call_entry(entry, argv, n);
        mj_site_leave();
        return result;
    }
    #endif
'''

METHOD_SITES_C = r'''
    #define MJ_SITE_ARGS 8
    enum { MJ_KIND_EXACT = 0, MJ_KIND_INT64, MJ_KIND_BIGINT, MJ_KIND_CHAR, MJ_KIND_STR, MJ_KIND_ANY };
    /* Laid out for the call that finds its receiver and signature: the site's counters beside its first record's
       type, then that record's guard and method, its first signature's entry and C function, the kinds and types
       last (a monomorphic call reads three cache lines of the site, none of the entry's method table). */
    typedef PyObject *(*mj_site_cfunc)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);
    typedef struct {
        PyObject *entry;                           /* strong; NULL: empty */
        mj_site_cfunc cfunc;                       /* the entry's C function when it is a Cython def (the fast
                                                      call of mj_site_call_entry), else NULL */
        PyObject *cself;                           /* its self (kept alive by entry) */
        Py_ssize_t n;
        char kinds[MJ_SITE_ARGS];
        PyTypeObject *types[MJ_SITE_ARGS];
    } mj_site_signature;
    typedef struct {
        PyTypeObject *type;                        /* a receiver type the site saw */
        unsigned int version;                      /* its version tag then (0: empty) */
        char on_class;                             /* a record of the receiver type itself, not its instances */
        char drops_receiver;                       /* on_class: the callable is called without the class */
        mj_method_guard guard;
        PyObject *method;                          /* strong: the jitted method found on it, or NULL */
        PyObject *plain;                           /* strong: else the method descriptor found (a function, a
                                                      builtin's method), called with the receiver first, or NULL */
        Py_ssize_t arity;                          /* its _positional_count: other calls go to its dispatcher */
        PyObject *defaults_of;                     /* strong: the function whose __defaults__ it binds, or NULL */
        unsigned int next;
        mj_site_signature signatures[2];
    } mj_site_receiver;
    typedef struct {
        unsigned int calls, refills;               /* in the current window of MJ_SITE_WINDOW calls: calls, and
                                                      records replaced by another receiver type's */
        unsigned int next;
        char megamorphic;                          /* 1: too many receiver types, every call is generic */
        mj_site_receiver receivers[4];             /* polymorphic sites: up to four receiver types */
    } mj_method_site;
    /* A site that replaces at least MJ_SITE_MEGAMORPHIC_REFILLS records within a window of calls, on at least half
       of the window's calls so far, sees more receiver types than it keeps: refilling a record (a type lookup, the
       method's attributes, a new signature) costs more than CPython's generic method call, which it then takes
       for good, as CPython's own inline caches give up on such sites. */
    #define MJ_SITE_MEGAMORPHIC_REFILLS 16
    #define MJ_SITE_WINDOW 1024
    static inline int mj_site_counts_call(mj_method_site *sites) {
        if (++sites->calls > MJ_SITE_WINDOW) { sites->calls = 1; sites->refills = 0; }
        return sites->megamorphic;
    }

    static PyTypeObject *mj_site_core_type = NULL;    /* moshjit_dispatch.DispatcherCore */
    static PyTypeObject *mj_site_tier0_type = NULL;   /* moshjit_dispatch.Tier0Entry */
    static PyObject *mj_site_int64 = NULL, *mj_site_char = NULL, *mj_site_entries = NULL, *mj_site_arity = NULL;
    static PyObject *mj_site_defaults = NULL, *mj_site_transient_mark = NULL, *mj_site_any = NULL;
    static PyObject *mj_site_any_positions = NULL;

    /* What the generated module passes in at import (None when the compiled call path is missing: every site is
       then generic). */
    static int mj_method_sites_init(PyObject *core, PyObject *tier0) {
        if (core == Py_None || tier0 == Py_None) return 0;
        mj_site_int64 = PyUnicode_InternFromString("int64");
        mj_site_char = PyUnicode_InternFromString("char");
        mj_site_entries = PyUnicode_InternFromString("_entries");
        mj_site_arity = PyUnicode_InternFromString("_positional_count");
        mj_site_defaults = PyUnicode_InternFromString("_defaults_of");
        mj_site_transient_mark = PyUnicode_InternFromString("__moshjit_transient__");
        mj_site_any = PyUnicode_InternFromString("any");                    /* moshjit.typeof.ANY */
        mj_site_any_positions = PyUnicode_InternFromString("_any_positions");
        if (!mj_site_int64 || !mj_site_char || !mj_site_entries || !mj_site_arity || !mj_site_defaults
            || !mj_site_transient_mark || !mj_site_any || !mj_site_any_positions) return -1;
        Py_INCREF(core);
        Py_INCREF(tier0);
        mj_site_core_type = (PyTypeObject *)core;
        mj_site_tier0_type = (PyTypeObject *)tier0;
        return 0;
    }

''' + ENTRY_CALL_C + r'''
    /* A jitted method: an instance of the compiled call path that calls and binds as the core does. */
    static int mj_site_is_jitted(PyObject *descr) {
        PyTypeObject *kind = Py_TYPE(descr);
        return mj_site_core_type != NULL && PyType_IsSubtype(kind, mj_site_core_type)
            && kind->tp_call == mj_site_core_type->tp_call && kind->tp_descr_get == mj_site_core_type->tp_descr_get
            && (kind->tp_flags & Py_TPFLAGS_METHOD_DESCRIPTOR);
    }

    /* The dispatch kind of one argument as (type, refinement); 0 if it cannot be checked by type alone. */
    static inline int mj_site_kind(PyObject *value, char *kind) {
        PyTypeObject *tp = Py_TYPE(value);
        int overflow;
        if (tp == &PyLong_Type) {
    #if PY_VERSION_HEX < 0x030C0000
            if (-2 <= Py_SIZE(value) && Py_SIZE(value) <= 2) { *kind = MJ_KIND_INT64; return 1; }
    #else
            if (PyUnstable_Long_IsCompact((PyLongObject *)value)) { *kind = MJ_KIND_INT64; return 1; }
    #endif
            PyLong_AsLongLongAndOverflow(value, &overflow);    /* small ints answer from their size alone */
            *kind = overflow ? MJ_KIND_BIGINT : MJ_KIND_INT64;
        } else if (tp == &PyUnicode_Type) {
            *kind = PyUnicode_GET_LENGTH(value) == 1 ? MJ_KIND_CHAR : MJ_KIND_STR;
        } else if (tp == &PyTuple_Type) {
            return 0;
        } else {
            const char *name = tp->tp_name, *dot;
            if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE) && (dot = strrchr(name, '.')) != NULL) name = dot + 1;
            if (strcmp(name, "ndarray") == 0) return 0;
            *kind = MJ_KIND_EXACT;
        }
        return 1;
    }

    static inline int mj_site_matches(mj_site_signature *s, PyObject **argv, Py_ssize_t n) {
        Py_ssize_t i;
        char kind;
        if (s->entry == NULL || s->n != n) return 0;
        for (i = 0; i < n; i++) {
            if (s->kinds[i] == MJ_KIND_ANY) continue;
            if (Py_TYPE(argv[i]) != s->types[i]) return 0;
            if (s->kinds[i] != MJ_KIND_EXACT) {
                mj_site_kind(argv[i], &kind);
                if (kind != s->kinds[i]) return 0;
            }
        }
        return 1;
    }

    /* A jitted method's _positional_count (-1 when it cannot be read: its calls then go to the dispatcher). */
    static Py_ssize_t mj_site_arity_of(PyObject *method) {
        PyObject *arity = PyObject_GetAttr(method, mj_site_arity);
        Py_ssize_t positional = arity != NULL ? PyLong_AsSsize_t(arity) : -1;
        Py_XDECREF(arity);
        if (PyErr_Occurred()) { PyErr_Clear(); return -1; }
        return positional;
    }

    /* A jitted method's _defaults_of, the function whose defaults its dispatcher binds (a new reference), or
       NULL: its dispatcher does not bind them in C. */
    static PyObject *mj_site_defaults_of(PyObject *method) {
        PyObject *function = PyObject_GetAttr(method, mj_site_defaults);
        if (function == NULL) { PyErr_Clear(); return NULL; }
        if (!PyFunction_Check(function)) { Py_DECREF(function); return NULL; }
        return function;
    }

    /* Whether ``entry`` stands in only until the tiers decide (a trial's timer, a failure to report): marked
       ``__moshjit_transient__``; the site then asks the dispatcher again at the next call. */
    static int mj_site_transient(PyObject *entry) {
        PyObject *mark;
        if (!PyFunction_Check(entry)) return 0;
        mark = PyObject_GetAttr(entry, mj_site_transient_mark);
        if (mark == NULL) { PyErr_Clear(); return 0; }
        Py_DECREF(mark);
        return 1;
    }

    /* Whether the method's dispatcher keys parameter i "any" (megamorphic: ``_any_positions``, a tuple or None). */
    static inline int mj_site_any_at(PyObject *any_positions, Py_ssize_t i) {
        return any_positions != NULL && PyTuple_Check(any_positions) && i < PyTuple_GET_SIZE(any_positions)
            && PyTuple_GET_ITEM(any_positions, i) == Py_True;
    }

    /* The compiled entry of method for these arguments' signature, remembered in a free or the older slot (the
       slot it filled); NULL without an exception when there is none to remember (new signature, tier 0,
       uncheckable arguments). A parameter the dispatcher keys "any" is keyed so here too, and never checked. */
    static mj_site_signature *mj_site_fill_signature(mj_site_receiver *site, PyObject *method, PyObject **argv,
                                                     Py_ssize_t n) {
        PyObject *key, *entries, *entry, *any_positions;
        mj_site_signature *s;
        char kinds[MJ_SITE_ARGS];
        Py_ssize_t i;
        if (n > MJ_SITE_ARGS) return NULL;
        any_positions = PyObject_GetAttr(method, mj_site_any_positions);
        if (any_positions == NULL) PyErr_Clear();
        for (i = 0; i < n; i++) {
            if (mj_site_any_at(any_positions, i)) kinds[i] = MJ_KIND_ANY;
            else if (!mj_site_kind(argv[i], &kinds[i])) { Py_XDECREF(any_positions); return NULL; }
        }
        Py_XDECREF(any_positions);
        if ((key = PyTuple_New(n)) == NULL) return NULL;
        for (i = 0; i < n; i++) {
            PyObject *item = kinds[i] == MJ_KIND_INT64 ? mj_site_int64 : kinds[i] == MJ_KIND_CHAR ? mj_site_char
                             : kinds[i] == MJ_KIND_ANY ? mj_site_any : (PyObject *)Py_TYPE(argv[i]);
            Py_INCREF(item);
            PyTuple_SET_ITEM(key, i, item);
        }
        entries = PyObject_GetAttr(method, mj_site_entries);
        entry = entries != NULL && PyDict_Check(entries) ? PyDict_GetItemWithError(entries, key) : NULL;
        Py_XDECREF(entries);
        Py_DECREF(key);
        if (entry == NULL || Py_TYPE(entry) == mj_site_tier0_type || mj_site_transient(entry)) {
            PyErr_Clear();
            return NULL;
        }
        s = &site->signatures[site->next++ & 1];
        Py_INCREF(entry);
        Py_XSETREF(s->entry, entry);
        s->cfunc = NULL;
        s->cself = NULL;
        if (PyCFunction_CheckExact(entry) && PyCFunction_GET_FLAGS(entry) == (METH_FASTCALL | METH_KEYWORDS)) {
            s->cfunc = (mj_site_cfunc)(void (*)(void))PyCFunction_GET_FUNCTION(entry);
            s->cself = PyCFunction_GET_SELF(entry);
        }
        s->n = n;
        for (i = 0; i < n; i++) { s->types[i] = Py_TYPE(argv[i]); s->kinds[i] = kinds[i]; }
        return s;
    }
    /* The same, giving the entry (constructor and operator sites call it themselves). */
    static PyObject *mj_site_fill(mj_site_receiver *site, PyObject *method, PyObject **argv, Py_ssize_t n) {
        mj_site_signature *s = mj_site_fill_signature(site, method, argv, n);
        return s != NULL ? s->entry : NULL;
    }

    static void mj_site_forget(mj_site_receiver *site) {
        Py_CLEAR(site->method);
        Py_CLEAR(site->plain);
        Py_CLEAR(site->defaults_of);
        Py_CLEAR(site->signatures[0].entry);
        Py_CLEAR(site->signatures[1].entry);
        site->guard.type = NULL;
    }

    /* The site's record of tp at its current version tag (mj_site_known: NULL when there is none), or
       (mj_site_record_of) that record (*found 1) or the oldest record emptied and given to tp (*found 0: the caller
       fills it in). on_class: the record of tp as the receiver itself (``cls.name()``), not
       of its instances. Method and operator sites share it. */
    static inline mj_site_receiver *mj_site_known(mj_method_site *sites, PyTypeObject *tp, int on_class) {
        mj_site_receiver *site;
        int i;
        for (i = 0; i < 4; i++) {
            site = &sites->receivers[i];
            if (site->type == tp && site->version == tp->tp_version_tag && site->version != 0
                    && site->on_class == on_class)
                return site;
        }
        return NULL;
    }
    static mj_site_receiver *mj_site_record_of(mj_method_site *sites, PyTypeObject *tp, int on_class, int *found) {
        mj_site_receiver *site = mj_site_known(sites, tp, on_class);
        if (site != NULL) {
            *found = 1;
            return site;
        }
        site = &sites->receivers[sites->next++ & 3];
        if (site->type != NULL && ++sites->refills >= MJ_SITE_MEGAMORPHIC_REFILLS
                && sites->refills * 2 >= sites->calls)
            sites->megamorphic = 1;
        mj_site_forget(site);
        site->type = tp;
        site->version = 0;
        site->on_class = (char)on_class;
        site->drops_receiver = 0;
        *found = 0;
        return site;
    }

    /* The site's record of the receiver type tp: found, or made in place of the oldest one. */
    static mj_site_receiver *mj_site_receiver_for(mj_method_site *sites, PyTypeObject *tp, PyObject *name) {
        PyObject *descr;
        int found;
        mj_site_receiver *site = mj_site_record_of(sites, tp, 0, &found);
        if (found) return site;
        if (tp->tp_getattro == PyObject_GenericGetAttr) {
            descr = _PyType_Lookup(tp, name);                /* borrowed; gives tp a version tag if it can */
            site->version = tp->tp_version_tag;
            if (descr != NULL && mj_site_is_jitted(descr)) {
                Py_INCREF(descr);
                site->method = descr;
                site->arity = mj_site_arity_of(descr);
                site->defaults_of = mj_site_defaults_of(descr);
            } else if (descr != NULL && (Py_TYPE(descr)->tp_flags & Py_TPFLAGS_METHOD_DESCRIPTOR)) {
                Py_INCREF(descr);                        /* what _PyObject_GetMethod calls unbound */
                site->plain = descr;
            }
        }
        return site;
    }

    /* A jitted callable found on a class receiver: its entries are used as a jitted method's are. */
    static void mj_site_keep_jitted(mj_site_receiver *site, PyObject *callable, int drops_receiver) {
        Py_INCREF(callable);
        site->method = callable;
        site->arity = mj_site_arity_of(callable);
        site->defaults_of = mj_site_defaults_of(callable);
        site->drops_receiver = (char)drops_receiver;
    }

    /* The site's record of the class cls as the receiver (``cls.name(args)``, cls's metaclass exactly type and
       name not an attribute of type itself, so type.__getattribute__ finds name in cls's MRO and calls its
       __get__ with no instance): an exact classmethod of a Python or jitted function calls it with cls first; an
       exact staticmethod calls its callable, a Python or jitted function or a builtin type's method descriptor
       is itself, all without cls. Anything else (another descriptor, a plain attribute) stays generic. cls's
       version tag guards the record, as an instance's type's guards an instance record. */
    static mj_site_receiver *mj_site_class_receiver_for(mj_method_site *sites, PyTypeObject *cls, PyObject *name) {
        PyObject *descr, *callable;
        int found;
        mj_site_receiver *site = mj_site_record_of(sites, cls, 1, &found);
        if (found) return site;
        descr = _PyType_Lookup(cls, name);                   /* borrowed; gives cls a version tag if it can */
        site->version = cls->tp_version_tag;                 /* type's own attributes never change: a generic
                                                                record for them holds as long as cls's tag */
        if (descr == NULL || _PyType_Lookup(&PyType_Type, name) != NULL) return site;
        if (Py_TYPE(descr) == &PyClassMethod_Type || Py_TYPE(descr) == &PyStaticMethod_Type) {
            int drops_receiver = Py_TYPE(descr) == &PyStaticMethod_Type;
            if ((callable = PyObject_GetAttrString(descr, "__func__")) == NULL) { PyErr_Clear(); return site; }
            if (mj_site_is_jitted(callable)) mj_site_keep_jitted(site, callable, drops_receiver);
            else if (drops_receiver || PyFunction_Check(callable)) {
                Py_INCREF(callable);        /* a classmethod binds other callables through their own __get__ */
                site->plain = callable;
                site->drops_receiver = (char)drops_receiver;
            }
            Py_DECREF(callable);
        } else if (mj_site_is_jitted(descr)) {
            mj_site_keep_jitted(site, descr, 1);
        } else if (PyFunction_Check(descr) || Py_TYPE(descr) == &PyMethodDescr_Type) {
            Py_INCREF(descr);                                /* their __get__ without an instance: themselves */
            site->plain = descr;
            site->drops_receiver = 1;
        }
        return site;
    }

    /* Whether the keywords name, in order, the positional parameters right after the n arguments given by
       position (not positional-only ones): the call is then that positional call. */
    static int mj_site_keywords_in_place(mj_site_receiver *site, Py_ssize_t n, PyObject *kwnames) {
        PyCodeObject *code = (PyCodeObject *)PyFunction_GET_CODE(site->defaults_of);
        PyObject *names = code->co_localsplusnames;     /* the parameters first (3.11+) */
        PyObject *parameter, *keyword;
        Py_ssize_t k, nkw = PyTuple_GET_SIZE(kwnames);
        if (n < code->co_posonlyargcount || n + nkw > site->arity || n + nkw > code->co_argcount) return 0;
        for (k = 0; k < nkw; k++) {
            parameter = PyTuple_GET_ITEM(names, n + k);
            keyword = PyTuple_GET_ITEM(kwnames, k);
            if (parameter != keyword && !(PyUnicode_CheckExact(keyword) && mj_str_cmp(parameter, keyword, Py_EQ)))
                return 0;                                /* (exact strs: mj_str_cmp compares without raising) */
        }
        return 1;
    }

    /* argv[0].name(*argv[1:n], **dict(zip(kwnames, argv[n:]))) (a new reference, or NULL with the exception
       set), as CPython calls it; kwnames is NULL for positional calls. A positional call leaving parameters to
       their defaults gets them here, from the ones the dispatcher binds, and takes the entries as any other; a
       call with keywords goes to the jitted method's dispatcher, which binds them in C. */
    static PyObject *mj_site_call_kw(PyObject *name, mj_method_site *sites, PyObject **argv, Py_ssize_t n,
                                     PyObject *kwnames) {
        PyTypeObject *tp = Py_TYPE(argv[0]);
        mj_site_receiver *site;
        PyObject *entry, *cself, *result, *defaults = NULL, *given, *bound[MJ_SITE_ARGS];
        mj_site_signature *signature;
        mj_site_cfunc cfunc;
        Py_ssize_t i, first;
        int is;
        if (mj_site_counts_call(sites)) goto generic;
        if (tp == &PyType_Type) {                        /* cls.name(args): the record is cls's own */
            site = mj_site_class_receiver_for(sites, (PyTypeObject *)argv[0], name);
            if (site->method == NULL && site->plain == NULL) goto generic;
            if (site->drops_receiver) { argv++; n--; }
        } else {
            site = mj_site_known(sites, tp, 0);              /* the common case inline: a receiver seen before */
            if (site == NULL) site = mj_site_receiver_for(sites, tp, name);
            if (site->method == NULL && site->plain == NULL) goto generic;
            is = mj_method_is(argv[0], name, &site->guard, (PyObject *)tp,
                              site->method != NULL ? site->method : site->plain);
            if (is < 0) return NULL;
            if (!is) goto generic;
        }
        if (site->method == NULL) return PyObject_Vectorcall(site->plain, argv, n, kwnames);   /* as CALL after
                                                                                              LOAD_METHOD */
        if (kwnames != NULL && site->defaults_of != NULL && mj_site_keywords_in_place(site, n, kwnames)) {
            n += PyTuple_GET_SIZE(kwnames);              /* f(a, b=1) naming the next parameters in order */
            kwnames = NULL;
        }
        if (kwnames == NULL && n < site->arity && site->arity <= MJ_SITE_ARGS && site->defaults_of != NULL
                && (given = PyFunction_GET_DEFAULTS(site->defaults_of)) != NULL
                && n >= (first = site->arity - PyTuple_GET_SIZE(given))) {
            defaults = given;                            /* held: the call may assign __defaults__ */
            Py_INCREF(defaults);
            for (i = 0; i < site->arity; i++) bound[i] = i < n ? argv[i] : PyTuple_GET_ITEM(defaults, i - first);
            argv = bound;
            n = site->arity;
        }
        if (kwnames != NULL || n != site->arity) return PyObject_Vectorcall(site->method, argv, n, kwnames);
        if (mj_site_matches(&site->signatures[0], argv, n)) signature = &site->signatures[0];
        else if (mj_site_matches(&site->signatures[1], argv, n)) signature = &site->signatures[1];
        else if ((signature = mj_site_fill_signature(site, site->method, argv, n)) == NULL) {
            result = PyErr_Occurred() ? NULL : PyObject_Vectorcall(site->method, argv, n, NULL);  /* the dispatcher
                                                                                    picks or compiles */
            Py_XDECREF(defaults);
            return result;
        }
        if (mj_site_enter()) { Py_XDECREF(defaults); return NULL; }
        entry = signature->entry;                        /* read before the call: it may refill the site */
        cfunc = signature->cfunc;
        cself = signature->cself;
        Py_INCREF(entry);                                /* (and keeps cself alive) */
        result = cfunc != NULL ? cfunc(cself, argv, n, NULL) : PyObject_Vectorcall(entry, argv, n, NULL);
        Py_DECREF(entry);
        mj_site_leave();
        Py_XDECREF(defaults);
        return result;
    generic:
        return PyObject_VectorcallMethod(name, argv, n, kwnames);
    }
    static inline PyObject *mj_site_call(PyObject *name, mj_method_site *sites, PyObject **argv, Py_ssize_t n) {
        return mj_site_call_kw(name, sites, argv, n, NULL);
    }
'''


def site_call_macros() -> str:
    """``mj_site_call<n>(name, site, a0, …)``: the call with its arguments as a C array (receiver first);
    ``mj_site_callkw<n>(name, site, kwnames, a0, …)``: the same with the last ``len(kwnames)`` passed by keyword;
    ``mj_entry_call<n>(entry, a0, …)``: a known compiled entry called directly."""
    lines = []
    for n in range(1, MAX_SITE_ARGS + 1):
        params = ", ".join(f"a{i}" for i in range(n))
        lines.append(f"    #define mj_site_call{n}(name, site, {params}) "
                     f"mj_site_call(name, site, (PyObject *[]){{{params}}}, {n})")
        lines.append(f"    #define mj_entry_call{n}(entry, {params}) "
                     f"mj_entry_call(entry, (PyObject *[]){{{params}}}, {n})")
        lines.append(f"    #define mj_site_callkw{n}(name, site, kwnames, {params}) "
                     f"mj_site_call_kw(name, site, (PyObject *[]){{{params}}}, {n} - PyTuple_GET_SIZE(kwnames), "
                     f"kwnames)")
    return "\n".join(lines) + "\n"


METHOD_SITES_DECLARATIONS = '''\
    ctypedef struct mj_method_site:
        pass
    int mj_method_sites_init(object, object) except -1
''' + "".join(f"    object mj_site_call{n}(object, mj_method_site *{', object' * n})\n"
              f"    object mj_site_callkw{n}(object, mj_method_site *, object{', object' * n})\n"
              f"    object mj_entry_call{n}(object{', object' * n})\n"
              for n in range(1, MAX_SITE_ARGS + 1))

METHOD_SITES_INIT = '''\
try:
    from moshjit.runtime.moshjit_dispatch import DispatcherCore as _MJ_DispatcherCore, Tier0Entry as _MJ_Tier0Entry
except ImportError:                  # no compiled call path: every method site takes the generic call
    _MJ_DispatcherCore = _MJ_Tier0Entry = None
mj_method_sites_init(_MJ_DispatcherCore, _MJ_Tier0Entry)
'''


def takes_site(op, receiver_ctype: str) -> bool:
    """Whether ``obj.name(args)`` goes through a method site: a receiver of no known type, at most
    ``MAX_SITE_ARGS`` arguments with the receiver (keywords included)."""
    return receiver_ctype == "object" and 1 + len(op.args) <= MAX_SITE_ARGS

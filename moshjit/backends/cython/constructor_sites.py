"""Constructor calls ``Cls(args)`` of a class known at compile time whose ``__init__`` is jitted, through a
per-call-site cache: what CPython 3.13's ``CALL_ALLOC_AND_ENTER_INIT`` does for Python ``__init__`` methods.

``type.__call__`` would build an argument tuple, call ``object.__new__``, look ``__init__`` up again in
``slot_tp_init`` and call it through the dispatcher's signature check. While the class (at the version tag the site
checked) is called through ``type.__call__`` itself (its metaclass is exactly ``type``), makes its instances with
``object.__new__``, initialises them through ``slot_tp_init`` (a Python-level ``__init__``), is not abstract, and
its ``__init__`` is a jitted method, the site does those steps itself: ``object.__new__(cls)`` (which ``type`` would
call with the same effect: ``object.__new__`` ignores the arguments when ``__init__`` is overridden), then the
``__init__`` compiled entry for the arguments' signature, kept as method sites keep theirs (``method_sites.py``),
or else the jitted ``__init__``'s dispatcher, and ``slot_tp_init``'s check that it returned None (same
``TypeError``). Any other class, or a class changed so that one of those facts no longer holds (every change gives
it a new version tag), is called as CPython calls it.
"""
from __future__ import annotations

from moshjit.backends.cython.method_sites import MAX_SITE_ARGS
from moshjit.functions import class_attribute
from moshjit.ir.ops import Constant

CONSTRUCTOR_SITES_C = r'''
    typedef struct {
        PyTypeObject *type;                        /* the class last called here, and its version tag then */
        unsigned int version;
        int direct;                                /* 1: that class at that version is constructed here */
        mj_site_receiver init;                     /* its jitted __init__ (strong), arity and compiled entries */
    } mj_new_site;

    static newfunc mj_object_new = NULL;           /* object.__new__ */
    static initproc mj_slot_init = NULL;           /* slot_tp_init: a class's Python-level __init__ */
    static PyObject *mj_init_name = NULL, *mj_no_args = NULL;

    /* probe: a class defining __init__ in Python, whose tp_init is therefore slot_tp_init. */
    static int mj_constructor_sites_init(PyObject *probe) {
        mj_object_new = PyBaseObject_Type.tp_new;
        mj_slot_init = ((PyTypeObject *)probe)->tp_init;
        if (mj_init_name == NULL) mj_init_name = PyUnicode_InternFromString("__init__");
        if (mj_no_args == NULL) mj_no_args = PyTuple_New(0);
        return mj_init_name != NULL && mj_no_args != NULL ? 0 : -1;
    }

    /* Whether calling cls can be done here (see the module docstring); remembered per class and version. */
    static int mj_new_site_direct(mj_new_site *s, PyTypeObject *cls) {
        PyObject *init;
        if (s->type == cls && s->version == cls->tp_version_tag && s->version != 0) return s->direct;
        mj_site_forget(&s->init);
        s->type = cls;
        s->direct = 0;
        init = _PyType_Lookup(cls, mj_init_name);          /* borrowed; gives cls a version tag if it can */
        s->version = cls->tp_version_tag;
        if (s->version == 0 || init == NULL || !mj_site_is_jitted(init) || !Py_IS_TYPE(cls, &PyType_Type)
                || cls->tp_new != mj_object_new || cls->tp_init != mj_slot_init
                || (cls->tp_flags & Py_TPFLAGS_IS_ABSTRACT))
            return 0;
        Py_INCREF(init);
        s->init.method = init;
        s->init.arity = mj_site_arity_of(init);
        s->direct = 1;
        return 1;
    }

    /* cls(*argv[1:n+1], **dict(zip(kwnames, argv[n+1:]))) — argv[0] is a free slot the instance goes in; a new
       reference, or NULL with the exception set, as type.__call__ gives it. */
    static PyObject *mj_new_call(mj_new_site *s, PyObject *cls, PyObject **argv, Py_ssize_t n, PyObject *kwnames) {
        mj_site_receiver *r = &s->init;
        PyObject *obj, *init, *entry = NULL, *result;
        if (!PyType_Check(cls) || !mj_new_site_direct(s, (PyTypeObject *)cls))
            return PyObject_Vectorcall(cls, argv + 1, n | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
        if ((obj = mj_object_new((PyTypeObject *)cls, mj_no_args, NULL)) == NULL) return NULL;
        argv[0] = obj;
        init = r->method;
        Py_INCREF(init);                                   /* __init__ may change the class while it runs */
        if (kwnames == NULL && n + 1 == r->arity) {
            if (mj_site_matches(&r->signatures[0], argv, n + 1)) entry = r->signatures[0].entry;
            else if (mj_site_matches(&r->signatures[1], argv, n + 1)) entry = r->signatures[1].entry;
            else if ((entry = mj_site_fill(r, init, argv, n + 1)) == NULL && PyErr_Occurred()) goto fail;
        }
        if (entry != NULL) {
            if (mj_site_enter()) goto fail;
            Py_INCREF(entry);
            result = PyObject_Vectorcall(entry, argv, n + 1, NULL);
            Py_DECREF(entry);
            mj_site_leave();
        } else {
            result = PyObject_Vectorcall(init, argv, n + 1, kwnames);   /* the dispatcher binds and picks */
        }
        Py_DECREF(init);
        if (result == NULL) { Py_DECREF(obj); return NULL; }
        if (result != Py_None) {                           /* slot_tp_init's own check */
            PyErr_Format(PyExc_TypeError, "__init__() should return None, not '%.200s'", Py_TYPE(result)->tp_name);
            Py_DECREF(result);
            Py_DECREF(obj);
            return NULL;
        }
        Py_DECREF(result);
        return obj;
    fail:
        Py_DECREF(init);
        Py_DECREF(obj);
        return NULL;
    }
'''


def constructor_call_macros() -> str:
    """``mj_new_call<n>(site, cls, a0, …)`` and ``mj_new_callkw<n>(site, cls, kwnames, a0, …)``: the arguments as
    a C array after a free slot for the instance."""
    lines = []
    for n in range(MAX_SITE_ARGS):
        params = "".join(f", a{i}" for i in range(n))
        array = f"(PyObject *[]){{NULL{params}}}"
        lines.append(f"    #define mj_new_call{n}(site, cls{params}) mj_new_call(site, cls, {array}, {n}, NULL)")
        if n:
            lines.append(f"    #define mj_new_callkw{n}(site, cls, kwnames{params}) "
                         f"mj_new_call(site, cls, {array}, {n} - PyTuple_GET_SIZE(kwnames), kwnames)")
    return "\n".join(lines) + "\n"


CONSTRUCTOR_SITES_DECLARATIONS = '''\
    ctypedef struct mj_new_site:
        pass
    int mj_constructor_sites_init(object) except -1
''' + "".join(f"    object mj_new_call{n}(mj_new_site *, object{', object' * n})\n"
              + (f"    object mj_new_callkw{n}(mj_new_site *, object, object{', object' * n})\n" if n else "")
              for n in range(MAX_SITE_ARGS))

CONSTRUCTOR_SITES_INIT = '''\
class _MJ_InitProbe:                 # its tp_init is slot_tp_init, what a Python-level __init__ installs
    def __init__(self):
        pass
mj_constructor_sites_init(_MJ_InitProbe)
'''


def takes_constructor_site(op) -> bool:
    """Whether ``Cls(args)`` goes through a constructor site: a class fixed at compile time, called through
    ``type.__call__`` with ``object.__new__``, whose ``__init__`` is jitted now (the site checks it all again at
    run time), with at most ``MAX_SITE_ARGS`` arguments counting the instance."""
    cls = op.func.value if isinstance(op.func, Constant) else None
    return (type(cls) is type and cls.__new__ is object.__new__ and 1 + len(op.args) <= MAX_SITE_ARGS
            and hasattr(class_attribute(cls, "__init__"), "compiled_entry"))

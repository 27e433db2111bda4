"""The guard of a raise turned into a jump (``ops.RaiseIsCaught``, ``passes/local_raises.py``), per site cached by
the raised class's version tag, as constructor sites cache what they found (``constructor_sites.py``).

The facts: the class is called through ``type.__call__`` itself (its metaclass is exactly ``type``), is made and
initialised by BaseException's own ``tp_new`` and ``tp_init`` (no Python ``__new__``/``__init__`` runs), has no
``tp_finalize`` (no ``__del__`` runs when the unseen exception is dropped), and ``PyErr_GivenExceptionMatches``
— what ``check_exc_match`` runs — lets it pass each clause before the one that takes it. Setting any of those
attributes, or ``__bases__``, gives the class a new version tag, so the site looks again.
"""
from __future__ import annotations

RAISE_SITES_C = r'''
    typedef struct {
        PyTypeObject *type;                        /* the class last checked here, and its version tag then */
        unsigned int version;
        int caught;                                /* 1: raising it there lands in the clause, unseen */
    } mj_raise_site;

    static PyObject *mj_raise_site_name = NULL;

    static int mj_raise_caught(mj_raise_site *s, PyObject *raised, PyObject *passed, PyObject *caught) {
        PyTypeObject *cls = (PyTypeObject *)raised, *base = (PyTypeObject *)PyExc_BaseException;
        Py_ssize_t i;
        if (!PyType_Check(raised)) return 0;
        if (s->type == cls && s->version == cls->tp_version_tag && s->version != 0) return s->caught;
        if (mj_raise_site_name == NULL && (mj_raise_site_name = PyUnicode_InternFromString("__init__")) == NULL) {
            PyErr_Clear();
            return 0;
        }
        (void)_PyType_Lookup(cls, mj_raise_site_name);     /* gives cls a version tag if it can */
        s->type = cls;
        s->version = cls->tp_version_tag;
        s->caught = Py_IS_TYPE(raised, &PyType_Type) && cls->tp_new == base->tp_new && cls->tp_init == base->tp_init
                    && cls->tp_finalize == NULL && PyErr_GivenExceptionMatches(raised, caught);
        for (i = 0; s->caught && i < PyTuple_GET_SIZE(passed); i++)
            if (PyErr_GivenExceptionMatches(raised, PyTuple_GET_ITEM(passed, i))) s->caught = 0;
        return s->caught;
    }
'''

RAISE_SITES_DECLARATIONS = '''\
    ctypedef struct mj_raise_site:
        pass
    bint mj_raise_caught(mj_raise_site *, object, object, object)
'''

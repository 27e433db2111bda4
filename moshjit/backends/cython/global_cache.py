"""Inline caches for reads of module globals in generated modules, as CPython's ``LOAD_GLOBAL_MODULE`` keeps them.

Each global-read site owns an ``mj_global_cache``: the module dict's keys object it last found the name in and the
name's index in its entries. While the dict still uses that keys object (a dict with unicode keys, no split values)
and the entry at that index still has the name with a value, the value is read there directly: no hash, no probe.
A value change keeps the keys object and index (only the value is read); adding or removing names may give the
dict another keys object, and then, or when the entry no longer holds the name, the site looks the name up as
``_mj_load_global`` does (globals, then builtins, else ``NameError``) and remembers where it found it. Pointer
equality alone is never trusted: the entry's key must be the very name object, so a keys object freed and another
allocated at the same address cannot give a wrong value. The layout read (``mj_dict_keys``,
``mj_unicode_entries``) and the dict version tag (``mj_dict_tag``) are the ones in ``attribute_cache.py``.

A name found in the builtins (``ord``, ``len`` in a function whose globals are read at run time) is kept with the
version tags (PEP 509) of both dicts, as CPython's ``LOAD_GLOBAL_BUILTIN`` keeps their keys' versions: while
neither dict changed, the name is still missing from the globals and the builtins still hold that value. Tags come
from one interpreter-wide counter and change at every write (``cpython.py``), so equal tags mean the same dicts,
unchanged; any write to the module's globals sends the next read through both lookups again. The same tag of the
globals lets an entry skip its checks of the global types it was compiled for: checked once per state of the
module's globals rather than once per call — chess's bitboard helpers read a dozen int globals each.
"""
from __future__ import annotations

GLOBAL_CACHE_C = r'''
    typedef struct { void *keys; Py_ssize_t index; uint64_t globals_tag, builtins_tag; PyObject *builtin; }
        mj_global_cache;

    /* Remember where name is in the module dict's entries (none: the next read looks it up again). */
    static void mj_global_note(PyDictObject *dict, PyObject *name, mj_global_cache *c) {
        c->index = mj_dict_entry_index((PyObject *)dict, name);
        c->keys = c->index < 0 ? NULL : (void *)dict->ma_keys;
    }

    /* globals[name] at the cached entry (borrowed), or NULL when the cache does not hold it (no exception). */
    static inline PyObject *mj_global_cached(PyObject *globals, PyObject *name, mj_global_cache *c) {
        PyDictObject *dict = (PyDictObject *)globals;
        mj_dict_keys *keys = (mj_dict_keys *)dict->ma_keys;
        if ((void *)keys == c->keys && dict->ma_values == NULL && keys->dk_kind == MJ_KEYS_UNICODE
                && c->index < keys->dk_nentries) {
            mj_unicode_entry *e = &mj_unicode_entries(keys)[c->index];
            if (e->me_key == name) return e->me_value;
        }
        return NULL;
    }
    /* globals[name], else builtins[name], else NameError — a new reference, or NULL with the exception set. A hit
       at the cached entry is read where the load is (as LOAD_GLOBAL_MODULE reads it), the rest out of line. */
    static MJ_NOINLINE PyObject *mj_global_load_rest(PyObject *globals, PyObject *builtins, PyObject *name,
                                                     mj_global_cache *c) {
        PyObject *value, *exc_type, *exc_value, *exc_tb;
        if (c->builtin != NULL && c->globals_tag == mj_dict_tag(globals)
                && c->builtins_tag == mj_dict_tag(builtins)) {
            Py_INCREF(c->builtin);                     /* the builtins hold it: their tag has not changed */
            return c->builtin;
        }
        value = PyDict_GetItemWithError(globals, name);                 /* borrowed */
        if (value != NULL) {
            mj_global_note((PyDictObject *)globals, name, c);
            Py_INCREF(value);
            return value;
        }
        if (PyErr_Occurred()) return NULL;
        value = PyDict_GetItemWithError(builtins, name);
        if (value != NULL) {
            c->globals_tag = mj_dict_tag(globals);
            c->builtins_tag = mj_dict_tag(builtins);
            c->builtin = PyDict_CheckExact(globals) && PyDict_CheckExact(builtins) && c->globals_tag != 0
                && c->builtins_tag != 0 ? value : NULL;
            Py_INCREF(value);
            return value;
        }
        if (PyErr_Occurred()) return NULL;
        PyErr_Format(PyExc_NameError, "name '%U' is not defined", name);
        PyErr_Fetch(&exc_type, &exc_value, &exc_tb);
        PyErr_NormalizeException(&exc_type, &exc_value, &exc_tb);
        if (exc_value != NULL && PyObject_SetAttrString(exc_value, "name", name) < 0) PyErr_Clear();
        PyErr_Restore(exc_type, exc_value, exc_tb);
        return NULL;
    }
    static inline Py_ALWAYS_INLINE PyObject *mj_global_load(PyObject *globals, PyObject *builtins, PyObject *name,
                                                           mj_global_cache *c) {
        PyObject *value = mj_global_cached(globals, name, c);
        if (value != NULL) {
            Py_INCREF(value);
            return value;
        }
        return mj_global_load_rest(globals, builtins, name, c);
    }
    /* globals.get(name) (a new reference; None when absent): the entry checks of the global types a function
       was compiled for read it on every call, at the cached entry like mj_global_load. */
    static PyObject *mj_global_peek(PyObject *globals, PyObject *name, mj_global_cache *c) {
        PyObject *value = mj_global_cached(globals, name, c);
        if (value == NULL) {
            value = PyDict_GetItemWithError(globals, name);
            if (value == NULL) {
                if (PyErr_Occurred()) return NULL;
                Py_RETURN_NONE;
            }
            mj_global_note((PyDictObject *)globals, name, c);
        }
        Py_INCREF(value);
        return value;
    }
'''

GLOBAL_CACHE_DECLARATIONS = '''\
    ctypedef struct mj_global_cache:
        pass
    object mj_global_load(object, object, object, mj_global_cache *)
    object mj_global_peek(object, object, mj_global_cache *)
    unsigned long long mj_dict_tag(object)      # attribute_cache.py's: 0 where dicts have none (3.14+)
'''

"""Inline caches for ``obj.name`` loads and stores in generated modules, as CPython 3.11+'s specialising
interpreter keeps them (``LOAD_ATTR_SLOT``, ``LOAD_ATTR_INSTANCE_VALUE``, ``STORE_ATTR_INSTANCE_VALUE``, …).

Each attribute site of a module owns an ``mj_attr_cache``: up to four (type, ``tp_version_tag``) entries saying
how that type keeps the attribute. A hit reads or writes the storage directly; anything else — an unknown type,
a changed class (every change to a class or a base gives it a new version tag), a descriptor, ``__getattr__``,
``__getattribute__``/``__setattr__`` overrides, an attribute not set on this object — takes the generic
``PyObject_GetAttr``/``PyObject_SetAttr``, so errors and every descriptor behave exactly as in CPython.

Kinds of entry:

- ``MJ_SLOT``: a ``__slots__`` member (``T_OBJECT_EX`` member descriptor without flags) at a fixed offset.
- ``MJ_VALUES``: no attribute of that name anywhere in the type's MRO, and the instance keeps its attributes in
  CPython's inline values whose keys are the type's shared keys: the entry holds the name's index in them.
- ``MJ_DICT``: no attribute of that name in the MRO: look it up in the instance ``__dict__`` directly.
- ``MJ_TYPE_VALUE``: a load of a plain value the type's MRO holds (a class constant, a table: ``self.T1``; its type
  has no ``__get__``), which the instance does not shadow (its inline values, or its dict, looked at on each load
  as for a method guard): the value, kept borrowed for that type and version. The type's dict holds it while the
  version tag stays; 3.12 specialises the same case (``LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES``), 3.11 does not.
- ``MJ_GENERIC``: the generic protocol (remembered, so a site that cannot be cached does not search again).
- ``MJ_CLASS``: a load from a class itself (``C.__match_args__``, ``C.LIMIT``) whose metaclass is exactly
  ``type`` and whose attribute ``type`` does not define: the value found in the class's MRO, kept (borrowed: the
  class's dicts hold it while its version tag stays) for that class and version, and used only while its type
  has no ``__get__`` — what ``type.__getattribute__`` returns then, so CPython 3.12's ``LOAD_ATTR_CLASS`` in C.

A direct method call (``method_calls.py``) is guarded by ``mj_method_is``: the receiver's type is the class the
callee was compiled for, ``name`` still finds the same jitted method in it, or the plain-function copy a tiered
method's class holds while it is cold (cached per version tag), and the instance has no attribute of that name
shadowing it (its shared keys, values or dict are looked at on each call, as CPython's ``LOAD_METHOD_WITH_VALUES``
does).

The layouts read here are internal to CPython and differ per version; they are all in the ``#if`` table at the
top of ``ATTRIBUTE_CACHE_C`` (see ``moshjit/cpython.py``). A store through ``MJ_VALUES`` writes the values of an
instance without a dict; a value it adds (``__init__`` setting attributes) is appended to the insertion order the
values keep beside them, as CPython's ``STORE_ATTR_INSTANCE_VALUE`` does, so ``vars(obj)`` lists them in order.
"""

ATTRIBUTE_CACHE_C = r'''
    #include <structmember.h>
    #if defined(__GNUC__)
    #define MJ_NOINLINE __attribute__((noinline))
    #else
    #define MJ_NOINLINE
    #endif
    /* ---- what differs between CPython versions: where an instance keeps its values and its dict ---- */
    typedef struct {                      /* the head of PyDictKeysObject (pycore_dict.h), 3.11-3.13, GIL builds */
        Py_ssize_t dk_refcnt;
        uint8_t dk_log2_size;
        uint8_t dk_log2_index_bytes;
        uint8_t dk_kind;
        uint32_t dk_version;
        Py_ssize_t dk_usable;
        Py_ssize_t dk_nentries;
        char dk_indices[];
    } mj_dict_keys;
    typedef struct { PyObject *me_key; PyObject *me_value; } mj_unicode_entry;
    #define MJ_KEYS_UNICODE 1
    #define MJ_KEYS_SPLIT 2
    /* The entries of a unicode-keys table (split or combined). */
    static inline mj_unicode_entry *mj_unicode_entries(mj_dict_keys *keys) {
        return (mj_unicode_entry *)(keys->dk_indices + ((size_t)1 << keys->dk_log2_index_bytes));
    }
    #if PY_VERSION_HEX < 0x030E0000
    #if defined(__GNUC__)
    #pragma GCC diagnostic push
    #pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    #endif
    /* d's version tag (PEP 509; deprecated since 3.12 but still given anew at every write through 3.13). */
    static inline uint64_t mj_dict_tag(PyObject *d) { return ((PyDictObject *)d)->ma_version_tag; }
    #if defined(__GNUC__)
    #pragma GCC diagnostic pop
    #endif
    #define MJ_HAVE_DICT_TAGS 1
    #else
    #define MJ_HAVE_DICT_TAGS 0
    static inline uint64_t mj_dict_tag(PyObject *d) { return 0; }
    #endif
    /* The index of the entry holding the very object name in a dict's combined unicode table, or -1 (not there,
       or another kind of table): where LOAD_GLOBAL's and LOAD_ATTR_WITH_HINT's caches look next time. */
    static Py_ssize_t mj_dict_entry_index(PyObject *dict, PyObject *name) {
        PyDictObject *d = (PyDictObject *)dict;
        mj_dict_keys *keys = (mj_dict_keys *)d->ma_keys;
        mj_unicode_entry *entries;
        Py_ssize_t i;
        if (d->ma_values != NULL || keys->dk_kind != MJ_KEYS_UNICODE) return -1;
        entries = mj_unicode_entries(keys);
        for (i = 0; i < keys->dk_nentries; i++) {
            if (entries[i].me_key == name) return i;
        }
        return -1;
    }
    #if PY_VERSION_HEX >= 0x030D0000
    /* 3.13: values inline after the object header (Py_TPFLAGS_INLINE_VALUES), valid until a dict takes over;
       the managed dict pointer three words before the object */
    typedef struct { uint8_t capacity, size, embedded, valid; PyObject *values[1]; } mj_inline_values;
    static inline PyObject **mj_values_of(PyObject *obj) {
        mj_inline_values *v;
        if (!(Py_TYPE(obj)->tp_flags & (1UL << 2))) return NULL;
        v = (mj_inline_values *)((char *)obj + Py_TYPE(obj)->tp_basicsize);
        return v->valid ? v->values : NULL;
    }
    static inline PyObject *mj_managed_dict_of(PyObject *obj) { return ((PyObject **)obj)[-3]; }
    /* Record that values[ix] was just filled in the values' insertion order (_PyDictValues_AddToInsertionOrder);
       0 when there is no room (the caller then takes the generic path). */
    static inline int mj_values_add_to_order(PyObject **values, Py_ssize_t ix) {
        mj_inline_values *v = (mj_inline_values *)((char *)values - offsetof(mj_inline_values, values));
        if (ix >= v->capacity || v->size >= v->capacity) return 0;
        ((uint8_t *)&v->values[v->capacity])[v->size] = (uint8_t)ix;
        v->size++;
        return 1;
    }
    #elif PY_VERSION_HEX >= 0x030C0000
    /* 3.12: one tagged word three words before the object: values (low bit set, stored minus one) or the dict */
    static inline PyObject **mj_values_of(PyObject *obj) {
        char *word = ((char **)obj)[-3];
        return ((uintptr_t)word & 1) ? (PyObject **)(word + 1) : NULL;
    }
    static inline PyObject *mj_managed_dict_of(PyObject *obj) {
        char *word = ((char **)obj)[-3];
        return ((uintptr_t)word & 1) ? NULL : (PyObject *)word;
    }
    #else
    /* 3.11: the values pointer four words before the object, the dict three words before (one is NULL) */
    static inline PyObject **mj_values_of(PyObject *obj) {
        PyObject **values = ((PyObject ***)obj)[-4];
        return values;
    }
    static inline PyObject *mj_managed_dict_of(PyObject *obj) { return ((PyObject **)obj)[-3]; }
    #endif
    #if PY_VERSION_HEX < 0x030D0000
    /* 3.11, 3.12: the insertion order in the bytes before the values: [-1] the prefix's size, [-2] the number of
       values, then one index per value, last added first */
    static inline int mj_values_add_to_order(PyObject **values, Py_ssize_t ix) {
        uint8_t *size_ptr = (uint8_t *)values - 2;
        int size = *size_ptr;
        if (size + 3 > ((uint8_t *)values)[-1]) return 0;
        size++;
        size_ptr[-size] = (uint8_t)ix;
        *size_ptr = (uint8_t)size;
        return 1;
    }
    #endif
    /* ---- the caches ---- */
    enum { MJ_EMPTY = 0, MJ_SLOT, MJ_VALUES, MJ_DICT, MJ_GENERIC, MJ_CLASS, MJ_TYPE_VALUE };
    /* What a site remembers of where an instance could shadow a class attribute: the shared keys' size when
       name's index in them was looked up, that index, and an instance dict's PEP 509 tag when name was not in it
       (0: none; tags are unique to a dict's contents, as LOAD_METHOD_WITH_DICT's keys version is to its keys). */
    typedef struct { Py_ssize_t nentries, index; uint64_t absent_tag; } mj_shadow_memo;
    typedef struct {
        PyTypeObject *type;
        unsigned int version;
        int kind;
        Py_ssize_t index;                  /* MJ_SLOT: offset; MJ_VALUES: index in the shared keys */
        Py_ssize_t hint;                   /* where name was last found in an instance dict's entries (-1: none) */
        PyObject *value;                   /* MJ_TYPE_VALUE: the class's value (borrowed while the version holds) */
        mj_shadow_memo shadow;             /* MJ_TYPE_VALUE: whether the instance has name of its own */
    } mj_attr_entry;
    typedef struct { mj_attr_entry entries[4]; unsigned int next; } mj_attr_cache;

    /* The instance dict of obj (borrowed, possibly NULL) when its type keeps one. */
    static inline PyObject *mj_instance_dict(PyObject *obj) {
        PyTypeObject *tp = Py_TYPE(obj);
        if (tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) return mj_managed_dict_of(obj);
        if (tp->tp_dictoffset > 0) return *(PyObject **)((char *)obj + tp->tp_dictoffset);
        return NULL;
    }
    static inline PyObject **mj_values_of_managed(PyObject *obj) {
        return (Py_TYPE(obj)->tp_flags & Py_TPFLAGS_MANAGED_DICT) ? mj_values_of(obj) : NULL;
    }
    /* The index of name in a type's shared keys, or -1. */
    static Py_ssize_t mj_shared_key_index(PyTypeObject *tp, PyObject *name) {
        mj_dict_keys *keys;
        mj_unicode_entry *entries;
        Py_ssize_t i;
        if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE)) return -1;
        keys = (mj_dict_keys *)((PyHeapTypeObject *)tp)->ht_cached_keys;
        if (keys == NULL || keys->dk_kind != MJ_KEYS_SPLIT) return -1;
        entries = (mj_unicode_entry *)(keys->dk_indices + ((size_t)1 << keys->dk_log2_index_bytes));
        for (i = 0; i < keys->dk_nentries; i++) {
            if (entries[i].me_key == name) return i;
        }
        return -1;
    }
    /* 1 when obj has no attribute name of its own (in its inline values or its dict); 0 when it has, or keeps its
       dict where this does not look (a negative dict offset); -1 when the dict lookup raised. mj_instance_lacks
       answers the common cases inline (inline values under unchanged shared keys, no dict at all: what CPython's
       LOAD_METHOD_WITH_VALUES and LOAD_METHOD_NO_DICT check), the rest here. */
    #pragma GCC diagnostic push
    #pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    static MJ_NOINLINE int mj_instance_lacks_slow(PyObject *obj, PyObject *name, mj_shadow_memo *m) {
        PyTypeObject *tp = Py_TYPE(obj);
        PyObject **values, *dict = NULL, *found;
        mj_dict_keys *keys;
        uint64_t tag;
        if (tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) {
            values = mj_values_of(obj);
            keys = (mj_dict_keys *)((PyHeapTypeObject *)tp)->ht_cached_keys;
            if (values != NULL && keys != NULL) {
                if (keys->dk_nentries != m->nentries) {       /* shared keys only grow: look again when they do */
                    m->index = mj_shared_key_index(tp, name);
                    m->nentries = keys->dk_nentries;
                }
                return m->index < 0 || values[m->index] == NULL;
            }
            dict = mj_managed_dict_of(obj);
        } else if (tp->tp_dictoffset > 0) {
            dict = *(PyObject **)((char *)obj + tp->tp_dictoffset);
        } else if (tp->tp_dictoffset < 0) {
            return 0;
        }
        if (dict == NULL) return 1;
        tag = ((PyDictObject *)dict)->ma_version_tag;
        if (tag != 0 && tag == m->absent_tag) return 1;
        found = PyDict_GetItemWithError(dict, name);
        if (found != NULL) return 0;
        if (PyErr_Occurred()) return -1;                       /* raised as CPython's own lookup raises it */
        m->absent_tag = tag;
        return 1;
    }
    #pragma GCC diagnostic pop
    static inline int mj_instance_lacks(PyObject *obj, PyObject *name, mj_shadow_memo *m) {
        PyTypeObject *tp = Py_TYPE(obj);
        PyObject **values;
        mj_dict_keys *keys;
        if (tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) {
            values = mj_values_of(obj);
            keys = (mj_dict_keys *)((PyHeapTypeObject *)tp)->ht_cached_keys;
            if (values != NULL && keys != NULL && keys->dk_nentries == m->nentries)
                return m->index < 0 || values[m->index] == NULL;
        } else if (tp->tp_dictoffset == 0) {
            return 1;
        }
        return mj_instance_lacks_slow(obj, name, m);
    }
    /* How tp keeps attribute name, for a load (store == 0) or a store; fills entry e. An MJ_GENERIC entry is
       right whatever the type's version; the others hold for the (unique, non-zero) version they were made at. */
    static void mj_attr_classify(mj_attr_entry *e, PyTypeObject *tp, PyObject *name, int store) {
        PyObject *descr;
        e->type = tp;
        e->version = tp->tp_version_tag;
        e->kind = MJ_GENERIC;
        e->hint = -1;
        if (store ? tp->tp_setattro != PyObject_GenericSetAttr : tp->tp_getattro != PyObject_GenericGetAttr) return;
        descr = _PyType_Lookup(tp, name);                /* gives tp a version tag if it can have one */
        e->version = tp->tp_version_tag;
        if (e->version == 0) return;
        if (descr != NULL) {
            if (!store && Py_TYPE(descr)->tp_descr_get == NULL) {     /* a plain class value: C.T, read as obj.T */
                e->kind = MJ_TYPE_VALUE;
                e->value = descr;
                e->shadow.nentries = -1;
                e->shadow.absent_tag = 0;
            } else if (Py_TYPE(descr) == &PyMemberDescr_Type) {
                PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
                if (member->type == T_OBJECT_EX && member->flags == 0) {
                    e->kind = MJ_SLOT;
                    e->index = member->offset;
                }
            }
            return;
        }
        if (tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) {
            e->index = mj_shared_key_index(tp, name);
            e->kind = e->index >= 0 ? MJ_VALUES : MJ_DICT;
        } else if (tp->tp_dictoffset > 0) {
            e->kind = MJ_DICT;
        }
    }
    /* Note where name is in an instance dict's combined unicode table (its entry index), if it is. */
    static void mj_dict_note_hint(PyObject *dict, PyObject *name, Py_ssize_t *hint) {
        Py_ssize_t index = mj_dict_entry_index(dict, name);
        if (index >= 0) *hint = index;
    }
    /* dict[name] (borrowed, NULL without an exception when absent) for an instance dict, read first at the entry
       index ``*hint`` where name was found last (as LOAD_ATTR_WITH_HINT does): a combined unicode table whose
       entry there holds that very name object gives its value without hashing; else the dict lookup, which
       remembers the new index. */
    static PyObject *mj_dict_hinted_get(PyObject *dict, PyObject *name, Py_ssize_t *hint) {
        PyDictObject *d = (PyDictObject *)dict;
        mj_dict_keys *keys = (mj_dict_keys *)d->ma_keys;
        PyObject *value;
        int combined = d->ma_values == NULL && keys->dk_kind == MJ_KEYS_UNICODE;
        if (combined && *hint >= 0 && *hint < keys->dk_nentries) {
            mj_unicode_entry *e = &mj_unicode_entries(keys)[*hint];
            if (e->me_key == name && e->me_value != NULL) return e->me_value;
        }
        value = PyDict_GetItemWithError(dict, name);
        if (value != NULL) mj_dict_note_hint(dict, name, hint);
        return value;
    }
    static mj_attr_entry *mj_attr_entry_for(mj_attr_cache *cache, PyObject *obj, PyObject *name, int store) {
        PyTypeObject *tp = Py_TYPE(obj);
        mj_attr_entry *e;
        int i;
        for (i = 0; i < 4; i++) {
            e = &cache->entries[i];
            if (e->type == tp && e->version == tp->tp_version_tag && e->kind != MJ_CLASS) return e;
        }
        e = &cache->entries[cache->next++ & 3];
        mj_attr_classify(e, tp, name, store);
        return e;
    }
    /* cls.name for a class whose metaclass is exactly type (a new reference, or NULL with the exception set). */
    static PyObject *mj_class_attr_load(PyTypeObject *cls, PyObject *name, mj_attr_cache *cache) {
        mj_attr_entry *e;
        PyObject *value;
        int i;
        for (i = 0; i < 4; i++) {
            e = &cache->entries[i];
            if (e->type == cls && e->kind == MJ_CLASS && e->version == cls->tp_version_tag && e->version != 0) {
                value = (PyObject *)e->index;
                if (Py_TYPE(value)->tp_descr_get != NULL) break;    /* its type gained __get__: the generic way */
                Py_INCREF(value);
                return value;
            }
        }
        value = PyObject_GetAttr((PyObject *)cls, name);
        /* cached only when that was the plain MRO value: no attribute of type's own, no descriptor */
        if (value != NULL && cls->tp_version_tag != 0 && Py_TYPE(value)->tp_descr_get == NULL
                && _PyType_Lookup(&PyType_Type, name) == NULL && _PyType_Lookup(cls, name) == value) {
            e = &cache->entries[cache->next++ & 3];
            e->type = cls;
            e->version = cls->tp_version_tag;
            e->kind = MJ_CLASS;
            e->index = (Py_ssize_t)value;
        }
        return value;
    }
    /* obj.name, as PyObject_GetAttr gives it (a new reference, or NULL with the exception set). */
    static MJ_NOINLINE PyObject *mj_attr_load_slow(PyObject *obj, PyObject *name, mj_attr_cache *cache) {
        mj_attr_entry *e;
        PyObject *value = NULL, **values, *dict;
        if (Py_IS_TYPE(obj, &PyType_Type)) return mj_class_attr_load((PyTypeObject *)obj, name, cache);
        e = mj_attr_entry_for(cache, obj, name, 0);
        if (e->kind != MJ_GENERIC) {
            switch (e->kind) {
            case MJ_SLOT:
                value = *(PyObject **)((char *)obj + e->index);
                break;
            case MJ_VALUES:
                values = mj_values_of(obj);
                if (values != NULL) { value = values[e->index]; break; }
                /* fall through: the instance has a dict of its own */
            case MJ_DICT:
                dict = mj_instance_dict(obj);
                if (dict != NULL) value = mj_dict_hinted_get(dict, name, &e->hint);   /* borrowed */
                if (value == NULL && PyErr_Occurred()) return NULL;
                break;
            case MJ_TYPE_VALUE:                /* the class's value unless the instance has its own, or its type
                                                  gained a __get__ since (the generic way then) */
                switch (mj_instance_lacks(obj, name, &e->shadow)) {
                case -1: return NULL;
                case 1: if (Py_TYPE(e->value)->tp_descr_get == NULL) value = e->value;
                }
                if (value != NULL) { Py_INCREF(value); return value; }
                return PyObject_GetAttr(obj, name);
            }
            if (value != NULL) { Py_INCREF(value); return value; }
            if (e->kind == MJ_DICT && mj_values_of_managed(obj) != NULL) {
                /* the name may have joined the shared keys after this entry was made: look again, before the
                   load (_PyType_Lookup clears a pending exception when it misses the type cache) */
                mj_attr_classify(e, Py_TYPE(obj), name, 0);
                return PyObject_GetAttr(obj, name);
            }
        }
        return PyObject_GetAttr(obj, name);              /* missing here: the generic path raises as CPython */
    }
    /* obj.name = value, as PyObject_SetAttr does it (0, or -1 with the exception set). */
    static MJ_NOINLINE int mj_attr_store_slow(PyObject *obj, PyObject *name, PyObject *value, mj_attr_cache *cache) {
        mj_attr_entry *e = mj_attr_entry_for(cache, obj, name, 1);
        PyObject *old, **slot, **values, *dict;
        if (e->kind != MJ_GENERIC) {
            if (e->kind == MJ_SLOT) {
                slot = (PyObject **)((char *)obj + e->index);
                old = *slot;
                Py_INCREF(value);
                *slot = value;
                Py_XDECREF(old);
                return 0;
            }
            /* values only, no dict sharing them (3.13 lets a dict use the inline values: a write must then go
               through the dict, which keeps its version for watchers and guards) */
            values = mj_values_of_managed(obj);
            if (e->kind == MJ_VALUES && values != NULL && mj_managed_dict_of(obj) == NULL) {
                old = values[e->index];
                if (old != NULL) {
                    Py_INCREF(value);
                    values[e->index] = value;
                    Py_DECREF(old);
                    return 0;
                }
                if (mj_values_add_to_order(values, e->index)) {     /* a new attribute, as STORE_ATTR_INSTANCE_VALUE */
                    Py_INCREF(value);
                    values[e->index] = value;
                    return 0;
                }
            }
            /* an instance with a dict of its own and nothing in the MRO: PyObject_GenericSetAttr ends in this
               PyDict_SetItem (a managed dict whose inline values are in use takes the generic path) */
            if (values == NULL && (dict = mj_instance_dict(obj)) != NULL) {
                if (PyDict_SetItem(dict, name, value) < 0) return -1;
                mj_dict_note_hint(dict, name, &e->hint);      /* for mj_attr_hinted_store next time */
                return 0;
            }
            if (e->kind == MJ_DICT && values != NULL) {
                /* the name was not among the type's shared keys when this entry was made (the first instance's
                   __init__ adds them): store, then look again, so later instances take the values path */
                int stored = PyObject_SetAttr(obj, name, value);
                if (stored == 0) mj_attr_classify(e, Py_TYPE(obj), name, 1);   /* never with an exception set:
                                                   _PyType_Lookup clears it when it misses the type cache */
                return stored;
            }
        }
        return PyObject_SetAttr(obj, name, value);
    }
    /* The first entry's hit, inlined where the site is (most sites see one type): a slot, or a value kept in
       the instance's inline values, read or replaced directly, as LOAD_ATTR_SLOT / LOAD_ATTR_INSTANCE_VALUE and
       their stores do, and for loads the instance dict's entry at the hint (LOAD_ATTR_WITH_HINT: instances whose
       values became a dict, as CPython 3.11 makes once a class's shared keys are full); everything else (other
       entries, a missing value, classes) in the functions above. */
    static inline PyObject **mj_attr_first_hit(PyObject *obj, mj_attr_cache *cache) {
        mj_attr_entry *e = &cache->entries[0];
        PyTypeObject *tp = Py_TYPE(obj);
        PyObject **values;
        if (e->type != tp || e->version != tp->tp_version_tag) return NULL;
        if (e->kind == MJ_SLOT) return (PyObject **)((char *)obj + e->index);
        if (e->kind == MJ_VALUES && (values = mj_values_of(obj)) != NULL) return &values[e->index];
        return NULL;
    }
    /* The value at the first entry's hint of obj's own dict (borrowed), or NULL. */
    static inline PyObject *mj_attr_hinted(PyObject *obj, PyObject *name, mj_attr_cache *cache) {
        mj_attr_entry *e = &cache->entries[0];
        PyTypeObject *tp = Py_TYPE(obj);
        PyDictObject *dict;
        mj_dict_keys *keys;
        mj_unicode_entry *entry;
        if (e->type != tp || e->version != tp->tp_version_tag || e->hint < 0
                || (e->kind != MJ_DICT && e->kind != MJ_VALUES)
                || (dict = (PyDictObject *)mj_instance_dict(obj)) == NULL || dict->ma_values != NULL) return NULL;
        keys = (mj_dict_keys *)dict->ma_keys;
        if (keys->dk_kind != MJ_KEYS_UNICODE || e->hint >= keys->dk_nentries) return NULL;
        entry = &mj_unicode_entries(keys)[e->hint];
        return entry->me_key == name ? entry->me_value : NULL;
    }
    /* Dicts written at a hint get their PEP 509 version tag from moshjit_rt's process-wide counter (CPython's
       own counter is internal): every write still gives the dict a tag no dict had before, which is what the
       binding checks here and Cython's module-global caches compare. NULL until the module is set up. */
    static unsigned long long *mj_dict_versions_counter = NULL;
    static void mj_attr_use_versions(unsigned long long *counter) { mj_dict_versions_counter = counter; }
    #if PY_VERSION_HEX < 0x030E0000
    #define MJ_DICT_TAG_LOW 0xFFFULL             /* 3.12+: watcher bits and watched-mutation counts */
    #if defined(__GNUC__)
    #pragma GCC diagnostic push
    #pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    #endif
    /* obj.name = value at the first entry's hint in obj's own dict (STORE_ATTR_WITH_HINT): the entry there holds
       this very name with a value, the dict is a combined unicode table no watcher looks at; 1 when stored, 0
       to take the other paths. What PyDict_SetItem does for an existing key, without hashing or probing: the
       value replaced, the dict tracked by the GC if the value may need it, a new version tag. */
    static inline int mj_attr_hinted_store(PyObject *obj, PyObject *name, PyObject *value, mj_attr_cache *cache) {
        mj_attr_entry *e = &cache->entries[0];
        PyTypeObject *tp = Py_TYPE(obj);
        PyDictObject *dict;
        mj_dict_keys *keys;
        mj_unicode_entry *entry;
        PyObject *old;
        uint64_t tag;
        if (e->type != tp || e->version != tp->tp_version_tag || e->hint < 0 || mj_dict_versions_counter == NULL
                || (e->kind != MJ_DICT && e->kind != MJ_VALUES)
                || (dict = (PyDictObject *)mj_instance_dict(obj)) == NULL || dict->ma_values != NULL) return 0;
        keys = (mj_dict_keys *)dict->ma_keys;
        if (keys->dk_kind != MJ_KEYS_UNICODE || e->hint >= keys->dk_nentries) return 0;
        tag = dict->ma_version_tag;
        #if PY_VERSION_HEX >= 0x030C0000
        if (tag & 0xFF) return 0;                 /* watched: the watchers are told through PyDict_SetItem */
        #endif
        entry = &mj_unicode_entries(keys)[e->hint];
        if (entry->me_key != name || (old = entry->me_value) == NULL) return 0;
        Py_INCREF(value);
        entry->me_value = value;
        *mj_dict_versions_counter += MJ_DICT_TAG_LOW + 1;
        dict->ma_version_tag = *mj_dict_versions_counter | (tag & MJ_DICT_TAG_LOW);
        if (!PyObject_GC_IsTracked((PyObject *)dict) && PyObject_IS_GC(value)
                && (!PyTuple_CheckExact(value) || PyObject_GC_IsTracked(value))) PyObject_GC_Track(dict);
        Py_DECREF(old);
        return 1;
    }
    #if defined(__GNUC__)
    #pragma GCC diagnostic pop
    #endif
    #else
    static inline int mj_attr_hinted_store(PyObject *obj, PyObject *name, PyObject *value, mj_attr_cache *cache) {
        return 0;
    }
    #endif
    /* The first entry's class value (borrowed) when it is an MJ_TYPE_VALUE entry for obj's type and obj keeps
       inline values without that name, its shared keys as the entry last saw them; else NULL (the slow path
       looks again). */
    static inline PyObject *mj_attr_class_value(PyObject *obj, mj_attr_cache *cache) {
        mj_attr_entry *e = &cache->entries[0];
        PyTypeObject *tp = Py_TYPE(obj);
        PyObject **values;
        mj_dict_keys *keys;
        if (e->kind != MJ_TYPE_VALUE || e->type != tp || e->version != tp->tp_version_tag
                || !(tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) || (values = mj_values_of(obj)) == NULL) return NULL;
        keys = (mj_dict_keys *)((PyHeapTypeObject *)tp)->ht_cached_keys;
        if (keys == NULL || keys->dk_nentries != e->shadow.nentries
                || (e->shadow.index >= 0 && values[e->shadow.index] != NULL)) return NULL;
        return Py_TYPE(e->value)->tp_descr_get == NULL ? e->value : NULL;
    }
    /* obj.name: a hit in the first entry's slot or inline values inline, where the load is (what CPython's
       LOAD_ATTR_SLOT and LOAD_ATTR_INSTANCE_VALUE do); a dict hint, a class value or a miss out of line. */
    static MJ_NOINLINE PyObject *mj_attr_load_rest(PyObject *obj, PyObject *name, mj_attr_cache *cache) {
        PyObject *value;
        if ((value = mj_attr_hinted(obj, name, cache)) != NULL || (value = mj_attr_class_value(obj, cache)) != NULL) {
            Py_INCREF(value);
            return value;
        }
        return mj_attr_load_slow(obj, name, cache);
    }
    static inline Py_ALWAYS_INLINE PyObject *mj_attr_load(PyObject *obj, PyObject *name,
                                                           mj_attr_cache *cache) {
        PyObject **where = mj_attr_first_hit(obj, cache), *value;
        if (where != NULL && (value = *where) != NULL) {
            Py_INCREF(value);
            return value;
        }
        return mj_attr_load_rest(obj, name, cache);
    }
    static inline int mj_attr_store(PyObject *obj, PyObject *name, PyObject *value, mj_attr_cache *cache) {
        PyObject **where = mj_attr_first_hit(obj, cache), *old;
        Py_ssize_t index = cache->entries[0].index;
        /* no dict sharing the values: an existing value replaced, or (__init__ filling a new instance) a new one
           added to the values' insertion order, as STORE_ATTR_INSTANCE_VALUE does */
        if (where != NULL && (cache->entries[0].kind == MJ_SLOT || mj_managed_dict_of(obj) == NULL)) {
            if ((old = *where) != NULL) {
                Py_INCREF(value);
                *where = value;
                Py_DECREF(old);
                return 0;
            }
            if (cache->entries[0].kind == MJ_VALUES && mj_values_add_to_order(where - index, index)) {
                Py_INCREF(value);
                *where = value;
                return 0;
            }
        }
        if (mj_attr_hinted_store(obj, name, value, cache)) return 0;
        return mj_attr_store_slow(obj, name, value, cache);
    }
    typedef struct {
        PyTypeObject *type;
        unsigned int version;
        mj_shadow_memo shadow;
    } mj_method_guard;
    /* Whether a class attribute is ``method`` (a jitted method's dispatcher) or the plain-function copy that
       stands in for it while it is cold (``moshjit.cold_copy``: it runs the same function; its dict names the
       dispatcher and its own code, which a ``functools.wraps`` wrapper's copied dict names too, but not its code). */
    static int mj_is_method_or_copy(PyObject *found, PyObject *method) {
        PyObject *dict;
        if (found == method) return 1;
        if (found == NULL || !PyFunction_Check(found)) return 0;
        dict = ((PyFunctionObject *)found)->func_dict;
        return dict != NULL && PyDict_GetItemString(dict, "_moshjit_dispatcher") == method
            && PyDict_GetItemString(dict, "_moshjit_code") == ((PyFunctionObject *)found)->func_code;
    }
    /* 1 when obj.name(...) would call method (or its copy), found on cls, with obj as its first argument: obj's
       type is cls, whose lookup of name gives method, and obj has no attribute of that name of its own; else 0
       (-1: the instance dict lookup raised). */
    static int mj_method_is(PyObject *obj, PyObject *name, mj_method_guard *g, PyObject *cls, PyObject *method) {
        PyTypeObject *tp = Py_TYPE(obj);
        if ((PyObject *)tp != cls) return 0;
        if (g->type != tp || g->version != tp->tp_version_tag || g->version == 0) {
            g->type = NULL;
            if (tp->tp_getattro != PyObject_GenericGetAttr
                    || !mj_is_method_or_copy(_PyType_Lookup(tp, name), method)
                    || tp->tp_version_tag == 0) return 0;
            g->type = tp;
            g->version = tp->tp_version_tag;
            g->shadow.nentries = -1;
            g->shadow.absent_tag = 0;
        }
        return mj_instance_lacks(obj, name, &g->shadow);
    }
    /* 1 when super(start, obj).name(...) would call method (or its copy) with obj first: obj's type is cls, and
       the first class after start in its MRO whose dict has name holds method. Kept while cls's version tag
       holds: CPython gives a class a new tag when it or any class it inherits from changes. */
    static int mj_super_is(PyObject *obj, PyObject *start, PyObject *name, mj_method_guard *g, PyObject *cls,
                           PyObject *method) {
        PyTypeObject *tp = Py_TYPE(obj);
        PyObject *mro, *found = NULL, *dict;
        Py_ssize_t i, n;
        if ((PyObject *)tp != cls) return 0;
        if (g->type == tp && g->version == tp->tp_version_tag && g->version != 0) return 1;
        g->type = NULL;
        (void)_PyType_Lookup(tp, name);                  /* gives tp a version tag if it has none */
        mro = tp->tp_mro;
        if (mro == NULL || tp->tp_version_tag == 0) return 0;
        n = PyTuple_GET_SIZE(mro);
        for (i = 0; i < n && PyTuple_GET_ITEM(mro, i) != start; i++) {}
        for (i++; i < n && found == NULL; i++) {
            PyTypeObject *klass = (PyTypeObject *)PyTuple_GET_ITEM(mro, i);
            if (!(klass->tp_flags & Py_TPFLAGS_HEAPTYPE)) break;   /* object & co: no jitted methods */
            dict = klass->tp_dict;
            found = dict == NULL ? NULL : PyDict_GetItemWithError(dict, name);
            if (found == NULL && PyErr_Occurred()) return -1;
        }
        if (!mj_is_method_or_copy(found, method)) return 0;
        g->type = tp;
        g->version = tp->tp_version_tag;
        return 1;
    }
'''

ATTRIBUTE_CACHE_DECLARATIONS = '''\
    ctypedef struct mj_attr_cache:
        pass
    object mj_attr_load(object, object, mj_attr_cache *)
    int mj_attr_store(object, object, object, mj_attr_cache *) except -1
    void mj_attr_use_versions(unsigned long long *)
    ctypedef struct mj_method_guard:
        pass
    int mj_method_is(object, object, mj_method_guard *, object, object) except -1
    int mj_super_is(object, object, object, mj_method_guard *, object, object) except -1
'''

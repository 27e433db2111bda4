# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, binding=False
"""moshjit_text: str views and a guarded native index of dicts with str keys, for generated modules (cimported
through moshjit_text.pxd).

- A **view** (``MjStrView``) stands for ``prefix + base[start:stop]`` without building it: generated code probes a
  dict with it and materialises the str (exactly as CPython's slice and ``+`` would) only where it escapes.
- A **vocabulary index** (``MjVocab``) is a compact open-addressing table built from a dict whose keys are all
  exact strs, keyed by the dict's identity and guarded by its version tag: while the dict is unchanged, a probe
  compares an 8-bit hash tag per slot (misses rarely read anything else) and a hit compares the key's code points
  kept in its slot (up to 8 bytes) or in one packed arena (never the key objects spread over the heap); a lookup
  of a key object a view probe found lately is one test in a small table of recent keys; any change to the dict
  makes the index stale (it is rebuilt once the new contents are probed often again, else the ordinary dict
  lookup runs). A dict with any non-str key (or a str subclass key) never gets one. Results are the dict's own.
"""
from cpython.object cimport PyObject

cdef extern from *:
    """
    #include <Python.h>
    #include <stdint.h>
    #include <string.h>

    /* The one version-specific piece: a tag that changes whenever the dict changes and is never reused by
       another dict. 3.11 has ma_version_tag; 3.12 and 3.13 still maintain it (deprecated); when it goes, a dict
       watcher bumping a private counter takes its place here. */
    static inline uint64_t mj_dict_version(PyObject *d) {
    #if defined(__GNUC__)
    #pragma GCC diagnostic push
    #pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    #endif
        return ((PyDictObject *)d)->ma_version_tag;
    #if defined(__GNUC__)
    #pragma GCC diagnostic pop
    #endif
    }

    /* A slot, 32 bytes (two per cache line): the key's code points themselves when they fit in 8 bytes (most
       vocabulary keys: a hit then reads no other line), else their place in the arena; its length and kind packed
       (length << 3 | kind); the key object and its value (borrowed: valid while the version holds). */
    #define MJ_INLINE_KEY 8
    typedef struct { uint64_t head; uint32_t length_kind; uint32_t offset; PyObject *key; PyObject *value; } MjKeyAt;

    /* Keys found lately by identity (direct-mapped by address): a lookup of a str that is one of the dict's own
       keys (a found key, below) reads one small hot table instead of the dict. Borrowed, valid with the index. */
    #define MJ_RECENT 1024
    typedef struct { PyObject *key; PyObject *value; } MjRecent;
    typedef struct {
        PyObject *dict;        /* identity only, never dereferenced unless the caller passes the same dict */
        uint64_t version;
        Py_ssize_t mask;
        Py_ssize_t max_length; /* of any key: longer probes miss without hashing */
        uint8_t *tags;         /* per slot: 0 empty, else 8 bits of the key's hash (misses rarely leave this) */
        MjKeyAt *keys;         /* per slot: a hit reads the key's copy (inline or in the arena), never the key object */
        char *arena;           /* the code points of every key longer than MJ_INLINE_KEY bytes, in its own kind */
        MjRecent *recent;      /* MJ_RECENT entries: keys found lately, by address */
    } MjVocab;

    #define MJ_VOCAB_CACHE 4
    static MjVocab mj_vocabs[MJ_VOCAB_CACHE];   /* built indexes, most recently used first; empty ones last */

    /* A dict probed while it has no index: its probes are counted here until it earns one (or is refused), apart
       from the built indexes, so dicts probed a few times each (rows of a table, a counter changed at every
       probe) never push an index out. One entry per dict (a new version restarts its count); the least recently
       probed entry makes room for a new dict, so a dict probed again before MJ_CANDIDATES others keeps its count. */
    typedef struct {
        PyObject *dict;        /* identity only, never dereferenced */
        uint64_t version;
        Py_ssize_t probes;     /* probes of this (dict, version) */
        uint64_t last;         /* when it was last probed (mj_candidate_clock) */
        int refused;           /* a key is not an exact str (or the keys are too big): no index for this version */
    } MjCandidate;
    #define MJ_CANDIDATES 8
    static MjCandidate mj_candidates[MJ_CANDIDATES];
    static uint64_t mj_candidate_clock = 0;
    static int mj_vocab_enabled = 1;            /* switched off only to measure what the index gains */

    static inline uint64_t mj_hash_step(uint64_t h, Py_UCS4 cp) { return (h ^ cp) * 0x100000001b3ULL; }

    static inline uint64_t mj_hash_range(uint64_t h, int kind, const void *data, Py_ssize_t start,
                                         Py_ssize_t stop) {
        Py_ssize_t i;
        if (kind == PyUnicode_1BYTE_KIND) {
            const Py_UCS1 *p = (const Py_UCS1 *)data;
            for (i = start; i < stop; i++) h = mj_hash_step(h, p[i]);
        } else {
            for (i = start; i < stop; i++) h = mj_hash_step(h, PyUnicode_READ(kind, data, i));
        }
        return h;
    }

    static inline uint64_t mj_hash_finish(uint64_t h) {
        h ^= h >> 29; h *= 0xbf58476d1ce4e5b9ULL; h ^= h >> 32;
        return h;
    }

    #define MJ_HASH_SEED 0xcbf29ce484222325ULL

    /* Code points a[ao:ao+n] == b[bo:bo+n]; equal kinds compare bytes. */
    static inline int mj_same(int ka, const void *a, Py_ssize_t ao, int kb, const void *b, Py_ssize_t bo,
                              Py_ssize_t n) {
        Py_ssize_t i;
        if (ka == kb) {
            const unsigned char *x = (const unsigned char *)a + ao * ka, *y = (const unsigned char *)b + bo * kb;
            size_t bytes = (size_t)(n * ka), k;
            if (bytes > 32) return memcmp(x, y, bytes) == 0;
            for (k = 0; k < bytes; k++)        /* keys are short: a loop beats a call */
                if (x[k] != y[k]) return 0;
            return 1;
        }
        for (i = 0; i < n; i++)
            if (PyUnicode_READ(ka, a, ao + i) != PyUnicode_READ(kb, b, bo + i)) return 0;
        return 1;
    }

    static inline uint8_t mj_tag(uint64_t h) { return (uint8_t)(1 + (h >> 56) % 255); }

    /* The entry whose key equals prefix + base[start:stop] (prefix may be NULL), or -1. */
    static Py_ssize_t mj_vocab_find(MjVocab *t, PyObject *prefix, PyObject *base, Py_ssize_t start,
                                    Py_ssize_t stop) {
        Py_ssize_t plen = prefix ? PyUnicode_GET_LENGTH(prefix) : 0, n = plen + stop - start, i;
        int bkind = PyUnicode_KIND(base), pkind = prefix ? PyUnicode_KIND(prefix) : 1;
        const void *bdata = PyUnicode_DATA(base), *pdata = prefix ? PyUnicode_DATA(prefix) : NULL;
        uint64_t h = MJ_HASH_SEED;
        uint8_t tag, here;
        if (n > t->max_length) return -1;
        if (plen) h = mj_hash_range(h, pkind, pdata, 0, plen);
        h = mj_hash_finish(mj_hash_range(h, bkind, bdata, start, stop));
        tag = mj_tag(h);
        for (i = (Py_ssize_t)(h & (uint64_t)t->mask);; i = (i + 1) & t->mask) {
            const MjKeyAt *at;
            int kkind;
            const void *kdata;
            here = t->tags[i];
            if (here == 0) return -1;
            if (here != tag) continue;
            at = &t->keys[i];
            if ((Py_ssize_t)(at->length_kind >> 3) != n) continue;
            kkind = (int)(at->length_kind & 7);
            kdata = n * kkind <= MJ_INLINE_KEY ? (const void *)&at->head : (const void *)(t->arena + at->offset);
            if ((!plen || mj_same(kkind, kdata, 0, pkind, pdata, 0, plen))
                    && mj_same(kkind, kdata, plen, bkind, bdata, start, stop - start))
                return i;
        }
    }

    static void mj_vocab_free_tables(MjVocab *t) {
        PyMem_Free(t->tags); PyMem_Free(t->keys); PyMem_Free(t->arena); PyMem_Free(t->recent);
        t->tags = NULL; t->keys = NULL; t->arena = NULL; t->recent = NULL;
    }

    static void mj_vocab_clear(MjVocab *t) {
        mj_vocab_free_tables(t);
        memset(t, 0, sizeof(*t));
    }

    /* Index every key of d. 0 on success, 1 when a key is not an exact str or the keys are too big for the index
       (no tables), -1 with an exception set when out of memory. */
    static int mj_vocab_build(MjVocab *t, PyObject *d) {
        Py_ssize_t n = PyDict_GET_SIZE(d), size = 8, pos = 0, i;
        size_t arena = 0;
        PyObject *key, *value;
        while (PyDict_Next(d, &pos, &key, &value)) {      /* first pass: every key an exact str? how big? */
            Py_ssize_t length;
            if (!PyUnicode_CheckExact(key)) return 1;
            length = PyUnicode_GET_LENGTH(key);
            if ((size_t)length * PyUnicode_KIND(key) > MJ_INLINE_KEY) arena += (size_t)length * PyUnicode_KIND(key);
            if (length >= (1 << 28) || arena > UINT32_MAX) return 1;
        }
        while (size < 2 * n) size *= 2;
        t->tags = (uint8_t *)PyMem_Calloc((size_t)size, 1);
        t->keys = (MjKeyAt *)PyMem_Malloc((size_t)size * sizeof(MjKeyAt));
        t->arena = (char *)PyMem_Malloc(arena ? arena : 1);
        t->recent = (MjRecent *)PyMem_Calloc(MJ_RECENT, sizeof(MjRecent));
        t->mask = size - 1;
        t->max_length = 0;
        if (t->tags == NULL || t->keys == NULL || t->arena == NULL || t->recent == NULL) {
            mj_vocab_free_tables(t);
            PyErr_NoMemory();
            return -1;
        }
        arena = 0;
        pos = 0;
        while (PyDict_Next(d, &pos, &key, &value)) {
            Py_ssize_t length = PyUnicode_GET_LENGTH(key);
            int kind = PyUnicode_KIND(key);
            uint64_t h = mj_hash_finish(mj_hash_range(MJ_HASH_SEED, kind, PyUnicode_DATA(key), 0, length));
            if (length > t->max_length) t->max_length = length;
            for (i = (Py_ssize_t)(h & (uint64_t)t->mask); t->tags[i] != 0; i = (i + 1) & t->mask) {}
            t->tags[i] = mj_tag(h);
            t->keys[i].head = 0;
            t->keys[i].offset = 0;
            t->keys[i].length_kind = (uint32_t)(length << 3 | kind);
            t->keys[i].key = key;
            t->keys[i].value = value;
            if ((size_t)length * kind <= MJ_INLINE_KEY) {
                memcpy(&t->keys[i].head, PyUnicode_DATA(key), (size_t)length * kind);
            } else {
                t->keys[i].offset = (uint32_t)arena;
                memcpy(t->arena + arena, PyUnicode_DATA(key), (size_t)length * kind);
                arena += (size_t)length * kind;
            }
        }
        return 0;
    }

    static inline MjRecent *mj_recent_place(MjVocab *t, PyObject *key) {
        return &t->recent[((uintptr_t)key >> 4) & (MJ_RECENT - 1)];
    }

    /* Remember that slot i's key was just found (a view probe that hit: its str will be that key). */
    static inline void mj_vocab_note(MjVocab *t, Py_ssize_t i) {
        MjRecent *r = mj_recent_place(t, t->keys[i].key);
        r->key = t->keys[i].key;
        r->value = t->keys[i].value;
    }

    /* The value of key when key is (by identity) one of the dict's keys found lately, else NULL (borrowed). */
    static inline PyObject *mj_vocab_recent(MjVocab *t, PyObject *key) {
        MjRecent *r = mj_recent_place(t, key);
        return r->key == key ? r->value : NULL;
    }

    /* Probes of one (dict, version) before an index is built: building costs about one probe per key, so a
       dict gets one only once it has been probed a good fraction of its size (never a dict that keeps
       changing between probes). */
    #define MJ_BUILD_AFTER(d) (64 + PyDict_GET_SIZE(d) / 16)

    /* Entry i moved to the front of the built indexes (the others keep their order). */
    static MjVocab *mj_vocab_to_front(int i) {
        MjVocab moved = mj_vocabs[i];
        memmove(&mj_vocabs[1], &mj_vocabs[0], (size_t)i * sizeof(MjVocab));
        mj_vocabs[0] = moved;
        return &mj_vocabs[0];
    }

    /* Entry i (stale) emptied and moved behind the others. */
    static void mj_vocab_drop(int i) {
        mj_vocab_clear(&mj_vocabs[i]);
        memmove(&mj_vocabs[i], &mj_vocabs[i + 1], (size_t)(MJ_VOCAB_CACHE - 1 - i) * sizeof(MjVocab));
        memset(&mj_vocabs[MJ_VOCAB_CACHE - 1], 0, sizeof(MjVocab));
    }

    /* mj_vocab_for when d's index is not the most recent one: another built index, or d's count as a candidate
       (an index built once it has been probed MJ_BUILD_AFTER times at one version, in the place of the least
       recently used index). */
    static MjVocab *mj_vocab_lookup(PyObject *d, uint64_t version) {
        MjCandidate *c;
        MjVocab *t;
        int i, built;
        for (i = 0; i < MJ_VOCAB_CACHE && mj_vocabs[i].dict != NULL; i++) {
            if (mj_vocabs[i].dict != d) continue;
            if (mj_vocabs[i].version == version) return mj_vocab_to_front(i);
            mj_vocab_drop(i);                   /* d changed: its index answers no more */
            break;
        }
        if (!mj_vocab_enabled) return NULL;
        c = &mj_candidates[0];
        for (i = 0; i < MJ_CANDIDATES; i++) {
            if (mj_candidates[i].dict == d) { c = &mj_candidates[i]; break; }
            if (mj_candidates[i].last < c->last) c = &mj_candidates[i];
        }
        if (c->dict != d || c->version != version) {
            c->dict = d;
            c->version = version;
            c->probes = 0;
            c->refused = 0;
        }
        c->last = ++mj_candidate_clock;
        if (c->refused || ++c->probes < MJ_BUILD_AFTER(d)) return NULL;
        t = &mj_vocabs[MJ_VOCAB_CACHE - 1];
        mj_vocab_clear(t);
        built = mj_vocab_build(t, d);
        if (built != 0) {                       /* refused, or out of memory: the dict answers as always */
            if (built < 0) PyErr_Clear();
            mj_vocab_clear(t);
            c->refused = 1;
            return NULL;
        }
        t->dict = d;
        t->version = version;
        memset(c, 0, sizeof(*c));
        return mj_vocab_to_front(MJ_VOCAB_CACHE - 1);
    }

    /* The current index of d, or NULL: then the caller uses the dict itself. */
    static inline MjVocab *mj_vocab_for(PyObject *d) {
        uint64_t version = mj_dict_version(d);
        MjVocab *t = &mj_vocabs[0];
        if (t->dict == d && t->version == version) return t;
        return mj_vocab_lookup(d, version);
    }

    /* The key of the last view probe that hit (a strong reference, so it is valid whatever happens to the dict
       since). Building a view that equals it gives this key instead of a new str: the data model lets an
       operation on immutable values return any existing object of the same type and value, and the key is an
       exact str with its hash already computed (a later lookup of it is one identity test in CPython's dict).
       Where CPython itself returns a particular object (the whole base, an empty or one-character str) the view
       is built as CPython builds it. */
    static PyObject *mj_found_key = NULL;
    static int mj_found_keys_enabled = 1;       /* switched off only to measure what this gains */

    static inline void mj_remember_found(PyObject *key) {
        Py_INCREF(key);
        Py_XSETREF(mj_found_key, key);    /* the old one is an exact str: freeing it runs no Python code */
    }

    /* mj_found_key when it equals prefix + base[start:stop] and CPython would build a new str for that, else
       NULL (borrowed). */
    static PyObject *mj_found_key_for(PyObject *prefix, PyObject *base, Py_ssize_t start, Py_ssize_t stop) {
        PyObject *key = mj_found_key;
        Py_ssize_t plen = prefix ? PyUnicode_GET_LENGTH(prefix) : 0, n = stop - start;
        int kkind;
        const void *kdata;
        if (key == NULL || !mj_found_keys_enabled || n < 1 || plen + n < 2 || PyUnicode_GET_LENGTH(key) != plen + n) return NULL;
        if (plen == 0 && (prefix != NULL || (start == 0 && stop == PyUnicode_GET_LENGTH(base)))) return NULL;
        kkind = PyUnicode_KIND(key);
        kdata = PyUnicode_DATA(key);
        if (plen && !mj_same(kkind, kdata, 0, PyUnicode_KIND(prefix), PyUnicode_DATA(prefix), 0, plen)) return NULL;
        if (!mj_same(kkind, kdata, plen, PyUnicode_KIND(base), PyUnicode_DATA(base), start, n)) return NULL;
        return key;
    }

    /* A str's hash already computed (then CPython's dict finds one of its own keys by identity, no hashing). */
    static inline int mj_hash_cached(PyObject *s) {
        return mj_found_keys_enabled && ((PyASCIIObject *)s)->hash != -1;
    }

    /* d is a dict whose `in` (resp. `[]`) is dict's own: an exact dict, or a subclass overriding neither slot
       (OrderedDict; a Python subclass without __contains__/__getitem__), so its answers are its storage's, which
       the index mirrors (a __missing__ runs only on a miss, where the dict itself answers). */
    static inline int mj_contains_is_dicts(PyObject *d) {
        PyTypeObject *t = Py_TYPE(d);
        return t == &PyDict_Type || (PyDict_Check(d) && t->tp_as_sequence != NULL
                                     && t->tp_as_sequence->sq_contains == PyDict_Type.tp_as_sequence->sq_contains);
    }
    static inline int mj_subscript_is_dicts(PyObject *d) {
        PyTypeObject *t = Py_TYPE(d);
        return t == &PyDict_Type || (PyDict_Check(d) && t->tp_as_mapping != NULL
                                     && t->tp_as_mapping->mp_subscript == PyDict_Type.tp_as_mapping->mp_subscript);
    }

    /* Drop every index (for tests). */
    static void mj_vocab_forget(void) {
        int i;
        for (i = 0; i < MJ_VOCAB_CACHE; i++) mj_vocab_clear(&mj_vocabs[i]);
        memset(mj_candidates, 0, sizeof(mj_candidates));
        Py_CLEAR(mj_found_key);
    }

    /* How many indexes are built now (for tests and introspection). */
    static Py_ssize_t mj_vocab_count(void) {
        Py_ssize_t i, n = 0;
        for (i = 0; i < MJ_VOCAB_CACHE; i++) n += mj_vocabs[i].tags != NULL;
        return n;
    }
    """
    ctypedef struct MjKeyAt:
        PyObject *key
        PyObject *value
    ctypedef struct MjVocab:
        MjKeyAt *keys
    MjVocab *mj_vocab_for(object d)
    void mj_vocab_note(MjVocab *t, Py_ssize_t i)
    PyObject *mj_vocab_recent(MjVocab *t, PyObject *key)
    Py_ssize_t mj_vocab_find(MjVocab *t, PyObject *prefix, PyObject *base, Py_ssize_t start, Py_ssize_t stop)
    Py_ssize_t mj_vocab_count()
    void mj_vocab_forget()
    void mj_remember_found(PyObject *key)
    PyObject *mj_found_key_for(PyObject *prefix, PyObject *base, Py_ssize_t start, Py_ssize_t stop)
    bint mj_hash_cached(object s)
    bint mj_contains_is_dicts(object d)
    bint mj_subscript_is_dicts(object d)
    int mj_vocab_enabled
    int mj_found_keys_enabled

cdef extern from "Python.h":
    object PyUnicode_Substring(object s, Py_ssize_t start, Py_ssize_t end)
    object PyUnicode_Concat(object left, object right)


cdef str mj_view_str(MjStrView view):
    """The str a view stands for: the key the last hitting probe found when it is equal (see ``mj_found_key``),
    else built as CPython builds it: the slice, then ``prefix + slice``."""
    cdef PyObject *found = mj_found_key_for(view.prefix, view.base, view.start, view.stop)
    if found != NULL:
        return <str>found
    part = PyUnicode_Substring(<object>view.base, view.start, view.stop)
    if view.prefix == NULL:
        return <str>part
    return <str>PyUnicode_Concat(<object>view.prefix, part)


cdef bint mj_view_in_dict(object d, MjStrView view) except -1:
    """``view in d`` (any ``d``: the index answers for a dict whose ``in`` is dict's own). A hit is remembered: the view's str will be the key found (``mj_found_key``), and a later
    lookup of that key reads the index's table of recent keys (``mj_vocab_recent``)."""
    cdef MjVocab *t
    cdef Py_ssize_t i
    if mj_contains_is_dicts(d):
        t = mj_vocab_for(d)
        if t != NULL:
            i = mj_vocab_find(t, view.prefix, view.base, view.start, view.stop)
            if i < 0:
                return False
            mj_remember_found(t.keys[i].key)
            if mj_found_keys_enabled:
                mj_vocab_note(t, i)
            return True
    return mj_view_str(view) in d


cdef inline MjVocab *mj_index_for_str(object d, str key) noexcept:
    """The native index answering lookups of ``key`` in the exact dict ``d``, or NULL (the dict answers)."""
    if type(d) is dict and type(key) is str:
        return mj_vocab_for(d)
    return NULL


cdef inline PyObject *mj_found_value(MjVocab *t, str key) noexcept:
    """The value of ``key`` when it is one of the dict's keys found lately (by identity), else NULL."""
    return mj_vocab_recent(t, <PyObject *>key) if mj_found_keys_enabled else NULL


cdef bint mj_str_in_dict(object d, str key) except -1:
    """``key in d`` (any ``d``: the index answers for a dict whose ``in`` is dict's own)."""
    cdef MjVocab *t = mj_vocab_for(d) if mj_contains_is_dicts(d) and type(key) is str else NULL
    if t != NULL:
        if mj_found_value(t, key) != NULL:
            return True
        if not mj_hash_cached(key):
            return mj_vocab_find(t, NULL, <PyObject *>key, 0, len(key)) >= 0
    return key in d


cdef object mj_dict_get_str(dict d, str key, object default):
    """``d.get(key, default)``."""
    cdef MjVocab *t = mj_index_for_str(d, key)
    cdef PyObject *value
    cdef Py_ssize_t i
    if t != NULL:
        value = mj_found_value(t, key)
        if value != NULL:
            return <object>value
        if not mj_hash_cached(key):
            i = mj_vocab_find(t, NULL, <PyObject *>key, 0, len(key))
            return <object>t.keys[i].value if i >= 0 else default
    return d.get(key, default)


cdef object mj_dict_getitem_str(object d, str key):
    """``d[key]`` (any ``d``: the index answers for a dict whose ``[]`` is dict's own; a miss asks ``d`` itself,
    raising its own KeyError or running its ``__missing__``)."""
    cdef MjVocab *t = mj_vocab_for(d) if mj_subscript_is_dicts(d) and type(key) is str else NULL
    cdef PyObject *value
    cdef Py_ssize_t i
    if t != NULL:
        value = mj_found_value(t, key)
        if value != NULL:
            return <object>value
        if not mj_hash_cached(key):
            i = mj_vocab_find(t, NULL, <PyObject *>key, 0, len(key))
            if i >= 0:
                return <object>t.keys[i].value
    return d[key]


cdef object mj_getitem_any(object d, object key):
    """``d[key]`` for values of unknown type: a str key of a dict whose ``[]`` is dict's own (the ids of tokens a
    tokenizer found: mostly the index's recent keys) goes through the index, anything else as Python does it."""
    if type(key) is str and mj_subscript_is_dicts(d):
        return mj_dict_getitem_str(d, <str>key)
    return d[key]


def vocab_indexes():
    """How many native dict indexes are built (introspection for tests)."""
    return mj_vocab_count()


def forget_vocab_indexes():
    """Drop every native dict index (for tests: the next probes start from the dict again)."""
    mj_vocab_forget()


def enable_vocab_indexes(bint enabled):
    """Whether dicts get native indexes (on by default; the ablation benchmark switches it off). Returns the
    previous setting; switching off also drops the indexes built so far."""
    global mj_vocab_enabled
    previous = mj_vocab_enabled
    mj_vocab_enabled = enabled
    if not enabled:
        mj_vocab_forget()
    return bool(previous)


def enable_found_keys(bint enabled):
    """Whether a view equal to the key its probe just found is that key, and strs with a computed hash are looked
    up in the dict itself (on by default; the ablation benchmark switches it off). Returns the previous setting."""
    global mj_found_keys_enabled
    previous = mj_found_keys_enabled
    mj_found_keys_enabled = enabled
    return bool(previous)

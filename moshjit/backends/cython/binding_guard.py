"""The entry check of a generated module: the names ``resolve_globals`` bound still name the same objects.

The module is handed its bindings (``moshjit.bindings.Binding`` tuples) as a constant. The first call looks each name
up and notes where it was found: the dict's keys object and the entry index, as CPython's ``LOAD_GLOBAL`` caches
keep them (for a builtin, also that the globals dict had no such key: its keys object and entry count). Every call
then checks, per binding, that the entry there is still the very name with the very value, which needs no hashing
and is untouched by writes to other names (a module-level loop variable is one); anything moved makes it look
everything up again. Before those checks, one comparison per dict: the dicts the names were found in (or found
absent from) each keep the version tag (PEP 509's ``ma_version_tag``) they had when all bindings were last seen to
hold; CPython gives a dict a new tag at every write, so while no tag moved no binding can have moved (for a function
with ten bound names in two dicts, two comparisons instead of ten checks; a write to any name of the module falls
back to the checks, which note the new tags). What has no tag is compared on every call: a closure cell's content,
a function's field a call reads (``__code__``, ``__defaults__``, ``__kwdefaults__``). A binding that no longer holds
hands the call to the dispatcher's ``rebound`` handler (compiled again without that name; a generator delegates to
what it returns).
"""
from __future__ import annotations

BINDINGS_C = r'''
    /* Where a binding was last seen: the dict's keys object and the name's entry index (-1: absent from the
       dict, which had ``nentries`` entries, and found in ``then`` at ``then_index``). keys NULL: look up. */
    typedef struct {
        void *keys, *then_keys;
        Py_ssize_t index, nentries, then_index;
    } mj_binding_seen;
    /* Sized at the first check (the text of a module must not depend on how many names it bound: another
       process may bind a different number for the same code, and the cache is keyed by the text). */
    /* The dicts the bindings were last seen to hold in, with their version tags (n 0: none noted; a closure cell,
       more than MJ_BINDING_DICTS dicts or a CPython without the tag (3.14+) notes none). The bindings tuple keeps
       the dicts alive. */
    #define MJ_BINDING_DICTS 8
    typedef struct { int n; PyObject *dicts[MJ_BINDING_DICTS]; uint64_t tags[MJ_BINDING_DICTS]; } mj_binding_tags;
    /* A binding without a tag, as compared on every call: the cell or function (borrowed: the bindings tuple
       holds it), the field read (-1: a cell's content) and the value it must give. */
    typedef struct { PyObject *ns, *value; Py_ssize_t field; } mj_binding_direct;
    /* direct: the bindings without a tag (cells, function fields), ``ndirect`` of them; tagged: the noted tags
       stand for every dict binding. */
    typedef struct {
        int valid, tagged;
        Py_ssize_t size, ndirect;
        mj_binding_seen *seen;
        mj_binding_direct *direct;
        mj_binding_tags tags;
    } mj_bindings;

    /* Note d among the dicts whose tags stand for the bindings (0 when there are too many to note). */
    static int mj_binding_tags_add(mj_binding_tags *t, PyObject *d) {
        int j;
        for (j = 0; j < t->n; j++) if (t->dicts[j] == d) return 1;
        if (t->n == MJ_BINDING_DICTS) return 0;
        t->dicts[t->n++] = d;
        return 1;
    }

    /* Every noted dict still has the tag noted when all bindings last held: none was written since. */
    static inline int mj_binding_tags_hold(mj_binding_tags *t) {
        int j;
        if (t->n == 0) return 0;
        for (j = 0; j < t->n; j++) if (mj_dict_tag(t->dicts[j]) != t->tags[j]) return 0;
        return 1;
    }

    static inline void mj_binding_tags_note(mj_binding_tags *t) {
        int j;
        for (j = 0; j < t->n; j++) t->tags[j] = mj_dict_tag(t->dicts[j]);
    }

    /* A function's field a call reads (``FUNCTION_FIELDS``: 0 __code__, 1 __defaults__, 2 __kwdefaults__), None
       for NULL as the attribute reads it. */
    static inline PyObject *mj_function_field(PyObject *f, Py_ssize_t field) {
        PyObject *found = field == 0 ? PyFunction_GET_CODE(f) : field == 1 ? PyFunction_GET_DEFAULTS(f)
                          : PyFunction_GET_KW_DEFAULTS(f);
        return found != NULL ? found : Py_None;
    }

    static Py_ssize_t mj_function_field_index(PyObject *name) {
        if (PyUnicode_CompareWithASCIIString(name, "__code__") == 0) return 0;
        if (PyUnicode_CompareWithASCIIString(name, "__defaults__") == 0) return 1;
        if (PyUnicode_CompareWithASCIIString(name, "__kwdefaults__") == 0) return 2;
        return -1;
    }

    /* The bindings without a tag still hold: a cell's content, a function's field (read from the copies noted
       at the last refresh, so the check does not walk the bindings tuple). */
    static inline int mj_bindings_direct_hold(mj_bindings *b) {
        Py_ssize_t j;
        for (j = 0; j < b->ndirect; j++) {
            mj_binding_direct *d = &b->direct[j];
            if ((d->field < 0 ? PyCell_GET(d->ns) : mj_function_field(d->ns, d->field)) != d->value) return 0;
        }
        return 1;
    }

    /* d's entry ``index`` (keys object ``keys``) is the name with the value: then d[name] is value. */
    static inline int mj_binding_entry_is(PyObject *d, void *keys, Py_ssize_t index, PyObject *name,
                                          PyObject *value) {
        PyDictObject *dict = (PyDictObject *)d;
        mj_dict_keys *k = (mj_dict_keys *)dict->ma_keys;
        mj_unicode_entry *e;
        if ((void *)k != keys || keys == NULL || dict->ma_values != NULL || index >= k->dk_nentries) return 0;
        e = &mj_unicode_entries(k)[index];
        return e->me_key == name && e->me_value == value;
    }

    /* No key was added to d since it had ``nentries`` entries in the keys object ``keys`` (a compact table only
       appends; growing it makes a new keys object). */
    static inline int mj_binding_still_absent(PyObject *d, void *keys, Py_ssize_t nentries) {
        PyDictObject *dict = (PyDictObject *)d;
        return keys != NULL && (void *)dict->ma_keys == keys && dict->ma_values == NULL
               && ((mj_dict_keys *)keys)->dk_nentries == nentries;
    }

    /* The index of the entry holding the very object ``name`` in d's unicode table (keys NULL if none). */
    static void mj_binding_locate(PyObject *d, PyObject *name, void **keys, Py_ssize_t *index) {
        Py_ssize_t found = mj_dict_entry_index(d, name);
        *keys = found < 0 ? NULL : (void *)((PyDictObject *)d)->ma_keys;
        if (found >= 0) *index = found;
    }

    /* Look every binding (namespace, name, value, then, label) up; 1 when all hold (and where they are noted). */
    static int __attribute__((noinline, cold)) mj_bindings_refresh(mj_bindings *b, PyObject *bindings) {
        Py_ssize_t i;
        int tagged = MJ_HAVE_DICT_TAGS;
        b->valid = 0;
        b->tags.n = 0;
        b->ndirect = 0;
        if (b->size < PyTuple_GET_SIZE(bindings)) {
            mj_binding_seen *grown = PyMem_Realloc(b->seen, sizeof(mj_binding_seen) * PyTuple_GET_SIZE(bindings));
            mj_binding_direct *direct;
            if (grown == NULL) return 0;            /* no memory: as if rebound (the dispatcher looks again) */
            b->seen = grown;
            direct = PyMem_Realloc(b->direct, sizeof(mj_binding_direct) * PyTuple_GET_SIZE(bindings));
            if (direct == NULL) return 0;
            b->direct = direct;
            b->size = PyTuple_GET_SIZE(bindings);
        }
        for (i = 0; i < PyTuple_GET_SIZE(bindings); i++) {
            PyObject *binding = PyTuple_GET_ITEM(bindings, i);
            PyObject *ns = PyTuple_GET_ITEM(binding, 0), *name = PyTuple_GET_ITEM(binding, 1);
            PyObject *value = PyTuple_GET_ITEM(binding, 2), *then = PyTuple_GET_ITEM(binding, 3), *found;
            mj_binding_seen *seen = &b->seen[i];
            if (PyCell_Check(ns)) {                 /* no tag: checked on every call */
                if (PyCell_GET(ns) != value) return 0;
                b->direct[b->ndirect].ns = ns;
                b->direct[b->ndirect].value = value;
                b->direct[b->ndirect++].field = -1;
                continue;
            }
            if (PyFunction_Check(ns)) {
                seen->index = mj_function_field_index(name);
                if (seen->index < 0 || mj_function_field(ns, seen->index) != value) return 0;
                b->direct[b->ndirect].ns = ns;
                b->direct[b->ndirect].value = value;
                b->direct[b->ndirect++].field = seen->index;
                continue;
            }
            tagged = tagged && mj_binding_tags_add(&b->tags, ns);
            found = PyDict_GetItemWithError(ns, name);
            if (found == NULL && PyErr_Occurred()) { PyErr_Clear(); return 0; }
            if (found != NULL) {
                if (found != value) return 0;
                mj_binding_locate(ns, name, &seen->keys, &seen->index);
                continue;
            }
            if (then == Py_None) return 0;
            tagged = tagged && mj_binding_tags_add(&b->tags, then);
            seen->index = -1;
            seen->keys = NULL;
            if (((PyDictObject *)ns)->ma_values == NULL
                    && ((mj_dict_keys *)((PyDictObject *)ns)->ma_keys)->dk_kind == MJ_KEYS_UNICODE) {
                seen->keys = ((PyDictObject *)ns)->ma_keys;
                seen->nentries = ((mj_dict_keys *)seen->keys)->dk_nentries;
            }
            found = PyDict_GetItemWithError(then, name);
            if (found == NULL && PyErr_Occurred()) PyErr_Clear();
            if (found != value) return 0;
            mj_binding_locate(then, name, &seen->then_keys, &seen->then_index);
            if (seen->then_keys == NULL) seen->keys = NULL;
        }
        if (tagged) mj_binding_tags_note(&b->tags);
        else b->tags.n = 0;
        b->tagged = tagged;
        b->valid = 1;
        return 1;
    }

    /* Every binding still holds: checked where each was seen (no hashing); anything moved: looked up again. */
    static inline int mj_bindings_hold(mj_bindings *b, PyObject *bindings) {
        Py_ssize_t i;
        if (!b->valid) return mj_bindings_refresh(b, bindings);
        if (!mj_bindings_direct_hold(b)) return 0;
        if (b->tagged && (b->tags.n == 0 || mj_binding_tags_hold(&b->tags))) return 1;
        for (i = 0; i < PyTuple_GET_SIZE(bindings); i++) {
            PyObject *binding = PyTuple_GET_ITEM(bindings, i);
            PyObject *ns = PyTuple_GET_ITEM(binding, 0), *name = PyTuple_GET_ITEM(binding, 1);
            PyObject *value = PyTuple_GET_ITEM(binding, 2);
            mj_binding_seen *seen = &b->seen[i];
            if (PyCell_Check(ns) || PyFunction_Check(ns)) {
                continue;                            /* checked above */
            } else if (seen->index >= 0) {
                if (!mj_binding_entry_is(ns, seen->keys, seen->index, name, value))
                    return mj_bindings_refresh(b, bindings);
            } else if (!mj_binding_still_absent(ns, seen->keys, seen->nentries)
                       || !mj_binding_entry_is(PyTuple_GET_ITEM(binding, 3), seen->then_keys, seen->then_index,
                                               name, value)) {
                return mj_bindings_refresh(b, bindings);
            }
        }
        mj_binding_tags_note(&b->tags);          /* all hold: the dicts' new tags stand for them until the next write */
        return 1;
    }
'''

BINDINGS_DECLARATIONS = '''\
    ctypedef struct mj_bindings:
        pass
    bint mj_bindings_hold(mj_bindings *, object)
'''


def module_declarations() -> list[str]:
    """The C helpers and the module's guard state (needs ``attribute_cache``'s C: the dict layout). The first call
    looks everything up."""
    return [f"cdef extern from *:\n    \"\"\"{BINDINGS_C}    \"\"\"\n{BINDINGS_DECLARATIONS}",
            "cdef mj_bindings _mj_bindings"]


def async_generator_entry_lines(bindings_constant: str, handler_constant: str, args: str) -> list[str]:
    """``entry_lines`` for an async generator, which has no ``yield from``: the handler's async generator is
    driven item by item, what ``asend`` gives passed on, what ``athrow`` throws thrown into it, ``aclose`` closing it
    (``_mj_delegate_async``, the loop PEP 525 describes for a delegating async generator)."""
    call = f"{handler_constant}({bindings_constant}{', ' if args else ''}{args})"
    return [f"    if not mj_bindings_hold(&_mj_bindings, {bindings_constant}):",
            f"        _mj_inner = {call}",
            "        _mj_sent = None",
            "        _mj_thrown = None",
            "        while True:",
            "            try:",
            "                _mj_item = await (_mj_inner.asend(_mj_sent) if _mj_thrown is None"
            " else _mj_inner.athrow(_mj_thrown))",
            "            except StopAsyncIteration:",
            "                return",
            "            _mj_thrown = None",
            "            try:",
            "                _mj_sent = yield _mj_item",
            "            except GeneratorExit:",
            "                await _mj_inner.aclose()",
            "                raise",
            "            except BaseException as _mj_error:",
            "                _mj_thrown = _mj_error"]


def entry_lines(bindings_constant: str, handler_constant: str, args: str, delegate: str | None) -> list[str]:
    """The entry's check: a binding that no longer holds hands the call to the dispatcher's handler (whose result
    a generator function or coroutine runs through ``delegate``: ``yield from`` or ``await``)."""
    call = f"{handler_constant}({bindings_constant}{', ' if args else ''}{args})"
    return [f"    if not mj_bindings_hold(&_mj_bindings, {bindings_constant}):",
            f"        return ({delegate} {call})" if delegate else f"        return {call}"]

"""A tuple key hashed once for all the dict operations of one function that use it: ``memo[key]``, ``key in
memo``, ``memo[key] = value``.

CPython hashes the key again at every subscript and membership test, and a tuple's hash is not cached: it walks
the whole tuple (states of a search, ``(i, j)`` of a table, nested namedtuples). When one value is the key of two or
more such operations on a dict (or a value of unknown type), the emitted code computes its hash once, at the first
of them that runs, and hands it to ``_PyDict_GetItem_KnownHash``/``_PyDict_SetItem_KnownHash``.

That is only exact when hashing runs no Python code and cannot fail, so ``mj_tuple_hash`` computes it only for
tuples (exact, or a subclass such as a namedtuple that keeps tuple's hash) whose items, nested tuples included, are
exact ints, strs, floats, bools, bytes or None — with ``tuplehash``'s own formula, checked against ``hash()`` the
first time (a CPython that hashed tuples differently turns the whole thing off). For anything else it answers -1 and
the operation is emitted as before. The hash is remembered with the object it was computed for (a reference is held,
so the address cannot be reused): a variable shared by several values, or a loop, never reuses another object's
hash. Before any hash, and after one that could not be computed, the holder is ``_MJ_UNBOUND``, which no key can
be (it was ``None`` once: a first key ``None`` then took an uncomputed hash, and a dict got ``None`` twice). The dict operations keep CPython's behaviour: exact ``dict`` and ``collections.defaultdict`` take the known
hash (a missing key raises ``KeyError(key)`` as ``dict_subscript`` does, or calls the defaultdict's
``__missing__``); every other container gets the generic operation.
"""
from __future__ import annotations

from moshjit.backends.cython import text
from moshjit.ir import ops
from moshjit.ir.ops import Constant
from moshjit.passes.type_tests import builtin_class

KNOWN_HASHES_C = r'''
    #define MJ_XXPRIME_1 ((Py_uhash_t)11400714785074694791ULL)
    #define MJ_XXPRIME_2 ((Py_uhash_t)14029467366897019727ULL)
    #define MJ_XXPRIME_5 ((Py_uhash_t)2870177450012600261ULL)
    #define MJ_XXROTATE(x) ((x << 31) | (x >> 33))
    #if PY_VERSION_HEX >= 0x030D0000
    PyAPI_FUNC(int) _PyDict_SetItem_KnownHash(PyObject *, PyObject *, PyObject *, Py_hash_t);
    #endif

    static int mj_kh_state = 0;                 /* 0: not checked yet, 1: tuplehash's formula, -1: off */
    static PyTypeObject *mj_kh_defaultdict = NULL;
    static PyObject *mj_kh_missing = NULL;      /* "__missing__" */

    /* The hash of o when computing it runs no Python code and cannot fail, else -1 (no exception set). */
    static Py_hash_t mj_kh_pure(PyObject *o, int depth) {
        PyTypeObject *t = Py_TYPE(o);
        if (t == &PyLong_Type || t == &PyUnicode_Type || t == &PyFloat_Type || t == &PyBool_Type
                || t == &PyBytes_Type || o == Py_None)
            return PyObject_Hash(o);
        if (t->tp_hash != PyTuple_Type.tp_hash || depth > 16)
            return -1;
        Py_ssize_t n = PyTuple_GET_SIZE(o);
        Py_uhash_t acc = MJ_XXPRIME_5;
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_hash_t lane = mj_kh_pure(PyTuple_GET_ITEM(o, i), depth + 1);
            if (lane == -1)
                return -1;
            acc += (Py_uhash_t)lane * MJ_XXPRIME_2;
            acc = MJ_XXROTATE(acc);
            acc *= MJ_XXPRIME_1;
        }
        acc += n ^ (MJ_XXPRIME_5 ^ 3527539UL);
        return acc == (Py_uhash_t)-1 ? 1546275796 : (Py_hash_t)acc;
    }

    /* Whether mj_kh_pure agrees with hash() on a sample (run once); also finds collections.defaultdict. */
    static int mj_kh_check(void) {
        PyObject *sample = Py_BuildValue("(i(sd)Oy()(l(i)))", 1, "a", 2.5, Py_None, "b", -1L, 7);
        PyObject *collections = PyImport_ImportModule("collections");
        int agrees = 0;
        if (sample != NULL) {
            Py_hash_t expected = PyObject_Hash(sample);
            agrees = expected != -1 && expected == mj_kh_pure(sample, 0);
        }
        mj_kh_missing = PyUnicode_InternFromString("__missing__");
        if (collections != NULL && mj_kh_missing != NULL) {
            PyObject *dd = PyObject_GetAttrString(collections, "defaultdict");
            if (dd != NULL && PyType_Check(dd))
                mj_kh_defaultdict = (PyTypeObject *)dd;      /* kept: a static type of _collections */
            else
                Py_XDECREF(dd);
        }
        Py_XDECREF(sample);
        Py_XDECREF(collections);
        PyErr_Clear();
        return agrees ? 1 : -1;
    }

    /* A tuple key's hash when it is pure (see the module), else -1: the caller uses the generic operation. */
    static Py_hash_t mj_tuple_hash(PyObject *o) {
        if (Py_TYPE(o)->tp_hash != PyTuple_Type.tp_hash)
            return -1;
        if (mj_kh_state == 0)
            mj_kh_state = mj_kh_check();
        return mj_kh_state > 0 ? mj_kh_pure(o, 0) : -1;
    }

    /* 1 for an exact dict, 2 for an exact collections.defaultdict, 0 for anything else. */
    static inline int mj_kh_dict(PyObject *d) {
        PyTypeObject *t = Py_TYPE(d);
        return t == &PyDict_Type ? 1 : (t == mj_kh_defaultdict && t != NULL) ? 2 : 0;
    }

    static PyObject *mj_getitem_known(PyObject *d, PyObject *key, Py_hash_t hash) {
        int kind = mj_kh_dict(d);
        if (kind == 0)
            return PyObject_GetItem(d, key);
        PyObject *value = _PyDict_GetItem_KnownHash(d, key, hash);
        if (value != NULL) {
            Py_INCREF(value);
            return value;
        }
        if (PyErr_Occurred())
            return NULL;
        if (kind == 2)
            return PyObject_CallMethodOneArg(d, mj_kh_missing, key);
        PyObject *args = PyTuple_Pack(1, key);          /* dict_subscript's KeyError(key) */
        if (args != NULL) {
            PyErr_SetObject(PyExc_KeyError, args);
            Py_DECREF(args);
        }
        return NULL;
    }

    static int mj_setitem_known(PyObject *d, PyObject *key, PyObject *value, Py_hash_t hash) {
        if (mj_kh_dict(d) == 0)
            return PyObject_SetItem(d, key, value);
        return _PyDict_SetItem_KnownHash(d, key, value, hash);
    }

    static int mj_contains_known(PyObject *d, PyObject *key, Py_hash_t hash) {
        if (mj_kh_dict(d) == 0)
            return PySequence_Contains(d, key);
        if (_PyDict_GetItem_KnownHash(d, key, hash) != NULL)
            return 1;
        return PyErr_Occurred() ? -1 : 0;
    }
'''

KNOWN_HASHES_DECLARATIONS = '''\
    Py_hash_t mj_tuple_hash(object)
    object mj_getitem_known(object, object, Py_hash_t)
    int mj_setitem_known(object, object, object, Py_hash_t) except -1
    int mj_contains_known(object, object, Py_hash_t) except -1
'''


def hash_site(op, ctype):
    """(container, key) of a dict operation that hashes ``key``, when the key may be a tuple (its type does not
    name another class) and the container a dict (the runtime decides both); else None."""
    if isinstance(op, (ops.GetItem, ops.SetItem)):
        container, key = op.obj, op.key
    elif isinstance(op, ops.Compare) and op.op in ("in", "not in"):
        container, key = op.right, op.left
    else:
        return None
    if isinstance(key, (Constant, ops.BuildSlice)) or isinstance(container, Constant):
        return None
    if ctype(key) not in ("object", "tuple") or ctype(container) not in ("object", "dict"):
        return None
    if builtin_class(key.type) not in (None, tuple):
        return None                   # an int of any size, a str, …: typed, never a tuple
    return container, key


def plan_known_hashes(fn, ctype, excluded) -> dict:
    """op → key, for every dict operation whose key is the key of at least one other such operation."""
    sites: dict = {}
    for block in fn.blocks:
        for op in block.ops:
            found = None if op in excluded else hash_site(op, ctype)
            if found is not None:
                sites.setdefault(found[1], []).append(op)
    return {op: key for key, uses in sites.items() if len(uses) >= 2 for op in uses}


def emit(emitter, op, key, depth: int) -> None:
    """``op`` with its key's hash computed at most once per object, else as it is emitted without a known hash."""
    emitter.hash_holders.add(holder := f"_mj_hk_{emitter.var(key)}")
    hashed, ref = f"_mj_h_{emitter.var(key)}", emitter.ref(key)
    emitter.decls[hashed] = "Py_hash_t"
    emitter.decls[holder] = "object"
    emitter.emit(f"if {holder} is not {ref}:", depth)
    emitter.emit(f"{hashed} = mj_tuple_hash({ref})", depth + 1)
    emitter.emit(f"{holder} = {ref} if {hashed} != -1 else _MJ_UNBOUND", depth + 1)
    if isinstance(op, ops.Compare):
        container = emitter.container(op.right)
        test = f"(mj_contains_known({container}, {ref}, {hashed}) == 1 if {hashed} != -1 else {ref} in {container})"
        emitter.assign(op, test if op.op == "in" else f"not {test}", depth)
        return
    container = emitter.container(op.obj)
    if isinstance(op, ops.SetItem):
        value = emitter.ref(op.value)
        emitter.emit(f"if {hashed} != -1:", depth)
        emitter.emit(f"mj_setitem_known({container}, {ref}, {value}, {hashed})", depth + 1)
        emitter.emit("else:", depth)
        emitter.emit(f"{container}[{ref}] = {value}", depth + 1)
        return
    generic = text.expression(emitter, op) or f"{container}[{ref}]"
    emitter.assign(op, f"(mj_getitem_known({container}, {ref}, {hashed}) if {hashed} != -1 else {generic})", depth)

"""Binary operators on instances of classes with jitted dunders: ``a - b`` where ``a``'s class defines ``__sub__``
as a jitted method goes to that method's compiled entry through a per-site cache, as a method site's call does
(``method_sites.py``), instead of ``PyNumber_Subtract`` → ``slot_nb_subtract`` → the method lookup → the
dispatcher's signature check.

The site takes the call only where CPython's ``binary_op1`` would call ``type(a).__sub__(a, b)`` first and
nothing else before it: ``a``'s type is a heap type whose ``__sub__`` (found on the type, as the slot finds it) is
a jitted method, and ``b`` is of the same type, or an exact ``float`` or ``int`` (whose own slots are not the
reflected Python-level one, and which are no subclass of ``a``'s type, so ``__rsub__`` does not come first). If
``__sub__`` returns ``NotImplemented``, what CPython does next is done here: with ``b`` of the same type nothing
else is tried; with a float or int, ``b``'s own slot is called; then ``TypeError`` with ``binary_op``'s message.
Classes that are sequences (``sq_concat``/``sq_repeat``, which ``+`` and ``*`` fall back to) and any other operand
combination take ``PyNumber_*``. Operands that are not heap-type instances take the number fast paths first.
"""
from __future__ import annotations

# operator → (dunder, PyNumberMethods slot, PyNumber_* function, fast path of number_fast_paths.py or None)
OPERATORS = {
    "+": ("__add__", "nb_add", "PyNumber_Add", "mj_fast_add"),
    "-": ("__sub__", "nb_subtract", "PyNumber_Subtract", "mj_fast_subtract"),
    "*": ("__mul__", "nb_multiply", "PyNumber_Multiply", "mj_fast_multiply"),
    "/": ("__truediv__", "nb_true_divide", "PyNumber_TrueDivide", "mj_fast_truedivide"),
    "//": ("__floordiv__", "nb_floor_divide", "PyNumber_FloorDivide", None),
    "%": ("__mod__", "nb_remainder", "PyNumber_Remainder", None),
    "@": ("__matmul__", "nb_matrix_multiply", "PyNumber_MatrixMultiply", None),
    "<<": ("__lshift__", "nb_lshift", "PyNumber_Lshift", None),
    ">>": ("__rshift__", "nb_rshift", "PyNumber_Rshift", None),
    "&": ("__and__", "nb_and", "PyNumber_And", None),
    "|": ("__or__", "nb_or", "PyNumber_Or", None),
    "^": ("__xor__", "nb_xor", "PyNumber_Xor", None),
}
FUNCTION_NAMES = {operator: f"mj_op_{slot[3:]}" for operator, (_, slot, _, _) in OPERATORS.items()}

OPERATOR_SITES_C = r'''
    /* The site's record of the heap type tp for the dunder name: its jitted method, or none (generic). */
    static mj_site_receiver *mj_op_receiver_for(mj_method_site *sites, PyTypeObject *tp, PyObject *name) {
        PyObject *descr;
        PySequenceMethods *sequence = tp->tp_as_sequence;
        int found;
        mj_site_receiver *site = mj_site_record_of(sites, tp, 0, &found);
        if (found) return site;
        descr = _PyType_Lookup(tp, name);                    /* borrowed; gives tp a version tag if it can */
        site->version = tp->tp_version_tag;
        if (descr != NULL && mj_site_is_jitted(descr) && tp->tp_as_number != NULL
                && (sequence == NULL || (sequence->sq_concat == NULL && sequence->sq_repeat == NULL))) {
            Py_INCREF(descr);
            site->method = descr;
            site->arity = mj_site_arity_of(descr);
        }
        return site;
    }

    /* a <symbol> b for a of a heap type (see operator_sites.py); slot is the operator's PyNumberMethods offset. */
    static PyObject *mj_op_site(mj_method_site *sites, PyObject *name, size_t slot, const char *symbol,
                                PyObject *a, PyObject *b, binaryfunc generic) {
        PyTypeObject *tp = Py_TYPE(a), *other = Py_TYPE(b);
        mj_site_receiver *site;
        PyObject *entry = NULL, *result, *argv[2] = {a, b};
        binaryfunc other_slot;
        if (other != tp && other != &PyFloat_Type && other != &PyLong_Type) return generic(a, b);
        if (mj_site_counts_call(sites)) return generic(a, b);
        site = mj_op_receiver_for(sites, tp, name);
        if (site->method == NULL) return generic(a, b);
        if (site->arity != 2) {
            result = PyObject_Vectorcall(site->method, argv, 2, NULL);
        } else if (mj_site_matches(&site->signatures[0], argv, 2)) {
            entry = site->signatures[0].entry;
        } else if (mj_site_matches(&site->signatures[1], argv, 2)) {
            entry = site->signatures[1].entry;
        } else if ((entry = mj_site_fill(site, site->method, argv, 2)) == NULL) {
            if (PyErr_Occurred()) return NULL;
            result = PyObject_Vectorcall(site->method, argv, 2, NULL);       /* the dispatcher picks or compiles */
        }
        if (entry != NULL) {
            if (mj_site_enter()) return NULL;
            Py_INCREF(entry);                                /* the site may be refilled while the call runs */
            result = PyObject_Vectorcall(entry, argv, 2, NULL);
            Py_DECREF(entry);
            mj_site_leave();
        }
        if (result != Py_NotImplemented) return result;
        Py_DECREF(result);
        if (other != tp) {                                   /* binary_op1: then the right operand's own slot */
            other_slot = *(binaryfunc *)((char *)other->tp_as_number + slot);
            result = other_slot(a, b);
            if (result != Py_NotImplemented) return result;
            Py_DECREF(result);
        }
        PyErr_Format(PyExc_TypeError, "unsupported operand type(s) for %.100s: '%.100s' and '%.100s'", symbol,
                     tp->tp_name, other->tp_name);
        return NULL;
    }
'''


def operator_functions() -> str:
    """``mj_op_<slot>(site, a, b)`` per operator: the number fast paths (or ``PyNumber_*``) for operands that are
    not heap-type instances, the site otherwise."""
    lines = []
    for operator, (dunder, slot, generic, fast) in OPERATORS.items():
        other = fast or generic
        lines.append(
            f"    static PyObject *{FUNCTION_NAMES[operator]}(mj_method_site *site, PyObject *a, PyObject *b) {{\n"
            f"        static PyObject *name = NULL;\n"
            f"        if (!(Py_TYPE(a)->tp_flags & Py_TPFLAGS_HEAPTYPE)) return {other}(a, b);\n"
            f"        if (name == NULL && (name = PyUnicode_InternFromString(\"{dunder}\")) == NULL) return NULL;\n"
            f"        return mj_op_site(site, name, offsetof(PyNumberMethods, {slot}), \"{operator}\", a, b, "
            f"{generic});\n"
            f"    }}")
    return "\n".join(lines) + "\n"


OPERATOR_SITES_DECLARATIONS = "".join(f"    object {name}(mj_method_site *, object, object)\n"
                                      for name in FUNCTION_NAMES.values())


def takes_site(op, left_ctype: str) -> bool:
    """Whether ``left <op> right`` goes through an operator site: a binary (not in-place) operator whose left
    operand has no known type (it may be an instance of a class with a jitted dunder)."""
    return not op.inplace and op.op in OPERATORS and left_ctype == "object"

"""The call path of functions compiled code makes (a ``def`` or ``lambda`` in its body): compiled too.

``make_function`` stays CPython's — a plain function object of the nested code, with its cells — and the site then
points the function's vectorcall slot at a trampoline of its own (``PyFunction_SetVectorcall`` on 3.12+, the field
itself on 3.11). A call of that function, from compiled code, C (``sorted(key=...)``, ``map``) or the interpreter,
lands there: when the function still runs the code it was made with, gets exactly its positional parameters and no
keywords, and the nested code has a compiled entry, the entry runs with the function before the arguments (it reads
the closure from it); anything else runs CPython's own vectorcall (``_PyFunction_Vectorcall``, read from the first
function made: 3.13 does not export it), so a reassigned ``__code__``, defaults, keywords and a code that failed to
compile behave as before. The entry is read at each call from the one-item list ``slot`` of the code's
``NestedCode`` (``moshjit.nested``, received through the compile context), which can withdraw it (a name it bound
was rebound); while it holds None, the site counts calls and asks ``hot`` at its threshold, doubling the threshold
each time the answer is "not yet". (CPython 3.11's interpreter calls a Python function by pushing its frame itself,
without the vectorcall slot: there, calls from interpreted code run the bytecode, as they would anyway; 3.12 and
later push the frame only for functions whose slot is CPython's own.)
"""
from __future__ import annotations

from moshjit.backends.cython.method_sites import ENTRY_CALL_C

MAX_ARGS = 8                    # positional parameters a site passes on the C stack; more stay interpreted


def nested_functions_c(count: int) -> str:
    """The sites, their trampolines (one per site: a trampoline knows its site) and the call path."""
    trampolines = "".join(f"    MJ_NESTED_TRAMPOLINE({i})\n" for i in range(count))
    table = ", ".join(f"mj_nested_vc{i}" for i in range(count))
    return ENTRY_CALL_C + rf'''
    typedef struct {{
        PyObject *code;                 /* the code object functions made here run (until one's is reassigned) */
        PyObject *owner;                /* moshjit.nested.NestedCode: compiles it, says when */
        PyObject *slot;                 /* its one-item list: the compiled entry (the function, then the
                                           arguments), or None while there is none (also after a withdrawal) */
        Py_ssize_t argcount, calls, threshold;
    }} mj_nested_site;

    static mj_nested_site mj_nested_sites[{count}];
    static vectorcallfunc mj_function_vectorcall = NULL;   /* CPython's own */

    static int mj_nested_ask(mj_nested_site *s, PyObject *f) {{
        PyObject *answer = PyObject_CallMethod(s->owner, "hot", "O", f);
        s->calls = 0;
        if (answer == NULL) return -1;
        Py_DECREF(answer);
        if (PyList_GET_ITEM(s->slot, 0) == Py_None && s->threshold < PY_SSIZE_T_MAX / 2) s->threshold *= 2;
        return 0;
    }}

    static PyObject *mj_nested_call(mj_nested_site *s, PyObject *f, PyObject *const *args, size_t nargsf,
                                    PyObject *kwnames) {{
        Py_ssize_t n = PyVectorcall_NARGS(nargsf), i;
        PyObject *stack[{MAX_ARGS} + 1], *entry, *result;
        if (((PyFunctionObject *)f)->func_code == s->code && n == s->argcount && n <= {MAX_ARGS}
                && (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0)) {{
            if (PyList_GET_ITEM(s->slot, 0) == Py_None && ++s->calls >= s->threshold && mj_nested_ask(s, f) < 0)
                return NULL;
            entry = PyList_GET_ITEM(s->slot, 0);
            if (entry != Py_None) {{
                stack[0] = f;
                for (i = 0; i < n; i++) stack[i + 1] = args[i];
                Py_INCREF(entry);                   /* (the slot may be emptied while it runs) */
                result = mj_entry_call(entry, stack, n + 1);   /* one Python frame, CPython's message */
                Py_DECREF(entry);
                return result;
            }}
        }}
        return mj_function_vectorcall(f, args, nargsf, kwnames);
    }}

    #define MJ_NESTED_TRAMPOLINE(i) \
        static PyObject *mj_nested_vc##i(PyObject *f, PyObject *const *args, size_t nargsf, PyObject *kwnames) {{ \
            return mj_nested_call(&mj_nested_sites[i], f, args, nargsf, kwnames); \
        }}
{trampolines}
    static vectorcallfunc mj_nested_trampolines[{count}] = {{{table}}};

    static int mj_nested_install(PyObject *f, int i, PyObject *owner) {{
        mj_nested_site *s = &mj_nested_sites[i];
        PyObject *threshold, *slot;
        if (mj_function_vectorcall == NULL) mj_function_vectorcall = ((PyFunctionObject *)f)->vectorcall;
        if (s->owner == NULL) {{
            if ((threshold = PyObject_GetAttrString(owner, "threshold")) == NULL) return -1;
            s->threshold = PyLong_AsSsize_t(threshold);
            Py_DECREF(threshold);
            if (s->threshold == -1 && PyErr_Occurred()) return -1;
            if ((slot = PyObject_GetAttrString(owner, "slot")) == NULL) return -1;
            if (!PyList_CheckExact(slot) || PyList_GET_SIZE(slot) != 1) {{
                Py_DECREF(slot);
                PyErr_SetString(PyExc_TypeError, "a nested code's slot is a list of one entry");
                return -1;
            }}
            s->slot = slot;
            s->code = ((PyFunctionObject *)f)->func_code;
            Py_INCREF(s->code);
            s->argcount = ((PyCodeObject *)s->code)->co_argcount;
            Py_INCREF(owner);
            s->owner = owner;
        }}
    #if PY_VERSION_HEX >= 0x030C0000
        PyFunction_SetVectorcall((PyFunctionObject *)f, mj_nested_trampolines[i]);
    #else
        ((PyFunctionObject *)f)->vectorcall = mj_nested_trampolines[i];
    #endif
        return 0;
    }}
'''


DECLARATIONS = '''\
    int mj_nested_install(object, int, object) except -1
'''

# The entry of a nested code compiled for every function made from it: the closure of the function it was given.
CLOSURE_OF_C = r'''
    static PyObject *mj_closure_of(PyObject *f) {
        PyObject *closure;
        if (!PyFunction_Check(f)) {
            PyErr_SetString(PyExc_TypeError, "a nested function's compiled entry takes the function first");
            return NULL;
        }
        closure = PyFunction_GET_CLOSURE(f);
        if (closure == NULL) return PyTuple_New(0);
        Py_INCREF(closure);
        return closure;
    }
'''

CLOSURE_OF_DECLARATIONS = '''\
    tuple mj_closure_of(object)
'''

FUNCTION_PARAMETER = "_mj_function"     # the entry's first parameter when the closure comes with each call

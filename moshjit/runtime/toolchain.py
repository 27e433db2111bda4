"""Cython and the C compiler, driven directly: a .pyx file → C → a shared object → a loaded extension module.

No setuptools, pyximport or cython.inline (importing those alone costs about a second): Cython runs in-process
(imported once, kept warm) and gcc is called on the C it writes. Used to build the runtime's support modules
(``support.py``) and the Cython backend's generated modules.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.machinery
import importlib.util
import logging
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading

from moshjit.cache import versions
from moshjit.errors import BuildError  # noqa: F401  (raised here; importers take it from here too)

log = logging.getLogger("moshjit")
lock = threading.RLock()                  # Cython's compiler keeps global state
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
CFLAGS = ["-fPIC", "-fno-plt", "-fwrapv", "-fno-strict-aliasing", "-DNDEBUG", "-w"]
# -fno-plt: a generated module calls the C API through its GOT, not through a PLT stub of its own. A program with
# many jitted functions runs code from many modules in turn, and each module's PLT is one more page and cache line
# per call (100 small functions called in turn: 41 -> 28 us per round of 100 calls, benchmarks.md §9.44).
# Generated modules are compiled at -O1: measured against -O2 on the BERT pipeline and the eight numeric kernels
# their code runs equally fast (within 2%; it is mostly calls into the C API), while gcc takes ~40% less time
# (0.40 s instead of 0.69 s for strip_accents), which is most of a first call's compile. The support modules
# are built once per machine, so they get -O2.
GENERATED_OPT, SUPPORT_OPT = "-O1", "-O2"
RUNTIME_DIR = os.path.dirname(os.path.abspath(__file__))     # the .pyx/.pxd of the support modules
PACKAGE_ROOT = os.path.dirname(os.path.dirname(RUNTIME_DIR))   # holds moshjit/: Cython finds moshjit/runtime/*.pxd
RUNTIME_PACKAGE = "moshjit.runtime"
SHARED_MODULE = f"{RUNTIME_PACKAGE}.moshjit_cyshared"   # Cython's utility code, shared by every generated module
RUNTIME_SOURCES = ("moshjit_rt.pyx", "moshjit_rt.pxd", "moshjit_text.pyx", "moshjit_text.pxd", "moshjit_dispatch.pyx",
                   "moshjit_match.pyx", "moshjit_match.pxd", "unicode_tables.py", "support.py", "toolchain.py")     # what the runtime is built from, recipe included
NAMESPACE = "cython"                      # where built modules live in the on-disk cache


def compiler_command() -> list[str]:
    """The C compiler: ``MOSHJIT_CC``, else the one CPython was built with."""
    cc = os.environ.get("MOSHJIT_CC") or sysconfig.get_config_var("CC") or "gcc"
    return cc.split()


def runtime_fingerprint() -> str:
    """What makes support modules interchangeable: Python, moshjit and Cython versions (generated modules take
    their utility code from ``moshjit_cyshared``, whose ABI is Cython's), the Unicode data and the runtime's
    sources. A prebuilt runtime records it; generated modules are only ever built against a runtime whose
    fingerprint is the current one."""
    import unicodedata
    digest = hashlib.sha256()
    for name in RUNTIME_SOURCES:
        with open(os.path.join(RUNTIME_DIR, name), "rb") as f:
            digest.update(f.read())
    return (f"{versions()};cython-{cython_version()};unicode-{unicodedata.unidata_version};"
            f"{digest.hexdigest()[:16]}")


_SHADOW_VERSION = re.compile(r'^__version__ = "([^"]+)"$', re.MULTILINE)


def cython_version() -> str:
    """``Cython.__version__`` of the Cython that ``import Cython`` loads, read from its ``Shadow.py`` (where
    Cython defines it) without importing Cython when it is not loaded yet: the fingerprint is checked at the
    first ``@jit`` call, and importing Cython there would leave thousands of objects in the program's heap that
    every full garbage collection then traverses, for a program that may never build anything."""
    loaded = sys.modules.get("Cython")
    if loaded is None:
        spec = importlib.util.find_spec("Cython")
        if spec is not None and spec.origin is not None:
            try:
                with open(os.path.join(os.path.dirname(spec.origin), "Shadow.py"), encoding="utf-8") as f:
                    found = _SHADOW_VERSION.search(f.read())
            except OSError:
                found = None
            if found:
                return found.group(1)
        import Cython as loaded
    return loaded.__version__


def toolchain_fingerprint() -> str:
    """What every generated module depends on besides its own text: the runtime and how C is compiled."""
    flags = " ".join(compiler_command() + CFLAGS + [GENERATED_OPT, SUPPORT_OPT])
    return f"{runtime_fingerprint()};{hashlib.sha256(flags.encode()).hexdigest()[:12]}"


def cython_options(c_path: str, shared: bool, module_name: str):
    """Cython's options for one module: C written to ``c_path``, the runtime's .pxd files on the include path,
    and (``shared``) utility code taken from the shared module."""
    from Cython.Compiler import Main
    return Main.CompilationOptions(
        Main.default_options, output_file=c_path, language_level=3, quiet=True, module_name=module_name,
        include_path=[PACKAGE_ROOT], shared_utility_qualified_name=SHARED_MODULE if shared else None)


_generated_contexts: dict = {}


def _generated_context(options):
    """One Cython compile context per process for generated modules, as ``cythonize`` shares one across the files
    of a build: the runtime's .pxd files and Cython's own that every generated module cimports are parsed once,
    not once per module (that was half of Cython's time on a small function)."""
    from Cython.Compiler import Main
    key = (tuple(options.include_path), options.language_level, options.cplus, options.shared_utility_qualified_name)
    context = _generated_contexts.get(key)
    if context is None:
        context = _generated_contexts[key] = Main.Context.from_options(options)
    return context


def cythonize_file(pyx_path: str, module_name: str, c_path: str) -> None:
    """Cython on one file. On generated modules its messages are moshjit's business, not the user's: they go to
    a listing file (``.lis`` beside the .pyx), then warnings to the debug log and errors into the BuildError.
    (The runtime's own .pyx, compiled when installing, reports as Cython does.)"""
    from Cython.Compiler import Errors, Main
    options = cython_options(c_path, True, module_name)
    generated = os.path.dirname(os.path.abspath(pyx_path)) != RUNTIME_DIR
    if generated:
        options.use_listing_file, options.errors_to_stderr = True, False
    listing = os.path.splitext(pyx_path)[0] + ".lis"
    with lock:
        Errors.init_thread()
        context = _generated_context(options) if generated else None
        try:
            result = Main.compile_single(pyx_path, options, full_module_name=module_name, context=context)
            failed = None if result is not None and not result.num_errors else "Cython reported errors"
        except Exception as exc:                  # Cython reports some errors as exceptions
            failed = f"Cython failed: {exc}"
        finally:
            Errors.close_listing_file()
            if context is not None:
                context.modules.pop(module_name, None)      # each generated module's own scope is compiled once
        if failed:
            _generated_contexts.clear()           # whatever state a failed compile left is not handed on
    messages = ""
    if os.path.exists(listing):
        with open(listing, encoding="utf-8", errors="replace") as f:
            messages = f.read()
    if failed:
        raise BuildError(f"{failed} on {pyx_path}:\n{messages[-4000:]}")
    if messages:
        log.debug("Cython on %s:\n%s", pyx_path, messages)


# Cython's C records a traceback entry per function an exception leaves: the .pyx line (``__PYX_ERR(file index,
# line, label)``, ``__PYX_MARK_ERR_POS``), the file (``__pyx_f``) and the function (``__Pyx_AddTraceback``).
_ADD_TRACEBACK = re.compile(r'__Pyx_AddTraceback\("([^"]*)", ([^;]*)\);')
_ERROR_POSITION = re.compile(r"\b(__PYX_ERR|__PYX_MARK_ERR_POS)\(0, (\d+)\b")
_FILE_TABLE = re.compile(r"static const char\* const (__pyx_f\[\] = \{[^}]*\};)")
LINENO_LOCAL = "__pyx_lineno"           # a local of every function that records traceback entries
CALL_SERIAL_LOCAL = "__mj_tb_serial"    # added beside it: which call of the function this is (0: not known yet)

# Generated modules learn where their code came from after loading (``_mj_setup``), so their compiled form,
# and its cache entry, does not depend on the file or the lines of the function: the same function typed into
# two notebooks shares one. CPython shows one frame per call of a function, while Cython adds a traceback entry
# each time an exception passes an error label of the function (a try, an except clause, the exit): an entry is
# added only when the exception's newest one is not already this call's. The call is told apart by the address
# of its C frame's ``__pyx_lineno``, the entry by its frame object (kept alive, so its address is not reused).
# Cython makes a new frame object for each entry (a temporary function too, on 3.11), where CPython has one per
# call: a call that raises again from a line it raised from before (``try: d[k] except KeyError:`` in a loop) puts
# the entry on the frame made then (the module holds the frames of the last call's last four lines). The address
# alone would not tell a call from the next one at the same depth, so each call that adds an entry draws a serial
# number into a local that is 0 at every call's start.
_USER_FRAMES = r"""
/* moshjit: traceback entries at the user's file, function and lines (see moshjit/runtime/toolchain.py) */
static PyObject *mj_source = NULL;
static const char *mj_function = NULL;
static int *mj_lines = NULL;
static long mj_line_count = 0, mj_default_line = 0;
#define MJ_LINE(n) (mj_lines == NULL ? (n) : (n) < mj_line_count && mj_lines[n] ? mj_lines[n] : mj_default_line)
#define MJ_FUNCTION(name) (mj_function != NULL ? mj_function : (name))

/* lines: (default line, .pyx line, user line, .pyx line, user line, ...) */
static int mj_set_source(PyObject *filename, PyObject *function, PyObject *lines) {
    Py_ssize_t i, n = PyTuple_GET_SIZE(lines);
    long most = 0, pyx;
    int *table;
    const char *file = PyUnicode_AsUTF8(filename), *name = PyUnicode_AsUTF8(function);
    if (file == NULL || name == NULL) return -1;
    for (i = 1; i + 1 < n; i += 2) {
        pyx = PyLong_AsLong(PyTuple_GET_ITEM(lines, i));
        if (pyx < 0) return -1;
        if (pyx > most) most = pyx;
    }
    table = (int *)PyMem_Calloc((size_t)most + 1, sizeof(int));
    if (table == NULL) { PyErr_NoMemory(); return -1; }
    for (i = 1; i + 1 < n; i += 2)
        table[PyLong_AsLong(PyTuple_GET_ITEM(lines, i))] = (int)PyLong_AsLong(PyTuple_GET_ITEM(lines, i + 1));
    PyMem_Free(mj_lines);
    mj_lines = table;
    mj_line_count = most + 1;
    mj_default_line = n ? PyLong_AsLong(PyTuple_GET_ITEM(lines, 0)) : 0;
    Py_XSETREF(mj_source, PyTuple_Pack(2, filename, function));
    if (mj_source == NULL) return -1;
    __pyx_f[0] = file;
    mj_function = name;
    return 0;
}

static PyObject *mj_tb_frame = NULL;
static void *mj_tb_call = NULL;
static PyObject *mj_tb_newest_frame(void) {
    PyObject *type, *value, *tb, *frame = NULL;
    PyErr_Fetch(&type, &value, &tb);
    if (tb != NULL) frame = (PyObject *)((PyTracebackObject *)tb)->tb_frame;
    PyErr_Restore(type, value, tb);
    return frame;
}
static int mj_tb_fresh(void *call) {
    return call != mj_tb_call || mj_tb_frame == NULL || mj_tb_newest_frame() != mj_tb_frame;
}
/* The frames the call with serial mj_tb_serial made, by line (the last MJ_TB_LINES lines it raised from). */
enum { MJ_TB_LINES = 4 };
static struct { int line; PyObject *frame; } mj_tb_lines[MJ_TB_LINES];
static unsigned long long mj_tb_serial = 0, mj_tb_serials = 0;       /* their call's serial; the last drawn */
static int mj_tb_next_line = 0;
static void mj_tb_hold(PyObject *frame) {
    Py_XINCREF(frame);
    Py_XSETREF(mj_tb_frame, frame);
}
static void mj_tb_added(void *call, unsigned long long *serial, int line) {
    PyObject *frame = mj_tb_newest_frame();
    int i;
    mj_tb_hold(frame);
    mj_tb_call = call;
    if (*serial == 0) *serial = ++mj_tb_serials;
    if (*serial != mj_tb_serial) {                 /* another call's frames: let go of them */
        mj_tb_serial = *serial;
        for (i = 0; i < MJ_TB_LINES; i++) { mj_tb_lines[i].line = 0; Py_CLEAR(mj_tb_lines[i].frame); }
    }
    if (frame == NULL) return;
    i = mj_tb_next_line;
    mj_tb_next_line = (i + 1) % MJ_TB_LINES;
    Py_INCREF(frame);
    Py_XSETREF(mj_tb_lines[i].frame, frame);
    mj_tb_lines[i].line = line;
}
/* A new entry on the frame this call made for the same line before, if it is still held; 0 when there is none. */
static int mj_tb_again(void *call, unsigned long long *serial, int line) {
    PyObject *frame;
    int i;
    if (*serial == 0 || *serial != mj_tb_serial || call != mj_tb_call) return 0;
    for (i = 0; i < MJ_TB_LINES; i++) {
        frame = mj_tb_lines[i].frame;
        if (frame == NULL || mj_tb_lines[i].line != line) continue;
        Py_INCREF(frame);              /* the traceback's allocation may run code that lets go of the held ones */
        PyTraceBack_Here((PyFrameObject *)frame);
        mj_tb_hold(frame);
        Py_DECREF(frame);
        return 1;
    }
    return 0;
}
#define MJ_ADD_TRACEBACK(call, serial, name, c_line, py_line, filename) do { if (mj_tb_fresh(call) && \
    !mj_tb_again(call, serial, py_line)) { \
    __Pyx_AddTraceback(name, c_line, py_line, filename); mj_tb_added(call, serial, py_line); } } while (0)
"""


def c_string(text: str) -> str:
    """A C string literal holding ``text`` as UTF-8."""
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        out.append(char if 32 <= byte < 127 and char not in '"\\?' else f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def without_frames(c_text: str) -> str:
    """The C of a runtime module whose functions add no traceback entries: its helpers and the call path are
    part of the operation that used them, and CPython shows no frame for an unpacking or for calling a function."""
    return _ADD_TRACEBACK.sub("/* moshjit: no traceback entry for the runtime */", c_text)


# A function calling itself in place (``backends/cython/in_place_calls.py``): its body is a cdef function, which the
# entry and, one level deeper each time, the call wrapper call. The body's entries are the call's frames.
IN_PLACE_BODY, IN_PLACE_CALL = "mj_in_place_body", "_mj_in_place"


def with_user_frames(c_text: str, module_name: str) -> str:
    """The C of a generated module whose traceback entries name the user's file, function and line once
    ``_mj_setup`` has said which (the user's function: every function but the module's own ``_mj_*``),
    one entry per call, as CPython's own frame for the function would. In a module calling itself in place the
    body's entries are the frames: the entry and the call wrapper add none."""
    table = _FILE_TABLE.search(c_text)
    head, tail = c_text[:table.start()], c_text[table.end():]
    tail = _ERROR_POSITION.sub(lambda m: f"{m.group(1)}(0, MJ_LINE({m.group(2)})", tail)
    in_place = f'"{module_name}.{IN_PLACE_BODY}"' in tail

    def entry(m):
        qualified = m.group(1)
        local = qualified[len(module_name) + 1:] if qualified.startswith(module_name + ".") else None
        if in_place and local == IN_PLACE_CALL or in_place and local is not None and "." not in local \
                and local != IN_PLACE_BODY and not local.startswith("_mj"):
            return ""                                   # the call wrapper, or the entry, of an in-place body
        internal = qualified.startswith("init ") or qualified.startswith(module_name + "._mj")
        shown = qualified.rpartition(".")[2]
        name = c_string(shown) if internal else f"MJ_FUNCTION({c_string(shown)})"
        return f"MJ_ADD_TRACEBACK((void *)&{LINENO_LOCAL}, &{CALL_SERIAL_LOCAL}, {name}, {m.group(2)});"
    tail = _ADD_TRACEBACK.sub(entry, tail)
    tail = tail.replace(f"int {LINENO_LOCAL} = 0;",
                        f"int {LINENO_LOCAL} = 0; unsigned long long {CALL_SERIAL_LOCAL} = 0;")
    return f"{head}static const char* {table.group(1)}\n{_USER_FRAMES}{tail}"


def with_coroutine_messages(c_text: str) -> str:
    """PEP 479 in CPython's words in a module whose generator bodies are all coroutines (a jitted ``async def``):
    Cython's coroutines say "generator raised StopIteration" where CPython's say "coroutine raised ...". (A
    ``try``/``except StopIteration`` around the body would say it too, at a third of a recursive call's time.)"""
    if "__Pyx_Coroutine_New((" not in c_text or "__Pyx_Generator_New((" in c_text:
        return c_text
    return c_text.replace('"generator raised StopIteration"', '"coroutine raised StopIteration"')


# A generator or coroutine suspended inside an ``except`` block keeps handling that exception (CPython keeps it in
# the generator's exception state): ``sys.exception()`` after resuming is still it, and an exception thrown in
# (``throw()``, ``close()``) gets it as ``__context__`` (gen_send_ex2's _PyErr_ChainStackItem, once the
# generator's state is the thread's again). Cython clears the generator's state at every yield and await (its own
# ``except`` clauses keep what they need in the closure, but moshjit's handlers set the handled exception
# themselves) and resumes a body with the thrown exception as it is. Async generators' yields are marked "return from
# async generator".
_CLEARED_AT_SUSPENSION = re.compile(
    r"__Pyx_Coroutine_ResetAndClearException\(__pyx_generator\);(\s*/\* return from (?:async )?generator, "
    r"(?:yielding|awaiting) value \*/)")
_SEND_DEFINITION = ("static\n__Pyx_PySendResult __Pyx_Coroutine_SendEx(__pyx_CoroutineObject *self, PyObject *value, "
                    "PyObject **result, int closing) {")
_SEND_BODY_CALL = "    retval = self->body(self, tstate, value);"
_CHAIN_HANDLED = r"""/* moshjit: the exception thrown in becomes the current one again, now that the generator's exception state
   is the thread's: PyErr_SetObject sets its __context__ to what the generator was handling (see toolchain.py). */
static void mj_chain_handled(void) {
    PyObject *type, *value, *tb;
    if (!PyErr_Occurred()) return;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb != NULL) PyException_SetTraceback(value, tb);
    PyErr_SetObject(type, value);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
}
"""


# Sending a value other than None to an async generator that has not started raises TypeError and leaves it
# unstarted in CPython (gen_send_ex2 refuses before running the frame); Cython raises it from the body's first
# line, which ends the async generator, so every later asend gave StopAsyncIteration. The rewrite returns before
# the body's error path, as Cython's own __Pyx_Coroutine_SendEx does for a generator or coroutine.
_ASYNC_GEN_FIRST_SEND = re.compile(
    r'if \(unlikely\(__pyx_sent_value\)\) (PyErr_SetString\(PyExc_TypeError, "can\'t send non-None value to a '
    r'just-started async generator"\);)')


def with_handled_exceptions_kept(c_text: str) -> str:
    """The C of a module with generators or coroutines, which keep the exception they are handling while
    suspended and chain an exception thrown in to it, as CPython's do; an async generator sent a value before it
    started stays unstarted."""
    if _SEND_DEFINITION not in c_text:
        return c_text
    if c_text.count(_SEND_BODY_CALL) != 1:
        raise BuildError("moshjit: Cython's __Pyx_Coroutine_SendEx changed shape; cannot chain thrown exceptions")
    # kept, except None (Cython's resumption takes any value it finds there for an exception)
    c_text = _CLEARED_AT_SUSPENSION.sub(
        "if (__pyx_generator->gi_exc_state.exc_value == Py_None) Py_CLEAR(__pyx_generator->gi_exc_state.exc_value);"
        r"\1", c_text)
    c_text = _ASYNC_GEN_FIRST_SEND.sub(r"if (unlikely(__pyx_sent_value)) { \1 __Pyx_RefNannyFinishContext(); "
                                       r"return NULL; }", c_text)
    c_text = c_text.replace(_SEND_DEFINITION, _CHAIN_HANDLED + _SEND_DEFINITION, 1)
    return c_text.replace(_SEND_BODY_CALL, "    if (value == NULL) mj_chain_handled();\n" + _SEND_BODY_CALL, 1)


# A generator's or coroutine's locals live in a closure-scope object of their own, a second GC-tracked object per
# call that every collection walks (an asyncio program keeps tens of thousands of suspended coroutines: async_tree
# spent 1.5 s in full collections against CPython's 0.95 s, whose coroutine holds its frame inline). Where nothing
# else can hold that scope (no nested closure in the module refers to an outer scope), the scope is untracked
# once the generator owns it, and the generator's traverse walks the scope's references as its own: the collector
# sees the same references, and a cycle through them is broken by the generator's clear, which drops the scope.
# Cython shares its generator type between modules of one Cython ABI; moshjit's modules get an ABI namespace of
# their own so that a generator of theirs is never of a foreign module's type, whose traverse would stop at the
# untracked scope.
_ABI_MODULE_NAME = '#define __PYX_ABI_MODULE_NAME "_cython_" CYTHON_ABI'
_OWNED_SCOPE = re.compile(
    r"(__pyx_CoroutineObject \*gen = __Pyx_(?:Coroutine|Generator|AsyncGen)_New\([^;\n]*\(PyObject \*\) "
    r"__pyx_cur_scope,[^;\n]*\); if \(unlikely\(!gen\)\)[^\n]*\n(\s*))(__Pyx_DECREF\(__pyx_cur_scope\);)")
_VISIT_CLOSURE = "    Py_VISIT(gen->closure);\n"
_VISIT_OWNED_CLOSURE = """    if (gen->closure != NULL && PyObject_IS_GC(gen->closure) && !PyObject_GC_IsTracked(gen->closure)) {
        /* moshjit: the scope it owns, untracked (a scope without object fields is no GC object at all) */
        int e = Py_TYPE(gen->closure)->tp_traverse(gen->closure, visit, arg);
        if (e) return e;
    } else {
        Py_VISIT(gen->closure);
    }
"""


# Code a generated module runs once, when it is loaded: Cython's module initialisation (the functions it marks
# CYTHON_SMALL_CODE) and moshjit's ``_mj_setup``/``_mj_set_constants``. It is near half of a small module's
# machine code, and nothing gains from optimising it: GCC compiles it at -O0 (other compilers as Cython says).
# Measured on 113 modules of three class-heavy test files: gcc's CPU time per module 11% lower.
_RUN_ONCE_HEADER = """/* moshjit: code run once per load is not optimised (with_run_once_code_unoptimised) */
#if defined(__GNUC__) && !defined(__clang__)
#define CYTHON_SMALL_CODE __attribute__((cold, optimize("O0")))
#define MJ_RUN_ONCE __attribute__((cold, optimize("O0")))
#else
#define MJ_RUN_ONCE
#endif
"""
_SETUP_FUNCTION = re.compile(r"^static (int |PyObject \*)(__pyx_(?:f|pf|pw)_\w+?_mj_set(?:up|_constants))\(",
                             re.MULTILINE)


def with_run_once_code_unoptimised(c_text: str) -> str:
    """The C of a generated module whose load-time code is compiled without optimisation (see above)."""
    marked, count = _SETUP_FUNCTION.subn(r"static MJ_RUN_ONCE \1\2(", c_text)
    if count < 5 and "_mj_setup" in c_text:   # its wrapper and body, the constants' function: declared, then defined
        raise BuildError("moshjit: the generated module's _mj_setup changed shape; cannot mark its load-time code")
    return _RUN_ONCE_HEADER + marked


def with_private_abi(c_text: str) -> str:
    """The C of any moshjit module (generated, support or Cython's shared utility module), whose Cython types are
    shared under an ABI name of moshjit's own (see above)."""
    if c_text.count(_ABI_MODULE_NAME) != 1:
        raise BuildError("moshjit: Cython's __PYX_ABI_MODULE_NAME changed shape; cannot keep its types apart")
    return c_text.replace(_ABI_MODULE_NAME, '#define __PYX_ABI_MODULE_NAME "_moshjit_cython_" CYTHON_ABI', 1)


def with_owned_scopes(c_text: str) -> str:
    """The C of a module whose generators and coroutines keep their closure scope out of the collector's lists
    when they are its only owner (see above)."""
    if "__Pyx_Coroutine_traverse(" not in c_text:
        return c_text
    if c_text.count(_VISIT_CLOSURE) != 1:
        raise BuildError("moshjit: Cython's __Pyx_Coroutine_traverse changed shape; cannot walk owned scopes")
    c_text = c_text.replace(_VISIT_CLOSURE, _VISIT_OWNED_CLOSURE, 1)
    if "__pyx_outer_scope" in c_text:
        return c_text                       # a nested closure may hold a scope: every scope stays tracked
    return _OWNED_SCOPE.sub(r"\1if (PyObject_GC_IsTracked((PyObject *)__pyx_cur_scope)) "
                            r"PyObject_GC_UnTrack(__pyx_cur_scope);\n\2\3", c_text)


# ``await`` of a native coroutine (an ``async def`` CPython runs: asyncio's, or a function left to the interpreter)
# went through its ``__await__()``: a coroutine_wrapper object per await, and every resumption through it. CPython's
# SEND sends to the coroutine itself (its am_send): so does the rewrite, which makes it the awaiting generator's
# delegate as Cython does for any sender (throw() and close() reach it by its methods, as they reached the
# wrapper's). GET_AWAITABLE's checks ran before (``_mj_awaitable``).
_GENERIC_YIELD_FROM = "    return __Pyx_Coroutine_Yield_From_Generic(gen, source, retval);\n"
_NATIVE_YIELD_FROM = """    if (PyCoro_CheckExact(source)) {            /* moshjit: sent to directly, as CPython's SEND does */
        __Pyx_PySendResult result = PyIter_Send(source, Py_None, retval);
        if (result == PYGEN_NEXT) {
            Py_INCREF(source);
            __Pyx_Coroutine_Set_Owned_Yield_From(gen, source);
        }
        return result;
    }
"""


def with_native_coroutines_sent(c_text: str) -> str:
    """The C of a module whose ``await`` of a native coroutine sends to it directly (see above)."""
    if "__Pyx_Coroutine_Yield_From(" not in c_text:
        return c_text
    if c_text.count(_GENERIC_YIELD_FROM) != 1:
        raise BuildError("moshjit: Cython's __Pyx_Coroutine_Yield_From changed shape; cannot send to coroutines")
    return c_text.replace(_GENERIC_YIELD_FROM, _NATIVE_YIELD_FROM + _GENERIC_YIELD_FROM, 1)


def rewrite_c(c_path: str, rewrite) -> None:
    with open(c_path, encoding="utf-8") as f:
        text = f.read()
    with open(c_path, "w", encoding="utf-8") as f:
        f.write(rewrite(text))


# Every generated module starts with the same lines up to ``#include "Python.h"`` (about 16,000 lines once
# preprocessed): compiled once into a precompiled header per cache directory, compiler and flags, which gcc then
# loads instead of parsing them again (~0.06 s of a module's ~0.7 s). A compiler that cannot use the .gch (or a
# stale one) reads the header itself, so the module is the same either way; a damaged one, which gcc stops at, is
# dropped by ``compile_c``.
PYTHON_INCLUDE = '#include "Python.h"\n'
PYTHON_HEADER = "mj_python.h"
_unbuildable_headers: set[str] = set()     # keys whose header gcc refused in this process: not tried again


def _base_command(optimize: str) -> list[str]:
    return compiler_command() + [optimize] + CFLAGS + [f"-I{sysconfig.get_paths()['include']}"]


@functools.cache
def _compiler_identity() -> str:
    """What the compiler says of its version (a .gch is only good for the compiler that wrote it)."""
    try:
        return subprocess.run(compiler_command() + ["--version"], capture_output=True, text=True).stdout
    except OSError:
        return ""


def precompiled_python_header(prefix: str, optimize: str, headers_root: str) -> str | None:
    """The directory holding ``prefix`` (a module's C up to and including Python.h) as ``mj_python.h`` with its
    precompiled ``.gch``, built on first use; None when it cannot be built (the module then compiles as is)."""
    command = _base_command(optimize)
    key = hashlib.sha256("\0".join([prefix, versions(), _compiler_identity()] + command).encode()).hexdigest()[:24]
    directory = os.path.join(headers_root, key)
    if os.path.exists(os.path.join(directory, PYTHON_HEADER + ".gch")):
        return directory
    if key in _unbuildable_headers:
        return None
    os.makedirs(headers_root, mode=0o700, exist_ok=True)
    building = tempfile.mkdtemp(prefix=f".{key}-", dir=headers_root)
    try:
        header = os.path.join(building, PYTHON_HEADER)
        with open(header, "w", encoding="utf-8") as f:
            f.write(prefix)
        proc = subprocess.run(command + ["-x", "c-header", header, "-o", header + ".gch"], capture_output=True,
                              text=True)
        if proc.returncode != 0:
            log.debug("moshjit: no precompiled Python.h (%s): %s", command[0], proc.stderr[-2000:])
            _unbuildable_headers.add(key)
            return None
        with contextlib.suppress(OSError):          # the directory exists: another process won the race
            os.rename(building, directory)          # whole or not at all
        return directory if os.path.isdir(directory) else None
    except OSError as exc:
        log.debug("moshjit: no precompiled Python.h: %s", exc)
        return None
    finally:
        shutil.rmtree(building, ignore_errors=True)


def with_precompiled_python_header(c_path: str, optimize: str, headers_root: str) -> tuple[list[str], str]:
    """Point the module at the precompiled Python.h (rewriting its head to include it): the -I it needs (none if
    it stays as it was) and the module's text before the rewrite."""
    with open(c_path, encoding="utf-8") as f:
        text = f.read()
    prefix, found, rest = text.partition(PYTHON_INCLUDE)
    module_name = os.path.splitext(os.path.basename(c_path))[0]
    if not found or module_name in prefix:         # (a head naming the module would need a header per module)
        return [], text
    directory = precompiled_python_header(prefix + found, optimize, headers_root)
    if directory is None:
        return [], text
    with open(c_path, "w", encoding="utf-8") as f:
        f.write(f'#include "{PYTHON_HEADER}"\n' + rest)
    return [f"-I{directory}"], text


def compile_c(c_path: str, so_path: str, optimize: str, headers_root: str | None = None) -> None:
    """gcc on one module; ``headers_root``: where precompiled headers are kept (generated modules only). gcc stops
    at a damaged .gch rather than reading the header: then the header is dropped (the next module builds it anew)
    and the module compiled from its own text."""
    headers, text = with_precompiled_python_header(c_path, optimize, headers_root) if headers_root else ([], "")
    proc = _run_compiler(_base_command(optimize) + ["-shared"] + headers
                         + [f"-I{os.path.dirname(c_path)}", c_path, "-o", so_path])
    if proc.returncode != 0 and headers and "precompiled header" in proc.stderr:
        log.warning("moshjit: the precompiled Python.h in %s is unusable; building it again", headers[0][2:])
        shutil.rmtree(headers[0][2:], ignore_errors=True)
        with open(c_path, "w", encoding="utf-8") as f:
            f.write(text)
        proc = _run_compiler(_base_command(optimize) + ["-shared", f"-I{os.path.dirname(c_path)}", c_path, "-o",
                                                        so_path])
    if proc.returncode != 0:
        raise BuildError(f"C compiler failed on {c_path}:\n{proc.stderr[-4000:]}")


def _run_compiler(command: list[str]) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(command, capture_output=True, text=True)
    except OSError as exc:                    # no such program, or not executable
        source = "MOSHJIT_CC" if os.environ.get("MOSHJIT_CC") else "the compiler Python was built with"
        raise BuildError(f"no usable C compiler: {command[0]!r} ({source}) cannot be run ({exc.strerror}); "
                         f"install gcc, or set MOSHJIT_CC to a C compiler") from None


def compile_to_bytes(c_path: str, workdir: str, name: str, optimize: str) -> bytes:
    """The shared object built from ``c_path`` in ``workdir``, as bytes (for the cache)."""
    so_path = os.path.join(workdir, name.rpartition(".")[2] + EXT_SUFFIX)
    compile_c(c_path, so_path, optimize)
    with open(so_path, "rb") as f:
        return f.read()


def load_extension(so_path: str, module_name: str, registered: str | None = None):
    """Load the extension module ``module_name`` (the name its init function carries) from a file and register it
    in sys.modules under ``registered``, by default its name."""
    registered = registered or module_name
    loader = importlib.machinery.ExtensionFileLoader(module_name, so_path)
    spec = importlib.util.spec_from_file_location(module_name, so_path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[registered] = module
    try:
        loader.exec_module(module)
    except BaseException:
        sys.modules.pop(registered, None)
        raise
    return module

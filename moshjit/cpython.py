"""What differs between the CPython versions moshjit supports (``_version.SUPPORTED_PYTHONS``), in one place.

Nothing else in the compiler asks which CPython runs. The frontend reads bytecode through the running version's
opcode table (``frontend/opcodes_3xx.py``, driven by ``frontend/decode.py``); every other difference that matters
to generated code is a fact below, and the modules that act on one name it here:

- ``IMMORTAL_OBJECTS`` (3.12, PEP 683): ``backends/llvm/runtime.py``, whose reference-count helpers leave
  immortal objects alone.
- ``TAGGED_INT_SIZE`` (3.12): ``backends/llvm/runtime.py`` (unboxing ints, "fits in int64") and
  ``backends/llvm/layout.py`` (the layout check).
- ``UNICODE_EQUAL`` (3.13 no longer exports ``_PyUnicode_EQ``): ``backends/cython/prelude.py`` (``str ==``).
- ``FRAME_LOCALS_SNAPSHOT`` (3.13, PEP 667): ``frontend/translate.py`` (``locals()``).
- ``BOOL_INVERT_WARNS`` (3.12): ``passes/typeinfer.py`` and ``passes/constfold.py`` (``~`` on a bool).
- ``COMPENSATED_FLOAT_SUM`` (3.12): ``frontend/consumers.py`` (``sum`` of a generator expression) and
  ``backends/llvm/calls.py`` (native ``sum``).
- ``empty_min_max_message`` (3.12 reworded it): ``frontend/consumers.py`` and ``backends/llvm/calls.py``.
- ``zero_division_message`` (3.13 says "float modulo by zero"): ``backends/cython/emit.py``,
  ``backends/llvm/arith.py`` and ``backends/llvm/calls.py`` (native division by zero).

C code that cannot read these facts branches on ``PY_VERSION_HEX`` itself, in one place only:
``runtime/moshjit_dispatch.pyx`` (whether an int is compact, for the call path's signature check).

C code that reads object internals the same way on every supported version, named here so that a new version
is checked against each:

- ``runtime/moshjit_text.pyx``, ``mj_dict_version``: the native dict index is guarded by ``ma_version_tag``.
  3.11 maintains it; 3.12 and 3.13 deprecate it (``Py_DEPRECATED(3.12)``, read with the warning silenced) but still
  give every new dict a fresh version from one interpreter-wide counter and a new one at every change (its low
  bits carry watcher flags, on 3.13 also a mutation counter, which only ever make it differ more).
  tests/cython/test_text.py changes a dict in every way the dict API allows, between calls and from a callee
  during one, on every version. 3.14 removes the field: a version outside ``SUPPORTED_PYTHONS`` is refused
  before this code is built, and adding 3.14 means a dict watcher here.
- ``backends/cython/attribute_cache.py``: where an instance keeps its attributes (3.11: values pointer and dict
  before the object; 3.12: one tagged word, values or dict; 3.13: inline values after the header with a ``valid``
  flag), the insertion order kept beside the values (3.11/3.12: bytes before them; 3.13: after their capacity),
  the head of a type's shared keys and a dict's unicode entries, in the one ``#if`` table at the top of its C.
  Every entry is guarded by the type's ``tp_version_tag``; tests/cython/test_attribute_cache.py runs on every
  version.
- ``backends/llvm/layout.py``: the offsets native code reads (``ob_size``/``lv_tag``, list items, tuple items,
  float value), verified on live objects by ``check_layout`` before anything is compiled.
- ``EVAL_BREAKER_FLAGS`` (below): internal fields of the runtime, interpreter and thread state, read by compiled
  loops' back-edges in ``runtime/moshjit_rt.pyx`` and ``backends/llvm/runtime.py``.
- ``backends/llvm/runtime.py``'s stack guard: ``Py_GetRecursionLimit`` (the Python-level limit, which a jitted
  recursion counts like CPython's frames on every version) and the thread's stack bounds from pthreads.

Public C API only, the same on every version: the Cython backend's object arithmetic (``PyNumber_*``, see
``backends/cython/prelude.py``) and the dict/str/list calls of the runtime modules.

Module constants assumed when compiling are checked by value at each call, so they need neither
``ma_version_tag`` nor a dict watcher.
"""
from __future__ import annotations

import builtins
import functools
import operator
import sys

VERSION = sys.version_info[:2]

IMMORTAL_OBJECTS = VERSION >= (3, 12)
"""PEP 683: an object whose reference count, read as a signed 32-bit number, is negative is immortal. Increments
saturate in the low 32 bits and decrements skip such objects (``None``, ``True``, small ints, interned strs)."""

TAGGED_INT_SIZE = VERSION >= (3, 12)
"""The int header: 3.11 keeps the signed digit count in ``ob_size``; 3.12 keeps ``lv_tag`` at the same offset,
``digit count << 3 | sign`` with sign 0 positive, 1 zero, 2 negative."""

UNICODE_EQUAL = "_PyUnicode_Equal" if VERSION >= (3, 13) else "_PyUnicode_EQ"
"""The exported C function comparing two exact strs for equality (``_PyUnicode_EQ`` is not exported by 3.13)."""

FRAME_LOCALS_SNAPSHOT = VERSION >= (3, 13)
"""PEP 667: ``locals()`` in a function returns a new dict at each call; before 3.13 the frame keeps one dict and
each call updates it (``frontend/translate.py``, ``frame_locals``)."""

BOOL_INVERT_WARNS = VERSION >= (3, 12)
"""``~`` on a bool issues a DeprecationWarning (bool's own ``nb_invert``, 3.12): a bool operand of ``~`` is then
left to CPython's operator at run time (typed ``object``, never folded), which warns — and raises under ``-W
error`` — as CPython does."""

COMPENSATED_FLOAT_SUM = VERSION >= (3, 12)
"""``sum()`` adds floats with Neumaier's compensation (bltinmodule.c, 3.12): see ``primitives/summation.py``."""

EVAL_BREAKER_FLAGS = {
    (3, 11): {"signals": ("runtime", 352, 1), "gil": ("interpreter", 104, 1)},
    (3, 12): {"signals": ("runtime", 2008, 1), "gil": ("interpreter", 372, 1)},
    (3, 13): {"signals": ("thread", 24, 2), "gil": ("thread", 24, 1)},
}.get(VERSION)
"""Where the eval loop learns that a signal arrived or another thread asked for the GIL (CPython's eval breaker),
which compiled loops read at their back-edges (``passes/loop_ticks.py``): per flag, the 32-bit word at ``offset``
bytes into ``_PyRuntime`` ("runtime"), the interpreter (``PyInterpreterState_Get``) or the thread state
(``PyThreadState_Get``), and the bits that say so. 3.11/3.12: ``_PyRuntime.ceval.signals_pending`` and
``interp->ceval.gil_drop_request`` (not ``eval_breaker`` itself: on 3.12 it also stays set while a garbage collection
waits for the eval loop); 3.13: bits 1 and 0 of ``tstate->eval_breaker``. Read by ``runtime/moshjit_rt.pyx``
(Cython) and ``backends/llvm/runtime.py``; tests/test_loop_ticks.py checks the table against the running
interpreter's internal headers."""


@functools.cache
def empty_min_max_message(name: str) -> str:
    """The message of the ValueError ``min``/``max`` raise on an empty iterable without a default, as this CPython
    words it ("max() arg is an empty sequence" until 3.11, "max() iterable argument is empty" since 3.12)."""
    try:
        getattr(builtins, name)(())
    except ValueError as error:
        return str(error)
    raise AssertionError(f"{name}(()) did not raise")


_DIVISIONS = {"/": operator.truediv, "//": operator.floordiv, "%": operator.mod, "divmod": divmod}


@functools.cache
def zero_division_message(kind: str, division: str) -> str:
    """The message of the ZeroDivisionError that ``division`` ('/', '//', '%' or 'divmod') of a ``kind`` ('int' or
    'float') by zero raises, as this CPython words it (3.13: "float modulo by zero" where 3.12 said "float modulo")."""
    zero = {"int": 0, "float": 0.0}[kind]
    try:
        _DIVISIONS[division](1 + zero, zero)
    except ZeroDivisionError as error:
        return str(error)
    raise AssertionError(f"{kind} {division} by zero did not raise")

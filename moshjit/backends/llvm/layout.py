"""The CPython object layout native code relies on (release builds, 64-bit), and the check for it.

The offsets are the same on 3.11, 3.12 and 3.13; what the int header at ``OB_SIZE`` means changed in 3.12 (see
``moshjit.cpython.TAGGED_INT_SIZE``), and reference counting did (``moshjit.cpython.IMMORTAL_OBJECTS``).
``check_layout`` reads live objects through these offsets before anything is compiled or loaded, so an
interpreter that lays them out otherwise is refused with one clear error, never miscompiled.
Kept free of llvmlite so that loading cached code (which needs only these facts) does not import it.
"""
from __future__ import annotations

import functools
import sys

from moshjit._version import SUPPORTED_PYTHONS
from moshjit.cpython import TAGGED_INT_SIZE
from moshjit.errors import UnsupportedError

# Every object starts with ob_refcnt, ob_type; variable-size ones continue with ob_size (for ints: the digit
# count and sign, see TAGGED_INT_SIZE). Lists hold ob_item (a pointer) and allocated; tuples hold their items
# inline. Ints keep 30-bit digits after the header; floats their double.
OB_TYPE, OB_SIZE, LIST_ITEMS, LIST_ALLOCATED, TUPLE_ITEMS, FLOAT_VALUE, LONG_DIGITS = 8, 16, 24, 32, 24, 16, 24
LONG_SIGN_MASK, LONG_DIGIT_COUNT_SHIFT = 3, 3     # 3.12+: lv_tag = digit count << 3 | sign (0 +, 1 zero, 2 -)
PY_BUFFER_SIZE = 80                 # sizeof(Py_buffer)
PY_BUFFER_BUF, PY_BUFFER_ITEMSIZE, PY_BUFFER_NDIM, PY_BUFFER_FORMAT, PY_BUFFER_SHAPE = 0, 24, 36, 40, 48
METH_FASTCALL, METH_KEYWORDS = 0x80, 0x02
CFUNCTION_METHOD_DEF = 16           # PyCFunctionObject.m_ml
CELL_CONTENTS = 16                  # PyCellObject.ob_ref
# PyFunctionObject after the head: func_globals, func_builtins, func_name, func_qualname, then these (NULL: None).
FUNCTION_FIELD_OFFSETS = {"__code__": 48, "__defaults__": 56, "__kwdefaults__": 64}
# A dict (3.11-3.13, GIL builds): ma_keys, ma_values (NULL: a combined table); its keys object's head (pycore_dict.h:
# dk_log2_index_bytes, dk_kind (1: unicode keys), dk_nentries, the index table, then the entries: key, value).
DICT_KEYS, DICT_VALUES = 32, 40
KEYS_LOG2_INDEX_BYTES, KEYS_KIND, KEYS_NENTRIES, KEYS_INDICES, KEYS_UNICODE = 9, 10, 24, 32, 1
UNICODE_ENTRY_SIZE = 16
# PyThreadState's count of the Python recursion levels left (3.11 recursion_remaining, 3.12+ py_recursion_remaining,
# an int followed by the limit it counts down from), which native recursion counts in too.
THREAD_RECURSION_REMAINING = {(3, 11): 32, (3, 12): 28, (3, 13): 44}.get(sys.version_info[:2], -1)


def check_layout() -> None:
    """Refuse to compile on an interpreter whose object layout differs from what the helpers assume."""
    if not _layout_holds():
        raise UnsupportedError("the LLVM backend needs a 64-bit release build of CPython "
                               f"{', '.join(f'{a}.{b}' for a, b in SUPPORTED_PYTHONS)} "
                               f"(this is {sys.version.split()[0]})")


@functools.cache
def _layout_holds() -> bool:
    if sys.version_info[:2] not in SUPPORTED_PYTHONS or sys.maxsize != 2 ** 63 - 1 \
            or sys.int_info.bits_per_digit != 30 or hasattr(sys, "gettotalrefcount") or sys.getsizeof(1.0) != 24:
        return False
    import ctypes

    def word(obj, offset, kind=ctypes.c_ssize_t):
        return kind.from_address(id(obj) + offset).value

    items = [10.5, (7, 8)]
    items.append(-(2 ** 40))
    pointer = ctypes.c_void_p
    cell = (lambda: items).__closure__[0]
    return (word(items, OB_TYPE, pointer) == id(list) and word(items, OB_SIZE) == 3
            and _dict_layout_holds(word, pointer) and word(cell, CELL_CONTENTS, pointer) == id(items)
            and _thread_state_layout_holds()
            and _function_layout_holds(word, pointer)
            and word(items, LIST_ALLOCATED) >= 3
            and pointer.from_address(word(items, LIST_ITEMS, pointer)).value == id(items[0])
            and word(items[1], TUPLE_ITEMS, pointer) == id(items[1][0])
            and word(items[0], FLOAT_VALUE, ctypes.c_double) == 10.5
            and all(_read_int(word, value) == value for value in (0, 1, -1, 2 ** 30 + 5, items[2])))


def _function_layout_holds(word, pointer) -> bool:
    """A function's code and defaults read as ``binding_check`` reads them."""
    def probe(a, b=(1,), *, c=2):
        return a, b, c

    return all(word(probe, offset, pointer) == id(getattr(probe, field))
               for field, offset in FUNCTION_FIELD_OFFSETS.items())


def _thread_state_layout_holds() -> bool:
    """The thread's recursion count read as native recursion reads it: one level less in a Python call one level
    deeper, and followed by the limit."""
    import ctypes
    if THREAD_RECURSION_REMAINING < 0:
        return False
    get_thread_state = ctypes.pythonapi.PyThreadState_Get
    get_thread_state.restype = ctypes.c_void_p
    count = get_thread_state() + THREAD_RECURSION_REMAINING
    remaining, limit = ctypes.c_int.from_address(count), ctypes.c_int.from_address(count + 4)

    def deeper():
        return remaining.value

    here = remaining.value
    return limit.value == sys.getrecursionlimit() and deeper() == here - 1


def _dict_layout_holds(word, pointer) -> bool:
    """A dict's second entry read through the keys object as ``binding_check`` reads it."""
    import ctypes
    value = object()
    names = {"first": 1, "second": value}
    keys = word(names, DICT_KEYS, pointer)
    if not keys or word(names, DICT_VALUES, pointer):
        return False
    read = lambda offset, kind: kind.from_address(keys + offset).value          # noqa: E731
    entries = keys + KEYS_INDICES + (1 << read(KEYS_LOG2_INDEX_BYTES, ctypes.c_uint8))
    second = entries + UNICODE_ENTRY_SIZE
    return (read(KEYS_KIND, ctypes.c_uint8) == KEYS_UNICODE and read(KEYS_NENTRIES, ctypes.c_ssize_t) == 2
            and pointer.from_address(second).value == id("second")
            and pointer.from_address(second + 8).value == id(value))


def _read_int(word, value: int) -> int:
    """``value`` read back through the int header and digits as the native helpers read it."""
    import ctypes
    header = word(value, OB_SIZE)
    if TAGGED_INT_SIZE:
        count, sign = header >> LONG_DIGIT_COUNT_SHIFT, 1 - (header & LONG_SIGN_MASK)
    else:
        count, sign = abs(header), (header > 0) - (header < 0)
    digits = [word(value, LONG_DIGITS + 4 * i, ctypes.c_uint32) for i in range(count)]
    return sign * sum(digit << (30 * i) for i, digit in enumerate(digits))

"""The CPython object layout native code relies on (3.11 release builds, 64-bit), and the check for it.

Kept free of llvmlite so that loading cached code (which needs only these facts) does not import it.
"""
from __future__ import annotations

import sys

from moshjit.errors import UnsupportedError

# Offsets in CPython 3.11 objects (64-bit): every object starts with ob_refcnt, ob_type; variable-size ones
# continue with ob_size. Lists hold ob_item (a pointer) and allocated; tuples hold their items inline.
# Ints keep 30-bit digits after ob_size; floats their double after the header.
OB_TYPE, OB_SIZE, LIST_ITEMS, LIST_ALLOCATED, TUPLE_ITEMS, FLOAT_VALUE, LONG_DIGITS = 8, 16, 24, 32, 24, 16, 24
PY_BUFFER_SIZE = 80                 # sizeof(Py_buffer)
PY_BUFFER_BUF, PY_BUFFER_ITEMSIZE, PY_BUFFER_NDIM, PY_BUFFER_FORMAT, PY_BUFFER_SHAPE = 0, 24, 36, 40, 48
METH_FASTCALL, METH_KEYWORDS = 0x80, 0x02
CFUNCTION_METHOD_DEF = 16           # PyCFunctionObject.m_ml


def check_layout() -> None:
    """Refuse to compile on an interpreter whose object layout differs from what the helpers assume."""
    if sys.version_info[:2] != (3, 11) or sys.maxsize != 2 ** 63 - 1 or sys.int_info.bits_per_digit != 30 \
            or hasattr(sys, "gettotalrefcount") or sys.getsizeof(1.0) != 24:
        raise UnsupportedError("the LLVM backend needs a 64-bit CPython 3.11 release build "
                               f"(this is {sys.version.split()[0]})")

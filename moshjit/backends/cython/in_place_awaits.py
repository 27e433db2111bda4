"""The module of a coroutine whose awaits run in place (``passes/in_place_awaits.py``): its body is a ``cdef``
function, which each ``await_self`` calls directly (counted as a Python frame, as the coroutine it replaces would
be), and the ``async def`` entry checks the names it bound, then returns what one call of the body returns.
"""
from __future__ import annotations

from moshjit.backends.cython.method_sites import FRAME_COUNT_C

BODY = "_mj_in_place_body"
CALL = "_mj_in_place"

DECLARATIONS = f'''
cdef extern from *:
    """{FRAME_COUNT_C}    """
    int mj_frame_enter(const char *) except -1
    void mj_frame_leave()
'''


def body_header(params: str) -> str:
    return f"cdef object {BODY}({params}):"


def entry_lines(entry_name: str, params: str, args: str, guards: list[str]) -> list[str]:
    """The call of the body one level deeper, and the ``async def`` entry (``guards``: its entry checks)."""
    return ["", "",
            f"cdef object {CALL}({params}):",
            '    mj_frame_enter("")',          # CPython's message for a frame pushed by a Python call
            "    try:",
            f"        return {BODY}({args})",
            "    finally:",
            "        mj_frame_leave()",
            "", "",
            f"async def {entry_name}({params}):",
            *guards,
            f"    return {BODY}({args})"]

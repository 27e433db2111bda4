"""The module of a function that calls itself in place: its body is a ``cdef`` function, which each ``await_self``
(``passes/in_place_awaits.py``) or ``call_self`` (``passes/direct_calls.py``) calls directly, counted as a Python
frame, as the call it replaces would be; the entry (``def`` or ``async def``) checks what the module assumed, then
returns what one call of the body returns.

A ``call_self`` skips the dispatcher but not the entry's checks: the global types and method results assumed are
checked at every call in place too, a failed one handing that call on as the entry would; when a name bound has
moved, the call goes to what the function's own global name holds now (CPython's call looks it up). An
``await_self`` needs no check: its coroutine runs nothing that could change them (``in_place_awaits.py``), and the
checks hand their calls on with ``await``, which a ``cdef`` function cannot do.
"""
from __future__ import annotations

from moshjit.backends.cython.method_sites import FRAME_COUNT_C
from moshjit.runtime.toolchain import IN_PLACE_BODY as BODY, IN_PLACE_CALL as CALL

DECLARATIONS = f'''
cdef extern from *:
    """{FRAME_COUNT_C}    """
    int mj_frame_enter(const char *) except -1
    void mj_frame_leave()
'''


def body_header(params: str) -> str:
    return f"cdef object {BODY}({params}):"


def entry_lines(entry_name: str, params: str, args: str, guards: list[str], in_place_guards: list[str],
                coroutine: bool) -> list[str]:
    """The call of the body one level deeper, after ``in_place_guards``, and the entry, after ``guards`` (each line
    indented for a function body)."""
    return ["", "",
            f"cdef object {CALL}({params}):",
            *in_place_guards,
            '    mj_frame_enter("")',          # CPython's message for a frame pushed by a Python call
            "    try:",
            f"        return {BODY}({args})",
            "    finally:",
            "        mj_frame_leave()",
            "", "",
            f"{'async def' if coroutine else 'def'} {entry_name}({params}):",
            *guards,
            f"    return {BODY}({args})"]

"""``globals()`` in a jitted function. CPython answers with the calling frame's globals, which are the function's
own (``__globals__``); compiled code has no frame of its own, so the frontend hands the call its function's
namespace, and the call still goes to whatever the name ``globals`` holds when it runs."""
from __future__ import annotations

import builtins


def frame_globals(function, namespace: dict):
    """What ``globals()`` gives in a function whose module namespace is ``namespace``, ``function`` being what the
    name ``globals`` found at the call (the builtin, or a module global of that name defined since)."""
    if function is builtins.globals:
        return namespace
    return function()

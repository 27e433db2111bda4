"""The builtins that read the calling frame, in a jitted function: ``globals()``, ``locals()``, ``vars()``,
``dir()``, ``eval(source)``, ``exec(source)``. Compiled code has no frame of its own, so the frontend hands each
call what CPython would read from the frame — the function's namespace (its ``__globals__``) and a dict of its
bound locals — and the call still goes to whatever the name holds when it runs."""
from __future__ import annotations

import builtins


def frame_globals(function, namespace: dict):
    """What ``globals()`` gives in a comprehension CPython 3.11 runs as its own code (``call_in_frame`` elsewhere)
    whose module namespace is ``namespace``, ``function`` being what the name ``globals`` found at the call."""
    if function is builtins.globals:
        return namespace
    return function()


def frame_locals(previous, unbound, names: tuple, cells: frozenset, *values) -> dict:
    """The frame's locals dict: ``names[i]`` → ``values[i]`` for each value that is bound (not ``unbound``, what
    an unbound local holds in the calling backend); a value whose index is in ``cells`` is a cell, read when it
    is not empty. ``previous`` (a dict this made for the same frame, or ``unbound``) is updated in place and
    returned, names unbound since removed, as CPython 3.11/3.12 update the one dict a frame keeps."""
    namespace = {} if previous is unbound else previous
    for index, (name, value) in enumerate(zip(names, values)):
        if index in cells:
            try:
                value = value.cell_contents
            except ValueError:               # an empty cell
                value = unbound
        if value is unbound:
            namespace.pop(name, None)
        else:
            namespace[name] = value
    return namespace


def call_in_frame(function, namespace: dict, frame_locals: dict, *args):
    """``function(*args)`` where the name of a builtin that reads its caller's frame was called with the frame's
    defaults: ``globals()`` gives ``namespace``, ``locals()``/``vars()`` ``frame_locals``, ``dir()`` its sorted
    names, ``eval``/``exec`` run in ``namespace`` and ``frame_locals``; anything the name holds by now instead is
    called as it is."""
    if function is builtins.globals:
        if not args:
            return namespace
    elif function is builtins.locals or function is builtins.vars:
        if not args:
            return frame_locals
    elif function is builtins.dir:
        if not args:
            return sorted(frame_locals)
    elif function is builtins.eval or function is builtins.exec:
        if len(args) == 1:
            return function(args[0], namespace, frame_locals)
    return function(*args)

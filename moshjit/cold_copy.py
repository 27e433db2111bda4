"""The plain-function copy of a cold ``@jit`` method: what its class holds while the method is cold, so that CPython
calls it as it calls any Python function (the frame pushed inline in the caller's eval loop, no C-level call).

The copy is the user's function with the same globals, closure, defaults, name and ``__dict__``, and its code is
the user's code with a three-instruction prologue after ``RESUME`` (added with the ``bytecode`` library) that
tests the truth of a counter object (``moshjit_dispatch.ColdCounter``): each test counts one call, and the
counter calls back once when the method is hot. Every other instruction, line and column is the user's, so
tracebacks, recursion depth, ``super()`` and closures are CPython's own.
"""
from __future__ import annotations

import sys
import types

#: the instruction that asks for an object's truth and leaves it on the stack (3.13 made UNARY_NOT take bools)
_TRUTH_TEST = "TO_BOOL" if sys.version_info >= (3, 13) else "UNARY_NOT"
_NOT_COPIED = 0x20 | 0x80 | 0x100 | 0x200     # generators, coroutines, async generators: left to the dispatcher


def can_copy(function) -> bool:
    """Whether ``function`` gets a counting copy (a plain function: not a generator or coroutine)."""
    return isinstance(function, types.FunctionType) and not function.__code__.co_flags & _NOT_COPIED


def counting_copy(function: types.FunctionType, counter, dispatcher) -> types.FunctionType:
    """A copy of ``function`` whose every call tests ``bool(counter)`` first. It carries ``dispatcher`` (the
    ``@jit`` object it stands for) as ``_moshjit_dispatcher`` (read through ``functions.cold_copy_dispatcher``) and
    the dispatcher's inspection API."""
    from bytecode import Bytecode, Instr
    code = Bytecode.from_code(function.__code__)
    at = next(i for i, instr in enumerate(code) if isinstance(instr, Instr) and instr.name == "RESUME")
    code[at + 1:at + 1] = [Instr("LOAD_CONST", counter, lineno=None), Instr(_TRUTH_TEST, lineno=None),
                           Instr("POP_TOP", lineno=None)]      # no line: a tracer sees no line event of it
    copy = types.FunctionType(code.to_code(), function.__globals__, function.__name__, function.__defaults__,
                              function.__closure__)
    for name in ("__qualname__", "__kwdefaults__", "__module__", "__doc__", "__annotations__"):
        setattr(copy, name, getattr(function, name))
    copy.__dict__.update(function.__dict__)
    copy.__wrapped__ = function
    copy._moshjit_dispatcher = dispatcher
    # ``functools.wraps`` copies this dict into a decorator's wrapper, not this code: the pair marks the copy itself
    copy._moshjit_code = copy.__code__
    for name in ("compile", "compile_signature", "inspect_ssa", "inspect_types", "inspect_code"):
        setattr(copy, name, getattr(dispatcher, name))
    copy.stats = LiveStats(dispatcher)
    copy.signatures = LiveSignatures(dispatcher)
    return copy


class LiveStats(dict):
    """``copy.stats``: the dispatcher's ``stats`` read at each use (a function's attributes cannot be properties)."""

    def __init__(self, dispatcher):
        super().__init__()
        self._dispatcher = dispatcher

    def _now(self) -> dict:
        return self._dispatcher.stats

    def __getitem__(self, key):
        return self._now()[key]

    def get(self, key, default=None):
        return self._now().get(key, default)

    def __contains__(self, key):
        return key in self._now()

    def __iter__(self):
        return iter(self._now())

    def __len__(self):
        return len(self._now())

    def keys(self):
        return self._now().keys()

    def values(self):
        return self._now().values()

    def items(self):
        return self._now().items()

    def __eq__(self, other):
        return self._now() == other

    def __repr__(self):
        return repr(self._now())


class LiveSignatures(list):
    """``copy.signatures``: the dispatcher's ``signatures`` read at each use."""

    def __init__(self, dispatcher):
        super().__init__()
        self._dispatcher = dispatcher

    def _now(self) -> list:
        return self._dispatcher.signatures

    def __getitem__(self, index):
        return self._now()[index]

    def __contains__(self, item):
        return item in self._now()

    def __iter__(self):
        return iter(self._now())

    def __len__(self):
        return len(self._now())

    def __bool__(self):
        return bool(self._now())

    def __eq__(self, other):
        return self._now() == other

    def __repr__(self):
        return repr(self._now())

"""The names compiled code bound when compiling, and how a compiled entry checks they still hold.

``resolve_globals`` turns a global, a module attribute or a closure cell naming a module, function or class into a
constant, so the backends can call, inline or type it. CPython looks such names up at every execution, so a later
rebinding (``module.helper = other``, ``globals()['len'] = ...``, a closure cell written by its outer function)
must be seen: each compiled entry checks, on every call, that its bindings still hold. The check is cheap because
it rarely looks anything up: each name is checked where it was found last (the dict's keys object and entry index,
as ``LOAD_GLOBAL``'s caches keep them; a closure cell: its content), and looked up again only when that moved. A
rebinding found hands the call to the dispatcher, which compiles the function again (a name rebound a second time
is then read at run time).

A function that was inlined, or whose defaults completed a call when compiling, is bound too by what CPython reads
from it at each call: its ``__code__``, ``__defaults__`` and ``__kwdefaults__`` (the function object is the
namespace; the check compares the fields, so assigning any of them is seen).

What is still not seen (documented in the user guide): a name rebound *during* a call, by code the call runs,
after the entry's check; and a generator's bindings after it was created.
"""
from __future__ import annotations

import types
from typing import NamedTuple

MISSING = object()
FUNCTION_FIELDS = ("__code__", "__defaults__", "__kwdefaults__")     # what a call reads from the function


def function_fields(function: types.FunctionType, label: str, fields=FUNCTION_FIELDS) -> list:
    """The bindings of what a call of ``function`` reads from it now (``fields``: its code and its defaults)."""
    return [Binding(function, field, getattr(function, field), None, f"{label}.{field}") for field in fields]


class Binding(NamedTuple):
    """``name`` looked up in ``namespace`` (a dict, or a closure cell) — then in ``then`` (builtins) when the
    dict does not have it — gave ``value`` when compiling; or, ``namespace`` a function, its attribute ``name``
    (one of ``FUNCTION_FIELDS``) was ``value``. ``label``: how the name reads in messages."""
    namespace: object
    name: str
    value: object
    then: dict | None
    label: str

    def current(self):
        """What the name looks up to now (``MISSING`` when it is gone)."""
        if isinstance(self.namespace, types.CellType):
            try:
                return self.namespace.cell_contents
            except ValueError:
                return MISSING
        if isinstance(self.namespace, types.FunctionType):
            return getattr(self.namespace, self.name)
        found = self.namespace.get(self.name, MISSING)
        if found is MISSING and self.then is not None:
            found = self.then.get(self.name, MISSING)
        return found

    def holds(self) -> bool:
        return self.current() is self.value


def _identity(binding: Binding) -> tuple:
    """What makes two bindings the same: the same name looked up in the same namespaces."""
    return id(binding.namespace), binding.name, id(binding.then)


def unique(bindings) -> list[Binding]:
    """``bindings`` without repeats (the same name in the same namespace), in order."""
    return list(BindingList(bindings))


class BindingList(list):
    """A compilation's bindings, each name in each namespace once, the first one found kept. Callees' bindings
    join their caller's at every round of type inference, so a plain list would grow with every round (and with
    every level of recursion) and make the check of a memo ever slower."""

    def __init__(self, bindings=()):
        super().__init__()
        self._seen: set = set()
        self.extend(bindings)

    def append(self, binding: Binding) -> None:
        key = _identity(binding)
        if key not in self._seen:
            self._seen.add(key)
            super().append(binding)

    def extend(self, bindings) -> None:
        for binding in bindings:
            self.append(binding)


def first_rebound(bindings) -> str | None:
    """The label of the first binding that no longer holds, or None."""
    for binding in bindings:
        if not binding.holds():
            return binding.label
    return None


def as_constant(bindings) -> tuple:
    """The bindings as the tuple a generated module is handed: ``(namespace, name, value, then)`` each."""
    return tuple((b.namespace, b.name, b.value, b.then) for b in bindings)

"""The names compiled code bound when compiling, and how a compiled entry checks they still hold.

``resolve_globals`` turns a global, a module attribute or a closure cell naming a module, function or class into a
constant, so the backends can call, inline or type it. CPython looks such names up at every execution, so a later
rebinding (``module.helper = other``, ``globals()['len'] = ...``, a closure cell written by its outer function)
must be seen: each compiled entry checks, on every call, that its bindings still hold. The check is cheap because
it rarely looks anything up: a dict's ``ma_version_tag`` changes with every write to the dict (CPython 3.11–3.13),
so while the tags of the dicts the names live in are the ones recorded at the last full check, nothing was
rebound; only when a tag moved are the names looked up again (and the new tags recorded if all still hold). A
closure cell has no version: its content is compared on every call. A rebinding found hands the call to the
dispatcher, which compiles the function again without binding that name (it is then read at run time).

What is still not seen (documented in the user guide): a name rebound *during* a call, by code the call runs,
after the entry's check; and a generator's bindings after it was created.
"""
from __future__ import annotations

import types
from typing import NamedTuple

MISSING = object()


class Binding(NamedTuple):
    """``name`` looked up in ``namespace`` (a dict, or a closure cell) — then in ``then`` (builtins) when the
    dict does not have it — gave ``value`` when compiling. ``label``: how the name reads in messages."""
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
        found = self.namespace.get(self.name, MISSING)
        if found is MISSING and self.then is not None:
            found = self.then.get(self.name, MISSING)
        return found

    def holds(self) -> bool:
        return self.current() is self.value


def unique(bindings) -> list[Binding]:
    """``bindings`` without repeats (the same name in the same namespace), in order."""
    seen: set = set()
    out = []
    for binding in bindings:
        key = (id(binding.namespace), binding.name, id(binding.then))
        if key not in seen:
            seen.add(key)
            out.append(binding)
    return out


def first_rebound(bindings) -> str | None:
    """The label of the first binding that no longer holds, or None."""
    for binding in bindings:
        if not binding.holds():
            return binding.label
    return None


def as_constant(bindings) -> tuple:
    """The bindings as the tuple a generated module is handed: ``(namespace, name, value, then)`` each."""
    return tuple((b.namespace, b.name, b.value, b.then) for b in bindings)

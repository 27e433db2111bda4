"""Item kinds of list arguments, decided at run time.

A dispatch key says only "list", so the first native specialisation guesses the item types (ints first). Its
entry checks the items on every call; on a miss it calls an ``ItemKindDispatch``, which looks at the actual
items, compiles (once) the native variant for those kinds and calls it — or hands the call to the dispatcher's
fallback when no native variant fits (mixed items, strings, ...).
"""
from __future__ import annotations

import logging
import threading

from moshjit.ir.types import BOOL, FLOAT, INT64, ListType, MType

log = logging.getLogger("moshjit")
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def item_type(items) -> MType | None:
    """The native item type of a list (its first item decides; the entry checks all of them), or None."""
    if not items:
        return INT64
    first = items[0]
    kind = type(first)
    if kind is int:
        return INT64
    if kind is float:
        return FLOAT
    if kind is bool:
        return BOOL
    if kind is list:
        inner = item_type(first)
        return ListType(inner) if inner in (INT64, FLOAT, BOOL) else None
    return None


class ItemKindDispatch:
    """The fallback of an entry compiled for guessed list item types (see the module docstring)."""

    def __init__(self, compile_variant, positions: list[int], fallback):
        self.compile_variant = compile_variant        # tuple of item types -> entry or None
        self.positions = positions
        self.fallback = fallback
        self.variants: dict[tuple, object] = {}
        self.lock = threading.Lock()

    def __call__(self, *args):
        if len(args) <= max(self.positions):
            return self.fallback(*args)
        kinds = tuple(item_type(args[i]) if type(args[i]) is list else None for i in self.positions)
        if None in kinds:
            return self.fallback(*args)
        entry = self.variants.get(kinds, self)
        if entry is self:
            with self.lock:
                entry = self.variants.get(kinds, self)
                if entry is self:
                    entry = self.variants[kinds] = self.compile_variant(kinds)
        return entry(*args) if entry is not None else self.fallback(*args)

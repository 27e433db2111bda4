"""Argument types decided at run time: list item kinds, and NumPy arrays behind a plain ``ndarray`` key.

A dispatch key says only "list" (or "ndarray"), so the first native specialisation guesses (ints first; float64
1-d arrays). Its entry checks the items (the buffer format) on every call; on a miss it calls an
``ItemKindDispatch``, which looks at the actual arguments, compiles (once) the native variant for their types
and calls it — or hands the call to the dispatcher's fallback when no native variant fits. A variant compiled
before is chosen by each list's first item: its own entry checks every item natively, and hands a list whose
other items differ to the fallback, so a function called with floats and ints by turns scans no list in Python.
"""
from __future__ import annotations

import logging
import threading

from moshjit.errors import drop_hand_off_frames, hands_off
from moshjit.ir.types import BOOL, FLOAT, INT64, ArrayType, ListType, MType, tuple_of
from moshjit.typeof import array_key, type_of_key

log = logging.getLogger("moshjit")
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
NATIVE_ITEM_KINDS = (int, float, bool, list, tuple)     # the item classes a native list variant can hold
MAX_TUPLE_ITEMS = 8                                       # a tuple item of a list: up to this many fields


def item_type(items) -> MType | None:
    """The native item type of a list, or None. Every item is checked (this runs only when an entry's own check
    failed): a guess from the first item alone would pick the failing variant again, forever."""
    if not items:
        return INT64
    if type(items[0]) not in NATIVE_ITEM_KINDS:
        return None                    # decided by the first item: a list of strs is not scanned on every call
    found = {_value_type(item) for item in items}
    return found.pop() if len(found) == 1 else None


def _value_type(value) -> MType | None:
    """The native type of one item of a list or field of a tuple: a number, a list of numbers, or a tuple of
    those."""
    kind = type(value)
    if kind is int:
        return INT64 if INT64_MIN <= value <= INT64_MAX else None
    if kind is float:
        return FLOAT
    if kind is bool:
        return BOOL
    if kind is list:
        inner = item_type(value)
        return ListType(inner) if inner in (INT64, FLOAT, BOOL) else None
    if kind is tuple:
        return _tuple_type(value)
    return None


def _tuple_type(value) -> MType | None:
    if len(value) > MAX_TUPLE_ITEMS:
        return None
    fields = [_value_type(item) for item in value]
    return None if None in fields else tuple_of(fields)


def shape_type(shape) -> MType | None:
    """The native type the first call's sample of an argument suggests (``moshjit.samples.Shape``): lists of
    numbers, of lists of numbers, and of tuples of those; None when it suggests none. Only a guess: the entry checks
    every item."""
    cls = shape.cls
    if cls is float:
        return FLOAT
    if cls is bool:
        return BOOL
    if cls is int:
        return INT64
    if cls is list:
        item = shape_type(shape.item) if shape.item is not None else None
        return ListType(item) if item is not None and not isinstance(item, ArrayType) else None
    if cls is tuple and shape.items is not None and len(shape.items) <= MAX_TUPLE_ITEMS:
        fields = [shape_type(item) for item in shape.items]
        return None if None in fields else tuple_of(fields)
    return None


def argument_type(value) -> MType | None:
    """The native type of a list or array argument as it is now, or None when it has none."""
    kind = type(value)
    if kind is list:
        item = item_type(value)
        return ListType(item) if item is not None else None
    if kind.__name__ == "ndarray":
        found = type_of_key(array_key(value, kind))
        return found if isinstance(found, ArrayType) else None
    if kind is tuple:
        return _tuple_type(value)
    return None


def guessed_argument_type(value) -> MType | None:
    """``argument_type`` with a list's items judged by its first item (``item_type`` checks all of them)."""
    if type(value) is not list or not value:
        return argument_type(value)
    first = _value_type(value[0])
    return ListType(first) if first is not None else None


class ItemKindDispatch:
    """The fallback of the entry compiled for the guessed list item types ``primary`` (see the module docstring)."""

    def __init__(self, compile_variant, positions: list[int], fallback, primary: tuple):
        self.compile_variant = compile_variant        # tuple of argument types -> entry or None
        self.positions = positions
        self.fallback = fallback
        self.primary = primary                        # its entry's check failed: this call is not for it
        self.variants: dict[tuple, object] = {}
        self.lock = threading.Lock()

    @hands_off
    def __call__(self, *args):
        try:
            if len(args) <= max(self.positions):
                return self.fallback(*args)
            # Items all of one type are all of the first item's type: the guess is the only variant that can fit
            guessed = tuple(guessed_argument_type(args[i]) for i in self.positions)
            if None in guessed or guessed == self.primary:       # the primary's own check has just failed
                return self.fallback(*args)
            entry = self.variants.get(guessed, self)
            if entry is self:                # a new kind: every item checked once, then its variant compiled
                kinds = tuple(argument_type(args[i]) for i in self.positions)
                if kinds != guessed:
                    return self.fallback(*args)
                with self.lock:
                    entry = self.variants.get(kinds, self)
                    if entry is self:
                        entry = self.variants[kinds] = self.compile_variant(kinds)
            return entry(*args) if entry is not None else self.fallback(*args)
        except BaseException as exc:
            drop_hand_off_frames(exc)
            raise

    def forget(self, kinds: tuple):
        """A hook for the variant of ``kinds`` being demoted (``resume``): its calls go to the fallback."""
        def forget_variant():
            self.variants[kinds] = None
        return forget_variant

"""CPython 3.12+'s ``sum(iterable, start)`` loop one item at a time, for a generator expression inlined into it.

From 3.12 ``sum`` adds floats with Neumaier's compensation (``builtin_sum_impl`` in Python/bltinmodule.c), so
``total = total + item`` no longer gives its result. ``Summation`` follows the C loop's three phases exactly:
exact ints while they fit a C long; then, once the running total is an exact float, doubles with a compensation
term (ints that fit a C long are added as doubles, uncompensated); anything else leaves for plain ``+`` for good.
Errors come from the same ``+`` CPython makes, in the same order.
"""
from __future__ import annotations

import math

_LONG_MIN, _LONG_MAX = -2 ** 63, 2 ** 63 - 1
_INTS, _FLOATS, _GENERIC = 0, 1, 2


def _fits_long(value: int) -> bool:
    return _LONG_MIN <= value <= _LONG_MAX


class Summation:
    """The state of one ``sum()``: ``add`` each item, then ``result``."""

    __slots__ = ("phase", "total", "compensation")

    def __init__(self, start):
        self.total = start
        self.compensation = 0.0
        if type(start) is int and _fits_long(start):
            self.phase = _INTS
        elif type(start) is float:
            self.phase = _FLOATS
        else:
            self.phase = _GENERIC

    def add(self, item) -> None:
        if self.phase == _INTS:
            if (type(item) is int or type(item) is bool) and _fits_long(item) and _fits_long(self.total + item):
                self.total += int(item)
                return
            self.total = self.total + item
            self.phase = _FLOATS if type(self.total) is float else _GENERIC
            self.compensation = 0.0
            return
        if self.phase == _FLOATS:
            if type(item) is float:
                total = self.total
                t = total + item
                if abs(total) >= abs(item):
                    self.compensation += (total - t) + item
                else:
                    self.compensation += (item - t) + total
                self.total = t
                return
            if isinstance(item, int):
                value = int.__int__(item)
                if _fits_long(value):
                    self.total += float(value)
                    return
            self.total = self._compensated() + item
            self.phase = _GENERIC
            return
        self.total = self.total + item

    def _compensated(self) -> float:
        """The float total with the compensation added, unless that would turn inf or an overflow into nan."""
        c = self.compensation
        return self.total + c if c and math.isfinite(c) else self.total

    def result(self):
        return self._compensated() if self.phase == _FLOATS else self.total

"""Stack entries that are not SSA values: the NULL of a call, a method reference, closure cells and functions of
comprehensions about to be inlined, a generator expression waiting for its consumer, a truth value for a jump.

They exist only during the stack simulation; every one must be consumed by the instruction that expects it. One
that reaches an op or a join instead names, through ``construct``, what the user wrote that we cannot compile.
"""
from __future__ import annotations

import types

from moshjit.ir.ops import Value


class Marker:
    construct = "internal stack marker"


class NullMarker(Marker):
    construct = "NULL"


NULL = NullMarker()


class MethodRef(Marker):
    """LOAD_METHOD's (method, self) pair, called by the next CALL as ``obj.name(...)``."""
    construct = "method reference"

    def __init__(self, obj: Value, name: str):
        self.obj, self.name = obj, name


class CellRef(Marker):
    """LOAD_CLOSURE: a reference to a variable that an inlined comprehension will read, and ``cell``, the real
    cell object holding it when a nested function captures it (else None)."""
    construct = "closure cell"

    def __init__(self, var, cell: Value | None = None):
        self.var, self.cell = var, cell


class ClosureTuple(Marker):
    construct = "closure"

    def __init__(self, cells: list[CellRef]):
        self.cells = cells


class ComprehensionFunction(Marker):
    """MAKE_FUNCTION of a comprehension code object, before it is called with its iterator."""
    construct = "comprehension function"

    def __init__(self, code: types.CodeType, closure: ClosureTuple | None):
        self.code, self.closure = code, closure


class PendingGenerator(Marker):
    """A generator expression created but not yet consumed; inlined where a known consumer calls it, else made a
    real generator (``value``) where it is first used as a value."""
    construct = ("generator expression that is not passed straight to a consumer moshjit inlines (any, all, sum, "
                 "min, max, sorted, list, tuple, set, frozenset, or the join method of a str constant)")

    def __init__(self, function: ComprehensionFunction, iterator: Value):
        self.function, self.iterator = function, iterator
        self.value: Value | None = None


class Truth(Marker):
    """TO_BOOL's result: the truth of ``value``, tested by the conditional jump or ``not`` that follows."""
    construct = "truth value used outside a condition"

    def __init__(self, value: Value):
        self.value = value

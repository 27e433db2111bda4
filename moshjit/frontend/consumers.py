"""Consumers of inlined generator expressions: what each yielded item turns into, and the call's result.

CPython compiles ``sum(f(x) for x in xs)`` as a generator object handed to ``sum``. The SSA has no generators, so
the generator's loop is inlined into the caller and the consumer's own loop is written out around each item,
keeping CPython's interleaving exactly (an item is consumed before the next one is computed: the first bad item
raises before later items run). Consumers that only collect items (``list``, ``tuple``, ``sorted``, ``set``,
``frozenset``, ``str.join``) receive the collected container instead of the generator, which is unobservable
because they consume their argument completely before doing anything else with it.
"""
from __future__ import annotations


from moshjit.cpython import COMPENSATED_FLOAT_SUM, empty_min_max_message
from moshjit.frontend.markers import NULL, MethodRef, PendingGenerator
from moshjit.ir import ops
from moshjit.primitives.summation import Summation
from moshjit.ir.ops import Constant, Value


class Consumer:
    """Emits the consumer's code: ``start`` in the caller before the loop, ``item`` for each yielded value (in
    the generator's code), ``exhausted`` when the generator ends, ``finish`` back in the caller."""

    def start(self, unit) -> None:
        """Set up state in the caller's current block."""

    def item(self, unit, value: Value) -> None:
        raise NotImplementedError

    def exhausted(self, unit) -> Value:
        """The consumer's result when the generator ends (may emit blocks, or end in a raise)."""
        raise NotImplementedError

    def finish(self, unit, result: Value) -> None:
        """Push the value of the whole call on the caller's stack."""
        unit.push(result)


class ShortCircuit(Consumer):
    """``any``/``all``: stop at the first item whose truth is ``decides``."""

    def __init__(self, decides: bool):
        self.decides = decides

    def item(self, unit, value):
        decided, go_on = unit.new_block(unit.block.handler), unit.new_block(unit.block.handler)
        unit.end_block(ops.Branch(value, decided, go_on) if self.decides else ops.Branch(value, go_on, decided))
        unit.continue_in(decided)
        unit.leave_inline(Constant(self.decides))
        unit.continue_in(go_on)

    def exhausted(self, unit):
        return Constant(not self.decides)


class Collect(Consumer):
    """Collect the items into a new list (or set), then make the original call with it."""

    def __init__(self, first, second, args: list, kwnames: tuple, into_set: bool):
        self.first, self.second, self.args, self.kwnames = first, second, args, kwnames
        self.into_set = into_set
        self.container = None

    def start(self, unit):
        self.container = unit.emit(ops.BuildSet([]) if self.into_set else ops.BuildList([]))

    def item(self, unit, value):
        unit.emit(ops.SetAdd(self.container, value) if self.into_set else ops.ListAppend(self.container, value))

    def exhausted(self, unit):
        return self.container

    def finish(self, unit, result):
        args = [result if isinstance(a, PendingGenerator) else a for a in self.args]
        unit.emit_call(self.first, self.second, args, self.kwnames)


class Sum(Consumer):
    """``sum(gen, start)`` until CPython 3.11: ``total = total + item`` (PyNumber_Add; the fast paths of ``sum``
    agree with it)."""

    def __init__(self, start: Value, var):
        self.initial, self.var = start, var

    def start(self, unit):
        unit.ssa.write(self.var, unit.block, self.initial)

    def item(self, unit, value):
        total = unit.ssa.read(self.var, unit.block)
        unit.ssa.write(self.var, unit.block, unit.emit(ops.BinaryOp(total, value, "+", False)))

    def exhausted(self, unit):
        return unit.ssa.read(self.var, unit.block)


class CompensatedSum(Consumer):
    """``sum(gen, start)`` on CPython 3.12+, which compensates float sums: each item goes to a ``Summation``
    (``primitives/summation.py``), which follows CPython's loop exactly."""

    def __init__(self, start: Value):
        self.initial = start
        self.summation = None

    def start(self, unit):
        self.summation = unit.emit(ops.Call(Constant(Summation), [self.initial], ()))

    def item(self, unit, value):
        unit.emit(ops.CallMethod(self.summation, [value], "add", ()))

    def exhausted(self, unit):
        return unit.emit(ops.CallMethod(self.summation, [], "result", ()))


class MinMax(Consumer):
    """``min``/``max(gen, key=..., default=...)`` as CPython's min_max: key of each item, compare it with the best
    key so far (``<`` for min, ``>`` for max), the first best wins ties; empty without default is a ValueError."""

    def __init__(self, name: str, key: Value | None, default: Value | None, new_var):
        self.name = name
        self.compare = "<" if name == "min" else ">"
        self.key = None if isinstance(key, Constant) and key.value is None else key
        self.default = default
        self.has, self.best, self.best_key, self.result = new_var(), new_var(), new_var(), new_var()
        self.key_is_none = None

    def start(self, unit):
        block = unit.block
        unit.ssa.write(self.has, block, Constant(False))
        unit.ssa.write(self.best, block, Constant(None))
        unit.ssa.write(self.best_key, block, Constant(None))
        if self.key is not None and not isinstance(self.key, Constant):
            self.key_is_none = unit.emit(ops.Compare(self.key, Constant(None), "is"))

    def key_of(self, unit, value) -> Value:
        if self.key is None:
            return value
        if self.key_is_none is None:
            return unit.emit(ops.Call(self.key, [value], ()))
        key_var = unit.new_var()
        plain, call, join = (unit.new_block(unit.block.handler) for _ in range(3))
        unit.end_block(ops.Branch(self.key_is_none, plain, call))
        unit.continue_in(plain)
        unit.ssa.write(key_var, plain, value)
        unit.end_block(ops.Jump(join))
        unit.continue_in(call)
        unit.ssa.write(key_var, call, unit.emit(ops.Call(self.key, [value], ())))
        unit.end_block(ops.Jump(join))
        unit.continue_in(join)
        return unit.ssa.read(key_var, join)

    def item(self, unit, value):
        key = self.key_of(unit, value)
        handler = unit.block.handler
        first, compare, take, join = (unit.new_block(handler) for _ in range(4))
        unit.end_block(ops.Branch(unit.ssa.read(self.has, unit.block), compare, first))
        unit.continue_in(first)
        unit.ssa.write(self.has, first, Constant(True))
        self._take(unit, value, key, join)
        unit.continue_in(compare)
        better = unit.emit(ops.Compare(key, unit.ssa.read(self.best_key, compare), self.compare))
        unit.end_block(ops.Branch(better, take, join))
        unit.continue_in(take)
        self._take(unit, value, key, join)
        unit.continue_in(join)

    def _take(self, unit, value, key, join):
        unit.ssa.write(self.best, unit.block, value)
        unit.ssa.write(self.best_key, unit.block, key)
        unit.end_block(ops.Jump(join))

    def exhausted(self, unit):
        handler = unit.block.handler
        found, empty, join = (unit.new_block(handler) for _ in range(3))
        unit.end_block(ops.Branch(unit.ssa.read(self.has, unit.block), found, empty))
        unit.continue_in(found)
        unit.ssa.write(self.result, found, unit.ssa.read(self.best, found))
        unit.end_block(ops.Jump(join))
        unit.continue_in(empty)
        if self.default is not None:
            unit.ssa.write(self.result, empty, self.default)
            unit.end_block(ops.Jump(join))
        else:
            error = unit.emit(ops.Call(Constant(ValueError), [Constant(empty_min_max_message(self.name))], ()))
            unit.end_block(ops.Raise(error, None))
        unit.continue_in(join)
        return unit.ssa.read(self.result, join)


_COLLECTORS = {"list": False, "tuple": False, "sorted": False, "set": True, "frozenset": True}


def choose_consumer(unit, first, second, args: list, kwnames: tuple) -> Consumer | None:
    """The consumer for a call whose arguments hold one pending generator expression, or None when the call
    cannot be inlined exactly (the generator then stays a marker and is reported as unsupported)."""
    positional = args[:len(args) - len(kwnames)]
    keywords = dict(zip(kwnames, args[len(positional):]))
    if [i for i, a in enumerate(args) if isinstance(a, PendingGenerator)] != [0] or not positional:
        return None
    if isinstance(first, MethodRef):
        receiver = first.obj
        if (first.name == "join" and len(args) == 1 and isinstance(receiver, Constant)
                and type(receiver.value) in (str, bytes)):
            return Collect(first, second, args, kwnames, into_set=False)
        return None
    name = unit.builtin_name(second) if first is NULL else None
    if name in ("any", "all") and len(args) == 1:
        return ShortCircuit(decides=name == "any")
    if name in _COLLECTORS and len(positional) == 1 and (name == "sorted" or not keywords):
        return Collect(first, second, args, kwnames, into_set=_COLLECTORS[name])
    if name == "sum" and len(positional) + len(keywords) <= 2 and set(keywords) <= {"start"}:
        start = positional[1] if len(positional) == 2 else keywords.get("start", Constant(0))
        if _safe_sum_start(start):
            return CompensatedSum(start) if COMPENSATED_FLOAT_SUM else Sum(start, unit.new_var())
        return None
    if name in ("min", "max") and len(positional) == 1 and set(keywords) <= {"key", "default"}:
        return MinMax(name, keywords.get("key"), keywords.get("default"), unit.new_var)
    return None


def _safe_sum_start(start) -> bool:
    """``sum`` refuses str/bytes/bytearray starts before iterating; inline only starts that cannot be one."""
    if isinstance(start, Constant):
        return not isinstance(start.value, (str, bytes, bytearray))
    return isinstance(start, (ops.BuildList, ops.BuildTuple))


"""Deoptimisation sites: where native code that meets a value it cannot represent hands its state over to the
SSA interpreter, which continues the same function exactly as CPython would (``resume`` is the run-time half).

A *site* is a point of one native function's typed SSA: op ``start`` of a block, which the interpreter then
executes itself (an int leaving 64 bits: the op is pure, nothing of it has happened yet), or the point just
after an op whose value native code got but cannot keep (a native callee that deoptimised returns its result as
an object; ``sum()`` beyond 64 bits has a 128-bit total). Every value live there is written as raw 64-bit words
into a bytes object — ints, the bits of floats, bools, object pointers (the native frame keeps them alive until
the continuation has taken its own references), native list buffers, iterator states — and the module's
*deoptimisation table* (JSON, kept in the cache index beside the shared object) says, per site, how to rebuild
each value from the words (``resume.materialise``). Values without native state (operands of fused list
expressions, slices, exception instances) are recomputed from their operands, which are then handed over too.

The hand-over is emitted in cold blocks: on the fast path a site costs one well-predicted branch. After it the
native frame releases what it owns and returns "failed" with the continuation's result in ``@mj_deopt_value``
(or with its exception set), so a native caller deoptimises at its call site in turn (``after_call``).
"""
from __future__ import annotations

import llvmlite.ir as ir

from moshjit.analysis.dominators import DominatorTree
from moshjit.backends.llvm.refcount import Liveness
from moshjit.backends.llvm.reprs import (I1, I32, I64, PTR, ArrayR, BoolR, BoxedTupleR, FloatR, IntR, IterR,
                                         ListR, NListR, RangeR, Repr, TupleR, UnitR)
from moshjit.backends.llvm.resume import NATIVE_LIST_KINDS, structure_fingerprint
from moshjit.ir import ops
from moshjit.ir.ops import Argument, Op, Phi
from moshjit.ir.types import NONE, ConstType

I128 = ir.IntType(128)
NUMBERS = (IntR, FloatR, BoolR)
RECOMPUTABLE_OPS = (ops.BinaryOp, ops.UnaryOp, ops.Compare, ops.CheckBound)


class DeoptTable:
    """The deoptimisation table of one LLVM module: its native functions in the call graph's order (name, native
    argument types' description, structure fingerprint, the native callee of each call op) and its sites."""

    def __init__(self):
        self.functions: list[dict] = []
        self.sites: list[list] = []

    def add_function(self, sig) -> int:
        self.functions.append({"name": sig.py_function.__qualname__, "arg_types": [str(t) for t in sig.arg_types],
                               "fingerprint": structure_fingerprint(sig.ir), "calls": {}})
        return len(self.functions) - 1

    def add_call(self, function: int, op_number: int, callee: int) -> None:
        self.functions[function]["calls"][str(op_number)] = callee

    def add_site(self, function: int, block_label: int, start: int, slots: list, exhausted: bool,
                 counted: bool = True) -> int:
        self.sites.append([function, block_label, start, slots, exhausted, counted])
        return len(self.sites) - 1

    def to_json(self) -> dict | None:
        return {"functions": self.functions, "sites": self.sites} if self.sites else None


class Words:
    """The words a site hands over and the descriptors of the values they make up (JSON lists whose integers
    are word indices)."""

    def __init__(self, low, owners: dict):
        self.low = low
        self.values: list = []                  # (LLVM value, kind) per word
        self.owners = owners                    # id(iterator) -> number of the live value it belongs to
        self.describing = None                  # number of the live value being described

    def add(self, value: ir.Value, kind: str) -> int:
        """Word(s) for ``value`` of ``kind``: 'i64', 'f64', 'i1', 'object' (a pointer to a live object),
        'address' (any other pointer), 'i128' (two words, high first)."""
        self.values.append((value, kind))
        if kind == "i128":
            self.values.append((None, "i128 low"))
        return len(self.values) - (2 if kind == "i128" else 1)

    def describe(self, value: ir.Value, representation: Repr, mtype=None) -> list:
        """The descriptor of a native value (``mtype``: its type, needed for values known at compile time)."""
        b = self.low.b
        if isinstance(representation, IntR):
            return ["int", self.add(value, "i64")]
        if isinstance(representation, FloatR):
            return ["float", self.add(value, "f64")]
        if isinstance(representation, BoolR):
            return ["bool", self.add(value, "i1")]
        if isinstance(representation, (ListR, BoxedTupleR)):
            return ["object", self.add(value, "object")]
        if isinstance(representation, NListR):
            return ["native_list", self.add(value, "address"), NATIVE_LIST_KINDS[type(representation.item).__name__]]
        if isinstance(representation, RangeR):
            return ["range", *(self.add(b.extract_value(value, i), "i64") for i in range(3))]
        if isinstance(representation, ArrayR):
            return ["array", self.add(b.extract_value(value, 0), "address"),
                    self.add(b.extract_value(value, 3), "object"), representation.ndim]
        if isinstance(representation, TupleR):
            item_types = getattr(mtype, "items", None) or (None,) * len(representation.items)
            return ["tuple", [self.describe(b.extract_value(value, i), item, t)
                              for i, (item, t) in enumerate(zip(representation.items, item_types))]]
        if isinstance(representation, UnitR) and mtype == NONE:
            return ["none"]
        self.low.not_native(f"a value of type {mtype} inside a tuple live where native code may deoptimise")

    def after(self, iterator) -> bool:
        """Whether the site is in a loop body where ``iterator`` just produced ``iterator.last``."""
        return iterator.landed is not None and self.low.deopt.dominates(iterator.landed, self.low.block)

    def position(self, iterator, slot) -> tuple:
        """(word, offset) of an index iterator's next position: the index just read plus one in a loop body,
        else what its slot holds."""
        if self.after(iterator):
            return self.add(iterator.last, "i64"), (-1 if getattr(iterator, "reverse", False) else 1)
        return self.add(self.low.b.load(slot), "i64"), 0

    def iterator(self, iterator) -> list:
        owner = self.owners.get(id(iterator))
        if owner is not None and owner != self.describing:
            return ["ref", owner]
        return iterator.state(self.low, self)


class DeoptPoints:
    """The sites of one native function: what is live where (a liveness over every value, built at the first
    site), and the emission of each site's hand-over block."""

    def __init__(self, low, table: DeoptTable, function: int):
        self.low = low
        self.table = table
        self.function = function
        self._liveness = None
        self._dominators = None
        self._live_at: dict = {}
        self._blocks: dict = {}
        self.count = 0                          # sites emitted in this function

    def dominates(self, a, b) -> bool:
        if b is None:
            return False
        if self._dominators is None:
            self._dominators = DominatorTree(self.low.fn.entry, lambda block: block.successors())
        return self._dominators.dominates(a, b)

    # ---- where to resume ------------------------------------------------------------------------------------------
    def redo_from(self, block, position: int, given=None) -> int:
        """Where the interpreter may start instead of op ``position`` of ``block`` (``given``: the op before it,
        whose value the site would hand over): the earliest op such that every op in between computes numbers
        from numbers (doing it again changes nothing) and that needs no value the site itself would not need.
        Sites of one such stretch then share a hand-over, and what the stretch computes need not stay alive
        for it; a value dead at the site is never kept alive longer for the sake of sharing."""
        needed = set(self.live_at(block, position)) - {given}
        earliest = position
        while earliest > 0 and self._recomputable(block.ops[earliest - 1]):
            earliest -= 1
        for start in range(earliest, position):
            if set(self.live_at(block, start)) <= needed:
                return start
        return position

    def _recomputable(self, op) -> bool:
        if not isinstance(op, RECOMPUTABLE_OPS) or op in self.low.deferred:
            return False
        reprs = [self.low.repr(v) for v in op.operands() if v is not None]
        return all(isinstance(r, NUMBERS) for r in reprs) and isinstance(self.low.reprs[op], NUMBERS)

    # ---- what is live ---------------------------------------------------------------------------------------------
    def transferable(self, value) -> bool:
        return isinstance(value, (Argument, Phi, Op)) and value in self.low.reprs

    def recomputed(self, value) -> bool:
        """Values without native state, rebuilt from their operands by the interpreter's own evaluators."""
        if value in self.low.deferred:
            return True
        representation = self.low.reprs.get(value)
        return isinstance(representation, UnitR) and value.type != NONE and not isinstance(value.type, ConstType) \
            and isinstance(value, Op)

    def live_at(self, block, start: int) -> list:
        """The values the interpreter reads when it continues at op ``start`` of ``block`` (in value order)."""
        found = self._live_at.get((block, start))
        if found is None:
            found = self._live_at[block, start] = self._find_live_at(block, start)
        return found

    def _find_live_at(self, block, start: int) -> list:
        if self._liveness is None:
            self._liveness = Liveness(self.low.fn, self.transferable, self.low.deferred)
        deferred = self.low.deferred
        live = set(self._liveness.live_out[block])
        live.update(v for v in block.terminator.operands() if self.transferable(v))
        position = {op: i for i, op in enumerate(block.ops)}
        for op in block.ops[start:]:
            if op not in deferred:
                live.update(v for v in op.operands() if self.transferable(v))
        for op in block.ops:                    # a fused operand's operands are read where its root is
            if op in deferred and position.get(deferred[op], -1) >= start:
                live.update(v for v in op.operands() if self.transferable(v))
        defined_later = set(block.ops[start:]) | {block.terminator}
        live -= defined_later
        pending = [v for v in live if self.recomputed(v)]
        while pending:
            for operand in pending.pop().operands():
                if self.transferable(operand) and operand not in live and operand not in defined_later:
                    live.add(operand)
                    if self.recomputed(operand):
                        pending.append(operand)
        return sorted(live, key=self.low.index.__getitem__)

    # ---- sites ----------------------------------------------------------------------------------------------------
    def site(self, block, start: int, result=None, exhausted: bool = False, leaves_recursion: bool = True,
             counted: bool = True) -> ir.Block:
        """The cold block that hands the state at op ``start`` of ``block`` over to the interpreter. ``result``:
        (SSA op, value, kind) when the continuation starts after ``op`` with that value (see ``_given``).
        ``exhausted``: the C stack is nearly used up, so the continuation runs native callees in the interpreter
        too. ``leaves_recursion``: the exit leaves a recursive call (not so at the entry's own depth check).
        ``counted``: its continuations count towards demotion (not so for a loop letting a signal or a thread in)."""
        low = self.low
        key = (block.label, start, tuple(sorted(low.owned, key=low.index.__getitem__)), exhausted, counted)
        if result is None and key in self._blocks:
            return self._blocks[key]
        live = self.live_at(block, start)
        if result is not None:                  # its value is the one given
            live = [value for value in live if value is not result[0]]
        owners: dict = {}
        for value in live:
            if isinstance(low.reprs[value], IterR):
                owners.setdefault(id(low.iterators[value]), low.index[value])
        target = low.new_block(f"deopt.B{block.label}.{start}")
        with low.cold_code(target):
            words = Words(low, owners)
            slots = []
            for value in live:
                words.describing = low.index[value]
                slots.append([low.index[value], self._describe(words, value)])
            if result is not None:
                op, given, kind = result
                slots.append([low.index[op], self._given(words, given, kind)])
            site = self.table.add_site(self.function, block.label, start, slots, exhausted, counted)
            self.count += 1
            self._hand_over(words, site, leaves_recursion, after_call=result is not None and kind == "callee")
        if result is None:
            self._blocks[key] = target
        return target

    def after_call(self, op) -> ir.Block:
        """Where a native call goes when its callee returned "failed": the callee deoptimised (its result waits
        in ``@mj_deopt_value``: continue after the call with it, ``mj_deopt_call`` takes it) or raised (unwind)."""
        low = self.low
        b = low.b
        target = low.new_block("call.failed")
        with low.cold_code(target):
            value = b.load(low.rt.deopt_value(), typ=PTR)
            b.cbranch(b.icmp_unsigned("==", value, ir.Constant(PTR, None)), low.fail_block(),
                      self.site(low.block, low.position + 1, result=(op, None, "callee")))
        return target

    def takes_back(self, result: Repr) -> bool:
        """Whether this function, having deoptimised, returns a result that fits natively as a normal return.
        Safe when it received no list (its continuation then changed nothing its native caller relies on), so
        a caller deoptimises only for a result it cannot represent: deep recursion cut short by a full C stack
        stays native everywhere else."""
        return self.count > 0 and isinstance(result, (IntR, FloatR, BoolR, UnitR)) and \
            all(_unshared(self.low.repr(arg)) for arg in self.low.fn.args)

    def take_back(self, result: Repr) -> None:
        """In the failure return: a continuation's result of kind ``result`` becomes a normal return (checked
        and unboxed out of line, so the function's own frame needs nothing for it)."""
        b = self.low.b
        continued = b.load(self.low.rt.deopt_value(), typ=PTR)      # the continuation's result, before it is taken
        origin = ir.Constant(I32, -1)          # the argument it is, if any: its caller's object is handed back
        for position, obj in self.low.argument_objects.items():
            origin = b.select(b.icmp_unsigned("==", continued, obj), ir.Constant(I32, position), origin)
        taken = b.call(_take_back_helper(self.low.rt, result), [])
        convert, failed = self.low.new_block("takeback"), self.low.new_block("takeback.no")
        b.cbranch(b.extract_value(taken, 1), convert, failed)
        b.position_at_end(convert)
        returned = ir.Constant(self.low.function.return_value.type, ir.Undefined)
        returned = b.insert_value(returned, origin, 2)
        b.ret(b.insert_value(b.insert_value(returned, b.extract_value(taken, 0), 0), ir.Constant(I1, 0), 1))
        b.position_at_end(failed)

    def _given(self, words: Words, value, kind: str) -> list:
        """The descriptor of an op's result handed over with the site: 'callee' (the result a native callee
        left in ``@mj_deopt_value``: the last word, written by ``mj_deopt_call``), 'i128', 'wrapped' (an i64 sum
        or difference that overflowed once: the exact value is it -+ 2**64), 'literal' (a Python int known when
        compiling)."""
        b = self.low.b
        if kind == "literal":
            return ["literal", value]
        if kind == "callee":
            return ["object", words.add(None, "callee")]
        if kind == "wrapped":
            correction = b.select(b.icmp_signed("<", value, ir.Constant(I64, 0)), ir.Constant(I128, 1 << 64),
                                  ir.Constant(I128, -(1 << 64)))
            value, kind = b.add(b.sext(value, I128), correction), "i128"
        return ["int128", words.add(value, kind)]

    def _describe(self, words: Words, value) -> list:
        low = self.low
        if self.recomputed(value):
            return ["recompute"]
        representation = low.reprs[value]
        if isinstance(representation, IterR):
            return words.iterator(low.iterators[value])
        if isinstance(representation, UnitR):
            return ["constant"] if isinstance(value.type, ConstType) else ["none"]
        described = words.describe(low.values[value], representation, value.type)
        passed = low.object_of(value, representation) if isinstance(representation, (IntR, FloatR)) else None
        if passed is not None:                  # an argument's number: the continuation takes the caller's object
            return ["passed", words.add(passed, "address"), described]
        return described

    def _hand_over(self, words: Words, site: int, leaves_recursion: bool, after_call: bool) -> None:
        """Write the words into the module's ``@mj_deopt_words``, call ``mj_deopt`` (``mj_deopt_call`` after a
        native call), which leaves the result in ``@mj_deopt_value``; release what the frame owns and return
        "failed"."""
        low = self.low
        b, rt = low.b, low.rt
        count = len(words.values)
        buffer = rt.deopt_words(count)

        def word(index):
            return b.gep(buffer, [ir.Constant(I64, 0), ir.Constant(I64, index)])

        for index, (value, kind) in enumerate(words.values):
            if kind == "i128":
                b.store(b.trunc(b.ashr(value, ir.Constant(I128, 64)), I64), word(index))
                b.store(b.trunc(value, I64), word(index + 1))
            elif kind not in ("i128 low", "callee"):
                b.store(_as_word(b, value, kind), word(index))
        rt.call(b, "mj_deopt_call" if after_call else "mj_deopt", rt.module_state(), ir.Constant(I64, site),
                b.bitcast(buffer, PTR), ir.Constant(I64, count))
        if leaves_recursion:
            b.branch(low.release_chain(tuple(sorted(low.owned, key=low.index.__getitem__))))
        else:
            if self.takes_back(low.return_repr):
                self.take_back(low.return_repr)
            low.return_failed()


def _unshared(representation: Repr) -> bool:
    """Whether an argument of this representation gives a callee nothing of its caller's that the callee's
    continuation could change behind native code's back (a list could get items of another kind)."""
    if isinstance(representation, TupleR):
        return all(_unshared(item) for item in representation.items)
    return not isinstance(representation, (ListR, NListR))


def _take_back_helper(rt, result: Repr) -> ir.Function:
    """``{value, i1 taken}``: ``@mj_deopt_value`` unboxed (and cleared, its reference released) when it has the
    native kind ``result``; one cold out-of-line function per kind and module."""
    def build(b):
        slot = rt.deopt_value()
        value = b.load(slot, typ=PTR)
        kind = b.function.return_value.type
        check, convert, refused = (b.function.append_basic_block(n) for n in ("check", "convert", "refused"))
        b.cbranch(b.icmp_unsigned("==", value, ir.Constant(PTR, None)), refused, check)
        b.position_at_end(check)
        b.cbranch(_has_kind(b, rt, value, result), convert, refused)
        b.position_at_end(convert)
        b.store(ir.Constant(PTR, None), slot)
        unboxed = _unbox(b, rt, value, result)
        rt.call(b, "mj_decref", value)
        b.ret(b.insert_value(b.insert_value(ir.Constant(kind, ir.Undefined), unboxed, 0), ir.Constant(I1, 1), 1))
        b.position_at_end(refused)
        b.ret(b.insert_value(ir.Constant(kind, ir.Undefined), ir.Constant(I1, 0), 1))
    name = f"mj_take_back_{type(result).__name__}"
    function = rt.helper(name, ir.FunctionType(ir.LiteralStructType([result.llvm, I1]), []), build)
    for attribute in ("noinline", "cold", "optnone"):      # optnone: cold code is not worth optimiser time
        function.attributes.add(attribute)
    return function


def _has_kind(b: ir.IRBuilder, rt, obj: ir.Value, representation: Repr) -> ir.Value:
    """Whether a result object has the native kind ``representation`` (an int that fits, a float, ...)."""
    if isinstance(representation, IntR):
        return rt.call(b, "mj_is_int64", obj)
    if isinstance(representation, FloatR):
        return rt.call(b, "mj_is_float", obj)
    if isinstance(representation, BoolR):
        return rt.call(b, "mj_is_bool", obj)
    return b.icmp_unsigned("==", obj, rt.data("_Py_NoneStruct"))


def _unbox(b: ir.IRBuilder, rt, obj: ir.Value, representation: Repr) -> ir.Value:
    if isinstance(representation, IntR):
        return rt.call(b, "mj_unbox_int", obj)
    if isinstance(representation, FloatR):
        return rt.call(b, "mj_unbox_float", obj)
    if isinstance(representation, BoolR):
        return b.icmp_unsigned("==", obj, rt.data("_Py_TrueStruct"))
    return ir.Constant(representation.llvm, 0)


def _as_word(b: ir.IRBuilder, value: ir.Value, kind: str) -> ir.Value:
    if kind == "i64":
        return value
    if kind == "f64":
        return b.bitcast(value, I64)
    if kind == "i1":
        return b.zext(value, I64)
    return b.ptrtoint(value, I64)                 # 'object', 'address'


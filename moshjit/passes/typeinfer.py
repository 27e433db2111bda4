"""Type inference over SSA, seeded with the argument types of one call signature.

A forward dataflow to a fixed point over the lattice in ``moshjit.ir.types``: φs join their inputs (ints are
widened at loop headers so the iteration ends), then a few narrowing rounds recover loop bounds. Branches on
comparisons refine ints and Optionals in the blocks they dominate (``i < n`` makes ``i + 1`` provably small).
Containers built in the function get element types from every write to them, unless they escape into code we
cannot see. The result is stored on each value (``value.type``).
"""
from __future__ import annotations

from moshjit.analysis.dominators import DominatorTree
from moshjit.context import CompileContext
from moshjit.cpython import BOOL_INVERT_WARNS
from moshjit.functions import jitted_function, jitted_method
from moshjit.ir import ops
from moshjit.ir.conformance import checkable
from moshjit.ir.function import Block, Function
from moshjit.ir.ops import UNDEFINED, Constant, Phi
from moshjit.ir.types import (SSIZE_MAX, BOOL, BOTTOM, BYTES, CHAR, FLOAT, INT, NONE, OBJECT, STR, ConstType, DictType, IntType, IteratorType, ListType, MType, OptionalType,
                              SetType, TupleType, join, tuple_of, type_of_value, widen)
from moshjit.primitives.signatures import (NON_MUTATING_METHODS, PURE_FUNCTIONS, function_result, item_type,
                                           method_result, text_of)

WIDEN_AFTER = 2          # visits of a φ (writes growing a container's element type) before int bounds are widened
MAX_SWEEPS = 100         # then values still changing become object (a type that keeps growing in depth)
NARROWING_ROUNDS = 2
_BIG = 1 << 70           # interval arithmetic gives up beyond this (the bound becomes unbounded)


# ---- interval arithmetic -----------------------------------------------------------------------------------------
def _clip(v):
    return None if v is None or abs(v) > _BIG else v


def _interval(lo, hi) -> IntType:
    return IntType(_clip(lo), _clip(hi))


def _add(a: IntType, b: IntType) -> IntType:
    return _interval(None if a.lo is None or b.lo is None else a.lo + b.lo,
                     None if a.hi is None or b.hi is None else a.hi + b.hi)


def _sub(a: IntType, b: IntType) -> IntType:
    return _interval(None if a.lo is None or b.hi is None else a.lo - b.hi,
                     None if a.hi is None or b.lo is None else a.hi - b.lo)


def _mul(a: IntType, b: IntType) -> IntType:
    if None in (a.lo, a.hi, b.lo, b.hi):
        return INT
    corners = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
    return _interval(min(corners), max(corners))


def _floordiv(a: IntType, b: IntType) -> IntType:
    if b.lo is not None and b.lo > 0 and a.lo is not None and a.hi is not None:
        return _interval(min(a.lo // b.lo, a.lo // (b.hi or b.lo)), max(a.hi // b.lo, a.hi // (b.hi or b.lo)))
    if b.lo is not None and b.lo > 0 and a.lo is not None and a.lo >= 0:
        return IntType(0, a.hi)
    return INT


def _mod(a: IntType, b: IntType) -> IntType:
    if b.lo is not None and b.lo > 0:
        hi = None if b.hi is None else b.hi - 1
        if a.lo is not None and a.lo >= 0 and a.hi is not None and (hi is None or a.hi < hi):
            hi = a.hi
        return IntType(0, hi)
    return INT


def _bitand(a: IntType, b: IntType) -> IntType:
    for x, y in ((a, b), (b, a)):
        if x.lo is not None and x.lo >= 0 and x.hi is not None:
            return IntType(0, x.hi if y.lo is None or y.lo < 0 else min(x.hi, y.hi if y.hi is not None else x.hi))
    return INT


def _shift_right(a: IntType, b: IntType) -> IntType:
    if a.lo is not None and a.lo >= 0 and b.lo is not None and b.lo >= 0:
        return IntType(0, a.hi if a.hi is None else a.hi >> b.lo)
    return INT


_INT_BINARY = {"+": _add, "-": _sub, "*": _mul, "//": _floordiv, "%": _mod, "&": _bitand, ">>": _shift_right}


def _binary_type(op: str, a: MType, b: MType) -> MType:
    if a == BOOL:
        a = IntType(0, 1) if op not in ("&", "|", "^") or b != BOOL else a
    if b == BOOL:
        b = IntType(0, 1) if op not in ("&", "|", "^") or a != BOOL else b
    if a == BOOL and b == BOOL:
        return BOOL
    if isinstance(a, IntType) and isinstance(b, IntType):
        if op == "/":
            return FLOAT
        if op in _INT_BINARY:
            return _INT_BINARY[op](a, b)
        if op in ("|", "^", "<<"):
            return INT
        return OBJECT                       # '**' is a float for negative exponents
    numeric = (FLOAT,)
    if (a in numeric and (b in numeric or isinstance(b, IntType))) or (b in numeric and isinstance(a, IntType)):
        return FLOAT if op in ("+", "-", "*", "/", "//", "%") else OBJECT
    if a in (STR, CHAR) and b in (STR, CHAR) and op == "+":
        return STR
    if a in (STR, CHAR) and op == "%":
        return STR
    if (a in (STR, CHAR) and isinstance(b, IntType) or b in (STR, CHAR) and isinstance(a, IntType)) and op == "*":
        return STR
    if isinstance(a, ListType) and isinstance(b, ListType) and op == "+":
        return ListType(join(a.item, b.item))
    if isinstance(a, ListType) and isinstance(b, IntType) and op == "*":
        return ListType(a.item)
    return OBJECT


def _comparison_class(t: MType) -> str | None:
    """Types whose comparisons with each other are plain bool results and never raise."""
    if isinstance(t, IntType) or t in (FLOAT, BOOL):
        return "number"
    if t in (STR, CHAR):
        return "str"
    return None


def _compare_type(op: str, a: MType, b: MType) -> MType:
    if op in ("is", "is not", "in", "not in"):
        return BOOL
    ca, cb = _comparison_class(a), _comparison_class(b)
    if ca is not None and ca == cb:
        return BOOL
    return OBJECT


def _getitem_type(obj: MType, key: MType, key_value) -> MType:
    is_index = isinstance(key, IntType) or key == BOOL
    if obj in (STR, CHAR):
        return CHAR if is_index else STR if _is_slice(key_value) else OBJECT
    if isinstance(obj, ListType):
        return obj.item if is_index else obj if _is_slice(key_value) else OBJECT
    if isinstance(obj, TupleType):
        if is_index and isinstance(key_value, Constant) and obj.items is not None:
            index = key_value.value
            if -len(obj.items) <= index < len(obj.items):
                return obj.items[index]
        return obj.item if is_index else TupleType(None, obj.item) if _is_slice(key_value) else OBJECT
    if isinstance(obj, DictType):
        return obj.value
    if obj == BYTES:
        return IntType(0, 255) if is_index else BYTES if _is_slice(key_value) else OBJECT
    return OBJECT


def _index_range_type(obj) -> MType | None:
    """``obj[k]`` of a bound constant whose class declares ``__moshjit_index_range__ = (lo, hi)``: its subscript is
    always an int in that range (a rewritten match's ``ClassDispatch``), so the result can be a C integer."""
    if not isinstance(obj, Constant):
        return None
    bounds = getattr(type(obj.value), "__moshjit_index_range__", None)
    if type(bounds) is tuple and len(bounds) == 2 and all(type(b) is int for b in bounds):
        return IntType(bounds[0], bounds[1])
    return None


def _is_slice(value) -> bool:
    return isinstance(value, ops.BuildSlice) or isinstance(value, Constant) and isinstance(value.value, slice)


# Ops whose result type does not depend on their operands having types yet (containers get element types
# from their cells).
_FRESH_RESULTS = (ops.BuildList, ops.BuildSet, ops.BuildMap, ops.BuildTuple, ops.BuildString, ops.LoadGlobal,
                  ops.CaughtException, ops.PushExcInfo, ops.PopExcept, ops.CheckBound)

# ---- containers --------------------------------------------------------------------------------------------------
class ContainerCell:
    """The element types of one container allocated in the function (union-find node for φ merges)."""

    def __init__(self, kind: str):
        self.kind = kind
        self.parent: ContainerCell | None = None
        self.item = BOTTOM            # list/set items, dict values
        self.key = BOTTOM             # dict keys
        self.escaped = False
        self.changes = 0              # writes that widened item or key (as a φ's visits: beyond some, widen)

    def root(self) -> "ContainerCell":
        node = self
        while node.parent is not None:
            node = node.parent
        return node


# ---- the inference ---------------------------------------------------------------------------------------------
class TypeInference:
    def __init__(self, fn: Function, arg_types: list[MType], ctx: CompileContext | None = None):
        self.fn = fn
        self.ctx = ctx if ctx is not None else CompileContext()
        self.types: dict = {}
        for arg, t in zip(fn.args, arg_types):
            self.types[arg] = t
        self.domtree = DominatorTree(fn.entry, Block.successors)
        self.order = self.domtree.order
        self.preds = fn.predecessors()
        self.refinements: dict[Block, dict] = {}
        self.phi_visits: dict[Phi, int] = {}
        self.cells: dict = {}          # allocation op -> ContainerCell
        self.widening = True
        self.collapsing = False
        self.counters = self._find_counters()   # φ -> (loop header's for_iter, value entering the loop)

    # lookup --------------------------------------------------------------------------------------------------
    def type_of(self, value, block: Block | None = None) -> MType:
        if isinstance(value, Constant):
            return type_of_value(value.value)
        if value is UNDEFINED:
            return BOTTOM
        if block is not None:
            node = block
            while True:
                refined = self.refinements.get(node)
                if refined and value in refined:
                    return refined[value]
                parent = self.domtree.idom.get(node)
                if parent is None or parent is node:
                    break
                node = parent
        t = self.types.get(value, BOTTOM)
        cell = self.cells.get(value)
        if cell is not None:
            t = self._container_type(cell.root())
        return t

    def _container_type(self, cell: ContainerCell) -> MType:
        item = OBJECT if cell.escaped else cell.item
        if cell.kind == "list":
            return ListType(item)
        if cell.kind == "set":
            return SetType(item)
        return DictType(OBJECT if cell.escaped else cell.key, item)

    # driver --------------------------------------------------------------------------------------------------
    def run(self) -> dict:
        self._find_containers()
        sweeps = 0
        while self._sweep():
            sweeps += 1
            # an ever deeper type (t = (t,)): after MAX_SWEEPS, whatever still changes becomes object
            self.collapsing = sweeps >= MAX_SWEEPS
        self.widening = False
        for _ in range(NARROWING_ROUNDS):
            self._sweep(narrowing=True)
        for value in self.fn.values():
            value.type = self.type_of(value)
        return self.types

    def _sweep(self, narrowing: bool = False) -> bool:
        changed = False
        for block in self.order:
            for phi in block.phis:
                changed |= self._set(phi, self._phi_type(phi), narrowing)
            for inst in block.instructions():
                if isinstance(inst, ops.ForIter):
                    changed |= self._set(inst, item_type(self.type_of(inst.iterator, block)), narrowing)
                elif not isinstance(inst, ops.Terminator):
                    changed |= self._set(inst, self._op_type(inst, block), narrowing)
                    self._container_writes(inst, block)
            self._refine_successors(block)
        return changed

    def _set(self, value, t: MType, narrowing: bool) -> bool:
        old = self.types.get(value, BOTTOM)
        if narrowing:
            new = t
        elif self.collapsing:
            new = old if join(old, t) == old else OBJECT
        elif isinstance(value, Phi) and self.widening:
            visits = self.phi_visits[value] = self.phi_visits.get(value, 0) + 1
            new = widen(old, t) if visits > WIDEN_AFTER else join(old, t)
        else:
            new = join(old, t)
        if new != old:
            self.types[value] = new
            return True
        return False

    def _phi_type(self, phi: Phi) -> MType:
        result = BOTTOM
        for pred, value in phi.incoming.items():
            t = self.type_of(value, pred)
            facts = self._edge_facts(pred, phi.block)
            result = join(result, facts.get(value, t))
        bound = self._counter_bound(phi, 0)
        return bound if bound is not None and isinstance(result, IntType) else result

    # bounded counters -------------------------------------------------------------------------------------------
    def _find_counters(self) -> dict:
        """φs of ``for`` loop headers that grow by at most 1 per iteration (``n += 1`` under any ``if``): a loop
        over a str or tuple runs at most len() <= PY_SSIZE_T_MAX times, which bounds them (see _counter_bound)."""
        from moshjit.analysis.loops import LoopForest
        counters = {}
        forest = LoopForest(self.fn.entry, Block.successors, self.domtree)
        headers = {loop.header for loop in forest.loops}
        for loop in forest.loops:
            term = loop.header.terminator
            if not isinstance(term, ops.ForIter) or not isinstance(term.iterator, ops.GetIter):
                continue
            for phi in loop.header.phis:
                outside = [(p, v) for p, v in phi.incoming.items() if p not in loop.body]
                inside = [v for p, v in phi.incoming.items() if p in loop.body]
                if len(outside) != 1 or not inside:
                    continue
                if all(_step(v, phi, loop, headers, {}) in ((0, 0), (0, 1), (1, 1)) for v in inside):
                    counters[phi] = (term, outside[0][1])
        return counters

    def _counter_bound(self, phi: Phi, slack: int) -> IntType | None:
        """The counter's range at its loop header (``slack`` 0) or inside the body (``slack`` 1: one iteration
        fewer has run), when the loop goes over a str or tuple and the counter starts at most 0."""
        found = self.counters.get(phi)
        if found is None:
            return None
        term, start = found
        source = self.type_of(term.iterator.obj)
        init = self.type_of(start)
        if not (source in (STR, CHAR) or isinstance(source, TupleType)) or not isinstance(init, IntType):
            return None
        if init.lo is None or init.hi is None or init.hi > 0:
            return None
        return IntType(init.lo, init.hi + SSIZE_MAX - slack)

    def _edge_facts(self, pred: Block, succ: Block) -> dict:
        """What the branch ending ``pred`` implies on its edge to ``succ``."""
        term = pred.terminator
        if not isinstance(term, ops.Branch) or term.if_true is term.if_false:
            return {}
        facts_true, facts_false = self._facts(term.cond, pred)
        return facts_true if succ is term.if_true else facts_false

    # branch refinement ----------------------------------------------------------------------------------------
    def _refine_successors(self, block: Block) -> None:
        term = block.terminator
        if isinstance(term, ops.ForIter):
            facts = {phi: self._counter_bound(phi, 1) for phi in block.phis if phi in self.counters}
            facts = {phi: t for phi, t in facts.items() if t is not None}
            if facts and self.preds[term.body] == [block]:
                self.refinements[term.body] = facts
            return
        if not isinstance(term, ops.Branch):
            return
        for succ in (term.if_true, term.if_false):
            facts = self._edge_facts(block, succ)
            if facts and self.preds[succ] == [block] and succ is not block:
                self.refinements[succ] = facts

    def _facts(self, cond, block: Block) -> tuple[dict, dict]:
        """What ``cond`` being true (false) tells about int ranges and None-ness of its operands."""
        if not isinstance(cond, ops.Compare):
            return {}, {}
        left, right = cond.left, cond.right
        lt, rt = self.type_of(left, block), self.type_of(right, block)
        if cond.op in ("is", "is not") and isinstance(right, Constant) and right.value is None \
                and isinstance(lt, OptionalType):
            is_none, not_none = {left: NONE}, {left: lt.inner}
            return (is_none, not_none) if cond.op == "is" else (not_none, is_none)
        if not (isinstance(lt, IntType) and isinstance(rt, IntType)):
            return {}, {}
        flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
        negate = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
        if cond.op not in flip:
            return {}, {}
        true_facts, false_facts = {}, {}
        for subject, st, other, ot, op in ((left, lt, right, rt, cond.op), (right, rt, left, lt, flip[cond.op])):
            if isinstance(subject, Constant):
                continue
            true_facts[subject] = _restrict(st, op, ot)
            false_facts[subject] = _restrict(st, negate[op], ot)
        return true_facts, false_facts

    # op types -------------------------------------------------------------------------------------------------
    def _op_type(self, op, block: Block) -> MType:
        t = lambda v: self.type_of(v, block)
        kind = type(op)
        if kind not in _FRESH_RESULTS and any(t(v) == BOTTOM for v in op.operands() if v is not UNDEFINED):
            return BOTTOM                 # an operand has no type yet: wait (keeps the fixed point monotone)
        if kind is ops.BinaryOp:
            return _binary_type(op.op, t(op.left), t(op.right))
        if kind is ops.UnaryOp:
            operand = t(op.operand)
            if op.op == "not":
                return BOOL
            if op.op == "invert" and operand == BOOL and BOOL_INVERT_WARNS:
                return OBJECT             # CPython's operator warns (cpython.BOOL_INVERT_WARNS)
            if isinstance(operand, IntType) or operand == BOOL:
                operand = IntType(0, 1) if operand == BOOL else operand
                if op.op == "neg":
                    return _interval(None if operand.hi is None else -operand.hi,
                                     None if operand.lo is None else -operand.lo)
                if op.op == "pos":
                    return operand
                return _interval(None if operand.hi is None else -operand.hi - 1,
                                 None if operand.lo is None else -operand.lo - 1)
            return FLOAT if operand == FLOAT and op.op in ("neg", "pos") else OBJECT
        if kind is ops.Compare:
            return _compare_type(op.op, t(op.left), t(op.right))
        if kind is ops.CheckBound:
            return t(op.value)
        if kind is ops.GetItem:
            return _index_range_type(op.obj) or _getitem_type(t(op.obj), t(op.key), op.key)
        if kind is ops.Call:
            return self._call_type(op, block)
        if kind is ops.AwaitSelf:                        # what the body returns (``passes/in_place_awaits.py``)
            return op.result
        if kind is ops.CallSelf:                         # bound after typing (``passes/direct_calls.py``)
            return OBJECT
        if kind is ops.CallMethod:
            receiver = t(op.obj)
            if op.kwnames:
                return OBJECT
            args = [t(a) for a in op.args]
            return method_result(receiver, op.name, args) or self._jitted_method_type(op, args) or OBJECT
        if kind is ops.GetIter:
            source = t(op.obj)
            if isinstance(source, IteratorType):
                return source
            return IteratorType(source, item_type(source))
        if kind is ops.BuildTuple:
            return tuple_of(t(v) for v in op.items)
        if kind in (ops.BuildList, ops.BuildSet, ops.BuildMap):
            return self.types.get(op, BOTTOM)            # the container cell gives the element types
        if kind is ops.BuildString:                      # a new str joined from the pieces
            return STR
        if kind is ops.FormatValue:                      # a lone field is what __format__/__str__ gave
            return text_of(t(op.value))
        if kind is ops.ListToTuple:
            source = t(op.source)
            return TupleType(None, source.item if isinstance(source, ListType) else OBJECT)
        if kind is ops.ExtractItem:
            return self._extract_type(op, block)
        if kind in (ops.ListAppend, ops.ListExtend, ops.SetAdd, ops.SetUpdate, ops.MapAdd, ops.DictUpdate,
                    ops.DictMerge, ops.SetItem, ops.DelItem, ops.StoreAttr, ops.DelAttr, ops.PopExcept,
                    ops.Release, ops.FrameEnd, ops.LoopTick):
            return NONE
        if kind in (ops.CheckExcMatch, ops.MatchSequence, ops.MatchMapping, ops.MethodIs, ops.SuperIs,
                    ops.RaiseIsCaught):
            return BOOL
        if kind is ops.LoadGlobal:
            return self.ctx.global_assumptions.get(op.name, OBJECT)
        if kind is ops.BuildSlice:
            return OBJECT
        return OBJECT

    def _jitted_method_type(self, op: ops.CallMethod, args: list[MType]) -> MType | None:
        """``arg.name(args)`` on an argument whose exact class the dispatch key fixes, where the class's ``name``
        is a jitted method taking these arguments positionally: the type its code returns for them (the receiver
        an object), when that type can be checked at run time. Sound while each call finds that method: the
        backend checks it at the entry (the class's version, no instance attribute shadowing it) and hands the
        call to the specialisation without assumptions when it does not (``ctx.method_assumptions``)."""
        ctx = self.ctx
        receiver = op.obj
        if not (ctx.assume_globals and not self.fn.suspends and isinstance(receiver, ops.Argument)
                and receiver.index < len(ctx.key)
                and isinstance(ctx.key[receiver.index], type)):
            ctx.method_assumptions.pop(op, None)
            ctx.exact_str_results.discard(op)
            return None
        cls = ctx.key[receiver.index]
        method = jitted_method(cls, op.name)
        result = None
        if method is not None and getattr(method, "_positional_count", -1) == 1 + len(args):
            if BOTTOM in args:
                return BOTTOM                 # its arguments have no type yet (the sweep comes back)
            result = ctx.callee_return_type(method.py_func, [OBJECT, *args])
        if result is None or result in (OBJECT, BOTTOM) or not checkable(result):
            ctx.method_assumptions.pop(op, None)
            ctx.exact_str_results.discard(op)
            return None
        ctx.method_assumptions[op] = (cls, method, result)
        if result in (STR, CHAR) and ctx.callee_returns_exact_str(method.py_func, [OBJECT, *args]):
            ctx.exact_str_results.add(op)     # the generic path's result is checked to be an exact str too
        else:
            ctx.exact_str_results.discard(op)
        return result

    def _call_type(self, op: ops.Call, block: Block) -> MType:
        func = self.type_of(op.func, block)
        args = [self.type_of(a, block) for a in op.args[:len(op.args) - len(op.kwnames)]]
        if isinstance(func, ConstType):
            result = function_result(func.value, args, bool(op.kwnames))
            if result is not None:
                return result
            if not op.kwnames and jitted_function(func.value) is not None:
                returned = self.ctx.callee_return_type(jitted_function(func.value), args)
                return OBJECT if returned is None else returned
        return OBJECT

    def _extract_type(self, op: ops.ExtractItem, block: Block) -> MType:
        source = op.source
        if isinstance(source, ops.UnpackSequence):
            seq = self.type_of(source.source, block)
            if isinstance(seq, TupleType) and seq.items is not None and len(seq.items) == source.count:
                return seq.items[op.index]
            return item_type(seq)
        if isinstance(source, ops.UnpackEx):
            seq = self.type_of(source.source, block)
            if op.index == source.before:
                return ListType(item_type(seq))
            return item_type(seq)
        return OBJECT

    # containers -------------------------------------------------------------------------------------------------
    def _find_containers(self) -> None:
        """Give each list/set/dict display its cell; φs of containers share one cell; escapes widen to object."""
        kinds = {ops.BuildList: "list", ops.BuildSet: "set", ops.BuildMap: "dict"}
        for block in self.fn.blocks:
            for op in block.ops:
                kind = kinds.get(type(op))
                if kind is not None:
                    self.cells[op] = ContainerCell(kind)
        self._merge_through_phis()
        users = self.fn.users()
        for value, cell in self.cells.items():
            for user in users.get(value, []):
                if not self._harmless_use(user, value):
                    cell.root().escaped = True
        for value, cell in self.cells.items():
            if isinstance(value, ops.Op):
                self._seed_items(value, cell.root())

    def _merge_through_phis(self) -> None:
        """Group allocations and the φs joining them (union-find over φ webs): a group shares one cell; a group
        that also merges a non-container value, or containers of different kinds, escapes."""
        parent: dict = {}

        def find(v):
            while parent.get(v, v) is not v:
                v = parent[v]
            return v

        tainted = set()
        users = self.fn.users()
        phis = [phi for block in self.fn.blocks for phi in block.phis]
        for phi in phis:
            for value in phi.incoming.values():
                if isinstance(value, Phi) or value in self.cells:
                    a, b = find(phi), find(value)
                    if a is not b:
                        parent[a] = b
                else:
                    tainted.add(phi)
        groups: dict = {}
        for value in [*self.cells, *phis]:
            groups.setdefault(find(value), []).append(value)
        for members in groups.values():
            allocations = [v for v in members if v in self.cells]
            if not allocations:
                continue
            root = self.cells[allocations[0]].root()
            for other in allocations[1:]:
                cell = self.cells[other].root()
                if cell is not root:
                    cell.parent = root
                    root.escaped |= cell.escaped or cell.kind != root.kind
            mixed = any(v in tainted for v in members)
            if mixed and not self._only_read(members, users):
                root.escaped = True
            for value in members:
                if not (mixed and isinstance(value, Phi)):   # a φ that may hold a non-container: typed by its join
                    self.cells[value] = root

    @staticmethod
    def _only_read(members: list, users: dict) -> bool:
        """Whether the φs of a group are only read (iterated, indexed, measured, tested, returned, or joined into
        another φ of the group): then a container merged there with other values cannot be written through them."""
        group = set(members)
        for phi in members:
            if not isinstance(phi, Phi):
                continue
            for user in users.get(phi, []):
                if isinstance(user, Phi):
                    ok = user in group
                elif isinstance(user, (ops.GetIter, ops.Return, ops.Branch)):
                    ok = True
                elif isinstance(user, ops.GetItem):
                    ok = user.obj is phi and user.key is not phi
                else:
                    ok = (isinstance(user, ops.Call) and isinstance(user.func, Constant) and user.func.value is len
                          and user.args == [phi])
                if not ok:
                    return False
        return True

    def _seed_items(self, op, cell: ContainerCell) -> None:
        if isinstance(op, (ops.BuildList, ops.BuildSet)):
            for item in op.items:
                self._grow(cell, item=self.type_of(item))
        elif isinstance(op, ops.BuildMap):
            for key, value in zip(op.keys, op.values):
                self._grow(cell, key=self.type_of(key), item=self.type_of(value))

    def _harmless_use(self, user, value) -> bool:
        """Uses that neither mutate the container behind our back nor let it escape."""
        if isinstance(user, (Phi, ops.GetItem, ops.GetIter, ops.Return, ops.Compare, ops.Branch, ops.ListToTuple,
                             ops.BinaryOp, ops.CheckBound, ops.FormatValue)):
            return True
        if isinstance(user, (ops.ListAppend, ops.SetAdd)) and user.target is value:
            return user.item is not value
        if isinstance(user, (ops.ListExtend, ops.SetUpdate)):
            return True
        if isinstance(user, ops.MapAdd) and user.target is value:
            return value not in (user.key, user.value)
        if isinstance(user, ops.SetItem) and user.obj is value:
            return user.value is not value
        if isinstance(user, ops.DelItem) and user.obj is value:
            return True
        if isinstance(user, ops.CallMethod):
            if user.obj is not value and user.obj in self.cells and user.name in ("extend", "update"):
                return True                 # a local container reads the items of this one
            if user.obj is value:
                return user.name in NON_MUTATING_METHODS or user.name in (
                    "append", "extend", "insert", "add", "update", "pop", "clear", "sort", "reverse", "remove",
                    "discard", "setdefault") and value not in user.args
            return user.name in NON_MUTATING_METHODS or user.name == "join"
        if isinstance(user, ops.Call):
            return isinstance(user.func, Constant) and _pure(user.func.value) and user.func is not value
        return False

    def _container_writes(self, op, block: Block) -> None:
        """Join the types of items written into a local container into its cell."""
        def cell_of(target):
            cell = self.cells.get(target)
            return cell.root() if cell is not None else None

        t = lambda v: self.type_of(v, block)
        if isinstance(op, (ops.BuildList, ops.BuildSet, ops.BuildMap)):
            cell = cell_of(op)            # display items get their types during the sweeps, not only at seeding
            if cell is not None:
                self._seed_items(op, cell)
        elif isinstance(op, (ops.ListAppend, ops.SetAdd)):
            cell = cell_of(op.target)
            if cell is not None:
                self._grow(cell, item=t(op.item))
        elif isinstance(op, (ops.ListExtend, ops.SetUpdate)):
            cell = cell_of(op.target)
            if cell is not None:
                self._grow(cell, item=item_type(t(op.iterable)))
        elif isinstance(op, ops.MapAdd):
            cell = cell_of(op.target)
            if cell is not None:
                self._grow(cell, key=t(op.key), item=t(op.value))
        elif isinstance(op, ops.SetItem):
            cell = cell_of(op.obj)
            if cell is not None:
                self._grow(cell, key=t(op.key) if cell.kind == "dict" else BOTTOM, item=t(op.value))
        elif isinstance(op, ops.CallMethod):
            cell = cell_of(op.obj)
            if cell is None:
                return
            args = [t(a) for a in op.args]
            if op.name in ("append", "add") and args:
                self._grow(cell, item=args[0])
            elif op.name == "insert" and len(args) == 2:
                self._grow(cell, item=args[1])
            elif op.name in ("extend", "update") and args and cell.kind != "dict":
                self._grow(cell, item=item_type(args[0]))
            elif op.name in ("update", "setdefault") and cell.kind == "dict":
                cell.escaped = True
        elif isinstance(op, (ops.DictUpdate, ops.DictMerge)):
            cell = cell_of(op.target)
            if cell is not None:
                cell.escaped = True

    def _grow(self, cell: ContainerCell, key: MType = BOTTOM, item: MType = BOTTOM) -> None:
        """Join a write's key and item types into ``cell``, widening after WIDEN_AFTER growing writes (a value
        read from the container, changed and written back grows it at every sweep, as a loop's φ would)."""
        new_key, new_item = join(cell.key, key), join(cell.item, item)
        if (new_key, new_item) == (cell.key, cell.item):
            return
        cell.changes += 1
        if self.collapsing:
            new_key = OBJECT if new_key != cell.key else new_key
            new_item = OBJECT if new_item != cell.item else new_item
        elif cell.changes > WIDEN_AFTER:
            new_key, new_item = widen(cell.key, key), widen(cell.item, item)
        cell.key, cell.item = new_key, new_item


def _step(value, phi: Phi, loop, headers: set, memo: dict):
    """(least, most) that ``value`` exceeds ``phi`` by, when it is ``phi`` plus non-negative constants through
    merges inside ``loop`` (never through another loop's header: that could add many times); else None."""
    if value is phi:
        return (0, 0)
    if value in memo:
        return memo[value]
    memo[value] = None                        # cycles through non-header φs cannot happen; be safe anyway
    result = None
    if isinstance(value, ops.CheckBound):
        result = _step(value.value, phi, loop, headers, memo)
    elif isinstance(value, ops.BinaryOp) and value.op == "+":
        for inner, const in ((value.left, value.right), (value.right, value.left)):
            if isinstance(const, Constant) and type(const.value) is int and const.value >= 0:
                base = _step(inner, phi, loop, headers, memo)
                if base is not None:
                    result = (base[0] + const.value, base[1] + const.value)
                    break
    elif isinstance(value, Phi) and value.block in loop.body and value.block not in headers:
        steps = [_step(v, phi, loop, headers, memo) for v in value.incoming.values()]
        if steps and None not in steps:
            result = (min(s[0] for s in steps), max(s[1] for s in steps))
    memo[value] = result
    return result


def _pure(function) -> bool:
    try:
        return function in PURE_FUNCTIONS
    except TypeError:
        return False


def _restrict(t: IntType, op: str, bound: IntType) -> IntType:
    """The part of ``t`` satisfying ``t <op> bound`` for some value of ``bound``."""
    lo, hi = t.lo, t.hi
    if op == "<" and bound.hi is not None:
        hi = bound.hi - 1 if hi is None else min(hi, bound.hi - 1)
    elif op == "<=" and bound.hi is not None:
        hi = bound.hi if hi is None else min(hi, bound.hi)
    elif op == ">" and bound.lo is not None:
        lo = bound.lo + 1 if lo is None else max(lo, bound.lo + 1)
    elif op == ">=" and bound.lo is not None:
        lo = bound.lo if lo is None else max(lo, bound.lo)
    elif op == "==":
        lo = bound.lo if lo is None else (lo if bound.lo is None else max(lo, bound.lo))
        hi = bound.hi if hi is None else (hi if bound.hi is None else min(hi, bound.hi))
    if lo is not None and hi is not None and lo > hi:
        return t                        # contradictory: the branch is dead; keep the type sound and simple
    return IntType(lo, hi)


def returned_type(fn: Function) -> MType:
    """The join of the types of every value ``fn`` returns (BOTTOM when it never returns); a call of a generator
    function or coroutine returns a generator or coroutine (its ``return`` values go into StopIteration)."""
    if fn.suspends:
        return OBJECT
    result = BOTTOM
    for block in fn.blocks:
        if isinstance(block.terminator, ops.Return):
            value = block.terminator.value
            result = join(result, type_of_value(value.value) if isinstance(value, Constant) else value.type)
    return result


def infer_types(fn: Function, arg_types: list[MType], ctx: CompileContext | None = None) -> Function:
    """Set ``.type`` on every value of ``fn`` for a call with ``arg_types``; ``ctx`` gives the global types
    assumed and the return types of jitted callees (without one, both are unknown)."""
    TypeInference(fn, arg_types, ctx).run()
    for block in fn.blocks:
        for inst in [*block.phis, *block.instructions()]:
            if inst.type is None:
                inst.type = BOTTOM
    for arg, t in zip(fn.args, arg_types):
        arg.type = t
    return fn


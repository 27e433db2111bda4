"""What the Cython emitter decides before it writes a line, from the typed, out-of-SSA IR of one specialisation.

- iterations: which ``get_iter``/``for_iter`` pairs become index loops over str/list/tuple or counted ``range``
  loops (no iterator object);
- slices: which ``build_slice`` ops are written as ``obj[a:b]`` syntax inside their users;
- character buffers: which lists of characters are only appended to, tested, measured and joined, and so become
  ``moshjit_rt.CharBuffer`` (no one-character strings); which loops over a joined buffer read the buffer itself
  (``joined_loops.py``: no intermediate str between chained character passes);
- str views: which slices (and prefixed slices) are only probed against dicts until they escape, and so stay
  ``MjStrView`` structs (``text.py``);
- list builds: which trees of ``+`` and ``[x] * n`` become one list of the final size (``list_builds.py``);
- tuple compares: which ``==``/``!=`` of a tuple display compare its items without making it
  (``tuple_compares.py``);
- known hashes: which dict operations share one computation of their tuple key's hash (``known_hashes.py``);
- variables: the C type every value is declared with, and which values share one variable (``coalesce.py``);
  a float or int64 argument that is only stored into attributes, returned or passed on to method and
  constructor sites (an int64 one also: put in a tuple or list, compared or combined with values held as
  objects) stays the object the caller passed (``def f(self, double x)`` would unbox it and box it again); a
  float or int64 argument also used natively is unboxed once, and its other uses still read the caller's object; a
  computed float is boxed at most once per definition; a φ of C numbers that may be an argument or an object, or
  that several uses need as one, keeps its object in a twin variable; a computed number compared with ``is``
  stays an object (an argument's test reads the caller's object).

Per-op emission (``emit.py``) reads these decisions and decides nothing of this kind itself.
"""
from __future__ import annotations

from moshjit.analysis.dominators import DominatorTree
from moshjit.backends.cython.coalesce import Liveness, coalesce
from moshjit.backends.cython import enumerate_loops
from moshjit.backends.cython.constructor_sites import takes_constructor_site
from moshjit.backends.cython.out_of_ssa import CopyPlan
from moshjit.backends.cython.c_types import C_SCALARS, cython_type
from moshjit.backends.cython.joined_loops import joined_loops
from moshjit.backends.cython.known_hashes import plan_known_hashes
from moshjit.backends.cython.list_builds import ListBuilds
from moshjit.backends.cython.text import VIEW_TYPE, StrViews
from moshjit.backends.cython.tuple_compares import plan_tuple_compares
from moshjit.ir import ops
from moshjit.ir.function import Block, Function
from moshjit.ir.ops import UNDEFINED, Argument, Constant, Phi
from moshjit.ir.types import CHAR, FLOAT, STR, IntType, ListType, RangeType, TupleType
from moshjit.passes.constfold import maybe_undefined
from moshjit.passes.releases import copied_from


class IterationPlan:
    """How a get_iter/for_iter pair is emitted: an index loop over str/list/tuple, a counted range loop, an
    enumerate loop (``enumerate_loops.py``), or the generic iterator protocol."""

    def __init__(self, kind: str, getiter, index: str, extra: dict):
        self.kind = kind
        self.getiter = getiter
        self.index = index
        self.extra = extra


# Ops that hand an operand on as the object itself (returned, yielded, passed, stored, put in a container, tested
# for identity or membership): where an int64 argument meets one, CPython hands on the caller's int. Its other
# uses (an index, a range's bound, a slice, a format field) read the C value.
_HANDS_ON = (ops.Return, ops.Yield, ops.Call, ops.CallMethod, ops.CallSelf, ops.AwaitSelf, ops.StoreAttr,
             ops.StoreGlobal, ops.CellSet, ops.SetItem, ops.BuildTuple, ops.BuildList, ops.BuildSet, ops.BuildMap,
             ops.ListAppend, ops.SetAdd, ops.MapAdd, ops.Compare)


# Builtins Cython computes on a C integer itself: an int64 argument passed to one stays the C value there.
_NATIVE_INT_BUILTINS = (chr, abs, range, min, max, int, float, bool, hash)


def _hands_on_int(user, argument) -> bool:
    """Whether ``user`` hands the int64 ``argument`` on as an object; a list store's index is not (Cython indexes
    the list with the C value, as CPython's list takes it), nor a call of a builtin Cython computes on C ints."""
    if isinstance(user, ops.SetItem) and user.value is not argument:
        return not isinstance(getattr(user.obj, "type", None), ListType)
    if isinstance(user, ops.Call) and isinstance(user.func, Constant):
        return not any(user.func.value is builtin for builtin in _NATIVE_INT_BUILTINS)
    return isinstance(user, _HANDS_ON)


def _uses_natively(user) -> bool:
    """``user`` reads a float operand as a C double: arithmetic, ordering and equality, a truth test, a φ."""
    if isinstance(user, ops.Compare):
        return user.op not in ("is", "is not", "in", "not in")
    return isinstance(user, (ops.BinaryOp, ops.UnaryOp, ops.Branch, Phi))


class EmissionPlan:
    """The decisions listed in the module docstring, for one function."""

    def __init__(self, fn: Function, copies: CopyPlan):
        self.fn = fn
        self.copies = copies
        self.users = fn.users()
        self.undefined = maybe_undefined(fn)     # values that may hold an unbound local: declared ``object``
        self.boxed_arguments = {a for a in fn.args if self._kept_boxed(a)}
        self.identity_compared = self._identity_compared()
        self.iteration: dict = {}                # get_iter op -> IterationPlan
        self.index_decls: dict[str, str] = {}    # loop index variables -> C type
        self.folded: set = set()                 # ops emitted as part of another op
        self.inline_slices: set = set()          # build_slice ops written as slice syntax in their users
        self.char_buffers: set = set()           # lists of chars kept as moshjit_rt.CharBuffer
        self.reused_buffers: set = set()         # CharBuffers emptied for reuse where they are made again
        self.split_texts: set = set()            # ``s.split()`` lists only looped over: hold ``s`` (see _split_web)
        self.joined_loops: dict = {}             # get_iter op -> the CharBuffer its loop reads (no joined str)
        self.views = StrViews.NONE               # strs kept as views (decided below, after the slices)
        self.list_builds = ListBuilds.NONE       # lists built in one go (decided last)
        self.tuple_compares: dict = {}           # ==/!= of a tuple display -> (display, other operand, left?)
        self._plan_iterations()
        self.generic_loops = self._generic_loops()     # get_iter ops of the loops through mj_for_next
        self._plan_slices()
        self._plan_char_buffers()
        self._plan_nested_char_buffers()
        self._plan_joined_loops()
        self._plan_views()
        self._plan_list_builds()
        self.tuple_compares = plan_tuple_compares(fn, self.users)
        self.folded |= {display for display, _, _ in self.tuple_compares.values()}
        self.folding_compare = {display: compare for compare, (display, _, _) in self.tuple_compares.items()}
        self.known_hashes = plan_known_hashes(fn, self.ctype, self.folded | self.inline_slices)   # op -> its key
        self.caller_objects = self._caller_objects()   # number argument -> ops that read the caller's object
        self.boxed_once = self._boxed_once()           # computed float -> ops that read its one box
        self.phi_objects = self._phi_objects()         # φ of C numbers -> ops that read the object it holds
        self.kept_unused = self._kept_unused()         # objects a local holds that nothing reads: still assigned
        self.representative = self._share_variables()   # value -> the value whose variable it shares
        self.released_at = self._released_at_suspensions()   # yield/await op -> variables emptied before it
        self.released_on_exit = self._released_on_loop_exits()  # edge -> [(get_iter op, values emptied)]
        self.consumed_by_loop = self._consumed_by_loops()      # get_iter op -> the temporary it empties
        self.emptied_by_release = self._emptied_by_releases()  # release op -> values whose variables it empties

    def _kept_boxed(self, argument) -> bool:
        """A float or int64 argument every use of which needs it as an object keeps the caller's object."""
        users = self.users.get(argument)
        if not users:
            return False
        if argument.type == FLOAT:
            return all(self._passes_object(user, argument) for user in users)
        if isinstance(argument.type, IntType) and cython_type(argument.type) == "Py_ssize_t":
            return all(self._passes_object(user, argument) or self._meets_object(user, argument) for user in users)
        return False

    def _identity_compared(self) -> set:
        """Number values an ``is``/``is not`` compares stay objects: two C numbers boxed for the test are never
        the same object, where CPython compares the objects it has (``v is out[0]`` over a list of floats). A number
        argument is left to ``caller_objects`` (the test reads the caller's object)."""
        found = set()
        for block in self.fn.blocks:
            for op in block.ops:
                if isinstance(op, ops.Compare) and op.op in ("is", "is not") and op.left is not op.right:
                    found |= {v for v in (op.left, op.right) if not isinstance(v, Constant)
                              and cython_type(getattr(v, "type", None)) in ("double", "Py_ssize_t")
                              and v not in self.fn.args}
        return found

    def _caller_objects(self) -> dict:
        """A float or int64 argument unboxed for arithmetic is still the caller's object where an op uses it as an
        object (returns it, stores it, puts it in a container, passes it on, tests identity or membership):
        CPython hands on that very object, and ``is`` and a NaN's identity (``x in [x]``, ``(x, 1) == (x, 1)``)
        would see a number boxed again (``out.append(n); return n + 1``: ``out[0] is n`` for ``n = 10 ** 6``), and
        each boxing of an int past the small ones allocates. A folded tuple display's items count as used by the
        compare that folds it."""
        found = {}
        for argument in self.fn.args:
            if self.decl_type(argument) in ("double", "Py_ssize_t"):
                users = set(self._object_uses(argument))
                if argument.type != FLOAT:
                    users = {user for user in users if _hands_on_int(user, argument)}
                if users:
                    found[argument] = users
        return found

    def _object_uses(self, value) -> list:
        """The uses that need ``value`` as an object (once per operand it is), a folded tuple display's counted as
        the compare's that folds it."""
        return [self.folding_compare.get(user, user) for user in self.users.get(value, ()) if not _uses_natively(user)]

    def _boxed_once(self) -> dict:
        """A computed float that more than one use (or a use in another block, which a loop may repeat) needs as
        an object is boxed once per definition, at the first such use that runs: CPython makes one float object
        per value, and ``(y, y)`` or ``out.append(y)`` twice would otherwise hold two (``is``, a NaN in a list).
        Values of φs are not covered (see docs/architecture.md)."""
        found = {}
        for block in self.fn.blocks:
            here = {*block.ops, block.terminator}
            for op in block.ops:
                if getattr(op, "type", None) != FLOAT or self.decl_type(op) != "double" or op in self.folded:
                    continue
                uses = self._object_uses(op)
                if len(uses) >= 2 or any(use not in here for use in uses):
                    found[op] = set(uses)
        return found

    def _phi_objects(self) -> dict:
        """A φ of C numbers whose value may be an object CPython hands on — an argument (``x if x > y else y``
        returns ``x`` itself; an accumulator that starts as one and a loop that runs no time), or a value held as an
        object — or that more than one use needs as an object (``(m, m)``: one object) keeps that object in a twin
        variable, set on each edge with the φ's copy: the caller's object, the object, the incoming φ's twin, or
        none for a computed number (boxed at the first use that needs it). The φs such values come in through carry
        twins too; a native argument that reaches a twin comes with the caller's object (``caller_objects``)."""
        native = {phi for block in self.fn.blocks for phi in block.phis
                  if self.decl_type(phi) in ("double", "Py_ssize_t") and phi not in self.folded}
        readers = {}
        for phi in native:
            uses = self._object_uses(phi)
            if phi.type != FLOAT:
                uses = [user for user in uses if _hands_on_int(user, phi)]
            if uses:
                readers[phi] = uses
        kept = {phi for phi, uses in readers.items() if len(uses) >= 2 or self._phi_holds_objects(phi, native)}
        carried, pending = set(kept), list(kept)
        while pending:
            for value in pending.pop().incoming.values():
                if value in native and value not in carried:
                    carried.add(value)
                    pending.append(value)
        held = {phi for block in self.fn.blocks for phi in block.phis if self.decl_type(phi) == "object"}
        for phi in carried | held:          # a φ held as an object takes a native argument's object too
            for value in phi.incoming.values():
                if isinstance(value, Argument) and self.decl_type(value) in ("double", "Py_ssize_t"):
                    self.caller_objects.setdefault(value, set()).add(phi)
        return {phi: set(readers.get(phi, ())) for phi in carried}

    def _phi_holds_objects(self, phi, native: set) -> bool:
        """Whether a value coming into ``phi`` (through other φs of C numbers) is an argument or held as an object."""
        seen, pending = {phi}, [phi]
        while pending:
            for value in pending.pop().incoming.values():
                if value in native:
                    if value not in seen:
                        seen.add(value)
                        pending.append(value)
                elif isinstance(value, Argument) or self.held_as_object(value):
                    return True
        return False

    def held_as_object(self, value) -> bool:
        """Whether ``value`` is a variable declared ``object`` (not a constant or an unbound local)."""
        return not isinstance(value, Constant) and value is not UNDEFINED and self.decl_type(value) == "object"

    @staticmethod
    def _meets_object(user, value) -> bool:
        """``user`` puts ``value`` into a tuple or list, or compares or combines it with an operand held as an
        object, where a C integer would be boxed again: ``self.mark != mark`` with ``mark`` unboxed made a new int
        per call."""
        if isinstance(user, (ops.BuildTuple, ops.BuildList)):
            return True
        if not isinstance(user, (ops.Compare, ops.BinaryOp)):
            return False
        other = user.right if user.left is value else user.left
        return (other is not value and not isinstance(other, Constant)
                and cython_type(getattr(other, "type", None)) == "object")

    @staticmethod
    def _passes_object(user, value) -> bool:
        """``user`` only hands ``value`` on as an object: stores it, returns it, passes it to a site."""
        if isinstance(user, ops.StoreAttr):
            return user.value is value and user.obj is not value
        if isinstance(user, ops.Return):
            return True
        if isinstance(user, ops.CallMethod):
            return user.obj is not value and not user.kwnames
        return isinstance(user, ops.Call) and user.func is not value and takes_constructor_site(user)

    def decl_type(self, value) -> str:
        if (value in self.undefined or value is UNDEFINED or value in self.boxed_arguments
                or value in self.identity_compared):
            return "object"
        if value in self.char_buffers:
            return "CharBuffer"
        if value in self.split_texts:
            return "str"
        if value in self.views:
            return VIEW_TYPE
        return cython_type(getattr(value, "type", None))

    def ctype(self, value) -> str:
        """The C-level type an operand has in generated code (constants: the type of their literal)."""
        if isinstance(value, Constant):
            v = value.value
            if type(v) is bool:
                return "bint"
            if type(v) is int:
                return "Py_ssize_t" if -(1 << 62) < v < (1 << 62) else "object"
            if type(v) is float:
                return "double"
            return "object"
        return self.decl_type(value)

    def _plan_iterations(self) -> None:
        for block in self.fn.blocks:
            for op in block.ops:
                if not isinstance(op, ops.GetIter):
                    continue
                users = self.users.get(op, [])
                if not users or not all(isinstance(u, ops.ForIter) for u in users):
                    continue
                source = op.obj
                source_type = getattr(source, "type", None) if not isinstance(source, Constant) else None
                index = f"i{len(self.iteration)}"
                split_web = self._split_web(source, op)
                if split_web:
                    self.split_texts |= split_web
                    self.iteration[op] = IterationPlan("split", op, index, {})
                elif source_type in (STR, CHAR) and self.ctype(source) == "str":
                    self.iteration[op] = IterationPlan("str", op, index, {})
                elif isinstance(source_type, ListType) and self.ctype(source) == "list":
                    self.iteration[op] = IterationPlan("list", op, index, {})
                elif isinstance(source_type, TupleType) and self.ctype(source) == "tuple":
                    self.iteration[op] = IterationPlan("tuple", op, index, {})
                elif isinstance(source_type, RangeType) and self._range_call(source) is not None:
                    self.iteration[op] = IterationPlan("range", op, index, {"call": source})
                    self.folded.add(source)
                elif (enumerated := enumerate_loops.enumerate_plan(op, self.users)) is not None:
                    self.iteration[op] = IterationPlan("enumerate", op, index, enumerated)
                    self.folded |= enumerate_loops.folded_ops(self.iteration[op])
                else:
                    continue
                self.index_decls[index] = "size_t" if self.iteration[op].kind == "range" else "Py_ssize_t"

    def _generic_loops(self) -> set:
        """The get_iter ops of loops no plan above covers and whose iterator only the loop reads: emitted with
        ``mj_for_begin``/``mj_for_next`` (``prelude.py``: an exact list or tuple read by index, without its
        iterator)."""
        return {op for block in self.fn.blocks for op in block.ops
                if isinstance(op, ops.GetIter) and op not in self.iteration and self.users.get(op)
                and all(isinstance(user, ops.ForIter) and user.iterator is op for user in self.users[op])}

    def _released_on_loop_exits(self) -> dict:
        """The edges leaving a loop that holds an iterator object or a temporary — a generic loop, an enumerate
        loop, an index loop over a list or tuple only the loop reads — with the values whose variables are emptied
        there: the loop's exhaustion, a ``break``, an exception caught outside it. CPython pops the iterator on
        those edges, so a generator is closed (its ``finally`` runs) and a temporary list freed before the code
        after the loop runs (a ``return`` needs nothing: the frame ends). Emptied: the iterator of a generic loop,
        the temporary an enumerate or index loop iterates (the emitter also empties its own variables: the
        iterator, the item taken last). The loop is its header and the blocks its body dominates; a variable a
        value the successor still reads shares is left alone."""
        loops = {getiter: [getiter] for getiter in self.generic_loops}
        for getiter, iteration in self.iteration.items():
            if iteration.kind == "enumerate":
                source = iteration.extra["source"]
            elif iteration.kind in ("list", "tuple"):
                source = getiter.obj
            else:
                continue
            temporary = (isinstance(source, ops.Op) and source not in self.fn.holders    # dead after: see below
                         and source in self.representative and self.decl_type(source) not in C_SCALARS)
            if temporary or iteration.kind == "enumerate" and self.ctype(source) != "list":
                loops[getiter] = [source] if temporary else []
        if not loops:
            return {}
        liveness = getattr(self, "_liveness", None)
        if liveness is None:                                 # coalescing off (ablation): nothing known, keep all
            return {}
        domtree = DominatorTree(self.fn.entry, Block.successors)
        headers = {block.terminator: block for block in self.fn.blocks}
        released: dict = {}
        for getiter, values in loops.items():
            for step in self.users[getiter]:
                header = headers[step]
                inside = {block for block in self.fn.blocks
                          if block is header or block in domtree.idom and domtree.dominates(step.body, block)}
                for block in inside:
                    for succ in block.successors():
                        if succ in inside:
                            continue
                        live = {self.representative.get(value, value) for value in liveness.live_in[succ]}
                        emptied = [value for value in values if self.representative.get(value, value) not in live]
                        released.setdefault((block, succ), []).append((getiter, emptied))
        return released

    def _emptied_by_releases(self) -> dict:
        """Release op (a local rebound to a constant or an argument, or deleted), frame end (an inlined callee
        returned) or ``pop_except`` (a handler is done) -> the values whose variables are emptied there, so that
        objects are freed where CPython frees them. At a ``pop_except``: the exception it stops handling. At a
        release: the released value and, through φs, the values it was copied from (a loop's item
        stays in the variable it was fetched into); at a frame end: what the callee's body defined (its locals'
        and its temporaries' values) but a result a φ of the block took (its variable holds the object). Each
        only when nothing reads it afterwards, no value read afterwards shares its variable and no local outside
        what ended holds it (then it stays, as in CPython)."""
        liveness = getattr(self, "_liveness", None)
        emptied: dict = {}
        order = {value: index for index, value in enumerate(self.fn.values())}    # a frame's set, in code order
        for block in self.fn.blocks if liveness is not None else ():     # coalescing off: nothing known
            ends = [op for op in block.ops if isinstance(op, (ops.Release, ops.FrameEnd, ops.PopExcept))]
            if not ends:
                continue
            after = liveness.live_after(block)
            for op in ends:
                live = after.get(op, frozenset())
                occupied = {self.representative.get(value, value) for value in live}
                if isinstance(op, ops.PopExcept):
                    sources = [op.previous.exc] if isinstance(op.previous, ops.PushExcInfo) else []
                    let_go = lambda value: value not in self.fn.holders  # noqa: E731
                elif isinstance(op, ops.FrameEnd):
                    passed_on = {value for phi in block.phis if phi in live for value in phi.incoming.values()}
                    sources = sorted((value for value in op.frame.defined if value in order and value not in passed_on),
                                     key=order.__getitem__)
                    let_go = lambda value: _held_within(self.fn.holders.get(value), op.frame.token)  # noqa: E731
                else:
                    sources = copied_from(op.value)
                    let_go = lambda value: _held_only_by(self.fn.holders.get(value), op.name)  # noqa: E731
                chosen = {}
                for value in sources:
                    variable = self.representative.get(value)
                    if (variable is not None and value not in live and variable not in occupied and let_go(value)
                            and self.decl_type(value) not in C_SCALARS and self.decl_type(value) != VIEW_TYPE):
                        chosen.setdefault(variable, value)
                if chosen:
                    emptied[op] = list(chosen.values())
        return emptied

    def _consumed_by_loops(self) -> dict:
        """Generic loops over a temporary only the loop reads (``for x in make():``): CPython's ``GET_ITER`` takes
        the object off its stack, so only the iterator holds it; the temporary's variable is emptied after the
        iterator is made, so that leaving the loop frees the object (closes a generator) at once."""
        consumed = {}
        for getiter in self.generic_loops:
            source = getiter.obj
            if (isinstance(source, ops.Op) and self.users.get(source) == [getiter] and source not in self.fn.holders
                    and source in self.representative and self.decl_type(source) not in C_SCALARS
                    and self.representative[source] is not self.representative.get(getiter, getiter)):
                consumed[getiter] = source
        return consumed

    def _split_web(self, source, getiter) -> set:
        """``for w in s.split()``, also through a φ with ``[]`` (``tokens = s.split() if s else []``): when the
        lists are only iterated here, the values hold the str to split (``''`` for the empty list) and the loop
        takes its words one at a time, as ``str.split()`` finds them (``mj_split_next`` in ``prelude.py``). Else
        empty."""
        if self.users.get(source) != [getiter]:
            return set()
        parts = list(source.incoming.values()) if isinstance(source, Phi) else [source]
        if isinstance(source, Phi) and any(isinstance(part, Phi) or self.users.get(part) != [source]
                                           for part in parts):
            return set()
        if not all(self._splits_whitespace(part) or isinstance(part, ops.BuildList) and not part.items
                   for part in parts) or not any(self._splits_whitespace(part) for part in parts):
            return set()
        return {source, *parts}

    def _splits_whitespace(self, value) -> bool:
        """``s.split()`` on a str variable (Cython calls ``PyUnicode_Split`` for it: str's own split)."""
        return (isinstance(value, ops.CallMethod) and value.name == "split" and not value.args
                and not value.kwnames and self.ctype(value.obj) == "str")

    def _range_call(self, value):
        """The args of ``range(...)`` when it is used only by one get_iter and all args are native ints."""
        if not (isinstance(value, ops.Call) and isinstance(value.func, Constant) and value.func.value is range
                and not value.kwnames and 1 <= len(value.args) <= 3):
            return None
        if len(self.users.get(value, [])) != 1:
            return None
        if not all(self.ctype(a) == "Py_ssize_t" for a in value.args):
            return None
        return value.args

    def _plan_slices(self) -> None:
        for block in self.fn.blocks:
            for op in block.ops:
                if isinstance(op, ops.BuildSlice):
                    users = self.users.get(op, [])
                    if users and self._native_bounds(op) and all(
                            isinstance(u, (ops.GetItem, ops.SetItem, ops.DelItem)) and u.key is op
                            and op not in (getattr(u, "obj", None), getattr(u, "value", None))
                            and self._sliceable(u) for u in users):
                        self.inline_slices.add(op)

    def _native_bounds(self, op) -> bool:
        """Bounds and step that slice syntax converts as CPython does: omitted, or native ints. (Cython converts
        other bounds itself: a float fails to compile, a str is not refused, a huge int overflows instead of
        being clamped.)"""
        return all(isinstance(v, Constant) and v.value is None or self.ctype(v) == "Py_ssize_t"
                   for v in (op.start, op.stop, op.step))

    def _sliceable(self, user) -> bool:
        """Whether ``obj[a:b]`` syntax is exact for this container: Cython slices other objects through its own
        helpers, whose errors differ from CPython's (e.g. "unsliceable" for "is not subscriptable")."""
        return self.ctype(user.obj) in (("str", "list", "tuple") if isinstance(user, ops.GetItem) else ("list",))

    def _plan_char_buffers(self) -> None:
        """Lists of characters that are only appended to, tested, measured and joined with '' become
        CharBuffers (φs joining such lists included); any other use keeps them Python lists. A buffer that is no
        φ's input is dead when its op runs again (nothing but its own uses ever held it), so a loop empties and
        reuses it instead of making a new one (``reused_buffers``). A loop reading a joined buffer's array
        (``joined_loops``) cannot see that: the buffer's op dominates the join, which comes before the loop's
        ``get_iter``, so the op can only run again after the loop has been left."""
        parent: dict = {}

        def find(v):
            while parent.get(v, v) is not v:
                v = parent[v]
            return v

        candidates = [op for block in self.fn.blocks for op in block.ops
                      if isinstance(op, ops.BuildList) and not op.items and op.type == ListType(CHAR)]
        phis = [phi for block in self.fn.blocks for phi in block.phis]
        members = set(candidates) | set(phis)
        changed = True
        while changed:          # optimistic: a φ stays in the web while all its inputs are candidates or web φs
            changed = False
            for phi in phis:
                if phi in members and not all(v in members for v in phi.incoming.values()):
                    members.discard(phi)
                    changed = True
        for phi in phis:
            if phi in members:
                for value in phi.incoming.values():
                    a, b = find(phi), find(value)
                    if a is not b:
                        parent[a] = b
        groups: dict = {}
        for value in members:
            groups.setdefault(find(value), []).append(value)
        for group in groups.values():
            if all(self._buffer_use_ok(user, value, members) for value in group
                   for user in self.users.get(value, [])) and not any(v in self.undefined for v in group):
                self.char_buffers.update(group)
                if len(group) == 1:
                    self.reused_buffers.update(group)

    def _plan_nested_char_buffers(self) -> None:
        """A list of lists of characters that never leaves the function — its items only made here (``[]`` or
        ``[ch]``), appended to through a subscript (``words[-1].append(ch)``) and joined with '' in a loop over it
        — keeps its items as CharBuffers: the outer list stays a list (its errors, e.g. ``[][-1]``, are the
        list's), only what it holds changes, and nothing outside the function can see them."""
        phi_inputs = {value for block in self.fn.blocks for phi in block.phis for value in phi.incoming.values()}
        for block in self.fn.blocks:
            for op in block.ops:
                if (isinstance(op, ops.BuildList) and not op.items and isinstance(op.type, ListType)
                        and op not in phi_inputs and op not in self.undefined):
                    inner = self._nested_buffers(op, phi_inputs)
                    if inner:
                        self.char_buffers.update(inner)

    def _nested_buffers(self, outer, phi_inputs) -> set:
        """The values to keep as CharBuffers if every use of ``outer`` allows it, else an empty set."""
        found: set = set()
        for user in self.users.get(outer, []):
            if isinstance(user, (ops.CallMethod, ops.ListAppend)):
                target, args = (user.obj, user.args) if isinstance(user, ops.CallMethod) else (user.target,
                                                                                                [user.item])
                made = args[0] if len(args) == 1 else None
                if not (target is outer and (isinstance(user, ops.ListAppend) or (
                        user.name == "append" and not user.kwnames and not self.users.get(user)))
                        and isinstance(made, ops.BuildList) and self.users.get(made) == [user]
                        and made not in phi_inputs and all(self.is_char(item) for item in made.items)):
                    return set()
                found.add(made)
            elif isinstance(user, ops.GetItem) and user.obj is outer:
                if not (isinstance(user.key, Constant) and type(user.key.value) is int and user not in phi_inputs
                        and all(self._appends_char(use, user) for use in self.users.get(user, []))):
                    return set()
                found.add(user)
            elif isinstance(user, ops.GetIter) and user.obj is outer and user in self.iteration:
                for step in self.users.get(user, []):
                    if not (isinstance(step, ops.ForIter)
                            and all(self._joins(join, step) for join in self.users.get(step, []))):
                        return set()
                    found.add(step)
            elif not self._measures(user, outer):
                return set()
        return found

    def _plan_joined_loops(self) -> None:
        self.joined_loops = joined_loops(self)
        self.folded |= {getiter.obj for getiter in self.joined_loops}

    def is_char(self, value) -> bool:
        """A character in generated code: a ``Py_UCS4`` value or a one-character str constant."""
        if isinstance(value, Constant):
            return type(value.value) is str and len(value.value) == 1
        return self.ctype(value) == "Py_UCS4"

    def _buffer_use_ok(self, user, value, members) -> bool:
        if isinstance(user, Phi):
            return user in members
        if isinstance(user, ops.ListAppend):
            return user.target is value and user.item is not value and self.is_char(user.item)
        return self._appends_char(user, value) or self._joins(user, value) or self._measures(user, value)

    def _appends_char(self, user, value) -> bool:
        """``value.append(ch)`` of one character, its result unused."""
        return (isinstance(user, ops.CallMethod) and user.obj is value and user.name == "append"
                and len(user.args) == 1 and not user.kwnames and self.is_char(user.args[0])
                and not self.users.get(user))

    @staticmethod
    def _joins(user, value) -> bool:
        """``"".join(value)``."""
        return (isinstance(user, ops.CallMethod) and user.name == "join" and isinstance(user.obj, Constant)
                and user.obj.value == "" and user.args == [value] and not user.kwnames)

    @staticmethod
    def _measures(user, value) -> bool:
        """``len(value)`` or a truth test of it."""
        if isinstance(user, ops.Branch):
            return user.cond is value
        return (isinstance(user, ops.Call) and isinstance(user.func, Constant) and user.func.value is len
                and user.args == [value])

    def _plan_views(self) -> None:
        self.views = StrViews(self)

    def _plan_list_builds(self) -> None:
        self.list_builds = ListBuilds(self)
        self.folded |= self.list_builds.fused

    def _kept_unused(self) -> set:
        """Ops whose object a local of the user's code holds although nothing reads it (``current = make()`` in a
        loop): assigned to a variable anyway, so it lives until the local is rebound, as in CPython."""
        return {op for block in self.fn.blocks for op in block.ops
                if op in self.fn.holders and not self.users.get(op) and op not in self.folded
                and self.decl_type(op) not in C_SCALARS}

    def _share_variables(self) -> dict:
        """Which values share a variable (see ``coalesce.py``), told where the emitter reads each value. The strs
        views point into keep variables of their own."""
        not_emitted = self.folded | self.inline_slices | set(self.iteration) | self.char_buffers | self.views.roots
        candidates = [v for block in self.fn.blocks for v in [*block.phis, *block.instructions()]
                      if (self.users.get(v) or v in self.kept_unused) and v not in not_emitted]
        defines = lambda op: op not in not_emitted       # noqa: E731
        self._liveness = Liveness(self.fn, self.copies, set(candidates), self._reads, defines)
        return coalesce(self.fn, self.copies, candidates, self._variable_group, self._reads, defines,
                        self._liveness)

    def _released_at_suspensions(self) -> dict:
        """For each yield and await of a generator or coroutine, the variables holding only temporaries nothing
        reads after it (a bound ``__aexit__`` already called, an item already appended): emptied before the
        suspension, as CPython's stack has dropped them by then, so a suspended generator does not keep them
        alive. Variables a local of the user's code holds are left alone (``_variable_group``)."""
        if not self.fn.suspends:
            return {}
        members: dict = {}
        for value, rep in self.representative.items():
            members.setdefault(rep, []).append(value)
        domtree = DominatorTree(self.fn.entry, Block.successors)
        released: dict = {}
        for block in self.fn.blocks:
            suspensions = [op for op in block.ops if isinstance(op, (ops.Yield, ops.YieldFrom, ops.Await))]
            if not suspensions:
                continue
            after = self._liveness.live_after(block)
            position = {op: i for i, op in enumerate(block.ops)}
            for op in suspensions:
                kept = {self.representative.get(v, v) for v in after[op]}
                kept |= {self.representative.get(v, v) for v in [op, *self._reads(op)]}
                empty = []
                for rep, values in members.items():
                    if rep in kept or self._variable_group(rep) != (self.decl_type(rep), None):
                        continue
                    if any(self._holds_at(value, block, position, op, domtree) for value in values):
                        empty.append(rep)
                if empty:
                    released[op] = empty
        return released

    @staticmethod
    def _holds_at(value, block, position, op, domtree) -> bool:
        """Whether ``value`` has surely been assigned when ``op`` (in ``block``) runs: defined before it in the
        block, or in a block that dominates it."""
        if isinstance(value, Argument):
            return False                          # a parameter is a local: never a temporary
        defined_in = getattr(value, "block", None)
        if defined_in is None:
            return False
        if defined_in is block:
            return isinstance(value, Phi) or (value in position and position[value] < position[op])
        return domtree.dominates(defined_in, block)

    def _variable_group(self, value):
        """Values share a variable only within a group: the same declared C type and, for objects, the same local
        variable of the user's code (or none): assigning a variable releases what it held, and CPython releases
        a local's object only when the name is rebound or the frame ends (``Function.holders``)."""
        decl = self.decl_type(value)
        return decl if decl in C_SCALARS else (decl, self.fn.holders.get(value))

    def _reads(self, instruction) -> list:
        """The values the emitted code of ``instruction`` reads, where it is placed."""
        if instruction in self.folded or instruction in self.inline_slices:
            return []                              # read through their users instead
        if isinstance(instruction, ops.GetIter) and instruction in self.iteration:
            plan = self.iteration[instruction]
            if plan.kind == "enumerate":
                return [plan.extra["source"]]
            return self._expand(plan.extra["call"].args) if plan.kind == "range" else []
        if isinstance(instruction, ops.ForIter) and instruction.iterator in self.iteration:
            plan = self.iteration[instruction.iterator]
            if plan.kind == "enumerate":                  # the test and the unpacked items, at the loop's test
                return [plan.extra["source"]]
            return [] if plan.kind == "range" else self._expand([instruction.iterator.obj])
        return self._expand(instruction.operands())

    def _expand(self, values) -> list:
        out = []
        for value in values:
            if value in self.inline_slices:
                out.extend(self._expand([value.start, value.stop, value.step]))
            elif value in self.folded:
                out.extend(self._expand(value.operands()))
            else:
                out.append(value)
        return out


def _holder_parts(holder: str) -> list[tuple[str, tuple]]:
    """The locals a ``Function.holders`` entry names: (name, the inlined frames it is in, innermost first). An
    entry is ``name@scope``, then ``@token`` per inlining, more names joined by ``+`` (then ``#id``s;
    ``inline._in_frame``)."""
    parts = []
    for part in holder.split("+"):
        name, *rest = part.split("#")[0].split("@")
        parts.append((name, tuple(token for token in rest if token.startswith("inlined"))))
    return parts


def _held_only_by(holder: str | None, released: str) -> bool:
    """Whether no local but the released one (``name``, then ``@token`` per inlined frame it is in, as
    ``inline._splice`` names a callee's releases) holds the value: a temporary, a value of that local alone, or one
    also held by locals of calls the releasing code made and inlined (their frames ended when they returned)."""
    if holder is None:
        return True
    name, *frames = released.split("@")
    frames = tuple(frames)
    return all(part == (name, frames) or _inside(part[1], frames) for part in _holder_parts(holder))


def _held_within(holder: str | None, token: str) -> bool:
    """Whether only locals of the inlined frame ``token`` (or of frames inlined into it) hold the value."""
    return holder is None or all(token in frames for _, frames in _holder_parts(holder))


def _inside(frames: tuple, outer: tuple) -> bool:
    """Whether a local in inlined ``frames`` belongs to a call made, directly or not, from the code in ``outer``."""
    return len(frames) > len(outer) and frames[len(frames) - len(outer):] == outer

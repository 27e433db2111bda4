"""SSA values and operations: small final classes that list their operands and say whether they can raise.

Every op is a ``Value`` (ops without a meaningful result produce ``None`` at run time). Operands are declared by
name in ``OPERANDS`` (a field holding one ``Value``, ``None`` or a list of them); plain attributes in ``ATTRS``.
The printer, the verifier, the interpreter and every pass rely on these two declarations only, so adding an op is
adding a class here plus a row in the interpreter's table.
"""
from __future__ import annotations

from typing import Iterator


class Value:
    """Anything an op can use as an operand."""

    __slots__ = ("type",)

    def __init__(self):
        self.type = None  # filled in by type inference


class Argument(Value):
    """A parameter of the function, in signature order."""

    __slots__ = ("index", "name")

    def __init__(self, index: int, name: str):
        super().__init__()
        self.index = index
        self.name = name


class Constant(Value):
    """A Python constant (int, float, str, bytes, tuple of constants, None, a type or a builtin function)."""

    __slots__ = ("value",)

    def __init__(self, value):
        super().__init__()
        self.value = value


class UndefinedType(Value):
    """The value of a local that was never assigned (or was deleted) on some path; reading it must raise."""

    __slots__ = ()


UNDEFINED = UndefinedType()

# Constant types whose equal values are interchangeable (floats and complexes compare by their exact bits).
_VALUE_TYPES = (int, str, bytes, bool, type(None), float, complex, tuple)


def _constant_key(value):
    kind = type(value)
    if kind is float:
        return kind, value.hex()
    if kind is complex:
        return kind, value.real.hex(), value.imag.hex()
    if kind is tuple:
        return kind, tuple(_constant_key(v) for v in value)
    if kind in _VALUE_TYPES:
        return kind, value
    return kind, id(value)


def same_value(a: "Value", b: "Value") -> bool:
    """Whether two operands always hold the same object: the same value, or equal immutable constants
    (``1`` and ``1``, but never ``1`` and ``True`` or ``0.0`` and ``-0.0``)."""
    if a is b:
        return True
    return (isinstance(a, Constant) and isinstance(b, Constant)
            and _constant_key(a.value) == _constant_key(b.value))


class InlinedFrame:
    """The frame of a call the inliner replaced by the callee's body: the callee's name (what the printer shows),
    the token the holders of its locals carry (``Function.holders``: ``name@scope@token``) and the values its
    body defined, for ``FrameEnd``."""

    __slots__ = ("callee", "token", "defined")

    def __init__(self, callee: str, token: str, defined: frozenset):
        self.callee = callee
        self.token = token
        self.defined = defined

    def __repr__(self):
        return self.callee


class Op(Value):
    """Base of every operation; concrete subclasses are final."""

    __slots__ = ("line", "block")
    OPERANDS: tuple[str, ...] = ()
    ATTRS: tuple[str, ...] = ()
    CAN_RAISE = True          # may raise a Python exception (so it has the block's exceptional edge)
    SIDE_EFFECTS = True       # must be kept even when its result is unused
    MULTI = False             # produces several results, read with ExtractItem
    NAME = ""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "NAME" not in cls.__dict__:
            cls.NAME = "".join("_" + c.lower() if c.isupper() else c for c in cls.__name__).lstrip("_")

    def operands(self) -> Iterator[Value]:
        """Yield every operand in declaration order."""
        for field in self.OPERANDS:
            item = getattr(self, field)
            if isinstance(item, list):
                yield from item
            elif item is not None:
                yield item

    def replace_operand(self, old: Value, new: Value) -> None:
        """Replace every use of ``old`` by ``new`` in this op."""
        self.map_operands(lambda v: new if v is old else v)

    def map_operands(self, f) -> None:
        """Replace each operand ``v`` by ``f(v)``."""
        for field in self.OPERANDS:
            item = getattr(self, field)
            if isinstance(item, list):
                setattr(self, field, [f(v) for v in item])
            elif item is not None:
                setattr(self, field, f(item))

    def attrs(self) -> list:
        return [getattr(self, a) for a in self.ATTRS]

    def can_raise(self) -> bool:
        """Whether this op may raise (so it needs its block's exceptional edge)."""
        return self.CAN_RAISE

    def has_side_effects(self) -> bool:
        """Whether this op must stay even when nothing uses its result (raising aside)."""
        return self.SIDE_EFFECTS


def _op(name, operands=(), attrs=(), can_raise=True, side_effects=True, multi=False, doc=""):
    """Define a final op class with an ``__init__(*operands, *attrs, line=None)``."""
    fields = tuple(operands) + tuple(attrs)

    def __init__(self, *args, line=None):
        Op.__init__(self)
        if len(args) != len(fields):
            raise TypeError(f"{name} takes {fields}, got {len(args)} values")
        for field, arg in zip(fields, args):
            setattr(self, field, list(arg) if field in _LIST_FIELDS.get(name, ()) else arg)
        self.line = line
        self.block = None

    cls = type(name, (Op,), {
        "__slots__": fields, "__init__": __init__, "__doc__": doc,
        "OPERANDS": tuple(operands), "ATTRS": tuple(attrs),
        "CAN_RAISE": can_raise, "SIDE_EFFECTS": side_effects, "MULTI": multi,
    })
    return _with_fast_accessors(cls, _LIST_FIELDS.get(name, ()))


def _with_fast_accessors(cls, list_fields=()):
    """Give ``cls`` ``operands``/``map_operands`` (and ``successors`` for terminators) written out for its
    fields: the generic versions walk OPERANDS with getattr, and every pass calls these on every op."""
    lines = ["def operands(self):", "    out = []"]
    mapping = ["def map_operands(self, f):"]
    for field in cls.OPERANDS:
        if field in list_fields:
            lines.append(f"    out.extend(self.{field})")
            mapping.append(f"    self.{field} = [f(v) for v in self.{field}]")
        else:
            lines += [f"    v = self.{field}", "    if v is not None:", "        out.append(v)"]
            mapping += [f"    v = self.{field}", "    if v is not None:", f"        self.{field} = f(v)"]
    lines.append("    return out")
    mapping.append("    return None")
    source = "\n".join(lines + mapping) + "\n"
    targets = getattr(cls, "TARGETS", None)
    if targets is not None:
        source += f"def successors(self):\n    return [{', '.join('self.' + t for t in targets)}]\n"
    namespace: dict = {}
    exec(compile(source, f"<moshjit.ir.ops {cls.__name__}>", "exec"), namespace)
    for method in ("operands", "map_operands", "successors"):
        if method in namespace:
            namespace[method].__qualname__ = f"{cls.__name__}.{method}"
            setattr(cls, method, namespace[method])
    return cls


# Fields that hold a list of Values (everything else holds one Value or None).
_LIST_FIELDS = {
    "Call": ("args",), "CallMethod": ("args",), "SuperCallMethod": ("args",), "AwaitSelf": ("args",), "CallSelf": ("args",), "BuildTuple": ("items",), "BuildList": ("items",),
    "BuildSet": ("items",), "BuildMap": ("keys", "values"), "BuildString": ("parts",),
}

# ---- arithmetic and comparison -------------------------------------------------------------------------------
BinaryOp = _op("BinaryOp", ("left", "right"), ("op", "inplace"),
               doc="left <op> right; op is '+', '-', '*', '/', '//', '%', '**', '<<', '>>', '&', '|', '^', '@'; "
                   "inplace means the augmented form (x += y calls __iadd__).")
UnaryOp = _op("UnaryOp", ("operand",), ("op",), doc="op is 'neg', 'pos', 'invert' or 'not'.")
Compare = _op("Compare", ("left", "right"), ("op",),
              doc="op is '<', '<=', '==', '!=', '>', '>=', 'is', 'is not', 'in', 'not in'.")
Compare.can_raise = Compare.has_side_effects = lambda self: self.op not in ("is", "is not")

# ---- names -----------------------------------------------------------------------------------------------------
LoadGlobal = _op("LoadGlobal", (), ("name",), doc="Module global, then builtin; NameError when neither exists.")
LoadDeref = _op("LoadDeref", (), ("name", "index"),
                doc="Read the function's closure cell ``index`` (a free variable); NameError when empty.")
StoreGlobal = _op("StoreGlobal", ("value",), ("name",), can_raise=False,
                  doc="globals()[name] = value (``global`` statement); the module dict, as CPython's STORE_GLOBAL.")
DeleteGlobal = _op("DeleteGlobal", (), ("name",), doc="del globals()[name]; NameError when it is not there.")
MakeCell = _op("MakeCell", ("initial",), (), can_raise=False, side_effects=False,
               doc="A new cell holding initial (an empty cell when initial is UNDEFINED): a variable nested functions "
                   "share (MAKE_CELL).")
LoadCell = _op("LoadCell", (), ("name", "index"), can_raise=False, side_effects=False,
               doc="The cell object ``index`` of the function's own closure (to pass on or write it).")
CellGet = _op("CellGet", ("cell",), ("name", "kind"), side_effects=False,
              doc="The contents of cell; empty: UnboundLocalError (kind 'local') or NameError (kind 'free').")
CellSet = _op("CellSet", ("cell", "value"), (), can_raise=False, doc="Store value into cell (STORE_DEREF).")
CellDelete = _op("CellDelete", ("cell",), ("name", "kind"),
                 doc="Empty cell (DELETE_DEREF); raises as CellGet when it is already empty.")
CheckBound = _op("CheckBound", ("value",), ("name", "kind"),
                 doc="Return value, raising UnboundLocalError (kind 'local') if it is undefined.")
ImportName = _op("ImportName", ("fromlist", "level"), ("name",), doc="__import__(name, globals, None, fromlist, level)")
ImportFrom = _op("ImportFrom", ("module",), ("name",), doc="from-import of one name (ImportError if missing).")

# ---- attributes and items --------------------------------------------------------------------------------------
LoadAttr = _op("LoadAttr", ("obj",), ("name",))
StoreAttr = _op("StoreAttr", ("obj", "value"), ("name",))
DelAttr = _op("DelAttr", ("obj",), ("name",))
GetItem = _op("GetItem", ("obj", "key"))
SetItem = _op("SetItem", ("obj", "key", "value"))
DelItem = _op("DelItem", ("obj", "key"))
BuildSlice = _op("BuildSlice", ("start", "stop", "step"), can_raise=False, side_effects=False)

# ---- calls -----------------------------------------------------------------------------------------------------
Call = _op("Call", ("func", "args"), ("kwnames",),
           doc="func(*positional, **keywords); the last len(kwnames) args are the keyword values.")
CallMethod = _op("CallMethod", ("obj", "args"), ("name", "kwnames"), doc="obj.name(...), as LOAD_METHOD/CALL.")
SuperIs = _op("SuperIs", ("obj",), ("start", "name", "owner", "method"), side_effects=False,
              doc="Whether super(start, obj).name(...) would call ``method`` (a jitted method's dispatcher, or its "
                  "plain-function copy) with obj first: type(obj) is ``owner``, and the first class after start "
                  "in its MRO with the name in its dict holds ``method`` (instance attributes play no part).")
SuperCallMethod = _op("SuperCallMethod", ("cls", "obj", "args"), ("name", "kwnames"),
                      doc="super(cls, obj).name(...) without the super object: the method found after cls in "
                          "type(obj).__mro__ is called with obj first (through super's own lookup when obj is a "
                          "class, not an instance of cls, or nothing after cls has the name).")
CallEx = _op("CallEx", ("func", "posargs", "kwargs"), doc="func(*posargs, **kwargs); kwargs may be None.")
MethodIs = _op("MethodIs", ("obj",), ("name", "owner", "method"), side_effects=False,
               doc="Whether obj.name(...) would call ``method`` (a jitted method's dispatcher, or the plain-function "
                   "copy standing in for it) with obj first: type(obj) is ``owner``, with the generic attribute "
                   "lookup, the class finds it, and obj has no attribute of that name of its own (the guard of a "
                   "method's body inlined into its caller; looking in obj's dict may raise).")
MakeFunction = _op("MakeFunction", ("defaults", "kwdefaults", "annotations"), ("code",), can_raise=False,
                   side_effects=False, doc="A nested function without free variables (lambda keys, small helpers); "
                                           "annotations: None, or the tuple of names and values CPython keeps.")
MakeClosure = _op("MakeClosure", ("defaults", "kwdefaults", "closure", "annotations"), ("code",), can_raise=False,
                  side_effects=False, doc="A nested function whose free variables are the cells of closure (a tuple).")

# ---- displays ---------------------------------------------------------------------------------------------------
BuildTuple = _op("BuildTuple", ("items",), can_raise=False, side_effects=False)
BuildList = _op("BuildList", ("items",), can_raise=False, side_effects=False)
BuildSet = _op("BuildSet", ("items",), side_effects=False)
BuildMap = _op("BuildMap", ("keys", "values"), side_effects=False)
BuildString = _op("BuildString", ("parts",), can_raise=False, side_effects=False, doc="Concatenate str parts.")
FormatValue = _op("FormatValue", ("value", "spec"), ("conversion",),
                  doc="format(conv(value), spec); conversion is '', 's', 'r' or 'a'; spec may be None.")
ListAppend = _op("ListAppend", ("target", "item"), can_raise=False)
ListExtend = _op("ListExtend", ("target", "iterable"))
ListToTuple = _op("ListToTuple", ("source",), can_raise=False, side_effects=False)
SetAdd = _op("SetAdd", ("target", "item"))
SetUpdate = _op("SetUpdate", ("target", "iterable"))
MapAdd = _op("MapAdd", ("target", "key", "value"))
DictUpdate = _op("DictUpdate", ("target", "other"))
DictMerge = _op("DictMerge", ("target", "other", "func"),
                doc="Merge **other into call keywords; errors name the called function as CPython does.")

# ---- unpacking ------------------------------------------------------------------------------------------------
UnpackSequence = _op("UnpackSequence", ("source",), ("count",), multi=True,
                     doc="Unpack exactly count items (ValueError otherwise); read each with ExtractItem.")
UnpackEx = _op("UnpackEx", ("source",), ("before", "after"), multi=True,
               doc="Starred unpacking: before items, a list of the rest, after items.")
UnpackSequence.can_raise = lambda self: not (
    isinstance(self.source, (BuildTuple, BuildList)) and len(self.source.items) == self.count
    or isinstance(self.source, Constant) and isinstance(self.source.value, tuple)
    and len(self.source.value) == self.count)
# Unpacking a display or constant tuple of the right length iterates nothing a user wrote: no effect to keep.
UnpackSequence.has_side_effects = UnpackSequence.can_raise
ExtractItem = _op("ExtractItem", ("source",), ("index",), can_raise=False, side_effects=False,
                  doc="Item ``index`` of a multi-result op.")

# ---- iteration -------------------------------------------------------------------------------------------------
GetIter = _op("GetIter", ("obj",))
Yield = _op("Yield", ("value",), doc="Suspend the generator, producing value; the result is what send() passes in "
                                      "(None for next()); an exception thrown in with throw() or close() raises here.")
YieldFrom = _op("YieldFrom", ("value",),
                doc="``yield from value`` (PEP 380): iterate value (itself if a generator; a coroutine is refused "
                    "with TypeError), passing send(), throw() and close() through; the result is its return value.")
Await = _op("Await", ("value",), ("context",),
            doc="``await value`` in a coroutine: value's awaitable iterator (a coroutine, or what ``__await__`` "
                "returns; TypeError otherwise) delegated to like ``yield from``; the result is its return value. "
                "``context``: None for an ``await`` expression, ``'__aenter__'``/``'__aexit__'`` for what "
                "``async with`` awaits (CPython's TypeError then names it), ``'__anext__'`` for what GetANext "
                "made (already checked).")
CallSelf = _op("CallSelf", ("func", "args"), ("name",),
               doc="``func(*args)`` where ``func``, the global ``name`` when compiling, is the jitted function being "
                   "compiled and the argument kinds pin down this very specialisation (``passes/direct_calls.py``): "
                   "a backend may run its own entry's checks and body directly, without the dispatcher, and call "
                   "what ``name`` holds now when the names bound no longer hold.")
AwaitSelf = _op("AwaitSelf", ("func", "args"), ("result",),
                doc="``await func(*args)`` in a coroutine, where ``func`` is the jitted function being compiled and the "
                    "argument types pin down this very specialisation: its body runs in place, no coroutine made "
                    "(``passes/in_place_awaits.py`` proved it never suspends and runs no code that could rebind "
                    "``func``); ``result``: the type of what the body returns.")
GetAIter = _op("GetAIter", ("obj",),
               doc="``async for``'s GET_AITER: ``type(obj).__aiter__(obj)``, which must have ``__anext__`` "
                   "(CPython's TypeErrors otherwise).")
GetANext = _op("GetANext", ("aiter",),
               doc="``async for``'s GET_ANEXT: what the next item's Await op awaits: ``__anext__()``'s result made "
                   "awaitable as CPython's ``_PyCoro_GetAwaitableIter`` does (a coroutine as it is, else what its "
                   "``__await__`` returns, wrapped), with CPython's TypeErrors.")

# ---- structural pattern matching (PEP 634; CPython's MATCH_* opcodes) --------------------------------------------
MatchSequence = _op("MatchSequence", ("subject",), (), can_raise=False, side_effects=False,
                    doc="Whether type(subject) has Py_TPFLAGS_SEQUENCE (list, tuple, collections.abc.Sequence "
                        "registrations; never str, bytes, bytearray): MATCH_SEQUENCE.")
MatchMapping = _op("MatchMapping", ("subject",), (), can_raise=False, side_effects=False,
                   doc="Whether type(subject) has Py_TPFLAGS_MAPPING (dict, collections.abc.Mapping "
                       "registrations): MATCH_MAPPING.")
MatchClass = _op("MatchClass", ("subject", "cls", "names"), ("count",),
                 doc="MATCH_CLASS: if subject is an instance of cls, the tuple of its ``count`` positional "
                     "attributes (named by cls.__match_args__) then those named in the tuple ``names``; None when "
                     "it is not an instance or an attribute is missing; CPython's TypeErrors otherwise.")
MatchKeys = _op("MatchKeys", ("subject", "keys"), (),
                doc="MATCH_KEYS: the tuple of subject.get(key, <missing>) for each key of the tuple ``keys``, "
                    "or None as soon as one is missing; ValueError for a key checked twice.")

# ---- exceptions and context managers ----------------------------------------------------------------------------
CaughtException = _op("CaughtException", (), (), can_raise=False,
                      doc="First op of a handler block: the exception being propagated to it.")
PushExcInfo = _op("PushExcInfo", ("exc",), (), can_raise=False,
                  doc="Make exc the handled exception (sys.exception()); returns the previous one.")
PopExcept = _op("PopExcept", ("previous",), (), can_raise=False, doc="Restore the previously handled exception.")
Release = _op("Release", ("value",), ("name",), can_raise=False,
              doc="The local ``name`` held value and was rebound to a value computed elsewhere, or deleted: CPython "
                  "drops its reference here (a finalizer may run, a file opened into the local closes).")
FrameEnd = _op("FrameEnd", (), ("frame",), can_raise=False,
               doc="An inlined call (``frame``: an ``InlinedFrame``) has returned: CPython has cleared the callee's "
                   "frame here, dropping what its locals and its stack held.")
LoopTick = _op("LoopTick", (), (),
               doc="A loop's back-edge (``passes/loop_ticks.py``): where CPython's eval loop handles signals (running "
                   "their handlers, which may raise KeyboardInterrupt) and lets a thread that asked for the GIL run.")
CheckExcMatch = _op("CheckExcMatch", ("exc", "match"), side_effects=False,
                    doc="isinstance(exc, match) with the TypeError CPython raises for non-exception classes.")
RaiseIsCaught = _op("RaiseIsCaught", (), ("raised", "passed", "caught"), can_raise=False, side_effects=False,
                    doc="Whether ``raise raised(...)`` would make its exception without running Python code (the "
                        "class is called through type.__call__ and made with BaseException's own __new__ and "
                        "__init__, no __del__) and the except clauses it meets, in order, let it pass each of the "
                        "tuple ``passed`` and take it at ``caught``: the guard of a raise turned into a jump "
                        "(passes/local_raises.py).")
BeforeWith = _op("BeforeWith", ("manager",), ("asynchronous",), multi=True,
                 doc="Look up __enter__/__exit__, call __enter__: results are (bound __exit__, __enter__ result); "
                     "``asynchronous``: __aenter__/__aexit__ (``async with``; its Await ops await both results).")
WithExceptStart = _op("WithExceptStart", ("exit", "exc"), doc="exit(type(exc), exc, exc.__traceback__)")

OP_CLASSES = [cls for cls in list(globals().values())
              if isinstance(cls, type) and issubclass(cls, Op) and cls not in (Op,)]


# ---- φ and terminators ------------------------------------------------------------------------------------------
class Phi(Value):
    """φ: the value flowing in from each predecessor block (normal or exceptional)."""

    __slots__ = ("incoming", "block", "var")

    def __init__(self, block, var=None):
        super().__init__()
        self.incoming: dict = {}   # Block -> Value
        self.block = block
        self.var = var             # the source variable it merges (for readable printing), or None

    def operands(self) -> list[Value]:
        return list(self.incoming.values())

    def replace_operand(self, old: Value, new: Value) -> None:
        self.map_operands(lambda v: new if v is old else v)

    def map_operands(self, f) -> None:
        for pred, value in self.incoming.items():
            self.incoming[pred] = f(value)


class Terminator(Op):
    """Ends a block; ``successors()`` lists its normal successors."""

    __slots__ = ()
    TARGETS: tuple[str, ...] = ()

    def successors(self) -> list:
        return [getattr(self, t) for t in self.TARGETS]

    def replace_target(self, old, new) -> None:
        for t in self.TARGETS:
            if getattr(self, t) is old:
                setattr(self, t, new)


def _terminator(name, operands, targets, can_raise, doc):
    fields = tuple(operands) + tuple(targets)

    def __init__(self, *args, line=None):
        Op.__init__(self)
        if len(args) != len(fields):
            raise TypeError(f"{name} takes {fields}, got {len(args)} values")
        for field, arg in zip(fields, args):
            setattr(self, field, arg)
        self.line = line
        self.block = None

    return _with_fast_accessors(type(name, (Terminator,), {
        "__slots__": fields, "__init__": __init__, "__doc__": doc, "OPERANDS": tuple(operands),
        "TARGETS": tuple(targets), "CAN_RAISE": can_raise}))


Jump = _terminator("Jump", (), ("target",), False, "Unconditional jump.")
Branch = _terminator("Branch", ("cond",), ("if_true", "if_false"), True,
                     "Jump on the truth of cond (bool(cond) may raise).")
ForIter = _terminator("ForIter", ("iterator",), ("body", "exit"), True,
                      "next(iterator): the result is the item, defined only in ``body``; ``exit`` when exhausted.")
Return = _terminator("Return", ("value",), (), False, "Return value to the caller.")
Raise = _terminator("Raise", ("exc", "cause"), (), True,
                    "raise exc [from cause]. exc None (no operand) is a bare ``raise`` of the handled exception; "
                    "cause None (no operand) means no ``from`` clause, Constant(None) means ``from None``.")
Reraise = _terminator("Reraise", ("exc",), (), True, "Re-raise exc keeping its traceback (end of a handler).")

TERMINATOR_CLASSES = [Jump, Branch, ForIter, Return, Raise, Reraise]

"""Type inference for native code: the standard inference plus what the LLVM backend needs to know.

On top of ``moshjit.passes.typeinfer`` it
- types ``**`` (int ** non-negative int is an int, a negative exponent gives a float), ``math`` constants and
  calls of builtin exception classes with constant arguments (used by ``raise``);
- types calls of jitted and plain Python functions by inferring the callee for the (normalised) argument types,
  iterating to a fixed point for recursion (``CallGraph``);
- forgets int ranges of list items (lists are mutable: only "fits in int64" is sure for an item), so arithmetic
  on items is always overflow-checked;
- lets lists flow into tuples, other lists and native calls (every write into a list is checked against the
  list's item type when lowering, so a list never holds an item of another kind).
"""
from __future__ import annotations

import builtins
import inspect
import math
import types
from dataclasses import dataclass
from typing import TYPE_CHECKING

from moshjit.backends.llvm.cold_paths import error_paths, is_builtin_exception
from moshjit.functions import jitted_function
from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Constant
from moshjit.ir.types import (BOOL, BOTTOM, FLOAT, INT, INT64, NONE, OBJECT, ArrayType, ConstType, IntType,
                              IteratorType, ListType, MType, TupleType, join, tuple_of)
from moshjit.passes.releases import strip_releases
from moshjit.passes.typeinfer import TypeInference, returned_type

if TYPE_CHECKING:
    from moshjit.context import CompileContext

MATH_CONSTANTS = {"pi", "e", "tau", "inf", "nan"}
MAX_RECURSION_ROUNDS = 6


@dataclass(frozen=True)
class ExceptionType(MType):
    """An instance of builtin exception class ``cls`` built from constant ``args`` (only ever raised)."""
    cls: type
    args: tuple

    def describe(self) -> str:
        return f"exception<{self.cls.__name__}>"


@dataclass(frozen=True)
class SliceType(MType):
    """A slice object; its bounds are read from the ``build_slice`` op when it is used."""

    def describe(self) -> str:
        return "slice"


SLICE = SliceType()


def normalize(t: MType) -> MType:
    """The type of a value as native code knows it for sure: ints are int64, list items lose their ranges."""
    if isinstance(t, IntType):
        return INT64
    if isinstance(t, ListType):
        return ListType(normalize(t.item))
    if isinstance(t, TupleType):
        if t.items is None:
            return TupleType(None, normalize(t.item))
        return tuple_of(normalize(i) for i in t.items)
    if isinstance(t, IteratorType) and isinstance(t.source, ListType):
        return IteratorType(normalize(t.source), normalize(t.item))
    return t


def _forget_item_ranges(t: MType) -> MType:
    if isinstance(t, ListType):
        return ListType(normalize(t.item))
    if isinstance(t, TupleType) and t.items is not None and any(isinstance(i, ListType) for i in t.items):
        return tuple_of(_forget_item_ranges(i) for i in t.items)
    if isinstance(t, IteratorType) and isinstance(t.source, ListType):
        return IteratorType(normalize(t.source), normalize(t.item))
    return t


def python_callee(value) -> types.FunctionType | None:
    """The Python function a call compiles natively: a jitted function's ``py_func`` or a plain function."""
    return value if isinstance(value, types.FunctionType) else jitted_function(value)


def bind_arguments(callee: types.FunctionType, call: ops.Call) -> list | None:
    """The caller's value for each parameter of ``callee`` (defaults become Constants), or None when the call
    does not bind statically to plain positional-or-keyword parameters."""
    code = callee.__code__
    if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) or code.co_kwonlyargcount or callee.__closure__:
        return None
    names = code.co_varnames[:code.co_argcount]
    split = len(call.args) - len(call.kwnames)
    bound: list = list(call.args[:split])
    keywords = dict(zip(call.kwnames, call.args[split:]))
    if len(bound) > len(names) or len(keywords) != len(call.kwnames):
        return None
    defaults = callee.__defaults__ or ()
    first_default = len(names) - len(defaults)
    for i in range(len(bound), len(names)):
        if names[i] in keywords:
            bound.append(keywords.pop(names[i]))
        elif i >= first_default:
            bound.append(Constant(defaults[i - first_default]))
        else:
            return None
    return None if keywords else bound


@dataclass
class Signature:
    """One native function in the module being built: a Python function specialised for argument types."""
    py_function: types.FunctionType
    arg_types: tuple
    ir: Function | None = None
    ctx: CompileContext | None = None         # the context ``ir`` was built in (global types assumed)
    return_type: MType = BOTTOM
    in_progress: bool = False
    recursive: bool = False
    symbol: str = ""
    error_paths: frozenset = frozenset()      # blocks that may be left to the interpreter (``cold_paths``)
    cold: frozenset = frozenset()             # those that are, decided with the representations (``module``)


class CallGraph:
    """Every function specialisation reachable from the compiled function by native calls."""

    def __init__(self, ctx: CompileContext):
        self.ctx = ctx                            # builds callees' typed SSA (standard inference)
        self.signatures: dict[tuple, Signature] = {}
        self.order: list[Signature] = []
        self.stack: list[Signature] = []          # signatures being inferred, outermost first

    def infer(self, py_function, arg_types, ir: Function | None = None, ctx: CompileContext | None = None) \
            -> Signature:
        """Infer (or look up) ``py_function`` for ``arg_types``; ``ir`` reuses already-built SSA (typed in
        ``ctx``)."""
        key = (py_function, tuple(arg_types))
        sig = self.signatures.get(key)
        if sig is not None:
            if sig.in_progress:                   # a call cycle: every function on it checks the depth
                for member in self.stack[self.stack.index(sig):]:
                    member.recursive = True
            return sig
        sig = Signature(py_function, tuple(arg_types), ir, ctx, symbol=f"mj_{len(self.order)}_{_c_name(py_function)}")
        self.signatures[key] = sig
        self.order.append(sig)
        sig.in_progress = True
        self.stack.append(sig)
        if sig.ir is None:
            sig.ir, sig.ctx = self.ctx.typed_callee(py_function, list(arg_types))
        strip_releases(sig.ir)      # native values free nothing. Callees' and continuations' IR are fresh copies;
                                    # the backend's root IR is stripped already (``_decide`` puts them back)
        sig.error_paths = error_paths(sig.ir, arg_types)
        mark = len(self.order)
        for _ in range(MAX_RECURSION_ROUNDS):
            NativeInference(sig.ir, list(arg_types), sig.ctx, self, sig.error_paths).run_native()
            new = normalize(returned_type(sig.ir))
            if new == sig.return_type or not sig.recursive:
                sig.return_type = new
                break
            sig.return_type = new
            for stale in self.order[mark:]:        # callees inferred under the old assumption
                del self.signatures[(stale.py_function, stale.arg_types)]
            del self.order[mark:]
        else:
            sig.return_type = OBJECT
        sig.in_progress = False
        self.stack.pop()
        return sig


def _c_name(py_function) -> str:
    return "".join(c if c.isalnum() else "_" for c in py_function.__name__)[:40]


class NativeInference(TypeInference):
    """The standard inference with the native rules described in the module docstring."""

    def __init__(self, fn: Function, arg_types: list[MType], ctx: CompileContext | None, graph: CallGraph,
                 error_paths: frozenset = frozenset()):
        super().__init__(fn, arg_types, ctx)
        self.graph = graph
        self.error_paths = error_paths            # may be left to the interpreter: no native callees inferred there

    def run_native(self) -> None:
        self.run()
        for arg, t in zip(self.fn.args, [self.types.get(a, BOTTOM) for a in self.fn.args]):
            arg.type = t
        for block in self.fn.blocks:
            for inst in [*block.phis, *block.instructions()]:
                if inst.type is None:
                    inst.type = BOTTOM

    def type_of(self, value, block=None) -> MType:
        return _forget_item_ranges(super().type_of(value, block))

    def _harmless_use(self, user, value) -> bool:
        return True

    def _container_writes(self, op, block) -> None:
        """Also the items of a list display, on every sweep: seeding them once, before the items are typed,
        would leave ``[row]`` a list of nothing."""
        super()._container_writes(op, block)
        if isinstance(op, ops.BuildList) and op in self.cells:
            cell = self.cells[op].root()
            for item in op.items:
                cell.item = join(cell.item, self.type_of(item, block))

    def _op_type(self, op, block) -> MType:
        t = lambda v: self.type_of(v, block)
        kind = type(op)
        if kind in (ops.BinaryOp, ops.Compare):
            left, right = t(op.left), t(op.right)
            if BOTTOM in (left, right):
                return BOTTOM
            if kind is ops.BinaryOp and op.op == "**":
                return _power_type(left, right, op.left, op.right)
            if kind is ops.Compare and isinstance(left, ListType) and isinstance(right, ListType):
                return BOOL
            if kind is ops.Compare and op.op in ("==", "!=") and NONE in (left, right) \
                    and all(isinstance(t, IntType) or t in (FLOAT, BOOL, NONE) for t in (left, right)):
                return BOOL                       # None == number is False, never an error
            if kind is ops.BinaryOp and op.op == "+" and isinstance(left, TupleType) and isinstance(right, TupleType) \
                    and left.items is not None and right.items is not None:
                return tuple_of(left.items + right.items)
            if kind is ops.BinaryOp and op.op == "*" and isinstance(right, ListType) \
                    and (isinstance(left, IntType) or left == BOOL):
                return right
        if kind is ops.UnaryOp and t(op.operand) == BOTTOM:
            return BOTTOM
        if kind is ops.LoadAttr:
            return self._attribute_type(op, t(op.obj))
        if kind is ops.BuildSlice:
            return SLICE
        if kind in (ops.UnpackSequence, ops.UnpackEx):
            return t(op.source)
        if kind is ops.GetItem:
            obj = t(op.obj)
            if isinstance(obj, ArrayType):
                return self._array_item_type(obj, op.key, block)
        if kind is ops.GetIter and isinstance(t(op.obj), ArrayType):
            array = t(op.obj)
            return IteratorType(array, _array_item(array))
        if kind is ops.CallMethod and op.name == "pop" and isinstance(t(op.obj), ListType):
            return normalize(t(op.obj).item)
        return super()._op_type(op, block)

    def _attribute_type(self, op, obj: MType) -> MType:
        if isinstance(op.obj, Constant) and op.obj.value is math and op.name in MATH_CONSTANTS:
            return FLOAT
        numpy = isinstance(obj, ArrayType) and obj.container == "ndarray"   # array.array has none of these
        if numpy and op.name == "shape":
            return tuple_of([IntType(0, INT64.hi)] * obj.ndim)
        if numpy and op.name in ("size", "ndim"):
            return IntType(0, INT64.hi)
        return OBJECT

    def _array_item_type(self, array: ArrayType, key, block) -> MType:
        index = self.type_of(key, block)
        if isinstance(index, IntType) or index == BOOL:
            return _array_item(array)
        if isinstance(index, TupleType) and index.items is not None and len(index.items) == array.ndim \
                and array.container == "ndarray" and all(isinstance(i, IntType) for i in index.items):
            return FLOAT if array.dtype.startswith("float") else INT64
        return OBJECT

    def _call_type(self, op, block) -> MType:
        func = self.type_of(op.func, block)
        if isinstance(func, ConstType):
            target = func.value
            callee = python_callee(target)
            if callee is not None:
                if block in self.error_paths:         # the interpreter may make this call: no native callee
                    return super()._call_type(op, block)
                return self._native_call_type(callee, op, block)
            if is_builtin_exception(target):
                if op.kwnames or not all(isinstance(a, Constant) and isinstance(a.value, str) for a in op.args) \
                        or len(op.args) > 1:
                    return OBJECT
                return ExceptionType(target, tuple(a.value for a in op.args))
            args = [self.type_of(a, block) for a in op.args]
            if BOTTOM in args:
                return BOTTOM
            if target is builtins.sum and len(args) == 1 and not _sums_to_int(args[0]):
                return OBJECT              # sum([]) is the int 0 even for a list meant to hold floats
            if target is builtins.sum and len(args) == 2 and args[1] == FLOAT:
                return FLOAT
            if target is builtins.divmod and len(args) == 2 and FLOAT in args \
                    and all(a == FLOAT or isinstance(a, IntType) or a == BOOL for a in args):
                return tuple_of([FLOAT, FLOAT])
            if target is builtins.round and len(args) == 1 and args[0] == FLOAT:
                return INT
            if target is builtins.len and isinstance(args[0] if args else None, ArrayType):
                return IntType(0, INT64.hi)
        return super()._call_type(op, block)

    def _native_call_type(self, callee, op, block) -> MType:
        bound = bind_arguments(callee, op)
        if bound is None:
            return OBJECT
        arg_types = [normalize(self.type_of(v, block)) for v in bound]
        if BOTTOM in arg_types or any(a == OBJECT for a in arg_types):
            return BOTTOM if BOTTOM in arg_types else OBJECT
        return self.graph.infer(callee, arg_types).return_type


def _array_item(array: ArrayType) -> MType:
    """An item of a 1-d array (a Python int or float), or a row of a 2-d one."""
    if array.ndim == 2:
        return ArrayType(array.dtype, 1, array.container)
    return FLOAT if array.dtype.startswith("float") else INT64


def _sums_to_int(t: MType) -> bool:
    from moshjit.primitives.signatures import item_type
    item = item_type(t)
    return isinstance(item, IntType) or item == BOOL


def _power_type(base: MType, exponent: MType, base_value, exponent_value) -> MType:
    """int ** non-negative int is an int; with a negative exponent (or any float) the result is a float,
    except a negative base with a fractional exponent, which CPython turns into a complex number: a float
    exponent is accepted only with an integral constant exponent or a base proven non-negative."""
    base = IntType(0, 1) if base == BOOL else base
    exponent = IntType(0, 1) if exponent == BOOL else exponent
    if isinstance(base, IntType) and isinstance(exponent, IntType):
        if exponent.lo is not None and exponent.lo >= 0:
            return INT
        if exponent.hi is not None and exponent.hi < 0:
            return FLOAT
        return OBJECT
    if not (isinstance(base, IntType) or base == FLOAT) or not (isinstance(exponent, IntType) or exponent == FLOAT):
        return OBJECT
    if isinstance(exponent, IntType):
        return FLOAT
    if isinstance(exponent_value, Constant) and float(exponent_value.value).is_integer():
        return FLOAT
    if isinstance(base, IntType) and base.lo is not None and base.lo >= 0 or _nonnegative_float(base_value):
        return FLOAT
    return OBJECT


NONNEGATIVE_FUNCTIONS = {builtins.abs, math.fabs, math.sqrt, math.exp, math.cosh}


def _nonnegative_float(value, depth: int = 8) -> bool:
    """A float value that is never negative by construction (NaN aside, which ** keeps a float; -0.0 is not
    negative): a square, a sum, product or quotient of such values (``dx * dx + dy * dy``), ``abs``, ``sqrt``..."""
    if isinstance(value, Constant):
        return isinstance(value.value, (int, float)) and not value.value < 0
    if isinstance(value, ops.Call) and isinstance(value.func, Constant):
        try:
            return value.func.value in NONNEGATIVE_FUNCTIONS
        except TypeError:
            return False
    if not isinstance(value, ops.BinaryOp) or depth == 0:
        return False
    if value.op == "*" and value.left is value.right:
        return True
    return value.op in ("+", "*", "/") and _nonnegative_float(value.left, depth - 1) \
        and _nonnegative_float(value.right, depth - 1)

"""Resolve, at compile time, the globals that name modules, functions and classes (as Numba does).

``load_global`` of such a name, ``load_deref`` of a closure cell holding one, and ``load_attr`` of a module
attribute that is one, become constants (and ``call_method`` of such a module attribute — ``math.sqrt(x)`` where the
compiler did not know ``math`` is a module — a ``call`` of the constant), so that
type inference and the backends can see which function is called. Other globals (data: vocabularies, tables,
counters) stay ``load_global`` and are read at call time, so rebinding them is seen. A name the function itself
assigns or deletes (``global`` statement) is never resolved, nor a closure cell the function writes or hands to a
nested function (``nonlocal``): either may rebind it between two reads — nor a name any function of the same module
writes (``global`` in another function: a call may run it, and the entry's check comes before), nor any global of
a function that calls ``globals()`` itself (it may write any name through the dict; a sibling that does so
during a call is, like ``setattr(module, ...)``, seen at the next call's check). What was resolved
is recorded in the compile
context's ``resolved_globals`` and ``dependencies``, and where each name was found in ``bindings``: compiled entries
check on every call that those names still hold (``moshjit.bindings``). A name in ``ctx.volatile_globals`` (found
rebound after an earlier compile) is never resolved again.
"""
from __future__ import annotations

import dis
import types
import weakref
from typing import TYPE_CHECKING

from moshjit.analysis.reachable import reachable_from
from moshjit.bindings import MISSING, Binding
from moshjit.functions import builtins_of, jitted_function
from moshjit.ir import ops
from moshjit.ir.function import Block, Function
from moshjit.ir.ops import Constant
from moshjit.primitives.namespaces import call_in_frame, frame_globals

if TYPE_CHECKING:
    from moshjit.context import CompileContext


def is_resolvable(value) -> bool:
    """Modules, functions (Python, builtin or jitted) and classes are bound when compiling, and objects whose class
    says its instances are fixed for good (``__moshjit_constant__ = True``: a rewritten match's ``ArgsSite``)."""
    return (isinstance(value, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type))
            or jitted_function(value) is not None or getattr(type(value), "__moshjit_constant__", False) is True)


def written_globals(fn: Function) -> set[str]:
    """The module globals ``fn`` assigns or deletes itself (``global x; x = ...``, ``del x``)."""
    return {op.name for block in fn.blocks for op in block.ops if isinstance(op, (ops.StoreGlobal, ops.DeleteGlobal))}


_STORES = ("STORE_GLOBAL", "DELETE_GLOBAL")
_stored_names: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # code -> globals it writes


def _stores_of(code: types.CodeType) -> frozenset:
    """The globals ``code`` and the code nested in it (inner functions, lambdas, comprehensions) write."""
    found = _stored_names.get(code)
    if found is None:
        names = {i.argval for i in dis.get_instructions(code) if i.opname in _STORES}
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                names |= _stores_of(const)
        found = _stored_names[code] = frozenset(names)
    return found


def _plain(value):
    """``value`` if it is a Python function, the one behind it if it is jitted or a static/class method."""
    if isinstance(value, types.FunctionType):
        return value
    if isinstance(value, (staticmethod, classmethod)):
        return _plain(value.__func__)
    return jitted_function(value)


def _functions_of(value):
    """The Python functions behind a module global: itself, a jitted function's, a class's methods (read from the
    class's own ``__dict__``: nothing of the class or of an object runs)."""
    if isinstance(value, type):
        for member in vars(value).values():
            members = (member.fget, member.fset, member.fdel) if isinstance(member, property) else (member,)
            yield from filter(None, map(_plain, members))
    elif not isinstance(value, types.ModuleType):
        function = _plain(value)
        if function is not None:
            yield function


def hands_over_its_namespace(op) -> bool:
    """Whether ``op`` hands the function's namespace to a builtin that reads the frame (``globals()``,
    ``eval(source)``, ...: the frontend's ``frame_globals`` and ``call_in_frame`` calls), which may write any name
    in it."""
    return isinstance(op, ops.Call) and isinstance(op.func, Constant) \
        and (op.func.value is frame_globals or op.func.value is call_in_frame)


def loads_after_namespace_handover(fn: Function) -> set:
    """The global loads that may run after such a handover in the same call (later in its block, or in any block
    reachable from it, handlers included): the names they read may have been rebound through the dict. Loads that
    run before every handover read what the entry check saw."""
    after, successors = set(), []
    for block in fn.blocks:
        handed_over = False
        for op in block.ops:
            if handed_over and isinstance(op, ops.LoadGlobal):
                after.add(op)
            handed_over = handed_over or hands_over_its_namespace(op)
        if handed_over:
            successors.extend(block.successors())
    after.update(op for block in reachable_from(successors, Block.successors)
                 for op in block.ops if isinstance(op, ops.LoadGlobal))
    return after


def written_in_module(namespace: dict) -> frozenset:
    """The globals of ``namespace`` that functions defined there (and their classes' methods) write."""
    names: set = set()
    for value in list(namespace.values()):
        for function in _functions_of(value):
            if function.__globals__ is namespace:
                names |= _stores_of(function.__code__)
    return frozenset(names)


def resolve_globals(fn: Function, ctx: CompileContext | None = None) -> Function:
    """Replace resolvable loads by constants; what was bound is recorded in ``ctx.resolved_globals``."""
    resolved: dict = ctx.resolved_globals if ctx is not None else {}
    bindings: list = ctx.bindings if ctx is not None else []
    volatile = ctx.volatile_globals if ctx is not None else frozenset()
    replacements: dict = {}
    builtins_ = builtins_of(fn.globals)
    written = written_globals(fn) | written_in_module(fn.globals)
    rebindable = loads_after_namespace_handover(fn)
    shared_cells = {op.index for block in fn.blocks for op in block.ops if isinstance(op, ops.LoadCell)}
    for block in fn.blocks:
        kept = []
        for op in block.ops:
            op.map_operands(lambda v: replacements.get(v, v))
            found = _resolve(op, fn, builtins_)
            if found is not None and is_resolvable(found.value) and found.label not in volatile and not (
                    isinstance(op, ops.LoadGlobal) and (op in rebindable or op.name in written)
                    or isinstance(op, ops.LoadDeref) and op.index in shared_cells):
                name, obj = found.label, found.value
                resolved[name] = obj
                bindings.append(found)
                if ctx is not None:
                    ctx.record_dependency(obj)
                if isinstance(op, ops.CallMethod):        # module.function(...): a call of the function
                    call = ops.Call(Constant(obj), list(op.args), op.kwnames, line=op.line)
                    call.block = block
                    kept.append(call)
                    replacements[op] = call
                else:
                    replacements[op] = Constant(obj)
            else:
                kept.append(op)
        block.ops = kept
        block.terminator.map_operands(lambda v: replacements.get(v, v))
    fn.substitute(replacements)
    return fn


def _resolve(op, fn: Function, builtins_: dict) -> Binding | None:
    """Where a load finds its object now (a ``Binding``), else None. A module attribute is resolved only when the
    module's ``__dict__`` holds it (not one its ``__getattr__`` makes), so the entry check can look it up."""
    if isinstance(op, ops.LoadGlobal):
        binding = Binding(fn.globals, op.name, None, builtins_, op.name)
    elif isinstance(op, ops.LoadDeref) and op.index < len(fn.closure):
        binding = Binding(fn.closure[op.index], op.name, None, None, f"<closure>.{op.name}")
    elif isinstance(op, (ops.LoadAttr, ops.CallMethod)) and isinstance(op.obj, Constant) \
            and isinstance(op.obj.value, types.ModuleType):
        module = op.obj.value
        binding = Binding(module.__dict__, op.name, None, None, f"{module.__name__}.{op.name}")
    else:
        return None
    value = binding.current()          # an empty cell or a missing name: the load raises at run time
    return None if value is MISSING else binding._replace(value=value)

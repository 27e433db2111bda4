"""Reference interpreter of the SSA IR: executes a ``Function`` in Python with CPython's exact semantics.

It is the oracle for the frontend (``to_ssa(f).run(...) == f(...)``) and for the backends. Each op's meaning is
one row in ``EVALUATORS``; where CPython's bytecode raises with its own wording (``{**x}``, ``[*x]``, unpacking),
the row reproduces that wording.

The handled exception (``sys.exception()``) is the thread's real one: ``push_exc_info``/``pop_except`` set it
through ``PyErr_SetHandledException``, so functions called from a handler see it, a bare ``raise`` in them
re-raises it, and CPython itself chains ``__context__`` on every raise exactly as in the compiled function.
Evaluators raise their own errors outside of ``except`` clauses for the same reason: an exception raised while
the interpreter handles another one would be chained to the wrong exception.
"""
from __future__ import annotations

import ctypes
import operator
import sys
import types
from typing import TYPE_CHECKING

from moshjit import async_reference, match_reference
from moshjit.functions import builtins_of, class_attribute, dispatcher_behind
from moshjit.ir import ops
from moshjit.ir.ops import UNDEFINED, Constant
from moshjit.raising import raise_is_caught

CO_ITERABLE_COROUTINE = 0x100         # a generator made awaitable by types.coroutine (inspect's constant)

if TYPE_CHECKING:
    from moshjit.ir.function import Function

BINARY_FUNCTIONS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
    "%": operator.mod, "**": operator.pow, "<<": operator.lshift, ">>": operator.rshift, "&": operator.and_,
    "|": operator.or_, "^": operator.xor, "@": operator.matmul,
}
INPLACE_FUNCTIONS = {
    "+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv, "//": operator.ifloordiv,
    "%": operator.imod, "**": operator.ipow, "<<": operator.ilshift, ">>": operator.irshift, "&": operator.iand,
    "|": operator.ior, "^": operator.ixor, "@": operator.imatmul,
}
UNARY_FUNCTIONS = {"neg": operator.neg, "pos": operator.pos, "invert": operator.invert, "not": operator.not_}
COMPARE_FUNCTIONS = {
    "<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne, ">": operator.gt,
    ">=": operator.ge, "is": operator.is_, "is not": operator.is_not,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}

_MISSING = object()


class _Undefined:
    """Run-time value of an unbound local."""


UNBOUND = _Undefined()          # what an unbound local holds (also handed over by deoptimised native code)

_set_handled_exception = ctypes.pythonapi.PyErr_SetHandledException
_set_handled_exception.argtypes = [ctypes.py_object]
_set_handled_exception.restype = None


class Frame:
    """Per-call state: the value of every SSA value computed so far, the exception being propagated, calls
    routed elsewhere (see ``resume_function``) and, once the function raised, the instruction that raised."""

    __slots__ = ("fn", "env", "caught", "calls", "raised_at")

    def __init__(self, fn: Function, env: dict, calls: dict | None = None):
        self.fn = fn
        self.env = env
        self.caught = None          # the exception travelling to the current handler block
        self.calls = calls          # call op -> (function, argument values, its calls): run here, in Python frames
        self.raised_at = None       # the op or terminator an exception left the function from

    def get(self, value):
        if isinstance(value, Constant):
            return value.value
        if value is UNDEFINED:
            return UNBOUND
        return self.env[value]


def run_function(fn: Function, argvalues: list, env: dict | None = None, calls: dict | None = None):
    """Execute ``fn`` on already-bound argument values. ``env`` receives every value as it is computed (a dict
    subclass lets a caller watch intermediate values, e.g. to see an int leave the 64-bit range)."""
    frame = Frame(fn, {} if env is None else env, calls)
    for arg, value in zip(fn.args, argvalues):
        frame.env[arg] = value
    return _execute(frame, fn.entry, 0)


def resume_function(frame: Frame, block, index: int):
    """Continue ``frame.fn`` from op ``index`` of ``block`` (``len(block.ops)``: its terminator), ``frame.env``
    holding every value live there: what native code that gives up mid-function (deoptimisation) hands over.
    ``frame.calls`` may map call ops to their callee's SSA, which then runs in this interpreter too (Python frames
    only, no C stack per level). When the continuation raises, ``frame.raised_at`` says where it left."""
    return _execute(frame, block, index)


def evaluate(op, fn: Function, env: dict):
    """The value of one op computed from ``env`` (used to rebuild pure values native code never materialised)."""
    return EVALUATORS[type(op)](op, Frame(fn, env))


def _execute(frame: Frame, block, start: int):
    """The interpreter loop, from op ``start`` of ``block`` (whose φs are already in the environment)."""
    env = frame.env
    get = frame.get
    previous = None
    while True:
        if previous is not None and block.phis:
            incoming = [get(phi.incoming[previous]) for phi in block.phis]
            for phi, value in zip(block.phis, incoming):
                env[phi] = value
        current = None
        try:
            for current in (block.ops[start:] if start else block.ops):
                env[current] = EVALUATORS[type(current)](current, frame)
            start = 0
            current = term = block.terminator
            if type(term) is ops.Return:
                return get(term.value)
            previous, block = block, _successor(term, frame)
        except BaseException as exc:
            start = 0
            if block.handler is None:
                frame.raised_at = current
                raise                                   # a bare raise: no new chaining
            frame.caught = exc
            previous, block = block, block.handler


def run_generator(fn: Function, argvalues: list, env: dict | None = None):
    """A generator function's SSA, executed as a Python generator: ``yield`` suspends it (what ``send`` passes in
    is the op's value, an exception thrown in is raised at the op, into its block's handler), ``return v`` stops it
    with ``StopIteration(v)``, and a StopIteration escaping the body becomes RuntimeError (PEP 479) because this is
    itself a generator."""
    frame = _suspendable_frame(fn, argvalues, env)
    block, previous = fn.entry, None
    while True:
        _enter(block, previous, frame)
        try:
            for op in block.ops:
                kind = type(op)
                if kind is ops.Yield:
                    frame.env[op] = yield frame.get(op.value)
                elif kind is ops.YieldFrom:
                    frame.env[op] = yield from frame.get(op.value)
                else:
                    frame.env[op] = EVALUATORS[kind](op, frame)
            if type(block.terminator) is ops.Return:
                return frame.get(block.terminator.value)
            previous, block = block, _successor(block.terminator, frame)
        except BaseException as exc:
            previous, block = block, _handler(block, exc, frame)


async def run_coroutine(fn: Function, argvalues: list, env: dict | None = None):
    """An ``async def``'s SSA, executed as a Python coroutine: ``await`` suspends it while the awaited object's
    iterator runs (send, throw and close pass through), exceptions go to the op's block's handler."""
    frame = _suspendable_frame(fn, argvalues, env)
    block, previous = fn.entry, None
    while True:
        _enter(block, previous, frame)
        try:
            for op in block.ops:
                kind = type(op)
                if kind is ops.Await:
                    frame.env[op] = await _awaitable(op, frame)
                elif kind is ops.AwaitSelf:
                    frame.env[op] = await frame.get(op.func)(*[frame.get(a) for a in op.args])
                else:
                    frame.env[op] = EVALUATORS[kind](op, frame)
            if type(block.terminator) is ops.Return:
                return frame.get(block.terminator.value)
            previous, block = block, _successor(block.terminator, frame)
        except BaseException as exc:
            previous, block = block, _handler(block, exc, frame)


async def run_async_generator(fn: Function, argvalues: list, env: dict | None = None):
    """An async generator's SSA, executed as a Python async generator: ``yield`` produces an item, ``await``
    suspends it while the awaited object's iterator runs; asend, athrow and aclose reach the yield ops as
    send, throw and close reach a generator's."""
    frame = _suspendable_frame(fn, argvalues, env)
    block, previous = fn.entry, None
    while True:
        _enter(block, previous, frame)
        try:
            for op in block.ops:
                kind = type(op)
                if kind is ops.Yield:
                    frame.env[op] = yield frame.get(op.value)
                elif kind is ops.Await:
                    frame.env[op] = await _awaitable(op, frame)
                else:
                    frame.env[op] = EVALUATORS[kind](op, frame)
            if type(block.terminator) is ops.Return:
                return                              # an async generator's return has no value (it is None)
            previous, block = block, _successor(block.terminator, frame)
        except BaseException as exc:
            previous, block = block, _handler(block, exc, frame)


def _suspendable_frame(fn: Function, argvalues: list, env: dict | None) -> Frame:
    frame = Frame(fn, {} if env is None else env)
    for arg, value in zip(fn.args, argvalues):
        frame.env[arg] = value
    return frame


def _enter(block, previous, frame: Frame) -> None:
    """Give ``block``'s φs their values for the edge from ``previous`` (all read before any is written)."""
    if block.phis:
        incoming = [frame.get(phi.incoming[previous]) for phi in block.phis]
        for phi, value in zip(block.phis, incoming):
            frame.env[phi] = value


def _handler(block, exc: BaseException, frame: Frame):
    """The handler ``exc``, raised in ``block``, goes to; with none it propagates unchanged (called while it is
    being handled: the bare ``raise`` adds no chaining)."""
    if block.handler is None:
        raise
    frame.caught = exc
    return block.handler


def _successor(term, frame: Frame):
    """The block a terminator other than ``return`` goes to (a ``for_iter`` stores its item); raise and reraise
    raise."""
    kind = type(term)
    if kind is ops.Jump:
        return term.target
    if kind is ops.Branch:
        return term.if_true if frame.get(term.cond) else term.if_false
    if kind is ops.ForIter:
        try:
            frame.env[term] = next(frame.get(term.iterator))
        except StopIteration:
            return term.exit
        return term.body
    if kind is ops.Raise:
        _raise(term, frame)
    _reraise(frame.get(term.exc))


def _raise(term: ops.Raise, frame: Frame):
    """RAISE_VARARGS: Python's own raise statement chains ``__context__`` to the handled exception."""
    if term.exc is None:
        raise                                           # re-raises sys.exception(), or RuntimeError
    exc = frame.get(term.exc)
    if term.cause is None:
        raise exc
    raise exc from frame.get(term.cause)


def _reraise(exc: BaseException):
    """RERAISE: propagate ``exc`` unchanged; Python's raise would re-chain its ``__context__``, so undo that."""
    context = exc.__context__
    try:
        raise exc
    finally:
        exc.__context__ = context


# ---- evaluators ---------------------------------------------------------------------------------------------------
def _binary(op, frame):
    table = INPLACE_FUNCTIONS if op.inplace else BINARY_FUNCTIONS
    return table[op.op](frame.get(op.left), frame.get(op.right))


def _load_global(op, frame):
    value = frame.fn.globals.get(op.name, _MISSING)
    if value is _MISSING:
        value = builtins_of(frame.fn.globals).get(op.name, _MISSING)
        if value is _MISSING:
            raise NameError(f"name '{op.name}' is not defined", name=op.name)
    return value


def _not_in_a_generator(op):
    raise AssertionError(f"{type(op).__name__} outside the SSA of a generator function (run_generator executes it) "
                         f"or coroutine (run_coroutine)")


def _delete_global(op, frame):
    """DELETE_GLOBAL: CPython's NameError (raised outside an ``except``, so no KeyError in its context)."""
    if op.name not in frame.fn.globals:
        raise NameError(f"name '{op.name}' is not defined", name=op.name)
    del frame.fn.globals[op.name]


def _free_variable_error(name: str) -> NameError:
    return NameError(f"cannot access free variable '{name}' where it is not associated with a value in "
                     f"enclosing scope", name=name)


def _cell_contents(cell):
    try:
        return cell.cell_contents
    except ValueError:                  # an empty cell
        return _MISSING


def _load_deref(op, frame):
    value = _cell_contents(frame.fn.closure[op.index])
    if value is _MISSING:
        raise _free_variable_error(op.name)
    return value


def _cell_get(op, frame):
    value = _cell_contents(frame.get(op.cell))
    if value is _MISSING:
        if op.kind == "free":
            raise _free_variable_error(op.name)
        raise UnboundLocalError(f"cannot access local variable '{op.name}' where it is not associated with a value")
    return value


def _cell_set(op, frame):
    frame.get(op.cell).cell_contents = frame.get(op.value)


def _cell_delete(op, frame):
    cell = frame.get(op.cell)
    _cell_get(op, frame)
    del cell.cell_contents


def _make_cell(op, frame):
    return types.CellType() if op.initial is UNDEFINED else types.CellType(frame.get(op.initial))


def _check_bound(op, frame):
    value = frame.get(op.value)
    if value is UNBOUND:
        if op.kind == "free":
            raise _free_variable_error(op.name)
        raise UnboundLocalError(f"cannot access local variable '{op.name}' where it is not associated with a value")
    return value


def _import_from(op, frame):
    """IMPORT_FROM: the attribute, else an already imported submodule, else CPython's ImportError."""
    module = frame.get(op.module)
    value = getattr(module, op.name, _MISSING)
    if value is not _MISSING:
        return value
    package = getattr(module, "__name__", None)
    if isinstance(package, str) and f"{package}.{op.name}" in sys.modules:
        return sys.modules[f"{package}.{op.name}"]
    where = getattr(module, "__file__", None) or "unknown location"
    raise ImportError(f"cannot import name '{op.name}' from '{package}' ({where})",
                      name=package, path=getattr(module, "__file__", None))


def _call(op, frame):
    get = frame.get
    if frame.calls is not None:
        routed = frame.calls.get(op)
        if routed is not None:          # (callee SSA, its argument values, its own routed calls): two Python
            callee, bound, calls = routed   # frames per call level, no C stack
            return _execute(Frame(callee, dict(zip(callee.args, [get(a) for a in bound])), calls), callee.entry, 0)
    args = [get(a) for a in op.args]
    if op.kwnames:
        split = len(args) - len(op.kwnames)
        return get(op.func)(*args[:split], **dict(zip(op.kwnames, args[split:])))
    return get(op.func)(*args)


def _call_method(op, frame, receiver=None):
    get = frame.get
    method = getattr(get(op.obj) if receiver is None else receiver, op.name)
    args = [get(a) for a in op.args]
    if op.kwnames:
        split = len(args) - len(op.kwnames)
        return method(*args[:split], **dict(zip(op.kwnames, args[split:])))
    return method(*args)


def _call_ex(op, frame):
    func, posargs, kwargs = frame.get(op.func), frame.get(op.posargs), frame.get(op.kwargs)
    return func(*posargs) if kwargs is None else func(*posargs, **kwargs)


def _make_function(op, frame):
    code = op.code
    function = types.FunctionType(code, frame.fn.globals, code.co_name, frame.get(op.defaults))
    return _finished(function, op, frame)


def _make_closure(op, frame):
    code = op.code
    function = types.FunctionType(code, frame.fn.globals, code.co_name, frame.get(op.defaults),
                                  frame.get(op.closure))
    return _finished(function, op, frame)


def _finished(function, op, frame):
    """What MAKE_FUNCTION sets besides the code, globals, defaults and closure."""
    function.__kwdefaults__ = frame.get(op.kwdefaults)
    function.__qualname__ = op.code.co_qualname
    annotations = frame.get(op.annotations)
    if annotations is not None:
        function.__annotations__ = dict(zip(annotations[::2], annotations[1::2]))
    return function


def _build_map(op, frame):
    result = {}
    for key, value in zip(op.keys, op.values):
        result[frame.get(key)] = frame.get(value)
    return result


def _format_value(op, frame):
    value = frame.get(op.value)
    if op.conversion == "s":
        value = str(value)
    elif op.conversion == "r":
        value = repr(value)
    elif op.conversion == "a":
        value = ascii(value)
    spec = frame.get(op.spec)
    return format(value, "" if spec is None else spec)


def _is_iterable_for_star(obj) -> bool:
    """CPython's test before 'Value after * must be an iterable': has tp_iter or is a sequence."""
    kind = type(obj)
    return getattr(kind, "__iter__", None) is not None or hasattr(kind, "__getitem__")


def _list_extend(op, frame):
    target, iterable = frame.get(op.target), frame.get(op.iterable)
    if not _is_iterable_for_star(iterable):
        raise TypeError(f"Value after * must be an iterable, not {type(iterable).__name__}")
    target.extend(iterable)


def _merge_mapping(target: dict, other, on_duplicate, not_mapping_message):
    if isinstance(other, dict):
        items = other.items()
    else:
        keys_method = getattr(other, "keys", _MISSING)
        if keys_method is _MISSING:
            raise TypeError(not_mapping_message(other))
        items = ((k, other[k]) for k in keys_method())
    for key, value in items:
        if on_duplicate is not None and key in target:
            on_duplicate(key)
        target[key] = value


def _dict_update(op, frame):
    _merge_mapping(frame.get(op.target), frame.get(op.other), None,
                   lambda other: f"'{type(other).__name__}' object is not a mapping")


def function_str(func) -> str:
    """CPython's _PyObject_FunctionStr: how call errors name the called object."""
    try:
        qualname = func.__qualname__
    except AttributeError:
        return str(func)
    module = getattr(func, "__module__", None)
    if module is not None and module != "builtins":
        return f"{module}.{qualname}()"
    return f"{qualname}()"


def _dict_merge(op, frame):
    func = frame.get(op.func)

    def duplicate(key):
        raise TypeError(f"{function_str(func)} got multiple values for keyword argument '{key}'")

    _merge_mapping(frame.get(op.target), frame.get(op.other), duplicate,
                   lambda other: f"{function_str(func)} argument after ** must be a mapping, "
                                 f"not {type(other).__name__}")


_UNPACKERS: dict = {}


def _unpacker(before: int, after: int | None):
    """A compiled Python function doing exactly CPython's (starred) unpacking, errors included."""
    key = (before, after)
    if key not in _UNPACKERS:
        names = [f"v{i}" for i in range(before)]
        if after is not None:
            names += ["*rest"] + [f"w{i}" for i in range(after)]
        target = ", ".join(names) + ("," if len(names) == 1 else "")
        values = ", ".join(n.lstrip("*") for n in names) + ("," if len(names) == 1 else "")
        body = f"def unpack(seq):\n    {target or '()'} = seq\n    return ({values})\n"
        namespace: dict = {}
        exec(compile(body, "<moshjit unpack>", "exec"), namespace)
        _UNPACKERS[key] = namespace["unpack"]
    return _UNPACKERS[key]


def _before_with(op, frame):
    manager = frame.get(op.manager)
    prefix, protocol = ("a", "asynchronous context manager") if op.asynchronous else ("", "context manager")
    enter = async_reference.lookup_special(manager, f"__{prefix}enter__")
    if enter is async_reference.MISSING:
        raise TypeError(f"'{match_reference.type_name(type(manager))[:200]}' object does not support the {protocol} "
                        f"protocol")
    exit_ = async_reference.lookup_special(manager, f"__{prefix}exit__")
    if exit_ is async_reference.MISSING:
        raise TypeError(f"'{match_reference.type_name(type(manager))[:200]}' object does not support the {protocol} "
                        f"protocol (missed __{prefix}exit__ method)")
    return (exit_, enter())


def _awaitable(op, frame):
    """What an Await op hands Python's ``await``: the value, after the check CPython's GET_AWAITABLE 1/2 words
    for ``async with`` (an ``await`` expression's own check is Python's)."""
    value = frame.get(op.value)
    in_with = op.context in ("__aenter__", "__aexit__")        # (``__anext__``: GetANext checked it)
    if (in_with and async_reference.lookup_special(value, "__await__") is async_reference.MISSING
            and not (isinstance(value, types.GeneratorType) and value.gi_code.co_flags & CO_ITERABLE_COROUTINE)):
        raise async_reference.async_with_unsupported(op.context, value)
    return value


def _check_exc_match(op, frame):
    """CHECK_EXC_MATCH: every class must derive from BaseException; the match is by MRO (PyType_IsSubtype), so
    metaclass ``__instancecheck__``/``__subclasscheck__`` hooks are not consulted, as in CPython."""
    match = frame.get(op.match)
    classes = match if isinstance(match, tuple) else (match,)
    for klass in classes:
        if not (isinstance(klass, type) and BaseException in klass.__mro__):
            raise TypeError("catching classes that do not inherit from BaseException is not allowed")
    mro = type(frame.get(op.exc)).__mro__
    return any(klass in mro for klass in classes)


def _push_exc_info(op, frame):
    previous = sys.exception()
    _set_handled_exception(frame.get(op.exc))
    return previous


def _pop_except(op, frame):
    _set_handled_exception(frame.get(op.previous))


def _with_except_start(op, frame):
    exc = frame.get(op.exc)
    return frame.get(op.exit)(type(exc), exc, exc.__traceback__)


def _import_name(op, frame):
    """IMPORT_NAME calls the ``__import__`` of the function's builtins (a function frame has no locals)."""
    import_function = builtins_of(frame.fn.globals).get("__import__", _MISSING)
    if import_function is _MISSING:
        raise ImportError("__import__ not found")
    return import_function(op.name, frame.fn.globals, None, frame.get(op.fromlist), frame.get(op.level))


def method_is(obj, name: str, owner: type, method) -> bool:
    """``ops.MethodIs``: whether ``obj.name(...)`` calls ``method`` (or the tiered plain-function copy standing in
    for it, which carries it as ``_moshjit_dispatcher``) with ``obj`` first."""
    kind = type(obj)
    if kind is not owner or kind.__getattribute__ is not object.__getattribute__:
        return False
    if dispatcher_behind(class_attribute(kind, name)) is not method:
        return False
    try:
        own = object.__getattribute__(obj, "__dict__")
    except AttributeError:              # __slots__ only: nothing can shadow the method
        return True
    return name not in own


EVALUATORS = {
    ops.BinaryOp: _binary,
    ops.UnaryOp: lambda op, f: UNARY_FUNCTIONS[op.op](f.get(op.operand)),
    ops.Compare: lambda op, f: COMPARE_FUNCTIONS[op.op](f.get(op.left), f.get(op.right)),
    ops.LoadGlobal: _load_global,
    ops.StoreGlobal: lambda op, f: dict.__setitem__(f.fn.globals, op.name, f.get(op.value)),
    ops.DeleteGlobal: _delete_global,
    ops.LoadDeref: _load_deref,
    ops.MakeCell: _make_cell,
    ops.LoadCell: lambda op, f: f.fn.closure[op.index],
    ops.CellGet: _cell_get,
    ops.CellSet: _cell_set,
    ops.CellDelete: _cell_delete,
    ops.CheckBound: _check_bound,
    ops.ImportName: _import_name,
    ops.ImportFrom: _import_from,
    ops.LoadAttr: lambda op, f: getattr(f.get(op.obj), op.name),
    ops.StoreAttr: lambda op, f: setattr(f.get(op.obj), op.name, f.get(op.value)),
    ops.DelAttr: lambda op, f: delattr(f.get(op.obj), op.name),
    ops.GetItem: lambda op, f: f.get(op.obj)[f.get(op.key)],
    ops.SetItem: lambda op, f: operator.setitem(f.get(op.obj), f.get(op.key), f.get(op.value)),
    ops.DelItem: lambda op, f: operator.delitem(f.get(op.obj), f.get(op.key)),
    ops.BuildSlice: lambda op, f: slice(f.get(op.start), f.get(op.stop), f.get(op.step)),
    ops.Call: _call,
    ops.CallSelf: lambda op, f: f.get(op.func)(*[f.get(a) for a in op.args]),
    ops.CallMethod: _call_method,
    ops.SuperCallMethod: lambda op, f: _call_method(op, f, super(f.get(op.cls), f.get(op.obj))),
    ops.MethodIs: lambda op, f: method_is(f.get(op.obj), op.name, op.owner, op.method),
    ops.SuperIs: lambda op, f: (type(f.get(op.obj)) is op.owner
                                and dispatcher_behind(class_attribute(op.owner, op.name, op.start)) is op.method),
    ops.RaiseIsCaught: lambda op, f: raise_is_caught(op.raised, op.passed, op.caught),
    ops.CallEx: _call_ex,
    ops.MakeFunction: _make_function,
    ops.MakeClosure: _make_closure,
    ops.BuildTuple: lambda op, f: tuple([f.get(v) for v in op.items]),
    ops.BuildList: lambda op, f: [f.get(v) for v in op.items],
    ops.BuildSet: lambda op, f: {f.get(v) for v in op.items},
    ops.BuildMap: _build_map,
    ops.BuildString: lambda op, f: "".join([f.get(v) for v in op.parts]),
    ops.FormatValue: _format_value,
    ops.ListAppend: lambda op, f: f.get(op.target).append(f.get(op.item)),
    ops.ListExtend: _list_extend,
    ops.ListToTuple: lambda op, f: tuple(f.get(op.source)),
    ops.SetAdd: lambda op, f: f.get(op.target).add(f.get(op.item)),
    ops.SetUpdate: lambda op, f: f.get(op.target).update(f.get(op.iterable)),
    ops.MapAdd: lambda op, f: operator.setitem(f.get(op.target), f.get(op.key), f.get(op.value)),
    ops.DictUpdate: _dict_update,
    ops.DictMerge: _dict_merge,
    ops.UnpackSequence: lambda op, f: _unpacker(op.count, None)(f.get(op.source)),
    ops.UnpackEx: lambda op, f: _unpacker(op.before, op.after)(f.get(op.source)),
    ops.ExtractItem: lambda op, f: f.get(op.source)[op.index],
    ops.GetIter: lambda op, f: iter(f.get(op.obj)),
    ops.Yield: lambda op, f: _not_in_a_generator(op),
    ops.AwaitSelf: lambda op, f: _not_in_a_generator(op),
    ops.YieldFrom: lambda op, f: _not_in_a_generator(op),
    ops.Await: lambda op, f: _not_in_a_generator(op),
    ops.GetAIter: lambda op, f: async_reference.get_aiter(f.get(op.obj)),
    ops.GetANext: lambda op, f: async_reference.get_anext(f.get(op.aiter)),
    ops.CaughtException: lambda op, f: f.caught,
    ops.PushExcInfo: _push_exc_info,
    ops.PopExcept: _pop_except,
    ops.Release: lambda op, f: None,          # the frame keeps its values in a dict: nothing to drop early
    ops.FrameEnd: lambda op, f: None,         # (the same: an inlined callee's values stay in that dict)
    ops.LoopTick: lambda op, f: None,         # the interpreter's own eval loop sees signals and other threads
    ops.CheckExcMatch: _check_exc_match,
    ops.BeforeWith: _before_with,
    ops.WithExceptStart: _with_except_start,
    ops.MatchSequence: lambda op, f: match_reference.match_sequence(f.get(op.subject)),
    ops.MatchMapping: lambda op, f: match_reference.match_mapping(f.get(op.subject)),
    ops.MatchClass: lambda op, f: match_reference.match_class(f.get(op.subject), f.get(op.cls), f.get(op.names),
                                                             op.count),
    ops.MatchKeys: lambda op, f: match_reference.match_keys(f.get(op.subject), f.get(op.keys)),
}

_missing_rows = [cls.__name__ for cls in ops.OP_CLASSES if cls not in EVALUATORS]
assert not _missing_rows, f"interpreter has no row for {_missing_rows}"

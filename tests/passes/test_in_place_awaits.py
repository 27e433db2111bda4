"""``passes/in_place_awaits.py``: on hand-built coroutines (a self-await on ints becomes ``await_self`` typed by the
fixed point; another callee, another specialisation or a value that is not a number leaves the IR and its types as
they were), and on a real function's typed SSA (golden). Behaviour against CPython: tests/scopes."""
from __future__ import annotations

import moshjit
from moshjit.compiler import DriverContext, typed_ssa
from moshjit.context import CompileContext
from moshjit.ir import ops
from moshjit.ir.types import INT, INT64, OBJECT
from moshjit.ir.verifier import verify
from moshjit.passes.in_place_awaits import in_place_awaits
from moshjit.passes.typeinfer import infer_types
from moshjit.typeof import type_of_key
from tests.ir.handmade import blocks, const, emit, new_function, text


async def _compiled(n):
    """What the hand-built functions stand for (its code plays the function being compiled)."""
    return n


class _Dispatcher:
    """Stands for a jitted dispatcher: the plain function it compiles and its positional parameter count (known
    for one by its class's ``compiled_entry``, ``moshjit.functions.jitted_function``)."""

    def __init__(self, py_func, positional_count=1):
        self.py_func, self._positional_count = py_func, positional_count

    def compiled_entry(self, key):
        raise AssertionError("the pass does not compile")

    def __repr__(self):
        return f"<dispatcher {self.py_func.__name__}>"


async def _other(n):
    return n


def _counting_down(callee=_compiled, argument=1, extra=None):
    """async f(n): if n <= 1: return n; r = await callee(n - argument) (+ extra op); return r + 1."""
    fn = new_function("n")
    fn.coroutine = True
    entry, recurse, base = blocks(fn, 3)
    n = fn.args[0]
    emit(entry, ops.Branch(emit(entry, ops.Compare(n, const(1), "<=")), base, recurse))
    smaller = emit(recurse, ops.BinaryOp(n, const(argument), "-", False))
    call = emit(recurse, ops.Call(const(_Dispatcher(callee)), [smaller], ()))
    result = emit(recurse, ops.Await(call, None))
    if extra is not None:
        emit(recurse, extra(n))
    emit(recurse, ops.Return(emit(recurse, ops.BinaryOp(result, const(1), "+", False))))
    emit(base, ops.Return(n))
    infer_types(fn, [INT64])
    return fn


def _context(key=("int64",)):
    return CompileContext(_compiled, key)


def test_a_self_await_on_ints_runs_in_place():
    fn = _counting_down()
    assert in_place_awaits(fn, _context())
    verify(fn)
    [awaited] = [op for block in fn.blocks for op in block.ops if isinstance(op, ops.AwaitSelf)]
    assert awaited.result == INT and awaited.type == INT
    assert not any(isinstance(op, (ops.Await, ops.Call)) for block in fn.blocks for op in block.ops)
    assert fn.blocks[1].terminator.value.type == INT          # the sum of ints of any size


def _unchanged(fn, ctx):
    before = text(fn)
    types_before = [v.type for v in fn.values()]
    assert not in_place_awaits(fn, ctx)
    verify(fn)
    assert text(fn) == before
    assert [v.type for v in fn.values()] == types_before


def test_an_await_of_another_function_stays():
    _unchanged(_counting_down(callee=_other), _context())


def test_an_await_of_another_specialisation_stays():
    """n - 1.5 is a float: the call goes to the float specialisation, not the int64 one being compiled."""
    _unchanged(_counting_down(argument=1.5), _context())
    _unchanged(_counting_down(), _context(("float",)))


def test_a_value_that_is_no_number_undoes_the_rewrite():
    """A str method call could run anything: the awaits are put back, and the types inferred before."""
    fn = _counting_down(extra=lambda n: ops.CallMethod(const("ab"), [], "upper", ()))
    _unchanged(fn, _context())
    assert fn.blocks[1].terminator.value.type == OBJECT


def test_an_async_generator_is_left_alone():
    fn = _counting_down()
    fn.generator = True
    _unchanged(fn, _context())


async def fib(n):
    if n <= 1:
        return n
    return await fib(n - 1) + await fib(n - 2)


def test_golden_typed_fib():
    """The typed SSA of a real self-awaiting coroutine: both awaits in place, their sum an int of any size."""
    plain, names = fib, globals()
    names["fib"] = moshjit.jit(plain)            # what @jit makes the global name (no ``global``: resolvable)
    try:
        fn = typed_ssa(plain, [type_of_key("int64")], DriverContext(plain, ("int64",)))
    finally:
        names["fib"] = plain
    verify(fn)
    assert text(fn) == _GOLDEN_FIB


_GOLDEN_FIB = """\
B0:
    %0 = compare['<='] %n, 1  :: bool
    branch %0, B2, B1  :: bottom
B1:  ; preds B0
    %1 = binary_op['-'] %n, 1  :: int[1..9223372036854775806]
    %2 = await_self[<type int>] <moshjit.jit tests.passes.test_in_place_awaits.fib>, [%1]  :: int
    %3 = binary_op['-'] %n, 2  :: int[0..9223372036854775805]
    %4 = await_self[<type int>] <moshjit.jit tests.passes.test_in_place_awaits.fib>, [%3]  :: int
    %5 = binary_op['+'] %2, %4  :: int
    return %5  :: bottom
B2:  ; preds B0
    return %n  :: bottom
"""

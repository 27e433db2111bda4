"""The compile context: what passes hand on through it, and what they get from it about other functions."""
from __future__ import annotations

import math
import textwrap
import typing

import pytest

import moshjit
from moshjit.compiler import DriverContext, typed_ssa
from moshjit.context import CompileContext
from moshjit.frontend import build_ssa
from moshjit.ir import ops
from moshjit.ir.ops import Constant
from moshjit.ir.types import BOOL, CHAR, FLOAT, INT64, OBJECT, STR, ListType, tuple_of
from moshjit.passes.direct_calls import bind_direct_calls
from moshjit.passes.global_types import assume_global_types
from moshjit.passes.inline import inline_calls
from moshjit.passes.resolve_globals import resolve_globals
from moshjit.passes.typeinfer import infer_types, returned_type
from moshjit.typeof import describe_signature, key_of, static_key, type_of_key

PREFIX = "##"


@moshjit.jit
def jitted_half(x):
    return x / 2


def small_helper(x):
    return x + 1


def calls_small_helper(x):
    return small_helper(x) * 2


def calls_math_and_jitted(x):
    return math.floor(jitted_half(x))


def reads_prefix(piece):
    return PREFIX + piece


def calls_jitted(x):
    return jitted_half(x)


def recursive_fib(n):
    return n if n < 2 else recursive_fib(n - 1) + recursive_fib(n - 2)


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def _calls(fn):
    return [op for block in fn.blocks for op in block.ops if isinstance(op, ops.Call)]


def test_resolve_globals_records_what_it_bound_in_the_context():
    ctx = CompileContext(calls_math_and_jitted)
    ir = build_ssa(calls_math_and_jitted, optimize=False)
    resolve_globals(ir, ctx)
    assert ctx.resolved_globals == {"math": math, "math.floor": math.floor, "jitted_half": jitted_half}


def test_resolve_globals_records_dependencies_and_calls_module_functions_directly():
    """``math.sqrt(x)`` compiled where the compiler did not know ``math`` is a module (source given to exec) is a
    ``call_method`` on the module: it becomes a call of the function, as ``math.floor`` in a module is."""
    namespace = {"math": math}
    exec("def root(x):\n    return math.sqrt(x) + math.floor(x)\n", namespace)
    ctx = CompileContext(namespace["root"])
    ir = build_ssa(namespace["root"], optimize=False)
    resolve_globals(ir, ctx)
    assert not any(isinstance(op, ops.CallMethod) for block in ir.blocks for op in block.ops)
    assert [call.func.value for call in _calls(ir)] == [math.sqrt, math.floor]
    assert set(ctx.dependencies.values()) == {math, math.sqrt, math.floor}
    assert ir.run(2.25) == namespace["root"](2.25)


def test_without_the_driver_nothing_is_known_about_callees():
    """The base context answers conservatively: no callee SSA (nothing inlined), no return types."""
    ctx = CompileContext(calls_small_helper)
    ir = build_ssa(calls_small_helper, optimize=False)
    resolve_globals(ir, ctx)
    inline_calls(ir, ctx, (calls_small_helper.__code__,))
    assert [call.func.value for call in _calls(ir)] == [small_helper]
    ir = build_ssa(calls_jitted)
    resolve_globals(ir, ctx)
    infer_types(ir, [INT64], ctx)
    assert returned_type(ir) == OBJECT


def test_the_driver_context_inlines_and_merges_the_callees_results():
    ctx = DriverContext(calls_small_helper)
    ir = build_ssa(calls_small_helper, optimize=False)
    resolve_globals(ir, ctx)
    inline_calls(ir, ctx, (calls_small_helper.__code__,))
    assert _calls(ir) == [] and ctx.resolved_globals == {"small_helper": small_helper}
    assert ir.run(3) == calls_small_helper(3)


def fib_of_half(n):
    return recursive_fib(n // 2)


@pytest.mark.parametrize("fn, callee", [(is_even, is_odd), (fib_of_half, recursive_fib)],
                         ids=["calls-back-its-caller", "calls-itself"])
def test_a_callee_on_a_call_cycle_is_called_not_inlined(fn, callee):
    """Its frame counts towards the recursion limit at every level in CPython; inlined, it would not."""
    ctx = DriverContext(fn)
    ir = build_ssa(fn, optimize=False)
    resolve_globals(ir, ctx)
    inline_calls(ir, ctx, (fn.__code__,))
    assert [call.func.value for call in _calls(ir)] == [callee]
    assert ir.run(10) == fn(10)


def keyword_default_helper(x, k=2, *, j=3):
    return x * k + j


def calls_keyword_default_helper(x):
    return keyword_default_helper(x)


def passes_every_argument(x):
    return keyword_default_helper(x, 1, j=0)


def test_what_an_inlined_call_read_from_its_callee_is_bound():
    """Its code, and the defaults the call took (keyword-only ones also as entries of the ``__kwdefaults__``
    dict), join the bindings; once any of them is volatile the callee is not bound at all."""
    ctx = DriverContext(calls_keyword_default_helper)
    ir = build_ssa(calls_keyword_default_helper, optimize=False)
    resolve_globals(ir, ctx)
    inline_calls(ir, ctx, (calls_keyword_default_helper.__code__,))
    assert _calls(ir) == [] and ir.run(3) == 9
    callee = keyword_default_helper
    bound = {(b.label, b.name): b for b in ctx.bindings if b.label != "keyword_default_helper"}
    assert set(bound) == {("keyword_default_helper.__code__", "__code__"),
                          ("keyword_default_helper.__defaults__", "__defaults__"),
                          ("keyword_default_helper.__kwdefaults__", "__kwdefaults__"),
                          ("keyword_default_helper.__kwdefaults__", "j")}
    assert bound["keyword_default_helper.__kwdefaults__", "j"].namespace is callee.__kwdefaults__
    assert all(b.holds() for b in ctx.bindings)
    callee.__kwdefaults__["j"] = 4                       # in place: that entry no longer holds
    try:
        assert not bound["keyword_default_helper.__kwdefaults__", "j"].holds()
    finally:
        callee.__kwdefaults__["j"] = 3
    ctx = DriverContext(passes_every_argument)           # reads no default: only the code is bound
    ir = build_ssa(passes_every_argument, optimize=False)
    resolve_globals(ir, ctx)
    inline_calls(ir, ctx, (passes_every_argument.__code__,))
    assert _calls(ir) == [] and ir.run(3) == 3
    assert [b.name for b in ctx.bindings if b.label != "keyword_default_helper"] == ["__code__"]
    ctx = DriverContext(calls_keyword_default_helper)
    ctx.volatile_globals = frozenset({"keyword_default_helper.__defaults__"})
    ir = build_ssa(calls_keyword_default_helper, optimize=False)
    resolve_globals(ir, ctx)
    inline_calls(ir, ctx, (calls_keyword_default_helper.__code__,))
    assert len(_calls(ir)) == 1 and not any(b.name == "__defaults__" for b in ctx.bindings)


def test_the_driver_context_gives_return_types_of_jitted_callees():
    ir = typed_ssa(calls_jitted, [INT64])
    assert returned_type(ir) == FLOAT


def test_global_type_assumptions_are_handed_on_in_the_context():
    ctx = CompileContext(reads_prefix)
    ir = build_ssa(reads_prefix)
    assume_global_types(ir, ctx)
    assert ctx.global_assumptions == {"PREFIX": STR}
    infer_types(ir, [STR], ctx)
    assert returned_type(ir) == STR
    infer_types(ir, [STR], CompileContext(reads_prefix))       # no assumption handed on: an object
    assert returned_type(ir) == OBJECT


def test_a_callee_context_shares_the_services_and_starts_with_empty_results():
    ctx = DriverContext(calls_jitted, ("int64",), "cython", cache=object(), fallback=print, assume_globals=True,
                        make_dispatcher=dict)
    ctx.resolved_globals["x"] = 1
    child = ctx.for_callee(small_helper)
    assert type(child) is DriverContext and child.make_dispatcher is dict and child.cache is ctx.cache
    assert (child.py_function, child.key, child.fallback, child.assume_globals) == (small_helper, (), None, False)
    assert child.resolved_globals == {} and ctx.resolved_globals == {"x": 1}


@pytest.mark.parametrize("fn, called", [(recursive_fib, "recursive_fib"), (is_even, "is_odd")],
                         ids=["recursive", "mutually-recursive"])
def test_recursive_callees_bind_each_name_once(fn, called):
    """Every round of type inference asks for the callees' return types again, and each answer brings the
    callee's bindings: kept once each, or the list (and the memo's check of it) grows with every round. (The
    callee of a mutual recursion is called, not inlined: its own name is the one bound.)"""
    ctx = DriverContext(fn, ("int64",), "cython", cache=None, fallback=None, assume_globals=True,
                        make_dispatcher=None)
    typed_ssa(fn, [INT64], ctx)
    found = [(id(b.namespace), b.name) for b in ctx.bindings]
    assert len(found) == len(set(found))
    assert called in {b.label for b in ctx.bindings}


def test_a_binding_list_keeps_the_first_of_each_name_in_each_namespace():
    from moshjit.bindings import Binding, BindingList
    space, other = {"a": 1}, {"a": 2}
    first, again, elsewhere = (Binding(space, "a", 1, None, "a"), Binding(space, "a", 3, None, "a"),
                               Binding(other, "a", 2, None, "a"))
    kept = BindingList([first, again])
    kept.append(again)
    kept.extend([elsewhere, first])
    assert kept == [first, elsewhere]


class _EntryContext(CompileContext):
    """Hands out a recognisable entry for every jitted callee."""

    def __init__(self):
        super().__init__()
        self.asked = []

    def native_entry(self, dispatcher, key):
        self.asked.append((dispatcher, key))
        return len


def test_direct_calls_take_the_entry_the_context_gives():
    ctx = _EntryContext()
    ir = build_ssa(calls_jitted)
    resolve_globals(ir, ctx)
    infer_types(ir, [INT64], ctx)
    bind_direct_calls(ir, ctx)
    assert ctx.asked == [(jitted_half, ("int64",))]
    assert _calls(ir)[0].func.value is len


def test_direct_calls_keep_the_dispatcher_when_the_context_gives_nothing():
    ctx = CompileContext()
    ir = build_ssa(calls_jitted)
    resolve_globals(ir, ctx)
    infer_types(ir, [INT64], ctx)
    bind_direct_calls(ir, ctx)
    assert _calls(ir)[0].func.value is jitted_half


def test_typed_callee_needs_the_driver():
    with pytest.raises(NotImplementedError):
        CompileContext().typed_callee(small_helper, [INT64])
    ir, callee_ctx = DriverContext(calls_jitted).typed_callee(reads_prefix, [STR])
    assert returned_type(ir) == STR and callee_ctx.global_assumptions == {"PREFIX": STR}


# ---- the dispatch signature -------------------------------------------------------------------------------------
@pytest.mark.parametrize("value, kind, described, inferred", [
    (3, "int64", "int64", INT64), (2 ** 70, int, "int", None), ("a", "char", "char", CHAR), ("ab", str, "str", STR),
    (1.5, float, "float", FLOAT), (True, bool, "bool", BOOL), ([1], list, "list", ListType(OBJECT)),
    ((1, "a"), ("tuple", "int64", "char"), "tuple[int64, char]", tuple_of([INT64, CHAR])),
])
def test_key_of_describe_key_and_type_of_key_agree(value, kind, described, inferred):
    assert key_of(value) == kind and describe_signature((kind,)) == (described,)
    if inferred is not None:
        assert type_of_key(kind) == inferred
        assert static_key(type_of_key(kind)) == kind


def halves_down(s):
    return s if len(s) < 2 else halves_down(s[: len(s) // 2])


def as_text(x):
    return x if type(x) is str else as_text(str(x))


def _bound_self_calls(fn, key):
    """The ``call_self`` ops of ``fn``'s typed SSA after ``bind_direct_calls``, compiled while its global name holds
    its dispatcher."""
    names, plain = fn.__globals__, fn
    names[fn.__name__] = moshjit.jit(plain)
    try:
        ctx = DriverContext(plain, key)
        ir = typed_ssa(plain, [type_of_key(k) for k in key], ctx)
        bind_direct_calls(ir, ctx)
    finally:
        names[fn.__name__] = plain
    return [op for block in ir.blocks for op in block.ops if isinstance(op, ops.CallSelf)]


def test_a_call_of_the_function_itself_for_its_own_key_becomes_call_self():
    [call] = _bound_self_calls(halves_down, (str,))
    assert isinstance(call, ops.CallSelf) and call.name == "halves_down"
    # an int's str selects the str specialisation, not this one (the call is bound to that one's entry)
    assert _bound_self_calls(as_text, ("int64",)) == []


def casts_then_formats(x):
    return typing.cast(int, x) + 1, textwrap.dedent("  a")


def test_another_modules_plain_function_is_inlined_only_when_it_reads_no_globals():
    """``typing.cast`` (no globals) is inlined; ``textwrap.dedent`` reads its module's globals, so it stays a call
    of the plain function — never compiled through a dispatcher of its own."""
    ctx = DriverContext(casts_then_formats)
    ir = build_ssa(casts_then_formats, optimize=False)
    resolve_globals(ir, ctx)
    inline_calls(ir, ctx, (casts_then_formats.__code__,))
    assert [call.func.value for call in _calls(ir)] == [textwrap.dedent]
    assert ir.run(3) == casts_then_formats(3)
    assert any(b.namespace is typing.cast and b.name == "__code__" for b in ctx.bindings)

"""``resolve_globals`` on hand-built IR: which loads become constants, and where each bound name was found
(``ctx.bindings``: the globals dict with the builtins behind it, a module's dict, a closure cell); data globals and
names the context marks volatile stay loads."""
from __future__ import annotations

import builtins
import math
import types

from moshjit.context import CompileContext
from moshjit.ir import ops
from moshjit.ir.ops import Constant
from moshjit.ir.verifier import verify
from moshjit.passes.resolve_globals import resolve_globals
from tests.ir.handmade import blocks, emit, new_function


def helper(x):
    return x


def _function():
    """Loads of a helper, a builtin, a module attribute and a data global, all kept alive by a tuple."""
    fn = new_function("a")
    fn.globals.update({"helper": helper, "math": math, "N": 3, "__builtins__": builtins})
    (entry,) = blocks(fn, 1)
    loads = [emit(entry, ops.LoadGlobal("helper")), emit(entry, ops.LoadGlobal("len")),
             emit(entry, ops.LoadAttr(Constant(math), "sqrt")), emit(entry, ops.LoadGlobal("N"))]
    emit(entry, ops.Return(emit(entry, ops.BuildTuple(loads))))
    return fn, loads


def _returned(fn) -> list:
    return fn.blocks[0].terminator.value.items


def test_functions_modules_and_builtins_become_constants_and_bindings():
    fn, loads = _function()
    ctx = CompileContext()
    resolve_globals(fn, ctx)
    verify(fn)
    values = [v.value if isinstance(v, Constant) else v for v in _returned(fn)]
    assert values[:3] == [helper, len, math.sqrt] and values[3] is loads[3]
    bound = {b.label: b for b in ctx.bindings}
    assert set(bound) == {"helper", "len", "math.sqrt"}
    assert bound["helper"].namespace is fn.globals and bound["helper"].then is builtins.__dict__
    assert bound["len"].namespace is fn.globals and bound["len"].value is len
    assert bound["math.sqrt"].namespace is math.__dict__ and bound["math.sqrt"].then is None
    assert all(b.holds() for b in ctx.bindings)
    fn.globals["len"] = lambda xs: 0                 # a global shadowing the builtin
    assert not bound["len"].holds() and bound["helper"].holds()


def test_volatile_names_stay_loads():
    fn, loads = _function()
    ctx = CompileContext()
    ctx.volatile_globals = frozenset({"helper", "math.sqrt"})
    resolve_globals(fn, ctx)
    returned = _returned(fn)
    assert returned[0] is loads[0] and returned[2] is loads[2] and isinstance(returned[1], Constant)
    assert [b.label for b in ctx.bindings] == ["len"]


def test_a_closure_cell_binding_follows_the_cell():
    def outer():
        target = helper

        def inner():
            return target
        return inner
    inner = outer()
    fn = new_function()
    fn.closure = inner.__closure__
    (entry,) = blocks(fn, 1)
    emit(entry, ops.Return(emit(entry, ops.LoadDeref("target", 0))))
    ctx = CompileContext()
    resolve_globals(fn, ctx)
    (binding,) = ctx.bindings
    assert isinstance(binding.namespace, types.CellType) and binding.label == "<closure>.target"
    assert binding.holds()
    inner.__closure__[0].cell_contents = len
    assert not binding.holds()


class _Fixed:
    __moshjit_constant__ = True


class _NotSaying:
    __moshjit_constant__ = "yes"                    # only True counts


def test_objects_whose_class_says_they_are_fixed_are_bound_like_classes():
    """A rewritten match's ``ArgsSite`` (and anything else whose class sets ``__moshjit_constant__ = True``) is bound
    when compiling, with a binding checked on entry; other data stays a load."""
    from moshjit.extensions.runtime import ArgsSite, PyArgsSite
    site, fixed, other = ArgsSite(("x",), None), _Fixed(), _NotSaying()
    fn = new_function("a")
    fn.globals.update({"site": site, "py_site": PyArgsSite(("x",), None), "fixed": fixed, "other": other,
                       "__builtins__": builtins})
    (entry,) = blocks(fn, 1)
    loads = [emit(entry, ops.LoadGlobal(name)) for name in ("site", "py_site", "fixed", "other")]
    emit(entry, ops.Return(emit(entry, ops.BuildTuple(loads))))
    ctx = CompileContext()
    resolve_globals(fn, ctx)
    returned = _returned(fn)
    assert [v.value for v in returned[:3]] == [site, fn.globals["py_site"], fixed] and returned[3] is loads[3]
    bound = {b.label: b for b in ctx.bindings}
    assert set(bound) == {"site", "py_site", "fixed"}
    fn.globals["site"] = ArgsSite(("x",), None)
    assert not bound["site"].holds() and bound["fixed"].holds()


class _CountsDictReads:
    """An instance whose ``__dict__`` reads are counted (a property on the class answers them)."""
    reads = 0

    @property
    def __dict__(self):
        type(self).reads += 1
        return {}


def test_a_module_global_instance_keeps_its_inline_attributes():
    """Looking for jitted functions among module globals must not read a data object's ``__dict__``: on 3.11+ that
    gives the object a real dict, and every later attribute access of it takes the slower dict path."""
    fn = new_function("a")
    fn.globals.update({"taskWorkArea": _CountsDictReads(), "__builtins__": builtins})
    (entry,) = blocks(fn, 1)
    emit(entry, ops.Return(emit(entry, ops.LoadGlobal("taskWorkArea"))))
    _CountsDictReads.reads = 0
    resolve_globals(fn, CompileContext())
    assert _CountsDictReads.reads == 0


def _handover(block):
    """``globals()`` as the frontend emits it: the namespace handed to ``call_in_frame``."""
    from moshjit.primitives.namespaces import call_in_frame
    return emit(block, ops.Call(Constant(call_in_frame), [emit(block, ops.LoadGlobal("globals")),
                                                           Constant({}), Constant({})], ()))


def test_loads_after_a_namespace_handover_stay_loads():
    """``globals()`` may rebind any name through the dict: a load after it (in its block, a later block, or a block
    a loop brings back to) is read at run time; a load only before it is bound."""
    fn = new_function("a")
    fn.globals.update({"helper": helper, "N": 3, "__builtins__": builtins})
    entry, loop, after = blocks(fn, 3)
    first = emit(entry, ops.LoadGlobal("len"))
    emit(entry, ops.Jump(loop))
    before = emit(loop, ops.LoadGlobal("helper"))      # the loop comes back here after the handover
    _handover(loop)
    same_block = emit(loop, ops.LoadGlobal("abs"))
    emit(loop, ops.Branch(fn.args[0], loop, after))
    later = emit(after, ops.LoadGlobal("min"))
    emit(after, ops.Return(emit(after, ops.BuildTuple([first, before, same_block, later]))))
    ctx = CompileContext()
    resolve_globals(fn, ctx)
    verify(fn)
    returned = _returned_of(after)
    assert isinstance(returned[0], Constant) and returned[0].value is len
    assert returned[1:] == [before, same_block, later]
    assert [b.label for b in ctx.bindings] == ["len"]          # ``globals`` itself is in the loop too


def test_a_function_without_loop_binds_what_runs_before_the_handover():
    fn = new_function("a")
    fn.globals.update({"__builtins__": builtins})
    entry, after = blocks(fn, 2)
    first = emit(entry, ops.LoadGlobal("len"))
    _handover(entry)
    emit(entry, ops.Jump(after))
    later = emit(after, ops.LoadGlobal("len"))
    emit(after, ops.Return(emit(after, ops.BuildTuple([first, later]))))
    resolve_globals(fn, CompileContext())
    returned = _returned_of(after)
    assert isinstance(returned[0], Constant) and returned[1] is later


def _returned_of(block) -> list:
    return block.terminator.value.items

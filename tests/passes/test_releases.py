"""Releases of rebound locals (``ops.Release``, ``passes/releases.py``): the frontend marks where CPython drops a
local's reference (``x = None``, ``x = argument``, ``del x``), the typed pass drops the releases of values whose
freeing nobody can observe; on hand-built IR and on the frontend's IR of real functions."""
from __future__ import annotations

import pytest

from moshjit.frontend import build_ssa
from moshjit.ir import ops
from moshjit.ir.types import BOOL, FLOAT, INT, OBJECT, STR, ListType, TupleType
from moshjit.ir.verifier import verify
from moshjit.passes.pipeline import run_passes
from moshjit.passes.releases import drop_silent_releases, frees_silently, strip_releases
from moshjit.passes.typeinfer import infer_types
from tests.ir.handmade import blocks, const, emit, new_function
from tests.passes.test_inline_methods import inlined


def _rebinding(arg_type):
    """f(x): y = x + 1; release y (rebound to None); return 0 — typed for an ``x`` of ``arg_type``."""
    fn = new_function("x")
    (b0,) = blocks(fn, 1)
    total = emit(b0, ops.BinaryOp(fn.args[0], const(1), "+", False))
    release = emit(b0, ops.Release(total, "y"))
    emit(b0, ops.Return(const(0)))
    infer_types(fn, [arg_type])
    return fn, release


@pytest.mark.parametrize("arg_type", [INT, FLOAT])
def test_a_number_frees_silently_and_its_release_goes(arg_type):
    fn, release = _rebinding(arg_type)
    assert not drop_silent_releases(fn)          # nothing for the pipeline to redo
    verify(fn)
    assert release not in fn.blocks[0].ops


def test_an_object_keeps_its_release():
    fn, release = _rebinding(OBJECT)
    drop_silent_releases(fn)
    assert release in fn.blocks[0].ops


def _released_in_a_loop():
    """f(xs): for x in xs: y = x * 2; y = None — the release reads the loop's φ of y."""
    fn = new_function("xs")
    entry, header, body, done = blocks(fn, 4)
    iterator = emit(entry, ops.GetIter(fn.args[0]))
    emit(entry, ops.Jump(header))
    item = emit(header, ops.ForIter(iterator, body, done))
    doubled = emit(body, ops.BinaryOp(item, const(2), "*", False))
    phi = ops.Phi(header, var="y")
    header.phis.append(phi)
    phi.incoming = {entry: ops.UNDEFINED, body: doubled}
    release = emit(body, ops.Release(phi, "y"))
    emit(body, ops.Jump(header))
    emit(done, ops.Return(const(None)))
    return fn, phi, release


def test_the_phi_only_a_dropped_release_read_goes_too():
    fn, phi, release = _released_in_a_loop()
    infer_types(fn, [ListType(INT)])
    drop_silent_releases(fn)
    verify(fn)
    assert release not in fn.blocks[2].ops and phi not in fn.blocks[1].phis


def test_stripping_releases_for_the_llvm_backend_can_be_undone():
    fn, phi, release = _released_in_a_loop()
    infer_types(fn, [ListType(OBJECT)])
    drop_silent_releases(fn)
    assert release in fn.blocks[2].ops                # an object: kept for the Cython backend
    restore = strip_releases(fn)
    verify(fn)
    assert release not in fn.blocks[2].ops and phi not in fn.blocks[1].phis
    restore()
    verify(fn)
    assert release in fn.blocks[2].ops and phi in fn.blocks[1].phis


@pytest.mark.parametrize("t, silent", [
    (INT, True), (STR, True), (BOOL, True), (ListType(STR), True), (TupleType((INT, STR), STR), True),
    (TupleType(None, FLOAT), True), (OBJECT, False), (ListType(OBJECT), False), (TupleType((INT, OBJECT), OBJECT), False),
    (None, False),
])
def test_which_types_free_silently(t, silent):
    assert frees_silently(t) is silent


def rebound_to_none(make):
    handle = make()
    handle.write("x")
    handle = None
    return make


def deleted(make):
    handle = make()
    del handle
    return 1


def rebound_to_an_argument(make, other):
    handle = make()
    handle = other
    return handle


def rebound_to_a_result(make):
    handle = make()
    handle = make()
    return handle


def first_assignment(value):
    handle = None
    return handle


def _releases(fn):
    ir = run_passes(build_ssa(fn))
    return [op for block in ir.blocks for op in block.ops if isinstance(op, ops.Release)]


@pytest.mark.parametrize("fn, count", [(rebound_to_none, 1), (deleted, 1), (rebound_to_an_argument, 1),
                                       (rebound_to_a_result, 0), (first_assignment, 0)])
def test_the_frontend_marks_where_a_local_lets_go(fn, count):
    """A local rebound to what no op of the function computed (a constant, an argument) or deleted gets a
    release of what it held; one rebound to an op's result needs none (the new value takes the local's
    variable), nor does a local that held nothing yet."""
    releases = _releases(fn)
    assert len(releases) == count
    assert all(release.name == "handle" for release in releases)


def made_in_a_callee(tag):
    made = [tag]
    spare = [tag, tag]
    made.append(spare[0])
    return made


def calls_and_deletes(tag):
    got = made_in_a_callee(tag)
    del got
    return tag


def test_an_inlined_call_ends_its_frame_where_the_caller_goes_on():
    """The continuation of an inlined call starts with a frame end naming what the callee's body defined; the
    callee's locals' holders and releases carry the frame's token, so the caller's ``del got`` is the only local
    still holding the list afterwards (``plan._held_only_by``)."""
    from moshjit.backends.cython.plan import _held_only_by, _held_within
    ir = inlined(calls_and_deletes, ("object",))
    (end,) = [op for block in ir.blocks for op in block.ops if isinstance(op, ops.FrameEnd)]
    (release,) = _releases_of(ir)
    assert repr(end.frame) == "made_in_a_callee" and end.block is release.block
    in_order = end.block.ops
    assert [type(op).__name__ for op in in_order[in_order.index(end) - 1:in_order.index(release) + 1]] == [
        "CallMethod", "FrameEnd", "Release"]                         # made.append(...), then the caller's del
    made, spare = [op for op in end.frame.defined if isinstance(op, ops.BuildList)]
    assert release.value in (made, spare) and release.name == "got"
    list_made = release.value
    other = spare if list_made is made else made
    assert _held_within(ir.holders[other], end.frame.token)        # only the callee's `spare` held it
    assert not _held_within(ir.holders[list_made], end.frame.token)   # `got` holds it too
    assert _held_only_by(ir.holders[list_made], release.name)       # ... alone, once the callee returned
    assert not _held_only_by(ir.holders[list_made], "spare")


def _releases_of(ir):
    return [op for block in ir.blocks for op in block.ops if isinstance(op, ops.Release)]


@pytest.mark.parametrize("holder, released, only", [
    (None, "x", True),
    ("x@1", "x", True),
    ("y@1", "x", False),
    ("x@1+y@1#7", "x", False),                       # two locals of the same frame
    ("made@2@inlined5+x@1#7", "x", True),            # the other one in a callee's ended frame
    ("made@2@inlined5+x@1#7", "made@inlined5", False),   # released in the callee: the caller's x holds it
    ("made@2@inlined5@inlined9+y@3@inlined9#7", "y@inlined9", True),   # nested: the callee of a callee
    ("made@2@inlined6+y@3@inlined9#7", "y@inlined9", False),           # a frame not inside the releasing one
])
def test_which_locals_still_hold_a_released_value(holder, released, only):
    from moshjit.backends.cython.plan import _held_only_by
    assert _held_only_by(holder, released) is only


def test_a_callees_holders_move_into_its_frame_as_a_whole():
    from moshjit.passes.inline import _in_frame
    assert _in_frame("a@1", "inlined3") == "a@1@inlined3"
    assert _in_frame("a@1+b@1#9", "inlined3") == "a@1@inlined3+b@1@inlined3#9"
    assert _in_frame("a@1@inlined2+b@1#9", "inlined3") == "a@1@inlined2@inlined3+b@1@inlined3#9"


def test_a_frame_end_of_numbers_only_goes_with_the_silent_releases():
    fn = new_function("x")
    (b0,) = blocks(fn, 1)
    total = emit(b0, ops.BinaryOp(fn.args[0], const(1), "+", False))
    end = emit(b0, ops.FrameEnd(ops.InlinedFrame("callee", "inlined1", frozenset({total}))))
    emit(b0, ops.Return(total))
    infer_types(fn, [INT])
    drop_silent_releases(fn)
    assert end not in fn.blocks[0].ops
    fn, end = _frame_end_of_an_object()
    drop_silent_releases(fn)
    assert end in fn.blocks[0].ops
    restore = strip_releases(fn)
    assert end not in fn.blocks[0].ops
    restore()
    assert end in fn.blocks[0].ops


def _frame_end_of_an_object():
    fn = new_function("x")
    (b0,) = blocks(fn, 1)
    made = emit(b0, ops.BuildList([fn.args[0]]))
    end = emit(b0, ops.FrameEnd(ops.InlinedFrame("callee", "inlined1", frozenset({made}))))
    emit(b0, ops.Return(const(None)))
    infer_types(fn, [OBJECT])
    return fn, end


def squared(x):
    y = x * x
    return y if y > 0 else -y


def squared_plus_one(x):
    return squared(x) + 1


def test_the_frame_end_of_a_numeric_callee_goes_once_typed():
    ir = inlined(squared_plus_one, ("object",))
    assert any(isinstance(op, ops.FrameEnd) for block in ir.blocks for op in block.ops)
    infer_types(ir, [FLOAT])
    drop_silent_releases(ir)
    verify(ir)
    assert not any(isinstance(op, ops.FrameEnd) for block in ir.blocks for op in block.ops)

"""Handlers that only re-raise are bypassed: raising blocks go to the outer handler (with the values the bypassed
handler's φs passed on) or out of the function; handlers that do anything else stay."""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.verifier import verify
from moshjit.passes.bypass_reraise import bypass_reraise
from tests.ir.handmade import blocks, emit, new_function, phi


def test_reraise_without_outer_handler_is_removed():
    fn = new_function("f")
    entry, body, reraiser = blocks(fn, 3)
    emit(entry, ops.Jump(body))
    emit(body, ops.Call(fn.args[0], [], ()))
    emit(body, ops.Return(fn.args[0]))
    body.handler = reraiser
    caught = emit(reraiser, ops.CaughtException())
    emit(reraiser, ops.Reraise(caught))
    verify(fn)
    bypass_reraise(fn)
    verify(fn)
    assert reraiser not in fn.blocks and body.handler is None


def test_raisers_reach_the_outer_handler_with_the_values_the_bypassed_one_passed_on():
    """B1 and B2 raise into R (a φ of x), R re-raises into H, whose φ of x takes R's φ: after the pass B1 and B2
    raise into H directly, each with its own value of x."""
    fn = new_function("f", "a", "b")
    entry, left, right, reraiser, outer = blocks(fn, 5)
    emit(entry, ops.Branch(fn.args[0], left, right))
    for block, value in ((left, fn.args[1]), (right, fn.args[2])):
        emit(block, ops.Call(fn.args[0], [], ()))
        emit(block, ops.Return(value))
        block.handler = reraiser
    x = phi(reraiser, {left: fn.args[1], right: fn.args[2]}, "x")
    caught = emit(reraiser, ops.CaughtException())
    emit(reraiser, ops.Reraise(caught))
    reraiser.handler = outer
    outer_x = phi(outer, {reraiser: x}, "x")
    emit(outer, ops.CaughtException())
    emit(outer, ops.Return(outer_x))
    verify(fn)
    bypass_reraise(fn)
    verify(fn)
    assert reraiser not in fn.blocks
    assert left.handler is outer and right.handler is outer
    assert outer_x.incoming == {left: fn.args[1], right: fn.args[2]}


def test_handlers_doing_anything_else_stay():
    fn = new_function("f")
    entry, body, handler = blocks(fn, 3)
    emit(entry, ops.Jump(body))
    emit(body, ops.Call(fn.args[0], [], ()))
    emit(body, ops.Return(fn.args[0]))
    body.handler = handler
    caught = emit(handler, ops.CaughtException())
    emit(handler, ops.PushExcInfo(caught))
    emit(handler, ops.Reraise(caught))
    bypass_reraise(fn)
    assert handler in fn.blocks and body.handler is handler


def bypassed_with_a_phi(releases: bool, outer_reads_phi: bool):
    """B raises into R, which has a φ of x, may release it, and re-raises into H; H returns x or the argument.
    Runs the pass; returns (function, B, R, H)."""
    fn = new_function("f", "a")
    entry, body, reraiser, outer = blocks(fn, 4)
    emit(entry, ops.Jump(body))
    emit(body, ops.Call(fn.args[0], [], ()))
    emit(body, ops.Return(fn.args[0]))
    body.handler = reraiser
    x = phi(reraiser, {body: fn.args[1]}, "x")
    caught = emit(reraiser, ops.CaughtException())
    if releases:
        emit(reraiser, ops.Release(x, "x"))
    emit(reraiser, ops.Reraise(caught))
    reraiser.handler = outer
    emit(outer, ops.CaughtException())
    emit(outer, ops.Return(x if outer_reads_phi else fn.args[0]))   # R dominates H: H may use R's φ directly
    verify(fn)
    bypass_reraise(fn)
    return fn, body, reraiser, outer


def test_a_phi_used_beyond_the_outer_handlers_phis_keeps_the_handler():
    fn, body, reraiser, outer = bypassed_with_a_phi(releases=False, outer_reads_phi=True)
    assert reraiser in fn.blocks and body.handler is reraiser


def test_a_handler_that_releases_its_phi_before_reraising_is_bypassed():
    """CPython 3.12+'s comprehension clean-up: restore the iteration variable (releasing its item), re-raise."""
    fn, body, reraiser, outer = bypassed_with_a_phi(releases=True, outer_reads_phi=False)
    verify(fn)
    assert reraiser not in fn.blocks and body.handler is outer


def test_a_handler_releasing_before_it_catches_stays():
    fn = new_function("f", "a")
    entry, body, handler = blocks(fn, 3)
    emit(entry, ops.Jump(body))
    emit(body, ops.Call(fn.args[0], [], ()))
    emit(body, ops.Return(fn.args[0]))
    body.handler = handler
    emit(handler, ops.Release(fn.args[1], "a"))
    caught = emit(handler, ops.CaughtException())
    emit(handler, ops.Reraise(caught))
    bypass_reraise(fn)
    assert handler in fn.blocks and body.handler is handler

"""Dead-code elimination on hand-built IR: unused pure ops and dead φ cycles go; raising and acting ops stay."""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.verifier import verify
from moshjit.passes.dce import dce, prune_dead_phis
from tests.ir.handmade import blocks, const, emit, new_function, phi


def _loop_with_dead_phi_cycle():
    """A loop whose φ ``dead`` only feeds itself through an unused add; ``live`` reaches the return."""
    fn = new_function("a", "c")
    entry, header, body, exit_ = blocks(fn, 4)
    emit(entry, ops.Jump(header))
    dead = phi(header, {entry: 0}, "dead")
    live = phi(header, {entry: fn.args[0]}, "live")
    emit(header, ops.Branch(fn.args[1], body, exit_))
    step = emit(body, ops.BuildTuple([dead]))                 # pure, only used by the φ cycle
    emit(body, ops.Jump(header))
    dead.incoming[body] = step
    live.incoming[body] = live
    emit(exit_, ops.Return(live))
    return fn, dead, live, step


def test_dead_phi_cycles_are_removed():
    fn, dead, live, step = _loop_with_dead_phi_cycle()
    dce(fn)
    verify(fn)
    assert fn.blocks[1].phis == [live]
    assert step not in fn.blocks[2].ops


def test_prune_dead_phis_keeps_every_op():
    fn, dead, live, step = _loop_with_dead_phi_cycle()
    prune_dead_phis(fn)
    assert dead in fn.blocks[1].phis and step in fn.blocks[2].ops     # the op keeps its φ operand alive
    unused = phi(fn.blocks[3], {fn.blocks[1]: 1})
    prune_dead_phis(fn)
    assert unused not in fn.blocks[3].phis


def test_ops_that_may_raise_or_act_are_kept_even_when_unused():
    fn = new_function("a")
    (b0,) = blocks(fn, 1)
    pure = [emit(b0, ops.BuildList([fn.args[0]])), emit(b0, ops.BuildSlice(const(1), const(None), const(None))),
            emit(b0, ops.Compare(fn.args[0], const(None), "is"))]
    raising = [emit(b0, ops.GetItem(fn.args[0], const(0))), emit(b0, ops.LoadGlobal("missing")),
               emit(b0, ops.Compare(fn.args[0], const(1), "<")), emit(b0, ops.BuildSet([fn.args[0]]))]
    target = emit(b0, ops.BuildList([]))
    acting = [emit(b0, ops.ListAppend(target, fn.args[0]))]   # cannot raise, but mutates the list
    emit(b0, ops.Return(const(None)))
    dce(fn)
    verify(fn)
    assert b0.ops == raising + [target] + acting
    assert not any(op in b0.ops for op in pure)


def test_unpacking_a_constant_or_display_of_the_right_length_goes_when_unused():
    fn = new_function("a")
    (b0,) = blocks(fn, 1)
    dead = [emit(b0, ops.UnpackSequence(const(("k",)), 1)), emit(b0, ops.UnpackSequence(
        emit(b0, ops.BuildTuple([fn.args[0], fn.args[0]])), 2))]
    kept = [emit(b0, ops.UnpackSequence(fn.args[0], 1)), emit(b0, ops.UnpackSequence(const(("k",)), 2))]
    emit(b0, ops.Return(const(None)))
    dce(fn)
    verify(fn)
    assert b0.ops == kept    # an unknown iterable may run code; a wrong length raises ValueError
    assert not any(op in b0.ops for op in dead)

"""CFG simplification on hand-built IR: merging straight-line blocks (also across exception edges), bypassing
empty blocks whose target has φs, dropping unreachable blocks and stale exception edges."""
from __future__ import annotations

from moshjit.analysis.dominators import reverse_postorder
from moshjit.ir import ops
from moshjit.ir.function import Block
from moshjit.ir.verifier import verify
from moshjit.passes.simplify_cfg import drop_stale_handler_edges, remove_unreachable_blocks, simplify_cfg
from tests.ir.handmade import blocks, const, emit, new_function, phi, text


def test_straight_line_blocks_merge_into_one():
    fn = new_function("a")
    b0, b1, b2 = blocks(fn, 3)
    x = emit(b0, ops.UnaryOp(fn.args[0], "neg"))
    emit(b0, ops.Jump(b1))
    copy = phi(b1, {b0: x})
    y = emit(b1, ops.BinaryOp(copy, const(1), "+", False))
    emit(b1, ops.Jump(b2))
    emit(b2, ops.Return(y))
    simplify_cfg(fn)
    verify(fn)
    assert text(fn) == ("B0:\n"
                        "    %0 = unary_op['neg'] %a\n"
                        "    %1 = binary_op['+'] %0, 1\n"
                        "    return %1\n")


def test_a_block_with_two_predecessors_is_not_merged():
    fn = new_function("c")
    b0, b1, b2 = blocks(fn, 3)
    emit(b0, ops.Branch(fn.args[0], b1, b2))
    emit(b1, ops.LoadGlobal("f"))
    emit(b1, ops.Jump(b2))
    emit(b2, ops.Return(emit(b2, ops.LoadGlobal("g"))))
    simplify_cfg(fn)
    verify(fn)
    assert len(fn.blocks) == 3


def _two_raising_blocks(from_first, from_second, same_handler=True):
    """B0 (raises into H) jumps to B1 (raises into H, or into H2); H's φ gets ``from_first`` from B0 and
    ``from_second`` from B1 (H2 returns its own φ of ``from_second``)."""
    fn = new_function("a")
    b0, b1, handler, other = blocks(fn, 4)
    first = emit(b0, ops.GetItem(fn.args[0], const(0)))
    emit(b0, ops.Jump(b1))
    second = emit(b1, ops.GetItem(fn.args[0], const(1)))
    emit(b1, ops.Return(emit(b1, ops.BuildTuple([first, second]))))
    b0.handler = handler
    b1.handler = handler if same_handler else other
    incoming = {b0: from_first, b1: from_second} if same_handler else {b0: from_first}
    for h, values in ((handler, incoming), (other, {b1: from_second} if not same_handler else {})):
        emit(h, ops.CaughtException())
        emit(h, ops.Return(phi(h, values, "x") if values else const(None)))
    if same_handler:
        fn.blocks.remove(other)
    return fn, b0, b1, handler


def test_blocks_raising_into_the_same_handler_with_the_same_state_merge():
    fn, b0, b1, handler = _two_raising_blocks(7, 7)
    simplify_cfg(fn)
    verify(fn)
    assert len(fn.blocks) == 2
    merged = fn.blocks[0]
    assert merged.handler is handler and list(handler.phis[0].incoming) == [merged]
    assert fn.run([5, 6]) == (5, 6) and fn.run([5]) == 7


def test_blocks_whose_handler_sees_different_values_do_not_merge():
    fn, b0, b1, handler = _two_raising_blocks(1, 2)
    simplify_cfg(fn)
    verify(fn)
    assert len(fn.blocks) == 3
    assert fn.run([5, 6]) == (5, 6)
    assert fn.run([]) == 1
    assert fn.run([5]) == 2


def test_blocks_raising_into_different_handlers_do_not_merge():
    fn, b0, b1, handler = _two_raising_blocks(1, 2, same_handler=False)
    simplify_cfg(fn)
    verify(fn)
    assert len(fn.blocks) == 4
    assert fn.run([]) == 1 and fn.run([5]) == 2


def test_non_raising_block_absorbs_a_raising_successor_and_its_exception_edge():
    fn = new_function("a")
    b0, b1, handler = blocks(fn, 3)
    pure = emit(b0, ops.BuildTuple([fn.args[0]]))
    emit(b0, ops.Jump(b1))
    b1.handler = handler
    emit(b1, ops.Return(emit(b1, ops.GetItem(fn.args[0], const(3)))))
    emit(handler, ops.CaughtException())
    value = phi(handler, {b1: pure})
    emit(handler, ops.Return(value))
    simplify_cfg(fn)
    verify(fn)
    merged = fn.blocks[0]
    assert merged.handler is fn.blocks[1] and fn.blocks[1].phis[0].incoming == {merged: pure}
    assert fn.run([1, 2, 3, 4]) == 4 and fn.run([]) == ([],)


def test_stale_exception_edges_are_dropped_with_their_phi_incoming():
    fn = new_function("a")
    b0, b1, handler = blocks(fn, 3)
    b0.handler = handler
    emit(b0, ops.Jump(b1))                      # nothing in B0 can raise any more
    b1.handler = handler
    emit(b1, ops.Return(emit(b1, ops.GetItem(fn.args[0], const(0)))))
    emit(handler, ops.CaughtException())
    value = phi(handler, {b0: 1, b1: 2})
    emit(handler, ops.Return(value))
    drop_stale_handler_edges(fn)
    verify(fn)
    assert b0.handler is None and list(value.incoming) == [b1]


def test_empty_block_is_bypassed_and_the_phi_takes_its_value_from_each_predecessor():
    fn = new_function("a", "c")
    b0, left, right, empty, target, other = blocks(fn, 6)
    emit(b0, ops.Branch(fn.args[1], left, other))
    emit(left, ops.Branch(fn.args[0], empty, right))
    x = emit(right, ops.UnaryOp(fn.args[0], "neg"))
    emit(right, ops.Jump(empty))
    inner = phi(empty, {left: fn.args[0], right: x})
    emit(empty, ops.Jump(target))
    emit(other, ops.Jump(target))
    merged = phi(target, {empty: inner, other: const(0)})
    emit(target, ops.Return(merged))
    # the empty block has a φ: it is not bypassed (its φ is the value that flows on)
    simplify_cfg(fn)
    verify(fn)
    assert any(b.phis == [inner] for b in fn.blocks)
    # a genuinely empty block between preds and a φ block is bypassed
    fn = new_function("a", "c")
    b0, p1, p2, empty, target, other = blocks(fn, 6)
    emit(b0, ops.Branch(fn.args[1], p1, other))
    emit(p1, ops.Branch(fn.args[0], empty, p2))
    emit(p2, ops.LoadGlobal("g"))
    emit(p2, ops.Jump(empty))
    emit(empty, ops.Jump(target))
    emit(other, ops.Jump(target))
    merged = phi(target, {empty: fn.args[0], other: const(0)})
    emit(target, ops.Return(merged))
    simplify_cfg(fn)
    verify(fn)
    assert empty not in fn.blocks and other not in fn.blocks          # both empty blocks are bypassed
    assert merged.incoming == {b0: merged.incoming[b0], p1: fn.args[0], p2: fn.args[0]}
    assert merged.incoming[b0].value == 0
    assert fn.run(1, True) == 1 and fn.run(1, False) == 0


def test_empty_block_is_kept_when_a_predecessor_already_reaches_the_target_with_another_value():
    fn = new_function("a", "c")
    b0, empty, target = blocks(fn, 3)
    emit(b0, ops.Branch(fn.args[1], empty, target))
    emit(empty, ops.Jump(target))
    merged = phi(target, {b0: const(1), empty: const(2)})
    emit(target, ops.Return(merged))
    simplify_cfg(fn)
    verify(fn)
    assert len(fn.blocks) == 3
    assert fn.run(0, True) == 2 and fn.run(0, False) == 1


def test_empty_block_is_bypassed_when_the_values_agree():
    fn = new_function("a", "c")
    b0, empty, target = blocks(fn, 3)
    emit(b0, ops.Branch(fn.args[1], empty, target))
    emit(empty, ops.Jump(target))
    merged = phi(target, {b0: fn.args[0], empty: fn.args[0]})
    emit(target, ops.Return(merged))
    simplify_cfg(fn)
    verify(fn)
    assert len(fn.blocks) == 2 and list(merged.incoming) == [fn.blocks[0]]


def test_unreachable_blocks_go_with_their_phi_incoming():
    fn = new_function("a")
    b0, dead, join = blocks(fn, 3)
    emit(b0, ops.Jump(join))
    emit(dead, ops.Jump(join))
    merged = phi(join, {b0: 1, dead: 2})
    emit(join, ops.Return(merged))
    remove_unreachable_blocks(fn)
    verify(fn)
    assert dead not in fn.blocks and list(merged.incoming) == [b0]


def test_blocks_are_renumbered_in_reverse_postorder():
    fn = new_function("c")
    b0, late, early = blocks(fn, 3)
    emit(b0, ops.Branch(fn.args[0], early, late))
    emit(early, ops.Return(const(1)))
    emit(late, ops.Return(emit(late, ops.LoadGlobal("g"))))
    simplify_cfg(fn)
    assert fn.blocks == reverse_postorder(b0, Block.successors) == [b0, late, early]
    assert [b.label for b in fn.blocks] == [0, 1, 2]


def test_handler_reached_only_by_a_stale_edge_goes_with_its_phi_incoming():
    """Found by the random programs: a folded loop left a block that cannot raise as the handler's only
    predecessor; dropping that edge makes the handler unreachable, and the join after it must forget it."""
    fn = new_function("a")
    b0, handler, join = blocks(fn, 3)
    b0.handler = handler
    emit(b0, ops.Jump(join))
    emit(handler, ops.CaughtException())
    emit(handler, ops.Jump(join))
    merged = phi(join, {b0: fn.args[0], handler: const(0)})
    emit(join, ops.Return(merged))
    simplify_cfg(fn)
    verify(fn)
    assert len(fn.blocks) == 1 and fn.run(5) == 5


def _found_by_the_fuzzer(a, b, x, xs):
    i0 = len(xs)
    i1 = -2**63
    f0 = x
    b0 = (f0 != x)
    for k0 in range(len(xs)):
        b0 = ((len(xs) >> 2) >= (len(xs) // len(xs)))
        if (3.25 <= i1):
            raise ZeroDivisionError('planned')
        if (i0 > len(xs)):
            continue
    if (3.25 != b):
        raise ZeroDivisionError('planned')
    return (i0, i1, f0, b0)


def test_merging_a_block_whose_branch_names_one_successor_twice():
    """A folded ``if`` can leave ``branch c, X, X``; merging that block into its predecessor moved X's φ operands
    once per edge (found by the differential fuzzer: a KeyError in simplify_cfg)."""
    import moshjit
    from tests.frontend.sample_support import outcome
    ir = moshjit.to_ssa(_found_by_the_fuzzer)
    for args in [(3, -2, 0.5, [1, 2, 3]), (0, 3.25, 1.0, [])]:
        assert outcome(ir.run, args, {}) == outcome(_found_by_the_fuzzer, args, {})

"""Copy propagation on hand-built IR: trivial φs (also in loops and chains) and unpacked display items."""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.verifier import verify
from moshjit.passes.copyprop import copyprop
from tests.ir.handmade import blocks, const, emit, new_function, phi, text


def test_phi_of_one_value_is_replaced_by_it():
    fn = new_function("a", "c")
    b0, b1, b2, b3 = blocks(fn, 4)
    emit(b0, ops.Branch(fn.args[1], b1, b2))
    emit(b1, ops.Jump(b3))
    emit(b2, ops.Jump(b3))
    merged = phi(b3, {b1: fn.args[0], b2: fn.args[0]})
    emit(b3, ops.Return(emit(b3, ops.UnaryOp(merged, "neg"))))
    copyprop(fn)
    verify(fn)
    assert b3.phis == [] and b3.ops[0].operand is fn.args[0]


def test_loop_phis_that_only_copy_collapse_through_chains():
    """x = a; while c: (y = x; x = y): both loop φs are copies of a once one of them is forwarded."""
    fn = new_function("a", "c")
    entry, header, body, exit_ = blocks(fn, 4)
    emit(entry, ops.Jump(header))
    x = phi(header, {entry: fn.args[0]}, "x")
    emit(header, ops.Branch(fn.args[1], body, exit_))
    inner, latch = blocks(fn, 2)
    emit(body, ops.Branch(fn.args[1], inner, latch))
    emit(inner, ops.Jump(latch))
    y = phi(latch, {body: x, inner: x}, "y")
    emit(latch, ops.Jump(header))
    x.incoming[latch] = y
    emit(exit_, ops.Return(x))
    copyprop(fn)
    verify(fn)
    assert not any(b.phis for b in fn.blocks)
    assert exit_.terminator.value is fn.args[0]


def test_a_real_merge_stays():
    fn = new_function("a", "c")
    b0, b1, b2 = blocks(fn, 3)
    emit(b0, ops.Branch(fn.args[1], b1, b2))
    emit(b1, ops.Jump(b2))
    merged = phi(b2, {b0: fn.args[0], b1: 1})
    emit(b2, ops.Return(merged))
    copyprop(fn)
    assert b2.phis == [merged]


def test_items_of_an_unpacked_display_are_its_operands():
    fn = new_function("a", "b")
    (b0,) = blocks(fn, 1)
    pair = emit(b0, ops.BuildTuple([fn.args[1], fn.args[0]]))
    unpack = emit(b0, ops.UnpackSequence(pair, 2))
    first, second = emit(b0, ops.ExtractItem(unpack, 0)), emit(b0, ops.ExtractItem(unpack, 1))
    constant = emit(b0, ops.UnpackSequence(const((7, 8)), 2))
    seven = emit(b0, ops.ExtractItem(constant, 0))
    wrong = emit(b0, ops.UnpackSequence(pair, 3))                  # raises ValueError at run time: untouched
    kept = emit(b0, ops.ExtractItem(wrong, 0))
    emit(b0, ops.Return(emit(b0, ops.BuildTuple([first, second, seven, kept]))))
    copyprop(fn)
    verify(fn)
    assert b0.ops[-1].items[:3] == [fn.args[1], fn.args[0], b0.ops[-1].items[2]]
    assert b0.ops[-1].items[2].value == 7 and b0.ops[-1].items[3] is kept
    assert text(fn) == ("B0:\n"
                        "    %0 = build_tuple [%b, %a]\n"
                        "    %1 = unpack_sequence[2] %0\n"
                        "    %2 = unpack_sequence[2] (7, 8)\n"
                        "    %3 = unpack_sequence[3] %0\n"
                        "    %4 = extract_item[0] %3\n"
                        "    %5 = build_tuple [%b, %a, 7, %4]\n"
                        "    return %5\n")

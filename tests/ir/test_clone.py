"""``ir.clone.clone_function``: a copy with new blocks and values that prints the same, shares what the IR only
names (globals, constants' values, the "never assigned" value), and changes independently of the original."""
from __future__ import annotations

import pytest

from moshjit.frontend import build_ssa
from moshjit.ir import ops
from moshjit.ir.block import Block
from moshjit.ir.clone import clone_function
from moshjit.ir.function import Function
from moshjit.ir.verifier import verify
from moshjit.passes.pipeline import run_passes

TABLE = {"a": 1}


def loops_and_handlers(xs, default=2):
    total = 0
    for x in xs:
        try:
            total += TABLE[x] * default
        except KeyError:
            total -= 1
    if total:
        maybe = total
    return maybe, [total, *xs]


def ir_objects(fn: Function) -> list:
    return [fn, *fn.args, *fn.blocks, *(v for b in fn.blocks for v in (*b.phis, *b.ops, b.terminator))]


@pytest.mark.parametrize("optimize", [False, True])
def test_a_clone_prints_the_same_and_shares_no_ir_object(optimize):
    fn = build_ssa(loops_and_handlers, optimize=False)
    if optimize:
        run_passes(fn)
    copy, copies = clone_function(fn)
    verify(copy)
    assert str(copy) == str(fn)
    originals = {id(obj) for obj in ir_objects(fn)}
    assert not originals & {id(obj) for obj in ir_objects(copy)}
    assert all(copies[obj] is new for obj, new in zip(ir_objects(fn), ir_objects(copy)))
    assert copy.globals is fn.globals and copy.signature is fn.signature
    for new_block, block in zip(copy.blocks, fn.blocks):
        assert new_block.handler is (None if block.handler is None else copies[block.handler])
        for phi in new_block.phis:
            assert all(pred in copy.blocks for pred in phi.incoming)
    assert {copies[value]: holder for value, holder in fn.holders.items()} == copy.holders


def test_constant_values_and_the_undefined_value_are_shared():
    fn = build_ssa(loops_and_handlers, optimize=False)
    copy, copies = clone_function(fn)
    constants = [(c, copies[c]) for b in fn.blocks for op in (*b.ops, b.terminator) for c in op.operands()
                 if isinstance(c, ops.Constant)]
    assert constants and all(new is not old and new.value is old.value for old, new in constants)
    undefined = [v for b in copy.blocks for phi in b.phis for v in phi.incoming.values() if v is ops.UNDEFINED]
    assert undefined, "the sample reads a local that may be unassigned"


def test_changing_the_clone_leaves_the_original_alone():
    fn = build_ssa(loops_and_handlers, optimize=False)
    before = str(fn)
    copy, _ = clone_function(fn)
    extra: Block = copy.new_block()
    extra.set_terminator(ops.Return(copy.args[0]))
    copy.entry.ops.clear()
    copy.holders.clear()
    assert str(fn) == before and fn.holders


def test_an_inlined_frame_and_its_values_are_copied_together():
    fn = build_ssa(loops_and_handlers, optimize=False)
    defined = frozenset(fn.entry.ops)
    end = ops.FrameEnd(ops.InlinedFrame("callee", "inlined1", defined))
    fn.entry.ops.append(end)
    end.block = fn.entry
    copy, copies = clone_function(fn)
    new_end = copy.entry.ops[-1]
    assert new_end.frame is not end.frame and new_end.frame.token == "inlined1"
    assert new_end.frame.defined == frozenset(copies[op] for op in defined)

"""The verifier accepts well-formed IR and rejects each kind of broken IR with a message naming the problem."""
from __future__ import annotations

import pytest

from moshjit.ir import ops
from moshjit.ir.function import Block
from moshjit.ir.ops import Argument, Constant
from moshjit.ir.verifier import VerificationError, verify
from tests.ir.handmade import blocks, const, emit, new_function, phi


def well_formed():
    """for x in a: try: total = total + x[0] except: total = -1 (as the frontend shapes it); return total."""
    fn = new_function("a")
    entry, header, body, protected, handler, exit_ = blocks(fn, 6)
    iterator = emit(entry, ops.GetIter(fn.args[0]))
    emit(entry, ops.Jump(header))
    total = phi(header, {entry: 0}, "total")
    item = emit(header, ops.ForIter(iterator, body, exit_))
    emit(body, ops.Jump(protected))
    protected.handler = handler
    first = emit(protected, ops.GetItem(item, const(0)))
    added = emit(protected, ops.BinaryOp(total, first, "+", False))
    emit(protected, ops.Jump(header))
    caught = emit(handler, ops.CaughtException())
    emit(handler, ops.Jump(header))
    total.incoming[protected] = added
    total.incoming[handler] = const(-1)
    pair = emit(exit_, ops.UnpackSequence(emit(exit_, ops.BuildTuple([total, total])), 2))
    emit(exit_, ops.Return(emit(exit_, ops.ExtractItem(pair, 0))))
    names = dict(entry=entry, header=header, body=body, protected=protected, handler=handler, exit=exit_,
                 iterator=iterator, total=total, item=item, first=first, added=added, caught=caught, pair=pair)
    return fn, names


def rejects(fn, message: str) -> None:
    with pytest.raises(VerificationError) as info:
        verify(fn)
    assert message in str(info.value)


def test_well_formed_function_is_accepted_and_runs():
    fn, _ = well_formed()
    verify(fn)
    assert fn.run([[1], [2], [], [4]]) == 3           # the empty item resets the total to -1
    assert fn.run([[1], [2]]) == 3


def test_missing_terminator():
    fn, b = well_formed()
    b["exit"].terminator = None
    rejects(fn, "B5: no terminator")


def test_terminator_in_the_middle():
    fn, b = well_formed()
    b["exit"].ops.insert(0, ops.Return(const(1)))
    b["exit"].ops[0].block = b["exit"]
    rejects(fn, "terminator in the middle of a block")


def test_successor_outside_the_function():
    fn, b = well_formed()
    b["body"].terminator.target = Block(99)
    rejects(fn, "successor B99 is not in the function")


def test_op_that_does_not_know_its_block():
    fn, b = well_formed()
    b["first"].block = b["exit"]
    rejects(fn, "get_item does not know its block")


def test_phi_arity_must_match_the_predecessors():
    fn, b = well_formed()
    del b["total"].incoming[b["handler"]]
    rejects(fn, "phi has incoming [0, 3] but predecessors [0, 3, 4]")


def test_use_not_dominated_by_its_definition():
    fn, b = well_formed()
    b["pair"].source.items[0] = b["added"]          # defined in the loop body, used after the loop
    rejects(fn, "uses a value from B3, which does not dominate it")


def test_use_before_definition_in_the_same_block():
    fn, b = well_formed()
    b["protected"].ops.reverse()
    rejects(fn, "binary_op uses a value before its definition")


def test_phi_operand_not_available_at_the_end_of_its_predecessor():
    fn, b = well_formed()
    b["total"].incoming[b["entry"]] = b["first"]
    rejects(fn, "phi operand from B0 is not dominated by its definition in B3")


def test_exception_edge_uses_a_value_defined_after_the_block_can_raise():
    fn, b = well_formed()
    b["total"].incoming[b["handler"]] = b["first"]
    b["handler"].terminator = ops.Jump(b["header"])
    tail = fn.new_block()
    b["handler"].set_terminator(ops.Jump(tail))
    emit(tail, ops.Return(const(0)))
    handler_phi = phi(b["handler"], {b["protected"]: b["added"]})
    b["handler"].phis = [handler_phi]
    del b["total"].incoming[b["handler"]]
    rejects(fn, "exception edge from B3 uses a value defined after it can raise")


def test_for_iter_item_used_outside_the_loop_body():
    fn, b = well_formed()
    b["pair"].source.items[1] = b["item"]
    rejects(fn, "uses a for_iter item outside the loop body")


def test_for_iter_body_with_other_predecessors():
    fn, b = well_formed()
    b["handler"].terminator.target = b["body"]
    del b["total"].incoming[b["handler"]]
    rejects(fn, "for_iter body block has other predecessors")


def test_handler_must_start_with_caught_exception():
    fn, b = well_formed()
    b["handler"].ops.clear()
    rejects(fn, "handler block does not start with caught_exception")


def test_caught_exception_only_at_the_start_of_a_handler():
    fn, b = well_formed()
    emit(b["exit"], ops.CaughtException())
    b["exit"].ops.insert(0, b["exit"].ops.pop())
    rejects(fn, "caught_exception outside the start of a handler block")


def test_handler_entered_by_a_jump():
    fn, b = well_formed()
    b["body"].terminator.target = b["handler"]
    rejects(fn, "handler block entered by a jump from B2")


def test_multi_result_op_used_directly():
    fn, b = well_formed()
    b["exit"].terminator.value = b["pair"]
    rejects(fn, "return uses the multi-result unpack_sequence directly")


def test_extract_item_index_and_source():
    fn, b = well_formed()
    b["exit"].ops[-1].index = 2
    rejects(fn, "extract_item index 2 out of range")
    fn, b = well_formed()
    b["exit"].ops[-1].source = b["exit"].ops[0]
    rejects(fn, "extract_item of a value that is not a multi-result op")


@pytest.mark.parametrize("op, message", [
    (lambda a: ops.BinaryOp(a, a, "<>", False), "unknown binary operator '<>'"),
    (lambda a: ops.UnaryOp(a, "sqrt"), "unknown unary operator 'sqrt'"),
    (lambda a: ops.Compare(a, a, "=<"), "unknown comparison '=<'"),
    (lambda a: ops.Call(a, [a], ("k", "j")), "call has bad keyword names ('k', 'j')"),
    (lambda a: ops.CallMethod(a, [a], "m", (1,)), "call_method has bad keyword names (1,)"),
    (lambda a: ops.BuildMap([a, a], [a]), "build_map with different numbers of keys and values"),
])
def test_operator_attributes_are_checked(op, message):
    fn, b = well_formed()
    b["exit"].ops.insert(0, op(fn.args[0]))
    b["exit"].ops[0].block = b["exit"]
    rejects(fn, message)


@pytest.mark.parametrize("op, kind, message", [
    (ops.Yield, "coroutine", "yield outside a generator function"),
    (ops.YieldFrom, "coroutine", "yield_from outside a generator function"),
    (lambda value: ops.Await(value, None), "generator", "await outside a coroutine"),
    (lambda value: ops.Await(value, "__aexit__"), "generator", "await outside a coroutine"),
])
def test_suspension_ops_belong_to_their_kind_of_function(op, kind, message):
    fn, b = well_formed()
    b["exit"].ops.insert(0, op(fn.args[0]))
    b["exit"].ops[0].block = b["exit"]
    setattr(fn, kind, True)
    rejects(fn, message)
    setattr(fn, "generator" if kind == "coroutine" else "coroutine", True)
    setattr(fn, kind, False)
    verify(fn)


def test_branch_without_condition():
    fn, b = well_formed()
    b["body"].set_terminator(ops.Branch(None, b["protected"], b["protected"]))
    rejects(fn, "branch without a condition")


def test_unreachable_block_and_entry_with_predecessors():
    fn, b = well_formed()
    dead = fn.new_block()
    emit(dead, ops.Return(const(None)))
    rejects(fn, "B6: unreachable block")
    fn, b = well_formed()
    b["handler"].terminator.target = b["entry"]
    del b["total"].incoming[b["handler"]]
    rejects(fn, "entry block has predecessors")


def test_values_defined_twice_or_outside_the_function():
    fn, b = well_formed()
    b["protected"].ops.append(b["first"])
    rejects(fn, "get_item defined twice")
    fn, b = well_formed()
    b["exit"].terminator.value = ops.LoadGlobal("elsewhere")
    rejects(fn, "return uses a value defined outside the function")
    fn, b = well_formed()
    b["exit"].terminator.value = "not a value"
    rejects(fn, "return has a non-value operand 'not a value'")


def test_function_without_blocks():
    fn = new_function()
    rejects(fn, "function has no blocks")


def test_arguments_constants_and_undefined_need_no_definition():
    fn = new_function("a")
    (b0,) = blocks(fn, 1)
    emit(b0, ops.Return(emit(b0, ops.BuildTuple([fn.args[0], Constant(1), ops.UNDEFINED]))))
    verify(fn)
    assert isinstance(fn.args[0], Argument)

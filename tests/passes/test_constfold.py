"""Constant folding on hand-built IR: what is folded, what must stay for run time, and branch folding."""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.ops import UNDEFINED, Constant
from moshjit.ir.verifier import verify
from moshjit.passes.constfold import constfold, maybe_undefined
from tests.ir.handmade import blocks, const, emit, new_function, phi, text


def test_folds_chains_of_operations_on_constants():
    fn = new_function("a")
    (b0,) = blocks(fn, 1)
    s = emit(b0, ops.BinaryOp(const(2), const(3), "+", False))
    p = emit(b0, ops.BinaryOp(s, const(4), "*", False))
    n = emit(b0, ops.UnaryOp(p, "neg"))
    c = emit(b0, ops.Compare(n, const(-20), "=="))
    t = emit(b0, ops.BuildTuple([c, const("x"), n]))
    item = emit(b0, ops.GetItem(t, const(2)))
    emit(b0, ops.Return(emit(b0, ops.BuildTuple([item, fn.args[0]]))))
    constfold(fn)
    verify(fn)
    assert text(fn) == ("B0:\n"
                        "    %0 = build_tuple [-20, %a]\n"
                        "    return %0\n")


def test_leaves_operations_that_raise_or_are_not_pure_to_run_time():
    fn = new_function("a")
    (b0,) = blocks(fn, 1)
    kept = [
        emit(b0, ops.BinaryOp(const(1), const(0), "//", False)),            # ZeroDivisionError at run time
        emit(b0, ops.BinaryOp(const(2), const(100000), "**", False)),       # a huge constant
        emit(b0, ops.BinaryOp(const("ab"), const(3000), "*", False)),       # a string over CPython's 4096
        emit(b0, ops.BinaryOp(const("ab"), const(10 ** 12), "*", False)),   # ... checked before it is built
        emit(b0, ops.BinaryOp(const(2 ** 100), const(2 ** 100), "*", False)),   # over CPython's 128 bits
        emit(b0, ops.BinaryOp(const(3), const(200), "<<", False)),
        emit(b0, ops.BinaryOp(const(2), const(62 ** 4), "**", False)),      # 2 ** 62 ** 4: never computed
        emit(b0, ops.BinaryOp(const(1), const(2), "+", True)),              # augmented: could be __iadd__
        emit(b0, ops.Compare(const(1000), const(1000), "is")),              # identity of ints is not a value
        emit(b0, ops.GetItem(const((1, 2)), const(5))),                     # IndexError
        emit(b0, ops.BinaryOp(const([1]), const([2]), "+", False)),         # mutable constants
    ]
    emit(b0, ops.Return(emit(b0, ops.BuildList(kept))))
    constfold(fn)
    assert [op for op in b0.ops if op in kept] == kept


def test_folds_what_cpython_folds():
    fn = new_function()
    (b0,) = blocks(fn, 1)
    values = [emit(b0, ops.BinaryOp(const(left), const(right), op, False))
              for left, op, right in [(2, "**", 64), ("ab", "*", 2000), (2 ** 63, "-", 1), (1, "<<", 100)]]
    emit(b0, ops.Return(emit(b0, ops.BuildTuple(values))))
    constfold(fn)
    assert b0.ops == [] and b0.terminator.value.value == (2 ** 64, "ab" * 2000, 2 ** 63 - 1, 1 << 100)


def test_folds_identity_with_singletons():
    fn = new_function()
    (b0,) = blocks(fn, 1)
    c = emit(b0, ops.Compare(const(None), const(None), "is"))
    emit(b0, ops.Return(c))
    constfold(fn)
    assert b0.ops == [] and isinstance(b0.terminator.value, Constant) and b0.terminator.value.value is True


def test_folding_a_branch_removes_the_phi_incoming_of_the_dropped_edge():
    fn = new_function("a")
    entry, yes, no, join = blocks(fn, 4)
    cond = emit(entry, ops.Compare(const(1), const(2), "<"))
    emit(entry, ops.Branch(cond, yes, no))
    emit(yes, ops.Jump(join))
    emit(no, ops.Jump(join))
    merged = phi(join, {yes: 1, no: fn.args[0]}, "x")
    emit(join, ops.Return(merged))
    constfold(fn)
    assert isinstance(entry.terminator, ops.Jump) and entry.terminator.target is yes
    assert merged.incoming == {yes: merged.incoming[yes]} and merged.incoming[yes].value == 1


def test_branch_to_the_same_block_on_both_edges_keeps_the_phi_incoming():
    fn = new_function("a")
    entry, join = blocks(fn, 2)
    emit(entry, ops.Branch(const(0), join, join))
    merged = phi(join, {entry: fn.args[0]})
    emit(join, ops.Return(merged))
    constfold(fn)
    verify(fn)
    assert merged.incoming == {entry: fn.args[0]}


def test_branch_on_a_non_constant_condition_stays():
    fn = new_function("a")
    entry, yes, no = blocks(fn, 3)
    emit(entry, ops.Branch(fn.args[0], yes, no))
    emit(yes, ops.Return(const(1)))
    emit(no, ops.Return(const(2)))
    constfold(fn)
    assert isinstance(entry.terminator, ops.Branch)


def _bound_check_function():
    """B0 branches on a; B1 defines x, B2 leaves it undefined; B3 merges and checks it twice, B4 again."""
    fn = new_function("a")
    b0, b1, b2, b3, b4 = blocks(fn, 5)
    emit(b0, ops.Branch(fn.args[0], b1, b2))
    emit(b1, ops.Jump(b3))
    emit(b2, ops.Jump(b3))
    x = phi(b3, {b1: 5, b2: UNDEFINED}, "x")
    first = emit(b3, ops.CheckBound(x, "x", "local"))
    second = emit(b3, ops.CheckBound(x, "x", "local"))
    emit(b3, ops.Jump(b4))
    third = emit(b4, ops.CheckBound(x, "x", "local"))
    always = emit(b4, ops.CheckBound(fn.args[0], "a", "local"))
    emit(b4, ops.Return(emit(b4, ops.BuildTuple([first, second, third, always]))))
    return fn, x, first


def test_unbound_checks_are_kept_once_per_dominating_path():
    fn, x, first = _bound_check_function()
    assert maybe_undefined(fn) == {UNDEFINED, x}
    constfold(fn)
    verify(fn)
    checks = [op for b in fn.blocks for op in b.ops if isinstance(op, ops.CheckBound)]
    assert checks == [first]
    assert fn.blocks[4].ops[-1].items == [first, first, first, fn.args[0]]
    assert fn.run(True) == (5, 5, 5, True)
    try:
        fn.run(False)
    except UnboundLocalError as exc:
        assert str(exc) == "cannot access local variable 'x' where it is not associated with a value"
    else:
        raise AssertionError("no UnboundLocalError")


def test_check_in_a_sibling_branch_does_not_cover_another():
    fn = new_function("a", "b")
    b0, b1, b2, b3, b4 = blocks(fn, 5)
    emit(b0, ops.Branch(fn.args[0], b1, b2))
    emit(b1, ops.Jump(b3))
    emit(b2, ops.Jump(b3))
    x = phi(b3, {b1: 1, b2: UNDEFINED})
    yes, no = blocks(fn, 2)
    emit(b3, ops.Branch(fn.args[1], yes, no))
    left = emit(yes, ops.CheckBound(x, "x", "local"))
    emit(yes, ops.Jump(b4))
    right = emit(no, ops.CheckBound(x, "x", "local"))
    emit(no, ops.Jump(b4))
    emit(b4, ops.Return(const(None)))
    constfold(fn)
    assert left in yes.ops and right in no.ops


def test_a_branch_on_bool_computed_just_before_tests_the_value_itself():
    fn = new_function("a")
    b0, yes, no = blocks(fn, 3)
    truth = emit(b0, ops.Call(const(bool), [fn.args[0]], ()))
    emit(b0, ops.Branch(truth, yes, no))
    emit(yes, ops.Return(const(1)))
    emit(no, ops.Return(const(0)))
    constfold(fn)
    verify(fn)
    assert text(fn).startswith("B0:\n    branch %a, B1, B2\n")


def test_bool_kept_when_used_again_or_not_right_before_the_branch():
    fn = new_function("a")
    b0, yes, no = blocks(fn, 3)
    truth = emit(b0, ops.Call(const(bool), [fn.args[0]], ()))
    emit(b0, ops.Call(fn.args[0], [], ()))                           # may raise between the call and the branch
    emit(b0, ops.Branch(truth, yes, no))
    emit(yes, ops.Return(truth))
    emit(no, ops.Return(const(0)))
    constfold(fn)
    assert b0.terminator.cond is truth and truth in b0.ops


def test_a_check_does_not_cover_the_handler_its_own_exception_reaches():
    fn = new_function("a")
    b0, b1, b2, b3, guarded, handler, after = blocks(fn, 7)
    emit(b0, ops.Branch(fn.args[0], b1, b2))
    emit(b1, ops.Jump(b3))
    emit(b2, ops.Jump(b3))
    x = phi(b3, {b1: 1, b2: UNDEFINED})
    emit(b3, ops.Jump(guarded))
    guarded.handler = handler                         # the check itself may raise into the handler
    first = emit(guarded, ops.CheckBound(x, "x", "local"))
    emit(guarded, ops.Jump(after))
    emit(handler, ops.CaughtException())
    again = emit(handler, ops.CheckBound(x, "x", "local"))
    emit(handler, ops.Return(again))
    emit(after, ops.Return(first))
    constfold(fn)
    verify(fn)
    assert again in handler.ops and first in guarded.ops


def test_unbound_local_in_try_finally_after_the_passes():
    """Found by the random-program test: ``b += 0`` in the ``finally`` reused the check made in the ``try``,
    which is the op that raised, so the handler read a value never computed (KeyError, not UnboundLocalError)."""
    from moshjit.frontend import build_ssa
    from moshjit.passes.pipeline import run_passes
    from tests.frontend.sample_support import outcome

    def program(b, flag):
        if flag:
            del b
        try:
            a = b
        finally:
            b += 0
        return a, b
    ir = run_passes(build_ssa(program, optimize=False))
    for args in ((1, False), (1, True)):
        assert outcome(ir.run, args, {}) == outcome(program, args, {})

"""The reference interpreter's handling of the thread's exception state, which the differential tests (run
outside any handler) cannot see: a caller's handled exception, and restoring it afterwards."""
from __future__ import annotations

import sys

import moshjit
from moshjit.ir import interpreter, ops


def handles_and_returns(x):
    try:
        return 1 // x
    except ZeroDivisionError:
        return "handled"


def handles_and_raises(x):
    try:
        1 // x
    except ZeroDivisionError:
        raise KeyError(x)


def raises_plainly(x):
    return [][x]


def reports_handled():
    return repr(sys.exception())


def outcome_inside_handler(fn, *args):
    """Call ``fn`` while handling a ValueError; report what it did and what is handled afterwards."""
    try:
        raise ValueError("outer")
    except ValueError:
        try:
            result = ("return", fn(*args))
        except Exception as exc:
            context = exc.__context__
            result = ("raise", repr(exc), repr(context), repr(context.__context__ if context else None))
        return result, repr(sys.exception())


def test_exception_state_inside_a_callers_handler_matches_cpython():
    for fn, args in [(handles_and_returns, (0,)), (handles_and_returns, (1,)), (handles_and_raises, (0,)),
                     (raises_plainly, (0,)), (reports_handled, ())]:
        ir = moshjit.to_ssa(fn)
        assert outcome_inside_handler(ir.run, *args) == outcome_inside_handler(fn, *args), fn.__name__


def test_handled_exception_is_restored_after_every_exit():
    for fn, arg in [(handles_and_returns, 0), (handles_and_raises, 0)]:
        ir = moshjit.to_ssa(fn)
        try:
            ir.run(arg)
        except KeyError:
            pass
        assert sys.exception() is None


def test_every_op_has_an_evaluator():
    assert set(ops.OP_CLASSES) <= set(interpreter.EVALUATORS)

"""Error paths left to the interpreter (``backends/llvm/cold_paths.py``): a block that can only end in ``raise``
is not compiled, so a message built from the arguments no longer keeps a numeric function out of the LLVM
backend. Which blocks are cold, on hand-built IR; then, differentially against CPython, that the messages, the
exception types, the mutations made before the raise and the line in the traceback are CPython's, that the call
really went through the interpreter (a deoptimisation is counted) and that the hot path stayed native."""
from __future__ import annotations

import traceback

import pytest
from hypothesis import given, settings, strategies as st

import moshjit
from moshjit.backends.llvm.cold_paths import cold_blocks, error_paths
from moshjit.ir import ops
from tests.ir.handmade import blocks, const, emit, new_function
from tests.llvm.oracle import outcome, same


@pytest.fixture(autouse=True)
def native_code_stays(monkeypatch):
    """No demotion to the generic specialisation: each error path is a deoptimisation, and these tests count."""
    monkeypatch.setenv("MOSHJIT_DEOPT_BUDGET", "1e9")


# ---- which blocks are error paths, and which of them are cold ----------------------------------------------------

def _checked(with_phi: bool = False, in_try: bool = False, loops_back: bool = False):
    """f(n): if n < 0: <message>; raise ValueError(message) — else return n. ``with_phi``: the raising block
    merges two messages; ``in_try``: the check sits in a try block whose handler returns; ``loops_back``: the
    "error" block jumps back to the check instead of raising."""
    fn = new_function("n")
    entry, check, bad, other, good, handler = blocks(fn, 6)
    emit(entry, ops.Jump(check))
    negative = emit(check, ops.Compare(fn.args[0], const(0), "<"))
    emit(check, ops.Branch(negative, bad, good))
    message = emit(bad, ops.BinaryOp(const("bad %s"), fn.args[0], "%", False))
    if loops_back:
        emit(bad, ops.Jump(check))
    elif with_phi:
        emit(bad, ops.Jump(other))
        phi = ops.Phi(other)
        phi.incoming[bad] = message
        other.phis.append(phi)
        emit(other, ops.Raise(emit(other, ops.Call(const(ValueError), [phi], ())), None))
    else:
        emit(bad, ops.Raise(emit(bad, ops.Call(const(ValueError), [message], ())), None))
    emit(good, ops.Return(fn.args[0]))
    emit(handler, ops.Return(const(0)))
    if in_try:
        bad.handler = handler
    fn.blocks = [b for b in fn.blocks if b.terminator is not None and (b is not other or with_phi)
                 and (b is not handler or in_try)]
    return fn, bad, other


def strs_have_no_native_form(value) -> bool:
    return not (isinstance(value, ops.BinaryOp) and value.op == "%")


def no_python_calls(op) -> bool:
    return False


def test_a_block_that_can_only_raise_is_an_error_path_and_cold_when_it_builds_a_message():
    fn, bad, _ = _checked()
    assert error_paths(fn) == {bad}
    assert cold_blocks(fn, error_paths(fn), strs_have_no_native_form, no_python_calls) == {bad}
    assert cold_blocks(fn, error_paths(fn), lambda value: True, no_python_calls) == frozenset()   # raised natively
    assert cold_blocks(fn, error_paths(fn), lambda value: True, lambda op: True) == {bad}     # a Python call


def test_what_a_cold_block_leads_to_is_cold_and_phis_are_entered_only_from_cold_blocks():
    fn, bad, other = _checked(with_phi=True)
    assert error_paths(fn) == {bad, other}
    assert cold_blocks(fn, error_paths(fn), strs_have_no_native_form, no_python_calls) == {bad, other}
    assert cold_blocks(fn, frozenset({other}), lambda value: not isinstance(value, ops.Phi), no_python_calls) \
        == frozenset()                          # a φ entered from compiled code: compiled (or refused)


def test_blocks_that_may_return_are_not_error_paths():
    fn, _, _ = _checked(in_try=True)            # the handler returns
    assert error_paths(fn) == frozenset()
    fn, _, _ = _checked(loops_back=True)        # back to the check, which returns
    assert error_paths(fn) == frozenset()


def test_the_entry_is_never_an_error_path():
    fn = new_function("n")
    (entry,) = blocks(fn, 1)
    emit(entry, ops.Raise(emit(entry, ops.Call(const(ValueError), [fn.args[0]], ())), None))
    assert error_paths(fn) == frozenset()


# ---- the error paths run in the interpreter, exactly -------------------------------------------------------------

def describe(values):
    """A helper only the error path calls (a dict: nothing the LLVM backend would compile)."""
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return sorted(counts.items())


def scaled_sum(n, xs):
    total = 0.0
    for i in range(len(xs)):
        xs[i] = xs[i] * 2.0
        total += xs[i] * n
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n} (total {total!r})")
    if total > 1000.0:
        raise OverflowError("too big: %s of %d items" % (total, len(xs)))
    if n == 7:
        raise KeyError(describe(xs))
    return total


def _scimark_program():
    """pyperformance's scimark as ``benchmarks/general`` runs it."""
    from benchmarks.general import run
    run.ensure_pyperf()
    return run.load("scimark", "test_cold_paths")


power_of_two_log = _scimark_program().int_log2   # the check its FFT makes: a message built from the length


def deopts(function) -> int:
    return sum(stats.get("deopts", 0) for stats in function.stats.values())


_jitted: dict = {}


def native(fn):
    if fn not in _jitted:
        _jitted[fn] = moshjit.jit(fn, backend="llvm", strict=True)
    return _jitted[fn]


@settings(max_examples=80, deadline=None)
@given(st.integers(-5, 12), st.lists(st.floats(-300, 300, allow_nan=False), max_size=6))
def test_errors_and_mutations_agree_with_cpython(n, xs):
    compiled = native(scaled_sum)
    expected, got = outcome(scaled_sum, (n, xs)), outcome(compiled, (n, xs))
    assert got[0] == expected[0]
    assert same(got[1], expected[1]) and (got[0] == "raise" or same(got[2], expected[2]))
    assert all(stats["backend"] == "llvm" for stats in compiled.stats.values())


def test_each_error_path_goes_through_the_interpreter_and_names_the_users_line():
    compiled = native(scaled_sum)
    assert compiled(2, [1.0, 2.0]) == 12.0
    before = deopts(compiled)
    for args, error in [((-1, [1.0]), ValueError), ((100, [9.0]), OverflowError), ((7, [1.0, 1.0]), KeyError)]:
        mutated = list(args[1])
        with pytest.raises(error) as info:
            compiled(args[0], mutated)
        assert mutated == [x * 2.0 for x in args[1]]             # what ran before the raise ran once
        last = traceback.extract_tb(info.value.__traceback__)[-1]
        assert (last.name, last.line.split("(")[0]) == ("scaled_sum", f"raise {error.__name__}")
    assert deopts(compiled) == before + 3


def constant_message(n):
    if n < 0:
        raise ValueError("n must be >= 0")
    return n * 2


def test_an_error_path_native_code_can_run_stays_native():
    compiled = native(constant_message)
    assert compiled(3) == 6
    before = deopts(compiled)
    for _ in range(3):
        assert outcome(compiled, (-1,)) == outcome(constant_message, (-1,))
    assert deopts(compiled) == before            # raised natively: no deoptimisation


def test_the_check_of_a_numeric_kernel_no_longer_keeps_it_out():
    compiled = native(power_of_two_log)
    assert [compiled(n) for n in (1, 2, 1024)] == [0, 1, 10]
    for n in (3, 1000):
        assert outcome(compiled, (n,)) == outcome(power_of_two_log, (n,))
    assert set(compiled.stats) == {("int64",)} and compiled.stats[("int64",)]["backend"] == "llvm"

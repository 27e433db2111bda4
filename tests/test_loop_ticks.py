"""Compiled loops see signals and let other threads run, as CPython's eval loop does at every backward jump
(``passes/loop_ticks.py``, ``ops.LoopTick``): the pass on hand-built IR and on real functions, the table of the
interpreter's flags against its own headers, and the behaviour — Ctrl-C (a signal handler raising
KeyboardInterrupt) stops a long compiled loop inside it, a handler that returns lets the loop go on, a handler
that changes the list the loop reads gives CPython's result, a ticking thread runs beside a compiled loop — on
every backend, plain CPython as the oracle."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sysconfig
import threading
import time

import pytest

import moshjit
from moshjit.compiler import typed_ssa
from moshjit.cpython import EVAL_BREAKER_FLAGS
from moshjit.ir import ops
from moshjit.ir.types import INT, ListType
from moshjit.ir.verifier import verify
from moshjit.passes.loop_ticks import place_loop_ticks
from tests.ir.handmade import blocks, const, emit, new_function

BACKENDS = ("cython", "llvm", "auto")
LONG = 5 * 10 ** 8              # seconds of compiled loop (a minute of CPython's): interrupted long before


# ---- the pass ------------------------------------------------------------------------------------------------------
def _counting_loop():
    """f(n): i = 0; while i < n: i += 1 (the latch is the body block); return i."""
    fn = new_function("n")
    entry, header, body, done = blocks(fn, 4)
    emit(entry, ops.Jump(header))
    i = ops.Phi(header, var="i")
    header.phis.append(i)
    test = emit(header, ops.Compare(i, fn.args[0], "<"))
    emit(header, ops.Branch(test, body, done))
    step = emit(body, ops.BinaryOp(i, const(1), "+", True))
    emit(body, ops.Jump(header))
    i.incoming = {entry: const(0), body: step}
    emit(done, ops.Return(i))
    return fn, body


def test_a_loop_gets_one_tick_at_its_latch_before_the_jump_back():
    fn, body = _counting_loop()
    assert place_loop_ticks(fn)
    verify(fn)
    assert isinstance(body.ops[-1], ops.LoopTick) and isinstance(body.terminator, ops.Jump)
    ticks = [op for block in fn.blocks for op in block.ops if isinstance(op, ops.LoopTick)]
    assert ticks == [body.ops[-1]]
    assert not place_loop_ticks(fn)                   # placed once
    assert len([op for op in body.ops if isinstance(op, ops.LoopTick)]) == 1


def test_a_latch_that_branches_back_or_on_ticks_only_on_its_way_back():
    """f(n): i = 0; do: i += 1 while i < n — the latch branches to the header or out: the tick gets a block of
    its own on the back-edge (in the latch's try), and the header's φ reads it from there."""
    fn = new_function("n")
    entry, header, done = blocks(fn, 3)
    emit(entry, ops.Jump(header))
    i = ops.Phi(header, var="i")
    header.phis.append(i)
    step = emit(header, ops.BinaryOp(i, const(1), "+", True))
    test = emit(header, ops.Compare(step, fn.args[0], "<"))
    branch = emit(header, ops.Branch(test, header, done))
    i.incoming = {entry: const(0), header: step}
    emit(done, ops.Return(step))
    assert place_loop_ticks(fn)
    verify(fn)
    edge = branch.if_true
    assert edge is not header and branch.if_false is done
    assert [type(op) for op in edge.ops] == [ops.LoopTick] and edge.terminator.target is header
    assert edge.handler is header.handler and i.incoming == {entry: i.incoming[entry], edge: step}
    assert not any(isinstance(op, ops.LoopTick) for op in header.ops)


def counted_in_a_try(xs):
    n = 0
    try:
        for x in xs:
            n += 1
            if x:
                continue                # the latch branches back or on: its tick gets an edge block of its own
            n += 2
    except BaseException:
        return -n                       # reads n as the raising block left it: the edge block is one of them
    return n


def test_an_edge_block_in_a_try_passes_the_latchs_values_to_the_handler():
    ir = typed_ssa(counted_in_a_try, [ListType(INT)])
    verify(ir)
    edges = [block for block in ir.blocks if [type(op) for op in block.ops] == [ops.LoopTick]]
    assert edges and all(edge.handler is not None for edge in edges)
    for edge in edges:
        latch = next(block for block in ir.blocks if edge in block.normal_successors())
        assert all(phi.incoming[edge] is phi.incoming[latch] for phi in edge.handler.phis)
        assert edge.handler.phis


def test_straight_code_gets_no_tick():
    fn = new_function("x")
    (b0,) = blocks(fn, 1)
    emit(b0, ops.Return(emit(b0, ops.BinaryOp(fn.args[0], const(1), "+", False))))
    assert not place_loop_ticks(fn)


def nested(rows, n):
    total = 0
    for row in rows:
        j = 0
        while j < n:
            if j == row:
                j += 2
                continue
            total += j
            j += 1
    return total


def straight(a, b):
    return a + b if a < b else a - b


@pytest.mark.parametrize("fn, args, loops", [(nested, [ListType(INT), INT], 2), (straight, [INT, INT], 0)])
def test_every_back_edge_of_a_real_function_has_a_tick(fn, args, loops):
    """The typed SSA the backends get: each back-edge leaves a block that ends with one tick (a ``continue``
    makes one more; a latch that may also go on gets a block of its own on the back-edge)."""
    from moshjit.analysis.loops import LoopForest
    from moshjit.ir.block import Block
    ir = typed_ssa(fn, args)
    verify(ir)
    forest = LoopForest(ir.entry, Block.successors)
    assert len(forest.loops) >= loops and (loops or not forest.loops)      # a continue may give a loop of its own
    latches = {latch for loop in forest.loops for latch in loop.latches}
    assert len(latches) >= loops
    for latch in latches:
        assert isinstance(latch.ops[-1], ops.LoopTick) and latch.ops[-1].line
    assert sum(isinstance(op, ops.LoopTick) for block in ir.blocks for op in block.ops) == len(latches)


# ---- the interpreter's flags -----------------------------------------------------------------------------------------
PROBE = r"""
#define Py_BUILD_CORE 1
#include "Python.h"
#include "internal/pycore_runtime.h"
#include "internal/pycore_interp.h"
#include <stddef.h>
#include <stdio.h>
int main(void) {
#if PY_VERSION_HEX >= 0x030D0000
    printf("thread %zu 2 thread %zu 1\n", offsetof(PyThreadState, eval_breaker), offsetof(PyThreadState, eval_breaker));
#else
    printf("runtime %zu 1 interpreter %zu 1\n", offsetof(_PyRuntimeState, ceval.signals_pending),
           offsetof(PyInterpreterState, ceval.gil_drop_request));
#endif
    return 0;
}
"""


def test_the_flag_table_matches_this_interpreters_headers(tmp_path):
    include = sysconfig.get_paths()["include"]
    if shutil.which("gcc") is None or not os.path.exists(os.path.join(include, "internal", "pycore_interp.h")):
        pytest.skip("needs gcc and CPython's internal headers")
    (tmp_path / "probe.c").write_text(PROBE)
    subprocess.run(["gcc", f"-I{include}", "probe.c", "-o", "probe"], cwd=tmp_path, check=True)
    words = subprocess.run([str(tmp_path / "probe")], capture_output=True, text=True, check=True).stdout.split()
    signals = (words[0], int(words[1]), int(words[2]))
    gil = (words[3], int(words[4]), int(words[5]))
    assert EVAL_BREAKER_FLAGS == {"signals": signals, "gil": gil}


# ---- behaviour -----------------------------------------------------------------------------------------------------
def spin(n):
    t = 0
    i = 0
    while i < n:
        t = (t + i) % 1000003
        i += 1
    return t


def spin_caught(n):
    t = 0
    try:
        for i in range(n):
            t = (t + i) % 1000003
    except KeyboardInterrupt:
        return -1
    return t


def total(xs, rounds):
    t = 0
    for r in range(rounds):
        for x in xs:
            t += x
    return t


def _interrupt(seconds: float):
    signal.signal(signal.SIGALRM, signal.default_int_handler)       # raises KeyboardInterrupt, as Ctrl-C does
    signal.setitimer(signal.ITIMER_REAL, seconds)


@pytest.fixture
def restore_alarm():
    previous = signal.getsignal(signal.SIGALRM)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("backend", BACKENDS)
def test_ctrl_c_stops_a_compiled_loop_inside_it(backend, restore_alarm):
    jitted = moshjit.jit(spin, backend=backend)
    assert jitted(1000) == spin(1000)
    _interrupt(0.02)
    with pytest.raises(KeyboardInterrupt) as raised:
        jitted(LONG)
    frames = [entry.name for entry in raised.traceback]
    assert frames[-1] == "spin"                      # raised in the loop, not after it returned


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_ctrl_c_stops_a_compiled_recursion_that_has_no_loop(backend, restore_alarm, monkeypatch):
    """A recursion through compiled calls meets no eval loop: the entries of functions that call count down too
    (about a second of fib(37) without it)."""
    jitted = moshjit.jit(fib, backend=backend)
    monkeypatch.setitem(globals(), "fib", jitted)
    assert jitted(15) == 610
    _interrupt(0.02)
    with pytest.raises(KeyboardInterrupt) as raised:
        jitted(37)
    assert {entry.name for entry in raised.traceback[1:]} == {"fib"}


@pytest.mark.parametrize("backend", ("cython", "auto"))
def test_a_try_around_the_loop_catches_the_interrupt_as_in_cpython(backend, restore_alarm):
    jitted = moshjit.jit(spin_caught, backend=backend)
    assert jitted(1000) == spin_caught(1000)
    for fn in (spin_caught, jitted):
        _interrupt(0.02)
        try:
            outcome = fn(LONG)
            for _ in range(3):                      # a signal the loop did not see is handled here
                time.sleep(0)
        except KeyboardInterrupt:
            outcome = "interrupted after the call returned"
        assert outcome == -1


def _counting_handler(seen):
    def handler(signum, frame):
        seen.append(signum)
    return handler


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_handler_that_returns_lets_the_loop_go_on(backend, restore_alarm):
    jitted = moshjit.jit(spin, backend=backend)
    n = 30_000_000
    seen = []
    signal.signal(signal.SIGALRM, _counting_handler(seen))
    signal.setitimer(signal.ITIMER_REAL, 0.01, 0.01)
    result = jitted(n)
    signal.setitimer(signal.ITIMER_REAL, 0)
    assert result == spin(n)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_handler_that_changes_the_list_gives_cpythons_error(backend, restore_alarm):
    jitted = moshjit.jit(total, backend=backend)
    assert jitted(list(range(10)), 3) == total(list(range(10)), 3)
    outcomes = []
    for fn in (total, jitted):
        xs = list(range(1000))
        signal.signal(signal.SIGALRM, lambda *_: xs.append("x"))
        signal.setitimer(signal.ITIMER_REAL, 0.01)
        try:
            outcomes.append(("returned", fn(xs, 100_000)))
        except TypeError as error:
            outcomes.append(("raised", str(error)))
    assert outcomes[0] == outcomes[1] == ("raised", "unsupported operand type(s) for +=: 'int' and 'str'")


@pytest.mark.parametrize("backend", BACKENDS)
def test_another_thread_runs_beside_a_compiled_loop(backend):
    jitted = moshjit.jit(spin, backend=backend)
    assert jitted(1000) == spin(1000)
    ticks, stop = [], threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    thread = threading.Thread(target=ticker)
    thread.start()
    time.sleep(0.01)
    before = len(ticks)
    n = 40_000_000
    try:
        result = jitted(n)
        during = len(ticks) - before
    finally:
        stop.set()
        thread.join()
    assert result == spin(n)
    assert during >= 3                              # without ticks: none (the loop kept the GIL)

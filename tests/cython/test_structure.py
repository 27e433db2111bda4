"""Control-flow structuring for the Cython backend: the statement tree of tiny CFGs (diamond, loops, break and
continue, two exits, try/except) has the expected shape, holds every block's code exactly once and computes what
CPython computes (run by ``ir_exec.run_structured``); an irreducible hand-made CFG gets the state-machine
fallback, which is also run through the Cython emitter, built and called."""
from __future__ import annotations

from collections import Counter

import pytest

import moshjit
from moshjit.analysis.loops import LoopForest
from moshjit.backends.cython.generate import generate_pyx
from moshjit.backends.cython.out_of_ssa import out_of_ssa
from moshjit.ir import ops
from moshjit.ir.function import Block
from moshjit.ir.types import BOOL, INT64
from moshjit.ir.verifier import verify
from moshjit.passes.typeinfer import infer_types
from tests.cython.ir_exec import outcome, run_structured, st
from tests.ir.handmade import blocks, const, emit, new_function, phi


# ---- tiny functions -------------------------------------------------------------------------------------------
def diamond(a):
    if a:
        x = "yes"
    else:
        x = "no"
    return x


def while_loop(n):
    i = 0
    while i < n:
        i += 2
    return i


def nested_loops(n):
    total = 0
    for i in range(n):
        for j in range(n):
            if j == 2:
                continue
            if j > i:
                break
            total += j
        else:
            total += 100
    return total


def two_exits(xs, k):
    for x in xs:
        if x == k:
            return "found"
        if x < 0:
            break
    return "stopped"


def try_except(x):
    try:
        y = 12 // x
    except ZeroDivisionError:
        y = -1
    except TypeError as e:
        return str(e)
    return y


def try_in_loop(xs):
    out = []
    for x in xs:
        try:
            out.append(10 // x)
        except ZeroDivisionError:
            continue
        finally:
            out.append("f")
    return out


def break_in_try_finally(n):
    out = []
    for i in range(n):
        try:
            if i == 2:
                break
            out.append(10 // (i - 1))
        except ZeroDivisionError:
            out.append("zero")
            continue
        finally:
            out.append(-i)
    else:
        out.append("else")
    return out


class Manager:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, kind, value, traceback):
        self.log.append(("exit", kind is not None))
        return kind is ZeroDivisionError


def with_in_loop(xs):
    log = []
    for x in xs:
        with Manager(log):
            log.append(10 // x)
    return log


def while_else_nested(n):
    i = 0
    while i < n:
        j = 0
        while j < i:
            if (i + j) % 3 == 0:
                break
            j += 1
        else:
            i += 1
            continue
        i += 2
    else:
        return ("done", i)
    return ("never", i)


INPUTS = {
    diamond: [(0,), (1,), ("",), ([1],)],
    while_loop: [(n,) for n in range(-1, 6)],
    nested_loops: [(n,) for n in range(6)],
    two_exits: [([], 1), ([1, 2, 3], 2), ([1, -1, 2], 2), ([5, 6], 7)],
    try_except: [(3,), (0,), ("a",), (None,), (2.0,)],
    try_in_loop: [([],), ([1, 0, 2, 0],), ([0, "a"],)],
    break_in_try_finally: [(n,) for n in range(5)],
    with_in_loop: [([],), ([1, 0, 5],), ([2, "a"],)],
    while_else_nested: [(n,) for n in range(9)],
}


def structured(fn):
    ir = moshjit.to_ssa(fn)
    plan = out_of_ssa(ir)
    verify(ir)
    return ir, plan, st.structure(ir)


# ---- walking the statement tree ------------------------------------------------------------------------------
def children(stmt) -> list:
    if isinstance(stmt, st.If):
        return [stmt.then, stmt.orelse]
    if isinstance(stmt, (st.Loop, st.Labeled)):
        return [stmt.body]
    if isinstance(stmt, st.Guarded):
        return [stmt.body, stmt.on_raise]
    if isinstance(stmt, st.Dispatch):
        return list(stmt.cases.values())
    return []


def walk(stmts):
    for stmt in stmts:
        yield stmt
        for inner in children(stmt):
            yield from walk(inner)


def code_counts(stmts) -> Counter:
    return Counter(s.block for s in walk(stmts) if isinstance(s, st.Code))


def live_labeled(stmts) -> list:
    """Labeled statements that some Br still leaves (the others are plain sequences: the emitter inlines them)."""
    return [s for s in walk(stmts) if isinstance(s, st.Labeled) and st.count_branches(s.body, {}).get(s.target)]


def branches(stmts, kind=None) -> list:
    return [s for s in walk(stmts) if isinstance(s, st.Br) and (kind is None or s.kind == kind)]


def loops(stmts) -> list:
    return [s for s in walk(stmts) if isinstance(s, st.Loop)]


# ---- generic properties ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("fn", list(INPUTS), ids=lambda f: f.__name__)
def test_every_block_is_placed_exactly_once(fn):
    ir, _, tree = structured(fn)
    assert code_counts(tree) == Counter(ir.blocks)


@pytest.mark.parametrize("fn", list(INPUTS), ids=lambda f: f.__name__)
def test_one_loop_per_loop_header(fn):
    ir, _, tree = structured(fn)
    forest = LoopForest(ir.entry, Block.successors)
    assert forest.reducible
    assert Counter(lp.header for lp in loops(tree)) == Counter(lp.header for lp in forest.loops)
    for loop in loops(tree):                 # a loop's body holds all its blocks (and may hold a break's path)
        assert set(code_counts(loop.body)) >= next(lp.body for lp in forest.loops if lp.header is loop.header)


@pytest.mark.parametrize("fn", list(INPUTS), ids=lambda f: f.__name__)
def test_structured_tree_computes_what_cpython_computes(fn):
    ir, plan, tree = structured(fn)
    for args in INPUTS[fn]:
        assert outcome(lambda *a: run_structured(ir, plan, tree, a), *args) == outcome(fn, *args), args


@pytest.mark.parametrize("fn", list(INPUTS), ids=lambda f: f.__name__)
def test_state_machine_fallback_computes_the_same(fn):
    ir, plan, _ = structured(fn)
    machine = st.state_machine(ir)
    assert code_counts(machine) == Counter(ir.blocks)
    for args in INPUTS[fn]:
        assert outcome(lambda *a: run_structured(ir, plan, machine, a), *args) == outcome(fn, *args), args


# ---- shapes -----------------------------------------------------------------------------------------------------
def test_diamond_is_an_if_with_nothing_to_break_out_of():
    ir, _, tree = structured(diamond)
    assert branches(tree) == [] and live_labeled(tree) == [] and loops(tree) == []
    ifs = [s for s in walk(tree) if isinstance(s, st.If)]
    assert len(ifs) == 1 and ifs[0].terminator is ir.entry.terminator
    text, _ = generate_pyx(moshjit.to_ssa(diamond), "diamond")
    body = text[text.index("def diamond"):]
    assert "while True" not in body and "break" not in body


def test_while_loop_repeats_by_falling_through():
    _, _, tree = structured(while_loop)
    (loop,) = loops(tree)
    assert branches(tree, "continue") == []              # the back edge is the end of ``while True``'s body
    exits = branches(tree, "exit")
    assert len(exits) == 1 and [s for s in walk(loop.body) if s in exits] == exits   # one break, in the loop
    (labeled,) = live_labeled(tree)                       # ... to just after the loop
    assert labeled.body[-1] is loop and labeled.target is exits[0].target


def test_nested_loops_with_break_and_continue():
    ir, _, tree = structured(nested_loops)
    outer, inner = sorted(loops(tree), key=lambda lp: len(list(walk(lp.body))), reverse=True)
    assert inner in list(walk(outer.body))
    continues = branches(tree, "continue")
    # ``continue`` of the inner loop; 3.12+ compiles the inner ``break`` as a jump to the outer loop's next item
    assert any(br.target is inner.header for br in continues)
    assert {br.target for br in continues} <= {inner.header, outer.header}
    inner_exits = [br for br in walk(inner.body) if isinstance(br, st.Br) and br.kind == "exit"]
    assert {br.target for br in inner_exits} <= {lab.target for lab in live_labeled(outer.body)}


def test_loop_with_two_exits():
    _, _, tree = structured(two_exits)
    (loop,) = loops(tree)
    returns = [s.terminator.value.value for s in walk(loop.body) if isinstance(s, st.Leaf)]
    # ``return`` stays in the loop (3.12+ also copies the ``return`` after the loop to where ``break`` was)
    assert returns.count("found") == 1 and set(returns) <= {"found", "stopped"}
    exits = {br.target for br in walk(loop.body) if isinstance(br, st.Br) and br.kind == "exit"}
    (after,) = exits                                      # exhaustion (and ``break`` up to 3.11) leave to one place
    assert isinstance(after.terminator, ops.Return) and after.terminator.value.value == "stopped"


def test_try_except_guards_the_raising_block():
    ir, _, tree = structured(try_except)
    guarded = [s for s in walk(tree) if isinstance(s, st.Guarded)]
    assert ir.entry in {g.block for g in guarded}
    for g in guarded:
        assert g.block.handler is not None
        assert isinstance(g.on_raise[-1], st.Br) and g.on_raise[-1].target is g.block.handler
    assert {g.block for g in guarded} == {b for b in ir.blocks if b.handler is not None and b.can_raise()}


# ---- irreducible control flow --------------------------------------------------------------------------------
def counting(n, start_in_b):
    """What the irreducible CFG below computes: two blocks that jump into each other, entered at either."""
    i = c = 0
    state = "b" if start_in_b else "a"
    while True:
        c += 1 if state == "a" else 10
        i += 1
        if i >= n:
            return c
        state = "b" if state == "a" else "a"


def irreducible_counting():
    """B0 enters the cycle B1 ⇄ B2 at B1 or at B2: neither dominates the other, so the loop has two headers and
    the CFG is irreducible (CPython's compiler never makes one)."""
    fn = new_function("n", "start_in_b", name="counting")
    b0, b1, b2, b3 = blocks(fn, 4)
    n, start_in_b = fn.args
    emit(b0, ops.Branch(start_in_b, b2, b1))
    i1, c1, i2, c2 = phi(b1, {}, "i"), phi(b1, {}, "c"), phi(b2, {}, "i"), phi(b2, {}, "c")
    c1_next = emit(b1, ops.BinaryOp(c1, const(1), "+", False))
    i1_next = emit(b1, ops.BinaryOp(i1, const(1), "+", False))
    emit(b1, ops.Branch(emit(b1, ops.Compare(i1_next, n, "<")), b2, b3))
    c2_next = emit(b2, ops.BinaryOp(c2, const(10), "+", False))
    i2_next = emit(b2, ops.BinaryOp(i2, const(1), "+", False))
    emit(b2, ops.Branch(emit(b2, ops.Compare(i2_next, n, "<")), b1, b3))
    i1.incoming, c1.incoming = {b0: const(0), b2: i2_next}, {b0: const(0), b2: c2_next}
    i2.incoming, c2.incoming = {b0: const(0), b1: i1_next}, {b0: const(0), b1: c1_next}
    emit(b3, ops.Return(phi(b3, {b1: c1_next, b2: c2_next}, "c")))
    verify(fn)
    return fn


COUNTING_ARGS = [(n, s) for n in range(-1, 6) for s in (False, True)]


def test_the_hand_made_cfg_is_irreducible_and_means_counting():
    fn = irreducible_counting()
    assert not LoopForest(fn.entry, Block.successors).reducible
    assert not st.Structurer(fn).forest.reducible
    assert [fn.run(*args) for args in COUNTING_ARGS] == [counting(*args) for args in COUNTING_ARGS]


def test_structure_picks_the_state_machine_for_irreducible_flow():
    fn = irreducible_counting()
    plan = out_of_ssa(fn)
    tree = st.structure(fn)
    assert len(tree) == 1 and isinstance(tree[0], st.Dispatch)
    assert set(tree[0].cases) == set(fn.blocks) and code_counts(tree) == Counter(fn.blocks)
    assert all(br.kind == "state" for br in branches(tree))
    assert [run_structured(fn, plan, tree, args) for args in COUNTING_ARGS] == \
        [counting(*args) for args in COUNTING_ARGS]


@pytest.mark.parametrize("typed", [False, True], ids=["objects", "typed"])
def test_irreducible_function_through_cython(typed):
    from moshjit.backends.cython import compile as compile_cython
    from moshjit.context import CompileContext
    from moshjit.dispatcher import _cache
    fn = irreducible_counting()
    if typed:
        infer_types(fn, [INT64, BOOL])
    text, _ = generate_pyx(fn, "counting")
    assert "_mj_state" in text and ("Py_ssize_t a_n" in text) == typed
    artifact = compile_cython(fn, CompileContext(counting, cache=_cache()))
    assert [artifact.entry(*args) for args in COUNTING_ARGS] == [counting(*args) for args in COUNTING_ARGS]


@pytest.mark.parametrize("fn", list(INPUTS), ids=lambda f: f.__name__)
def test_through_the_cython_backend(fn):
    jitted = moshjit.jit(fn, backend="cython")
    for args in INPUTS[fn]:
        assert outcome(jitted, *args) == outcome(fn, *args), args

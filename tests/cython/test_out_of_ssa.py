"""Out of SSA for the Cython backend: sequentialising parallel copies (swap, cycles, chains, self-moves),
splitting critical edges on a hand-made CFG, and the lost-copy and swap problems — checked on the copy plan
itself (executed by ``ir_exec.run_copies``) and end to end through the Cython backend against CPython."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as hs

import moshjit
from moshjit.backends.cython.out_of_ssa import CopyPlan, Temp, out_of_ssa, sequentialize, split_critical_edges
from moshjit.ir import ops
from moshjit.ir.verifier import verify
from tests.cython.ir_exec import run_copies
from tests.ir.handmade import blocks, const, emit, new_function, phi


class Var:
    """A stand-in for a φ or SSA value: identity is what ``sequentialize`` compares."""

    def __init__(self, name, type_=None):
        self.name, self.type = name, type_

    def __repr__(self):
        return self.name


def parallel(moves, env):
    """The meaning of a parallel copy: every source is read before any destination is written."""
    out = dict(env)
    out.update({dst: env[src] for dst, src in moves})
    return out


def sequential(moves, env):
    out = dict(env)
    for dst, src in moves:
        out[dst] = out[src]
    return out


def initial(*variables):
    return {v: f"old {v.name}" for v in variables}


def temps(moves):
    return [d for d, _ in moves if isinstance(d, Temp)]


a, b, c, d, e = (Var(n) for n in "abcde")


def test_swap_needs_exactly_one_temporary():
    moves = [(a, b), (b, a)]
    ordered = sequentialize(moves)
    assert len(ordered) == 3 and len(temps(ordered)) == 1
    env = sequential(ordered, initial(a, b))
    assert (env[a], env[b]) == ("old b", "old a")
    assert sequential(moves, initial(a, b))[b] == "old b"      # the naive order loses a: the check has teeth


def test_three_cycle_rotates_with_one_temporary():
    moves = [(a, b), (b, c), (c, a)]
    ordered = sequentialize(moves)
    assert len(ordered) == 4 and len(temps(ordered)) == 1
    env = sequential(ordered, initial(a, b, c))
    assert (env[a], env[b], env[c]) == ("old b", "old c", "old a")


def test_chain_is_ordered_without_temporaries():
    moves = [(c, d), (b, c), (a, b)]            # listed in the one order that would be wrong
    ordered = sequentialize(moves)
    assert temps(ordered) == [] and len(ordered) == 3
    env = sequential(ordered, initial(a, b, c, d))
    assert (env[a], env[b], env[c]) == ("old b", "old c", "old d")


def test_self_moves_disappear():
    assert sequentialize([(a, a)]) == []
    assert sequentialize([(a, a), (b, c), (c, c)]) == [(b, c)]


def test_cycle_with_a_chain_hanging_off_it():
    moves = [(a, b), (b, a), (c, a), (d, c), (e, e)]   # a<->b, d <- c <- a, and a self-move
    ordered = sequentialize(moves)
    assert len(temps(ordered)) == 1 and len(ordered) == 5
    env = sequential(ordered, initial(a, b, c, d, e))
    assert [env[v] for v in (a, b, c, d, e)] == ["old b", "old a", "old a", "old c", "old e"]


def test_temporary_takes_the_type_of_what_it_saves():
    typed_a, typed_b = Var("a", "int64"), Var("b", "int64")
    (temp, saved), *_ = sequentialize([(typed_a, typed_b), (typed_b, typed_a)])
    assert isinstance(temp, Temp) and temp.type == saved.type == "int64"


def count_cycles(moves) -> int:
    """Cycles of length >= 2 in the move graph (each needs one temporary, and one is enough)."""
    source_of = {dst: src for dst, src in moves if dst is not src}
    seen, cycles = set(), 0
    for start in source_of:
        path, node = [], start
        while node in source_of and node not in seen and node not in path:
            path.append(node)
            node = source_of[node]
        if node in path:
            cycles += 1
        seen.update(path)
    return cycles


POOL = [Var(f"v{i}") for i in range(7)]


@settings(max_examples=200, deadline=None)
@given(hs.permutations(range(7)), hs.lists(hs.integers(0, 6), min_size=7, max_size=7), hs.integers(0, 7))
def test_any_parallel_copy_is_sequentialised_exactly(order, sources, count):
    moves = [(POOL[order[i]], POOL[sources[i]]) for i in range(count)]   # distinct destinations
    ordered = sequentialize(moves)
    env = initial(*POOL)
    result = sequential(ordered, env)
    assert {v: result[v] for v in POOL} == parallel(moves, env)
    assert len(temps(ordered)) == count_cycles(moves)


# ---- critical edges on a hand-made CFG ------------------------------------------------------------------------
def critical_cfg():
    """B0 → B1 | B2; B1 → B2 | B3; B2 has a φ (both edges into it are critical); B3 has two predecessors but no
    φ; B4 is reached twice from the same branch."""
    fn = new_function("p", "q")
    b0, b1, b2, b3, b4 = blocks(fn, 5)
    emit(b0, ops.Branch(fn.args[0], b1, b2))
    emit(b1, ops.Branch(fn.args[1], b2, b3))
    x = phi(b2, {b0: 10, b1: 20}, "x")
    emit(b2, ops.Branch(fn.args[1], b3, b4))
    emit(b3, ops.Return(const("b3")))
    emit(b4, ops.Return(x))
    return fn, (b0, b1, b2, b3, b4), x


def test_split_critical_edges_on_a_hand_made_cfg():
    fn, (b0, b1, b2, b3, b4), x = critical_cfg()
    before = {args: fn.run(*args) for args in [(0, 0), (0, 1), (1, 0), (1, 1)]}
    split_critical_edges(fn)
    verify(fn)
    assert len(fn.blocks) == 7                               # B0→B2 and B1→B2 got a block each
    middles = set(x.incoming)
    assert b0 not in middles and b1 not in middles and len(middles) == 2
    preds = fn.predecessors()
    for middle in middles:
        assert middle.ops == [] and isinstance(middle.terminator, ops.Jump) and middle.terminator.target is b2
        assert len(preds[middle]) == 1
    assert {preds[m][0] for m in middles} == {b0, b1}
    assert b0.terminator.if_true is b1 and b1.terminator.if_false is b3   # edges into φ-free B3 stay
    assert b2.terminator.if_false is b4                                    # B4 has one predecessor
    assert {args: fn.run(*args) for args in before} == before


def test_no_copy_is_left_on_a_critical_edge():
    fn = moshjit.to_ssa(swap)
    plan = out_of_ssa(fn)
    preds = fn.predecessors()
    assert plan.edges
    for pred, succ in plan.edges:
        assert len(set(pred.normal_successors())) == 1 or len(preds[succ]) == 1, (pred, succ)


def test_a_branch_with_both_arms_to_one_block_is_left_alone():
    fn = new_function("p")
    b0, b1, b2 = blocks(fn, 3)
    emit(b0, ops.Branch(fn.args[0], b2, b2))
    emit(b1, ops.Jump(b2))
    emit(b2, ops.Return(phi(b2, {b0: 1, b1: 2})))
    split_critical_edges(fn)
    assert len(fn.blocks) == 3 and b0.terminator.if_true is b0.terminator.if_false is b2


# ---- the lost-copy and swap problems ----------------------------------------------------------------------------
def lost_copy(n):
    x = 0
    while True:
        y = x
        x = x + 1
        if x >= n:
            break
    return y


def swap(n):
    a, b = 0, 1
    i = 0
    while i < n:
        a, b = b, a
        i += 1
    return a, b


def rotate(n):
    a, b, c = 1, 2, 3
    for _ in range(n):
        a, b, c = b, c, a
    return a, b, c


def cycle_and_chain(n):
    a, b, c, d = 1, 2, 3, 4
    for _ in range(n):
        a, b, c, d = b, a, a, c
    return a, b, c, d


LOOPS = [lost_copy, swap, rotate, cycle_and_chain]


@pytest.mark.parametrize("fn", LOOPS, ids=lambda f: f.__name__)
def test_copy_plan_computes_what_cpython_computes(fn):
    ir = moshjit.to_ssa(fn)
    plan = out_of_ssa(ir)
    verify(ir)
    for n in range(6):
        assert run_copies(ir, plan, [n]) == fn(n)


def test_lost_copy_plan_keeps_the_phi_for_the_exit():
    ir = moshjit.to_ssa(lost_copy)
    (header,) = [blk for blk in ir.blocks if blk.phis]      # x = φ(0, x + 1): its old value is returned
    exit_block = header.terminator.if_true
    assert isinstance(exit_block.terminator, ops.Return) and exit_block.terminator.value is header.phis[0]
    plan = out_of_ssa(ir)
    latch = header.terminator.if_false
    assert latch is not header and latch.ops == [] and latch.terminator.target is header   # the split edge
    assert [dst for dst, _ in plan.copies(latch, header)] == [header.phis[0]]
    assert plan.copies(header, exit_block) == []


def test_copies_at_the_end_of_the_block_would_lose_the_copy():
    """Without splitting, a naive plan runs a block's φ copies before its branch: the exit then sees the
    overwritten φ. This shows ``run_copies`` notices the lost-copy problem when it is there."""
    ir = moshjit.to_ssa(lost_copy)
    plan = CopyPlan(ir)                                     # not split
    moves_from = {}
    for (pred, succ), moves in plan.edges.items():
        moves_from.setdefault(pred, []).extend(moves)
    naive = lambda pred, succ: moves_from.get(pred, [])    # noqa: E731  (every edge gets every copy)
    assert run_copies(ir, plan, [3], copies=naive) == 3 != lost_copy(3)
    assert run_copies(ir, plan, [3]) == lost_copy(3) == 2


def test_swap_plan_breaks_the_cycle_with_a_temporary():
    ir = moshjit.to_ssa(swap)
    plan = out_of_ssa(ir)
    header = next(blk for blk in ir.blocks if len(blk.phis) == 3)
    back = [moves for (pred, succ), moves in plan.edges.items() if succ is header and any(
        isinstance(s, ops.Op) for _, s in moves)]
    (moves,) = back
    assert len(temps(moves)) == 1 and len(moves) == 4          # t = a; a = b; b = t; i = i + 1


_jitted = {}


def jitted(fn):
    if fn not in _jitted:
        _jitted[fn] = moshjit.jit(fn, backend="cython")
    return _jitted[fn]


@pytest.mark.parametrize("fn", LOOPS, ids=lambda f: f.__name__)
def test_through_the_cython_backend(fn):
    for n in (0, 1, 2, 3, 4, 7):
        assert jitted(fn)(n) == fn(n)

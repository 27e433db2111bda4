"""Variable coalescing (``coalesce.py``): values share a variable only where their live ranges never overlap.

The strong check runs every structuring input and every frontend sample with *shared storage* (each value
stored under its representative, as the emitted code does) through ``ir_exec.run_structured`` and compares with
CPython; tiny functions pin down the rules (swap, an op's result vs its operands, values the exception handler
needs); a golden file records the ``cdef`` declarations emitted for real BERT functions.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import moshjit
from benchmarks.bert import pipeline
from moshjit.backends.cython.coalesce import Liveness, coalesce
from moshjit.backends.cython.generate import generate_pyx
from moshjit.backends.cython.out_of_ssa import out_of_ssa
from moshjit.compiler import typed_ssa
from moshjit.typeof import type_of_key
from moshjit.ir.ops import Argument
from tests import version_golden
from tests.cython.ir_exec import outcome, run_structured, st
from tests.cython.test_structure import INPUTS
from tests.frontend import samples  # noqa: F401  (registers the samples)
from tests.frontend.sample_support import SAMPLES, example_arguments, sample_ids

GOLDEN = Path(__file__).with_name("coalesce.golden")


class SharedStorage(dict):
    """An interpreter environment where every value lives in its representative's slot."""

    def __init__(self, representative: dict):
        super().__init__()
        self.representative = representative

    def __setitem__(self, value, item):
        super().__setitem__(self.representative.get(value, value), item)

    def __getitem__(self, value):
        return super().__getitem__(self.representative.get(value, value))


def candidates(ir) -> list:
    users = ir.users()
    return [v for block in ir.blocks for v in [*block.phis, *block.instructions()]
            if users.get(v) and not isinstance(v, Argument)]


def shared(fn):
    """SSA, copy plan, structured tree and the sharing of ``fn`` with every value in one group (the most sharing
    the liveness allows, so the strongest test of it)."""
    ir = moshjit.to_ssa(fn)
    plan = out_of_ssa(ir)
    tree = st.structure(ir)
    representative = coalesce(ir, plan, candidates(ir), lambda v: "object", lambda op: list(op.operands()),
                              lambda op: True)
    return ir, plan, tree, representative


def run_shared(fn, args, kwargs=None):
    ir, plan, tree, representative = shared(fn)
    return outcome(lambda: run_structured(ir, plan, tree, ir.bind(args, kwargs or {}),
                                          SharedStorage(representative)))


def variables(representative: dict) -> int:
    return len(set(representative.values()))


# ---- differential: shared storage computes what CPython computes ------------------------------------------------
@pytest.mark.parametrize("fn", list(INPUTS), ids=lambda f: f.__name__)
def test_structuring_inputs_with_shared_variables(fn):
    for args in INPUTS[fn]:
        assert run_shared(fn, args) == outcome(fn, *args), args


@pytest.mark.parametrize("sample", SAMPLES, ids=sample_ids())
def test_frontend_samples_with_shared_variables(sample):
    for example in sample.examples:
        args, kwargs = example_arguments(example)
        expected = outcome(lambda: sample.fn(*args, **kwargs))
        assert run_shared(sample.fn, args, kwargs) == expected, (args, kwargs)


def test_sharing_happens_on_real_code():
    ir, _, _, representative = shared(pipeline.wordpiece)
    assert variables(representative) * 3 <= len(representative)


# ---- the rules, on tiny functions -----------------------------------------------------------------------------
def swap_in_loop(a, b, n):
    for _ in range(n):
        a, b = b, a
    return a, b


def test_swapped_phis_never_share():
    ir, plan, tree, representative = shared(swap_in_loop)
    header = next(block for block in ir.blocks if len(block.phis) >= 2)
    swapped = [phi for phi in header.phis if {v for v in phi.incoming.values()} & set(header.phis)]
    assert len({representative[phi] for phi in swapped}) == len(swapped) >= 2
    for n in range(4):
        assert run_shared(swap_in_loop, (1, 2, n)) == outcome(swap_in_loop, 1, 2, n)


def straight_line(x):
    a = x + 1
    b = a * 2          # a dies here, but b is computed from it: b needs a variable of its own
    c = b - 3          # c may take a's variable
    return c


def test_dead_values_hand_their_variable_on():
    ir, _, _, representative = shared(straight_line)
    assert (variables(representative), len(representative)) == (2, 3)
    assert run_shared(straight_line, (5,)) == ("ok", 9)


def in_place(xs, x):
    alias = xs
    xs += [x]
    return alias is xs, alias


def test_an_ops_result_never_shares_with_its_operands():
    ir, plan, _, representative = shared(in_place)
    liveness = Liveness(ir, plan, set(candidates(ir)), lambda op: list(op.operands()), lambda op: True)
    for block in ir.blocks:
        for op in block.ops:
            for operand in op.operands():
                if operand in representative and op in representative:
                    assert operand in liveness.interference[op]
                    assert representative[operand] is not representative[op]


def handler_reads_early_value(x, y):
    first = x * 2
    try:
        second = y + 1          # may raise TypeError, after first is computed
        third = second * 3
    except TypeError:
        return first
    return third


def test_values_the_handler_needs_survive_the_whole_block():
    for args in [(2, 3), (2, "a"), ("s", 1)]:
        assert run_shared(handler_reads_early_value, args) == outcome(handler_reads_early_value, *args)
    ir, plan, _, representative = shared(handler_reads_early_value)
    guarded = [block for block in ir.blocks if block.handler is not None and block.ops]
    liveness = Liveness(ir, plan, set(representative), lambda op: list(op.operands()), lambda op: True)
    for block in guarded:
        needed = liveness.live_in[block.handler]
        for op in block.ops:
            for value in needed:
                if value in representative and op in representative and value is not op:
                    assert representative[value] is not representative[op]


# ---- golden: the declarations emitted for real functions ------------------------------------------------------
GOLDEN_FUNCTIONS = [
    (pipeline.clean_text, (str,)),
    (pipeline.split_on_punctuation, (str,)),
    (pipeline.wordpiece, (str, dict, str, "int64")),
    (pipeline.basic_tokenize, (str, ("tuple", str, str, str, str, str))),
]


def declarations(fn, key) -> str:
    ir = typed_ssa(fn, [type_of_key(k) for k in key], assume_globals=False)
    text, _ = generate_pyx(ir, fn.__name__)
    body = text[text.index(f"def {fn.__name__}("):]
    decls = [line.strip() for line in body.splitlines() if line.startswith("    cdef ")]
    return f"[{fn.__name__}] {len(decls)} variables\n" + "\n".join(decls) + "\n"


def test_golden_declarations_of_bert_functions():
    actual = "\n".join(declarations(fn, key) for fn, key in GOLDEN_FUNCTIONS)
    if os.environ.get("MOSHJIT_UPDATE_GOLDEN"):
        version_golden.update(GOLDEN, actual)
    assert version_golden.expected(GOLDEN) == actual, \
        "emitted declarations changed (MOSHJIT_UPDATE_GOLDEN=1 to accept, then review the diff)"


def test_the_shared_storage_check_has_teeth():
    ir, plan, tree, representative = shared(swap_in_loop)
    one = next(iter(representative))
    everything_shared = SharedStorage({value: one for value in representative})
    assert outcome(lambda: run_structured(ir, plan, tree, [1, 2, 1], everything_shared)) != ("ok", (2, 1))


# ---- the plan's groups: objects held by different locals never share ------------------------------------------
def two_locals_in_turn(make):
    first = make(1)
    size = len(first)
    second = make(size)
    return second


def temporaries_in_turn(make):
    return len(make(1)) + len(make(2))


def plan_of(fn, key):
    from moshjit.backends.cython.plan import EmissionPlan
    ir = typed_ssa(fn, [type_of_key(k) for k in key], assume_globals=False)
    return ir, EmissionPlan(ir, out_of_ssa(ir))


def test_objects_held_by_different_locals_keep_their_own_variables():
    ir, plan = plan_of(two_locals_in_turn, (object,))
    held = {name.split("@")[0]: value for value, name in ir.holders.items()}
    first, second = held["first"], held["second"]
    assert plan.representative[first] is not plan.representative[second]


def test_temporaries_still_share_a_variable():
    ir, plan = plan_of(temporaries_in_turn, (object,))
    made = [op for block in ir.blocks for op in block.ops if type(op).__name__ == "Call" and op.args
            and getattr(op.args[0], "value", None) in (1, 2)]
    assert len(made) == 2 and not any(op in ir.holders for op in made)
    assert plan.representative[made[0]] is plan.representative[made[1]]

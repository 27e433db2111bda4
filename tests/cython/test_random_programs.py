"""The frontend's random structured programs (loops, break/continue, try/except/else/finally, with, return,
raise, del) through the Cython backend's pipeline: structured and run with coalesced (shared) variables, and
compiled for real. Combinations of constructs are where out-of-SSA, structuring and coalescing can go wrong.
"""
from __future__ import annotations

import dis
import os

from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st

import moshjit
from moshjit.backends.cython.coalesce import coalesce
from moshjit.backends.cython.out_of_ssa import out_of_ssa
from moshjit.frontend import build_ssa
from tests.cython.ir_exec import run_structured, st as structure
from tests.cython.test_coalesce import SharedStorage, candidates
from tests.frontend.sample_support import outcome
from tests.frontend.test_random_programs import program_function, programs

ARGS = st.tuples(st.integers(-4, 6), st.integers(-4, 6), st.integers(-4, 6))
# CPython copies a `finally` body onto every exit path and moshjit inlines generator expressions, so one program in
# twenty (nested comprehensions in nested `finally`s) is ~6,000 bytecode instructions and an 18,000-line .pyx that
# Cython needs minutes for; the programs compiled for real stay below this size (the structured run takes all).
MAX_COMPILED_INSTRUCTIONS = 2000
SETTINGS = dict(deadline=None)
# MOSHJIT_STRESS=N multiplies the examples (a longer hunt for bugs than the suite's default)
STRESS = int(os.environ.get("MOSHJIT_STRESS", "1"))


@settings(max_examples=100 * STRESS, **SETTINGS)
@given(source=programs(), args=ARGS)
def test_random_program_structured_with_shared_variables(source, args):
    fn = program_function(source)
    ir = build_ssa(fn)
    plan = out_of_ssa(ir)
    tree = structure.structure(ir)
    representative = coalesce(ir, plan, candidates(ir), lambda v: "object", lambda op: list(op.operands()),
                              lambda op: True)
    got = outcome(lambda *a: run_structured(ir, plan, tree, list(a), SharedStorage(representative)), args, {})
    if got[0] == "raise" and "too many steps" in str(got[1]):
        reject()                  # the executor's step limit: nested comprehensions may loop 3**10 times
    assert got == outcome(fn, args, {}), source


@settings(max_examples=8 * STRESS, **SETTINGS)
@given(source=programs(), args=st.lists(ARGS, min_size=1, max_size=4))
def test_random_program_compiled_by_cython(source, args):
    fn = program_function(source)
    assume(len(list(dis.get_instructions(fn))) <= MAX_COMPILED_INSTRUCTIONS)
    jitted = moshjit.jit(fn, backend="cython")
    for arguments in args:
        assert outcome(jitted, arguments, {}) == outcome(fn, arguments, {}), (source, arguments)

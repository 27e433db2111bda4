"""The float and int chains the emitter would find in a function, for the tests that pin their decisions
(``test_float_chains.py``, ``test_int_chains.py``): typed as the compiler types it, with the emission plan's own
C types."""
from __future__ import annotations

from moshjit.backends.cython.out_of_ssa import out_of_ssa
from moshjit.backends.cython.plan import EmissionPlan
from moshjit.compiler import typed_ssa
from moshjit.typeof import type_of_key


def chains_of(chains_class, fn, key):
    """``chains_class`` (``FloatChains`` or ``IntChains``) over ``fn`` typed for the dispatch ``key``."""
    ir = typed_ssa(fn, [type_of_key(k) for k in key], assume_globals=False)
    plan = EmissionPlan(ir, out_of_ssa(ir))
    return chains_class(ir, plan.users, plan.ctype, set())

"""The pass pipeline, in the one fixed order every function goes through."""
from __future__ import annotations

import collections

from moshjit.context import CompileContext
from moshjit.ir.function import Function
from moshjit.passes.bound_methods import bound_methods
from moshjit.passes.bypass_reraise import bypass_reraise
from moshjit.passes.category_codes import category_codes
from moshjit.passes.constfold import constfold
from moshjit.passes.copyprop import copyprop
from moshjit.passes.dce import dce
from moshjit.passes.in_place_awaits import in_place_awaits
from moshjit.passes.int_sums import int_sums
from moshjit.passes.local_raises import local_raises
from moshjit.passes.releases import drop_silent_releases
from moshjit.passes.simplify_cfg import simplify_cfg
from moshjit.passes.str_lists import str_lists
from moshjit.passes.super_calls import super_calls
from moshjit.passes.type_tests import type_tests

PIPELINE = [
    ("constfold", constfold),        # fold constants and constant branches, drop needless unbound checks
    ("category_codes", category_codes),  # tests on unicodedata.category(x) become integer tests on its code
    ("super_calls", super_calls),    # super(C, obj).name(...) calls the method, without a super object
    ("copyprop", copyprop),          # forward trivial φs and unpacked display items
    ("dce", dce),                    # drop what nobody uses
    ("bypass_reraise", bypass_reraise),  # exceptions skip handlers that only re-raise them
    ("local_raises", local_raises),  # raise C() that an except C: pass below takes jumps there, guarded
    ("simplify_cfg", simplify_cfg),  # merge straight-line blocks, bypass empty ones, renumber
]
TYPED_PIPELINE = [                   # passes that read inferred types (and the compile context's results, when
    ("releases", lambda fn, ctx: drop_silent_releases(fn)),  # a rebound local's number or str: nothing to release
                                     # given); after them the pipeline runs again
    ("type_tests", lambda fn, ctx: type_tests(fn)),  # isinstance(x, C) that x's type answers becomes True
    ("str_lists", str_lists),        # reads of a read-only list(s) read the str s instead
    ("bound_methods", lambda fn, ctx: bound_methods(fn)),  # push = stack.append; push(x) calls stack.append(x)
    ("int_sums", lambda fn, ctx: int_sums(fn)),  # a 3.12+ sum(generator) of ints adds into an accumulator
    ("in_place_awaits", in_place_awaits),  # a coroutine awaiting only itself on numbers calls its body in place
]
MAX_ROUNDS = 4                       # a round can expose more work (a folded branch makes φs trivial)


def _shape(fn: Function) -> tuple:
    return (len(fn.blocks), sum(len(b.ops) + len(b.phis) for b in fn.blocks))


def run_passes(fn: Function, trace: bool = False, verify_each: bool = False):
    """Run the pipeline to a fixed point (at most MAX_ROUNDS rounds). With ``trace``, yield (name, fn) after
    each pass instead of returning the result; with ``verify_each``, verify the IR after every pass."""
    steps = _run(fn, verify_each)
    if trace:
        return steps
    collections.deque(steps, maxlen=0)
    return fn


def _run(fn: Function, verify_each: bool):
    if verify_each:
        from moshjit.ir.verifier import verify
    for _ in range(MAX_ROUNDS):
        before = _shape(fn)
        for name, apply in PIPELINE:
            apply(fn)
            if verify_each:
                verify(fn)
            yield name, fn
        if _shape(fn) == before:
            return


def run_typed_passes(fn: Function, ctx: CompileContext | None = None) -> bool:
    """Run the passes that read inferred types once each; when any changed ``fn``, run the pipeline again (the
    caller then infers types again). Whether anything changed."""
    changed = False
    for _, apply in TYPED_PIPELINE:
        changed |= apply(fn, ctx)
    if changed:
        run_passes(fn)
    return changed

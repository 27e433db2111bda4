"""``locals()``, ``vars()``, ``dir()``, ``eval(source)`` and ``exec(source)`` in jitted functions against CPython:
the same dicts (keys, values, order, and before 3.13 the same dict object per frame, updated at each call), through
the reference interpreter and the Cython backend; ``auto`` routes around the LLVM backend."""
from __future__ import annotations

import builtins
import collections
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import moshjit
from tests.scopes import frame_samples as fs
from tests.scopes.driving import outcomes


def compiled(fn, backend):
    return moshjit.to_ssa(fn).run if backend == "ssa" else moshjit.jit(fn, backend=backend, strict=True)


@pytest.mark.parametrize("backend", ["ssa", "cython", "auto"])
@pytest.mark.parametrize("fn,calls", fs.CASES, ids=[fn.__name__ for fn, _ in fs.CASES])
def test_frame_reads_match_cpython(fn, calls, backend):
    assert outcomes(compiled(fn, backend), calls) == outcomes(fn, calls)


@pytest.mark.parametrize("backend", ["ssa", "cython"])
def test_a_closure_reads_its_free_variables(backend):
    plain, jitted = fs.make_closure(1), compiled(fs.make_closure(1), backend)
    assert [jitted(2), jitted(3)] == [plain(2), plain(3)]


def test_the_names_call_what_they_hold_when_they_run():
    """Rebound after compiling, ``locals``/``dir`` are called as they are then; a global holding a frame-reading
    builtin under another name reads the function's frame, as in CPython."""
    namespace = {"__name__": "shadowing_locals"}
    exec("def frame(a):\n    return locals(), dir(), show()\n", namespace)
    namespace["show"] = builtins.globals
    plain = namespace["frame"]
    jitted = moshjit.jit(plain, backend="cython", strict=True)
    assert jitted(1) == plain(1) == ({"a": 1}, ["a"], namespace)
    namespace["locals"] = lambda: "shadowed"
    namespace["dir"] = builtins.vars           # vars() without arguments: the caller's locals, here the frame's
    namespace["show"] = builtins.locals
    assert jitted(1) == plain(1) == ("shadowed", {"a": 1}, {"a": 1})


def test_a_comprehension_reading_its_own_locals_is_refused_on_3_11_only():
    def in_comprehension(xs):
        return [sorted(locals()) for x in xs]
    if sys.version_info >= (3, 12):            # PEP 709: the comprehension runs in the function's frame
        assert moshjit.jit(in_comprehension, backend="cython")([1]) == in_comprehension([1])
    else:
        with pytest.raises(moshjit.UnsupportedError, match="locals of a comprehension"):
            moshjit.to_ssa(in_comprehension)


# ---- whole programs ------------------------------------------------------------------------------------------------
NAMES = ("x", "y", "z", "a")
STATEMENTS = {
    "assign": st.builds("{} = {} + {}".format, st.sampled_from(NAMES), st.sampled_from(("a", "b", "1")),
                        st.integers(-3, 3)),
    "conditional": st.builds("if a > {}:\n    {} = b".format, st.integers(-2, 2), st.sampled_from(NAMES)),
    "delete": st.builds("del {}".format, st.sampled_from(NAMES)),
    "snapshot": st.just("seen.append(items(locals(), 'seen', 'held'))"),
    "hold": st.just("held = locals()"),
    "held": st.just("seen.append(items(held, 'seen', 'held'))"),
    "exec": st.builds('exec("{}_new = b")'.format, st.sampled_from(NAMES)),
    "dir": st.just("seen.append(dir())"),
    "eval": st.builds('seen.append(eval("{} * 2"))'.format, st.sampled_from(NAMES)),
}


@st.composite
def programs(draw):
    kinds = draw(st.lists(st.sampled_from(sorted(STATEMENTS)), min_size=1, max_size=10))
    body = "\n".join(draw(STATEMENTS[kind]) for kind in kinds)
    source = "def program(a, b):\n    seen = []\n" + textwrap.indent(body, "    ") + "\n    return seen\n"
    return kinds, source


def build(source):
    namespace = {"__name__": "frame_programs", "items": fs.items}
    exec(compile(source, "<frame program>", "exec"), namespace)
    return namespace["program"]


def check_program(program, backend, inputs):
    _, source = program
    plain = build(source)
    assert outcomes(compiled(build(source), backend), inputs) == outcomes(plain, inputs), source


@settings(max_examples=60, deadline=None)
@given(programs())
def test_programs_through_the_interpreter_match_cpython(program):
    check_program(program, "ssa", [(1, 2), (-1, 5), (3, -3)])


def test_the_programs_cover_every_statement():
    """Each kind of statement appears in at least 15% of the programs the strategy draws."""
    seen: collections.Counter[str] = collections.Counter()
    total = 0

    @settings(max_examples=100, database=None, derandomize=True)
    @given(programs())
    def sample(program):
        nonlocal total
        total += 1
        seen.update(set(program[0]))

    sample()
    assert {kind: seen[kind] / total for kind in STATEMENTS if seen[kind] / total < 0.15} == {}


@settings(max_examples=8, deadline=None)
@given(programs())
def test_programs_through_cython_match_cpython(program):
    check_program(program, "cython", [(1, 2), (-1, 5)])

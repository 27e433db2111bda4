"""Random structured programs (loops, break/continue, try/except/else/finally, with, return, raise, del,
comprehensions) translated and run by the interpreter: same outcome as CPython, verified IR after every pass.

Hand-written samples test the constructs one at a time; these test their combinations, where the bytecode's
duplicated finally bodies, exception-table depths and loop exits interact.
"""
from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from moshjit.frontend import build_ssa
from moshjit.ir.verifier import verify
from moshjit.passes.pipeline import run_passes
from tests.frontend.sample_support import outcome

VARIABLES = ("a", "b", "c")


class Manager:
    """A context manager that logs and suppresses exceptions when told to."""

    def __init__(self, log, suppress):
        self.log, self.suppress = log, suppress

    def __enter__(self):
        self.log.append("enter")
        return len(self.log)

    def __exit__(self, kind, value, traceback):
        self.log.append(f"exit {kind.__name__ if kind else None}")
        return self.suppress


def check(value):
    """A call that raises for some values (so exceptions come from calls, not only from operators)."""
    if value % 5 == 0:
        raise ValueError(f"check {value}")
    return value + 1


HELPERS = {"Manager": Manager, "check": check}

# Expressions nest at most MAX_LEAVES leaves deep: every comprehension multiplies the work of what it contains by
# up to 3, so an unbounded nesting (which hypothesis's mutations reach) makes a program run for hours in CPython too.
MAX_LEAVES = 6
LEAVES = st.one_of(st.sampled_from(VARIABLES), st.integers(-3, 7).map(str))


def _compound(inner, iterables):
    """Expressions built from ``inner``; a comprehension's iterable comes from ``iterables`` (Python refuses an
    assignment expression there, so that position draws from the walrus-free family)."""
    return st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, st.sampled_from(["<", "==", "!="]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda e: f"check({e})"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        inner.map(lambda e: f"sum([v * {e} for v in range(3)])"),
        iterables.map(lambda e: f"sum(check(v) for v in range({e} % 4))"),
        st.tuples(inner, iterables).map(lambda t: f"max(({t[0]} for v in range({t[1]} % 3)), default=-1)"),
    )


walrus_free_expressions = st.recursive(LEAVES, lambda inner: _compound(inner, inner), max_leaves=MAX_LEAVES)
expressions = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        _compound(inner, walrus_free_expressions),
        st.tuples(st.sampled_from(VARIABLES), inner).map(lambda t: f"sum([({t[0]} := v + {t[1]}) for v in range(2)])"),
    ),
    max_leaves=MAX_LEAVES,
)


@st.composite
def blocks(draw, depth: int, in_loop: bool, counter: list, in_handler: bool = False):
    """A list of source lines (unindented) forming a statement block."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        choices = ["assign", "augment", "log", "if"]
        if depth > 0:
            choices += ["for", "while", "try", "with"]
        if in_loop:
            choices += ["break", "continue"]
        if in_handler:
            choices += ["reraise"]
        choices += ["return", "raise", "del"]
        kind = draw(st.sampled_from(choices))
        var = draw(st.sampled_from(VARIABLES))
        expr = draw(expressions)
        if kind == "assign":
            lines.append(f"{var} = {expr}")
        elif kind == "augment":
            lines.append(f"{var} {draw(st.sampled_from(['+=', '-=', '*=', '//=']))} {expr}")
        elif kind == "log":
            lines.append(f"log.append({expr})")
        elif kind == "if":
            lines.append(f"if {expr}:")
            lines += indent(draw(blocks(depth - 1, in_loop, counter, in_handler)))
            if draw(st.booleans()):
                lines.append("else:")
                lines += indent(draw(blocks(depth - 1, in_loop, counter, in_handler)))
        elif kind == "for":
            lines.append(f"for {var} in range({draw(st.integers(0, 3))}):")
            lines += indent(draw(blocks(depth - 1, True, counter)))
            if draw(st.booleans()):
                lines.append("else:")
                lines += indent(draw(blocks(depth - 1, in_loop, counter)))
        elif kind == "while":
            counter[0] += 1
            name = f"w{counter[0]}"
            lines += [f"{name} = 0", f"while {name} < {draw(st.integers(0, 3))}:", f"    {name} += 1"]
            lines += indent(draw(blocks(depth - 1, True, counter)))
        elif kind == "try":
            lines.append("try:")
            lines += indent(draw(blocks(depth - 1, in_loop, counter)))
            handlers = draw(st.lists(st.sampled_from(["ValueError", "ZeroDivisionError", "(KeyError, ValueError)",
                                                       "Exception"]), max_size=2, unique=True))
            for handler in handlers:
                name = draw(st.sampled_from(["", " as exc"]))
                lines.append(f"except {handler}{name}:")
                body = draw(blocks(depth - 1, in_loop, counter, in_handler=True))
                if name and draw(st.booleans()):
                    body = ["log.append(str(exc))"] + body
                lines += indent(body)
            if handlers and draw(st.booleans()):
                lines.append("else:")
                lines += indent(draw(blocks(depth - 1, in_loop, counter)))
            if not handlers or draw(st.booleans()):
                lines.append("finally:")
                lines += indent(draw(blocks(depth - 1, in_loop, counter)))
        elif kind == "with":
            lines.append(f"with Manager(log, {draw(st.booleans())}) as {var}:")
            lines += indent(draw(blocks(depth - 1, in_loop, counter)))
        elif kind == "reraise":
            lines.append(f"if {expr}:")
            lines.append("    raise")
        elif kind in ("break", "continue"):
            lines.append(f"if {expr}:")
            lines.append(f"    {kind}")
        elif kind == "return":
            lines.append(f"if {expr}:")
            lines.append(f"    return {draw(expressions)}, log")
        elif kind == "raise":
            lines.append(f"if {expr}:")
            lines.append(f"    raise {draw(st.sampled_from(['ValueError', 'KeyError']))}({draw(expressions)})")
        elif kind == "del":
            lines.append(f"if {expr}:")
            lines.append(f"    del {var}")
    return lines


def indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def program_function(source):
    """The ``program`` a generated source defines (the generator writes only sources Python accepts)."""
    namespace = dict(HELPERS)
    exec(compile(source, "<random program>", "exec"), namespace)
    return namespace["program"]


@st.composite
def programs(draw):
    body = draw(blocks(3, False, [0]))
    source = "\n".join(["def program(a, b, c):", "    log = []"] + indent(body) + ["    return a, b, c, log", ""])
    return source


@settings(max_examples=120, deadline=None)
@given(source=programs(), args=st.tuples(st.integers(-4, 6), st.integers(-4, 6), st.integers(-4, 6)))
@example(  # a check that raised into its own handler was taken there as done (constfold reused its value)
    source="def program(a, b, c):\n    log = []\n    if check(1):\n        del b\n    try:\n        a = b\n"
           "    finally:\n        b += 0\n    return a, b, c, log\n",
    args=(0, 0, 1))
@example(  # a loop folded away left a handler reachable only through a stale exception edge
    source="def program(a, b, c):\n    log = []\n    with Manager(log, False) as a:\n        w1 = 0\n"
           "        while w1 < 0:\n            w1 += 1\n            a = a\n        a = b\n    return a, b, c, log\n",
    args=(0, 0, 0))
@example(  # a conditional jump whose both targets were one block (``if 0:`` folded away) sealed the join early
    source="def program(a, b, c):\n    log = []\n    if a:\n        if a:\n            a = a\n        else:\n"
           "            a = a\n            if a:\n                if 0:\n                    return a, log\n"
           "    return a, b, c, log\n",
    args=(1, 0, 0))
def test_random_program_runs_as_in_cpython(source, args):
    fn = program_function(source)
    ir = build_ssa(fn, optimize=False)
    verify(ir)
    run_passes(ir, verify_each=True)
    assert outcome(ir.run, args, {}) == outcome(fn, args, {}), source

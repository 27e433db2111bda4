"""Generated numeric programs whose ints leave 64 bits at random points, run natively (``backend="llvm"`` and
the default ``"auto"``) against CPython: same result, same exception type and message, same mutation of the list
argument. Each program has a loop, a recursive helper called natively, an expression whose final value fits
although a part of it does not, and a statement that raises, in a random order; the inputs decide which of them
meets a big int first. The test asserts that each of these places is where the first overflow happens in a fair
share of the runs (watched in CPython through a traced copy of the program), so the coverage cannot silently
degrade. ``MOSHJIT_STRESS=N`` runs N random programs instead of the fixed CI set."""
from __future__ import annotations

import collections
import os

from hypothesis import given, settings, strategies as st

import moshjit
from tests.llvm.oracle import INT64_MAX, INT64_MIN, outcome, same

STRESS = int(os.environ.get("MOSHJIT_STRESS", "0"))
PROGRAMS = STRESS or 12
RUNS_PER_PROGRAM = 12
BOUNDARIES = [INT64_MIN, INT64_MIN + 1, -(2 ** 62), -(2 ** 40), -(2 ** 31), -7, -1, 0, 1, 2, 3, 2 ** 31, 2 ** 40,
              2 ** 62, INT64_MAX - 1, INT64_MAX]
inputs = st.sampled_from(BOUNDARIES) | st.integers(2 ** 32, INT64_MAX) | st.integers(INT64_MIN, -(2 ** 32)) | \
    st.integers(-1000, 1000)
PLACES = ("loop", "callee", "fits", "raises")


# ---- expressions: trees rendered as plain Python, or traced (each operation reports a value beyond 64 bits) ----
def leaves(names):
    return st.sampled_from(names).map(lambda n: ("name", n)) | \
        st.sampled_from([1, 2, 3, 7, 1000, 2 ** 31 + 11, 2 ** 40 + 3]).map(lambda c: ("const", c))


def expressions(names, depth=2):
    """Expression trees over ``names`` whose constant parts fit in 64 bits (the frontend folds them, and the LLVM
    backend takes no int constant beyond 64 bits: such a function would not be native at all)."""
    if depth == 0:
        return leaves(names)
    inner = expressions(names, depth - 1)
    return (leaves(names) | st.tuples(st.just("op"), st.sampled_from(["+", "-", "*", "*", "//", "%", "&", "^"]),
                                      inner, inner) |
            st.tuples(st.just("shift"), inner, leaves(names)) | st.tuples(st.just("neg"), inner) |
            st.tuples(st.just("abs"), inner)).filter(_constants_fit)


def _constants_fit(tree) -> bool:
    try:
        value = eval(render(tree), {"__builtins__": {"abs": abs}}, {})      # only trees without names evaluate
    except NameError:
        return True
    except ArithmeticError:
        return False
    return INT64_MIN <= value <= INT64_MAX


def traced(text: str, place: str | None) -> str:
    return f"_seen({text}, {place!r})" if place else text


def render(tree, place: str | None = None) -> str:
    """Python source for ``tree``; with ``place``, each operation reports its value as made at ``place``."""
    kind = tree[0]
    if kind == "name":
        return tree[1]
    if kind == "const":
        return str(tree[1])
    if kind == "op":
        text = f"({render(tree[2], place)} {tree[1]} {render(tree[3], place)})"
    elif kind == "shift":                      # a bounded, non-negative count: CPython would build huge ints
        text = f"({render(tree[1], place)} << ({render(tree[2], place)} % 40))"
    elif kind == "neg":
        text = f"(-{render(tree[1], place)})"
    else:
        text = f"abs({render(tree[1], place)})"
    return traced(text, place)


# (plain, traced): a part may leave 64 bits and the whole fit again
FITTING = [
    ("({a} * {k}) // {k}", "_seen({a} * {k}, 'fits') // {k}"),
    ("({a} * {b} - {a} * {b}) + {c}", "(_seen({a} * {b}, 'fits') - _seen({a} * {b}, 'fits')) + {c}"),
    ("(({a} + {b}) * 4) // 4", "_seen(_seen({a} + {b}, 'fits') * 4, 'fits') // 4"),
    ("({a} * {b}) % 1000003", "_seen({a} * {b}, 'fits') % 1000003"),
    ("(({a} << 30) >> 30) + 1", "(_seen({a} << 30, 'fits') >> 30) + 1"),
    ("abs(-({a} - {b})) // 3", "_seen(abs(_seen(-_seen({a} - {b}, 'fits'), 'fits')), 'fits') // 3"),
]


@st.composite
def programs(draw):
    """The parts of a module defining ``helper(a, b, depth)`` and ``main(x, y, xs)`` (see ``source``). One of
    the loop, the helper and the fitting expression comes first and multiplies the inputs (the inputs are
    mostly large, so that part usually meets the first big int); the others follow in any order."""
    first = draw(st.sampled_from(["loop", "call", "fits"]))
    rest = draw(st.permutations(["loop", "call", "fits", "raise"]).map(lambda o: [p for p in o if p != first]))
    return {
        "helper_base": ("op", "*", draw(expressions(["a", "b"], 1)), ("name", draw(st.sampled_from(["a", "b"])))),
        "helper_step": draw(st.sampled_from(["+", "-", "*"])),
        "helper_tail": draw(expressions(["a", "b", "depth"], 1)),
        "loop_count": draw(st.integers(2, 12)),
        "loop_operator": draw(st.sampled_from(["*", "*", "+", "-"])),
        "loop_scale": draw(expressions(["x", "y", "i"], 1)),
        "loop_addend": draw(expressions(["acc", "i"], 1)),
        "appends": draw(st.booleans()),
        "names": {"a": draw(st.sampled_from(["x", "y"])), "b": draw(st.sampled_from(["x", "y", "acc"])),
                  "c": draw(st.sampled_from(["1", "x"])), "k": draw(st.sampled_from(["3", "1000", "(y | 1)"]))},
        "fitting": draw(st.sampled_from(FITTING)),
        "call_args": draw(st.sampled_from([("x", "y"), ("y", "x"), ("x", "acc"), ("acc", "y")])),
        "depth": draw(st.integers(0, 3)),
        "raise_when": draw(st.sampled_from(["x % 2 == 0", "y > 0", "acc < 0", "True", "False"])),
        "order": [first] + rest,
    }


def source(p: dict, traced_copy: bool) -> str:
    """The program's text; the traced copy reports where values beyond 64 bits are made (same semantics)."""
    def at(place):
        return place if traced_copy else None

    loop_body = traced(f"acc {p['loop_operator']} {render(p['loop_scale'], at('loop'))}", at("loop"))
    loop_body = traced(f"{loop_body} + {render(p['loop_addend'], at('loop'))}", at("loop"))
    fit = p["fitting"][1 if traced_copy else 0].format(**p["names"])
    parts = {
        "loop": [f"for i in range({p['loop_count']}):", f"    acc = {loop_body}"]
        + (["    if i % 3 == 0:", "        xs.append(acc % 1000)"] if p["appends"] else []),
        "fits": [f"fit = _whole({fit})" if traced_copy else f"fit = {fit}"],
        "call": [f"got = helper({p['call_args'][0]}, {p['call_args'][1]}, {p['depth']})"],
        "raise": [f"if {p['raise_when']}:", "    acc = acc // (y - y)"],
    }
    recursion = f"helper({traced('a + 1', at('callee'))}, b, depth - 1)"
    step = traced(f"{recursion} {p['helper_step']} {render(p['helper_tail'], at('callee'))}", at("callee"))
    body = ["acc = x", "fit = 0", "got = 0"] + [line for name in p["order"] for line in parts[name]]
    body.append("return acc % 1000000007, fit, got % 1000000007, len(xs)")
    return "\n".join([
        "def helper(a, b, depth):",
        "    if depth <= 0:",
        f"        return {render(p['helper_base'], at('callee'))}",
        f"    return {step}",
        "",
        "def main(x, y, xs):",
        *("    " + line for line in body),
        "",
    ])


# ---- running one program ---------------------------------------------------------------------------------------
class Watch:
    """Where the traced copy first made a value beyond 64 bits; a 'fits' expression counts only when its final
    value is inside 64 bits again."""

    def __init__(self):
        self.first = None

    def seen(self, value, place):
        if self.first is None and isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
            self.first = place
        return value

    def whole(self, value):
        if self.first == "fits" and not INT64_MIN <= value <= INT64_MAX:
            self.first = "other"
        return value


def load(text: str, namespace: dict):
    exec(compile(text, f"<generated {abs(hash(text))}>", "exec"), namespace)
    return namespace["main"]


def first_overflow(program: dict, args) -> tuple:
    watch = Watch()
    main = load(source(program, True), {"_seen": watch.seen, "_whole": watch.whole})
    result = outcome(main, args)
    return watch.first, result


def test_generated_programs_deoptimise_exactly(monkeypatch):
    monkeypatch.setenv("MOSHJIT_DEOPT_BUDGET", "1e9")       # native code all the way, no demotion
    places = collections.Counter()

    @settings(max_examples=PROGRAMS, deadline=None, derandomize=not STRESS)
    @given(program=programs(), data=st.data())
    def run(program, data):
        plain = source(program, False)
        main = load(plain, {})
        natives = {backend: moshjit.jit(main, backend=backend) for backend in ("llvm", "auto")}
        for _ in range(RUNS_PER_PROGRAM):
            args = (data.draw(inputs), data.draw(inputs), data.draw(st.lists(st.integers(-5, 5), max_size=3)))
            first, expected = first_overflow(program, args)
            for backend, native in natives.items():
                got = outcome(native, args)
                assert got[0] == expected[0], (backend, plain, args, got, expected)
                if expected[0] == "ok":
                    assert same(got[1], expected[1]) and same(got[2], expected[2]), \
                        (backend, plain, args, got, expected)
                else:
                    assert got[1:] == expected[1:], (backend, plain, args, got, expected)
            if first is not None:
                places[first] += 1
                if expected[0] == "raise":
                    places["raises"] += 1
        assert all(s["backend"] == "llvm" for native in natives.values() for s in native.stats.values())

    run()
    runs = PROGRAMS * RUNS_PER_PROGRAM
    for place in PLACES:
        assert places[place] >= runs // 20, (place, dict(places))

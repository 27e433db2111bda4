"""Coroutines awaiting themselves on numbers run their awaits in place (``passes/in_place_awaits.py``) and give
CPython's results, exceptions and suspensions: ``in_place_samples.py`` loaded as CPython runs it and with every
function jitted (Cython backend, strict), driven the same way; which functions qualify is checked on the typed
SSA and the generated code."""
from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from tests.loaded_twice import jit_strictly, load
from tests.scopes import driving

_SAMPLES = Path(__file__).with_name("in_place_samples.py")


plain = load(_SAMPLES, "tests.scopes._in_place_plain", jitted=False)
jitted = load(_SAMPLES, "tests.scopes._in_place_jitted", jitted=True)


def describe(exc: BaseException):
    if isinstance(exc, StopIteration):
        value = exc.value
        return ("stop", type(value), value if value == value else "nan")
    return ("raise", type(exc), str(exc))


def drive(module, name, args, sends=()):
    """Start ``module.name(*args)`` and send it ``sends``: what each step gave, until it ends."""
    coroutine = getattr(module, name)(*args)
    return driving.run(coroutine, [("send", None)] + [("send", v) for v in sends], ("send", None), describe)


def same(name, *args, sends=()):
    expected = drive(plain, name, args, sends)
    assert drive(jitted, name, args, sends) == expected
    return expected


@settings(max_examples=40, deadline=None)
@given(st.integers(-3, 18))
def test_fib_matches_cpython(n):
    same("fib", n)


@settings(max_examples=40, deadline=None)
@given(st.integers(-(1 << 40), 1 << 40), st.integers(-2, 12))
def test_results_beyond_64_bits_match_cpython(base, exponent):
    same("power", base, exponent)


@settings(max_examples=40, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True), st.integers(-1, 30))
def test_float_results_match_cpython(x, n):
    same("halves", x, n)


@settings(max_examples=30, deadline=None)
@given(st.integers(-2, 30), st.integers(-5, 40))
def test_an_exception_deep_down_unwinds_as_in_cpython(n, d):
    same("divide_down", n, d)


def test_the_recursion_limit_holds_without_a_crash():
    """Each call in place counts as the Python frame the coroutine would run in: a lowered limit stops both."""
    assert same("depth", 300)[0] == ("stop", int, 300)
    assert same("depth", 100_000)[0][:2] == ("raise", RecursionError)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 200)
    try:
        assert same("depth", 1_000)[0][:2] == ("raise", RecursionError)
    finally:
        sys.setrecursionlimit(limit)


def test_only_self_awaits_on_numbers_run_in_place():
    """fib (ints), power (big ints), halves (floats) and steps with a float run in place; steps with an int awaits
    its float specialisation, the others await what suspends or hold a list: coroutines as before."""
    for name, args in [("fib", (5,)), ("power", (3, 2)), ("halves", (1.0, 2)), ("steps", (2.0,))]:
        same(name, *args)
        assert "await_self" in _typed(name, args), name
        assert "cdef object mj_in_place_body" in str(getattr(jitted, name).inspect_code()), name
    same("steps", 3)
    same("suspends_at_the_bottom", 3, sends=["sent"])
    assert drive(jitted, "collects", (3, [])) == drive(plain, "collects", (3, []))
    for name, args in [("steps", (3,)), ("suspends_at_the_bottom", (3,)), ("collects", (3, []))]:
        text = _typed(name, args)
        assert "await_self" not in text and " await " in text, name


def _typed(name, args) -> str:
    """The typed SSA of the specialisation ``args`` called."""
    signature = tuple({int: "int64", float: "float", list: "list"}[type(a)] for a in args)
    return str(getattr(jitted, name).inspect_types(signature))


def test_a_rebound_name_is_awaited_as_it_now_is():
    """After ``fib`` is rebound to a coroutine that suspends, the compiled entry's binding check sends the call to
    what the name now holds: the suspension reaches the driver as in CPython."""
    first = load(_SAMPLES, "tests.scopes._in_place_rebound_plain", jitted=False)
    second = load(_SAMPLES, "tests.scopes._in_place_rebound_jitted", jitted=True)
    results = []
    for module in (first, second):
        original = module.fib
        assert drive(module, "fib", (6,))[0] == ("stop", int, 8)

        async def suspending(n, module=module):
            return await module._suspend(n) * 10

        module.fib = suspending
        module.original = original
        results.append(drive(module, "original", (4,), sends=[1, 2, 3, 4, 5]))
    assert results[0] == results[1]
    assert ("value", 3) in results[0]


def test_the_interpreter_runs_await_self_as_an_await():
    """The SSA interpreter (the reference for the IR) awaits the dispatcher's coroutine where ``await_self`` is."""
    from moshjit.compiler import DriverContext, typed_ssa
    from moshjit.typeof import type_of_key
    key = ("int64",)
    fn = jitted.fib.py_func
    ir = typed_ssa(fn, [type_of_key(k) for k in key], DriverContext(fn, key))
    assert "await_self" in str(ir)
    with pytest.raises(StopIteration) as stopped:
        ir.run(10).send(None)
    assert stopped.value.value == 55


# ---- generated self-awaiting coroutines ---------------------------------------------------------------------------
PROGRAMS = 12


def _expression(rng, names, ints, depth=0, powers=True) -> str:
    """A numeric expression over ``names``: + - * // %, unary minus, ``**`` if ``powers``; unless ``ints``, also
    float constants, ``/`` and comparisons (bools)."""
    if depth >= 2 or rng.random() < 0.3:
        constants = [str(rng.randint(-3, 5))] + ([] if ints else [f"{rng.randint(-3, 5)}.5"])
        return rng.choice([*names, *constants])
    kind = rng.random()
    left = _expression(rng, names, ints, depth + 1, powers)
    right = _expression(rng, names, ints, depth + 1, powers)
    if kind < 0.1:
        return f"(-{left})"
    if kind < 0.2 and not ints:
        return f"({left} {rng.choice(['<', '<=', '==', '!='])} {right})"
    if kind < 0.3 and powers:
        return f"({left} ** {rng.randint(0, 3)})"
    return f"({left} {rng.choice(['+', '-', '*', '//', '%'] + ([] if ints else ['/']))} {right})"


def _program(rng, name: str) -> str:
    """``async def name(n, x)``: a base case, one or two awaits of itself (the second argument an expression), and
    a result combining the awaited values with + - and small constants (so nothing grows without bound). About half
    use ints only, their arguments taken modulo a constant: an int typed within 64 bits keeps the dispatch key."""
    ints = rng.random() < 0.5
    awaits = rng.randint(1, 2)
    lines = [f"async def {name}(n, x):",
             "    if n <= 0:",
             f"        return {_expression(rng, ['x', 'n'], ints)}"]
    for k in range(awaits):
        argument = (f"{_expression(rng, ['x', 'n'], ints, powers=False)} % {rng.randint(2, 9)}" if ints
                    else _expression(rng, ['x', 'n'], ints))
        lines.append(f"    a{k} = await {name}(n - {k + 1}, {argument})")
    combined = " + ".join(f"{rng.randint(-2, 3)} * a{k}" for k in range(awaits))
    lines.append(f"    return {combined} {rng.choice(['+', '-', '%', '//'])} {_expression(rng, ['x', 'n'], ints)}")
    return "\n".join(lines)


def _generated_modules():
    """The programs in one module run as CPython runs it, and in one where every function is jitted."""
    import linecache
    import random
    import types
    rng = random.Random(2026_12_05)
    source = "\n\n\n".join(_program(rng, f"generated_{i}") for i in range(PROGRAMS)) + "\n"
    filename = "<in_place_generated>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    code = compile(source, filename, "exec")
    modules = []
    for name in ("plain", "jitted"):
        module = types.ModuleType(f"tests.scopes._in_place_generated_{name}")
        exec(code, module.__dict__)
        if name == "jitted":
            for i in range(PROGRAMS):
                setattr(module, f"generated_{i}", jit_strictly(getattr(module, f"generated_{i}")))
        modules.append(module)
    return modules


generated_plain, generated_jitted = _generated_modules()
ARGUMENTS = [(0, 2), (3, 1), (5, -2), (6, 7)]


def test_the_generated_programs_both_run_in_place_and_stay_coroutines():
    """Of the generated programs, the int specialisation of at least a quarter runs in place and at least a
    quarter stays a coroutine (an argument turned float or bool, results mixing ints and floats)."""
    from moshjit.compiler import DriverContext, typed_ssa
    from moshjit.typeof import type_of_key
    in_place = 0
    for i in range(PROGRAMS):
        fn = getattr(generated_jitted, f"generated_{i}").py_func
        key = ("int64", "int64")
        in_place += "await_self" in str(typed_ssa(fn, [type_of_key(k) for k in key], DriverContext(fn, key)))
    assert PROGRAMS // 4 <= in_place <= PROGRAMS - PROGRAMS // 4


@pytest.mark.parametrize("index", range(PROGRAMS))
def test_generated_programs_match_cpython(index):
    name = f"generated_{index}"
    for args in ARGUMENTS:
        assert drive(generated_jitted, name, args) == drive(generated_plain, name, args), (name, args)


def test_a_traceback_through_calls_in_place_has_cpythons_frames():
    """One frame per awaited call, each with its line, as CPython's (the body's C functions show as the
    coroutine)."""
    import traceback

    def frames(module):
        coroutine = module.divide_down(2, 2)
        with pytest.raises(ZeroDivisionError) as raised:
            coroutine.send(None)
        return [(f.filename, f.lineno, f.name) for f in traceback.extract_tb(raised.value.__traceback__)[1:]]

    assert frames(jitted) == frames(plain)
    assert [name for _, _, name in frames(jitted)] == ["divide_down"] * 3

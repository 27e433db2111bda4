"""Functions jitted code makes run compiled (``moshjit/nested.py``, ``backends/cython/nested_functions.py``), with
CPython's results: the call path takes exact positional calls of the code the function was made with and hands
everything else — keywords, defaults, a reassigned ``__code__`` — to CPython's own call."""
from __future__ import annotations

import logging
import sys
import traceback
import warnings

import pytest
from hypothesis import given, settings, strategies as hs

import moshjit
from tests.cython import agree
from tests.cython.agree import outcome


def helper(token, divisor, wanted):
    if token is None:
        return False
    if divisor and token % divisor == 0:
        return True
    return token in wanted


def scan(tokens, divisor, wanted):
    """A lambda made per call, handed to a loop and to ``sorted`` (called from C)."""
    matches = lambda token: helper(token, divisor, wanted)
    found = [token for token in tokens if matches(token)]
    return found, sorted(tokens, key=lambda token: (-token % 7, token))


def counter(steps, start):
    """A closure writing its cell (``nonlocal``), made and called in the same function."""
    total = start

    def add(amount, scale):
        nonlocal total
        total += amount * scale
        return total

    seen = [add(step, 2) for step in steps]
    return total, seen


def shapes(values, offset):
    """One nested function called every way: exactly positional (compiled), with its default, by keyword."""
    def shifted(value, by=offset):
        return value + by if value is not None else -by

    out = []
    for value in values:
        out.append(shifted(value, 1))
        out.append(shifted(value))
        out.append(shifted(value=value, by=2))
    return out


def divides(numbers, by):
    """A nested function that raises CPython's ZeroDivisionError (type and message)."""
    def ratio(number):
        return number // by
    return [ratio(number) for number in numbers]


def recursive(n):
    """A nested function calling itself through its own cell."""
    def fib(k):
        return k if k < 2 else fib(k - 1) + fib(k - 2)
    return fib(n)


def inner_of_inner(words, suffix):
    """A nested function making its own nested function over a cell of the outer one."""
    def decorate(word):
        tail = lambda: word + suffix
        return tail()
    return [decorate(word) for word in words]


def jitted_nested(fn):
    return moshjit.jit(fn, backend="cython")


def nested_states(dispatcher) -> dict:
    return {name: described["state"] for name, described in dispatcher.nested_functions.items()}


@pytest.mark.parametrize("fn, args", [
    (scan, (list(range(40)), 3, (5, 7, 11))),
    (counter, ([1, 2, 3, 4], 10)),
    (shapes, ([1, None, 5], 4)),
    (divides, ([4, 9, 12], 3)),
    (divides, ([4, 9], 0)),
    (recursive, (15,)),
    (inner_of_inner, (["a", "b"], "!")),
])
def test_nested_functions_compile_and_agree_with_cpython(fn, args):
    jitted = jitted_nested(fn)
    assert outcome(jitted, *args) == outcome(fn, *args)
    assert outcome(jitted, *args) == outcome(fn, *args)
    assert nested_states(jitted) and set(nested_states(jitted).values()) == {"native"}


@settings(max_examples=40, deadline=None)
@given(tokens=hs.lists(hs.integers(-50, 50), max_size=30), divisor=hs.integers(-4, 4),
       wanted=hs.lists(hs.integers(-50, 50), max_size=4).map(tuple),
       steps=hs.lists(hs.integers(-10**12, 10**12), max_size=8), start=hs.integers(-5, 5),
       values=hs.lists(hs.one_of(hs.none(), hs.integers(-9, 9), hs.floats(allow_nan=False)), max_size=6))
def test_nested_functions_on_random_inputs(tokens, divisor, wanted, steps, start, values):
    for fn, args in [(scan, (tokens, divisor, wanted)), (counter, (steps, start)), (shapes, (values, start)),
                     (divides, (tokens, divisor))]:
        assert outcome(agree.jitted(fn), *args) == outcome(fn, *args)


def test_a_reassigned_code_runs_the_new_code():
    def made(step):
        return lambda value: value + step

    jitted = jitted_nested(made)
    add = jitted(5)
    # map calls through the vectorcall slot (CPython 3.11's interpreter pushes a Python function's frame itself)
    assert list(map(add, [1, 2])) == [6, 7]              # compiled by now (eager: at its first call)
    assert nested_states(jitted) == {"test_a_reassigned_code_runs_the_new_code.<locals>.made.<locals>.<lambda>":
                                     "native"}
    step = 5
    add.__code__ = (lambda value: value * 100 + step).__code__
    assert list(map(add, [2])) == [205]


def test_a_made_function_is_cpythons_function_object():
    def made(step):
        def add(value):
            return value + step

        def scaled(value, by=2, *, shift=step):
            return value * by + shift
        return add, scaled, lambda: step

    def fields(function):
        return (type(function), function.__name__, function.__qualname__, function.__module__, function.__defaults__,
                function.__kwdefaults__, [cell.cell_contents for cell in function.__closure__ or ()],
                function.__globals__ is globals(), function.__doc__, function.__dict__)

    made_jitted, made_plain = jitted_nested(made)(3), made(3)
    assert [fields(f) for f in made_jitted] == [fields(f) for f in made_plain]
    add, scaled, _ = made_jitted
    assert add(4) == 7 and list(map(add, [1, 2])) == [4, 5] and scaled(1) == 5 and scaled(1, 3, shift=0) == 3


def test_an_error_in_a_compiled_nested_function_points_at_its_line():
    jitted = jitted_nested(divides)
    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero") as raised:
        jitted([3], 0)
    lines = [frame.line for frame in traceback.extract_tb(raised.value.__traceback__)]
    assert "return number // by" in lines


def test_a_nested_function_that_cannot_compile_stays_interpreted_quietly():
    def frames(values):
        where = lambda value: (value, sys._getframe(0).f_code.co_name)
        return [where(value) for value in values]

    jitted = jitted_nested(frames)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert jitted([1, 2]) == frames([1, 2]) == [(1, "<lambda>"), (2, "<lambda>")]
    (described,) = jitted.nested_functions.values()
    assert described["state"] == "failed" and "call stack" in described["reason"]


def test_a_tiered_dispatcher_compiles_nested_functions_in_the_background():
    from moshjit import background

    def run(values, step):
        bump = lambda value: value + step
        return [bump(value) for value in values]

    jitted = moshjit.jit(run, backend="cython", tier="tiered", hot_calls=2)
    jitted.compile([1], 1)                      # the outer function compiled now; its lambda is counted
    assert jitted(list(range(5)), 1) == run(list(range(5)), 1)
    background.wait(120)
    (described,) = jitted.nested_functions.values()
    assert described["state"] == "native" and described["threshold"] == 2
    assert jitted(list(range(50)), 3) == run(list(range(50)), 3)


def descend(n):
    def down(k):
        return 0 if k == 0 else 1 + down(k - 1)
    return down(n)


def deepest(fn) -> tuple:
    """The largest depth ``fn`` reaches before RecursionError, and that error's message."""
    low, high, message = 1, 5000, None
    while low < high:
        middle = (low + high + 1) // 2
        try:
            fn(middle)
            low = middle
        except RecursionError as exc:
            high, message = middle - 1, str(exc)
    return low, message


def test_a_recursive_nested_function_stops_where_cpythons_does():
    assert deepest(jitted_nested(descend)) == deepest(descend)


def rescale(value):
    return value * 2


def scaled(values):
    """A lambda calling a module function the compiled lambda binds (a direct call, checked at its entry)."""
    return list(map(lambda value: rescale(value) + 1, values))


def test_a_name_the_nested_code_bound_rebound_withdraws_the_entry(caplog, monkeypatch):
    caplog.set_level(logging.INFO, logger="moshjit")
    jitted = jitted_nested(scaled)
    assert jitted([1, 2]) == [3, 5]
    (described,) = jitted.nested_functions.values()
    assert described["state"] == "native"
    module = sys.modules[__name__]
    original = module.rescale
    monkeypatch.setattr(module, "rescale", lambda value: value * 10)     # (no ``global`` statement: bindable)
    assert jitted([1, 2]) == scaled([1, 2]) == [11, 21]
    assert "rescale was rebound" in caplog.text
    assert jitted([3]) == [31]                       # compiled again, reading ``rescale`` at run time
    (described,) = jitted.nested_functions.values()
    assert described["state"] == "native"
    monkeypatch.setattr(module, "rescale", original)
    assert jitted([1, 2]) == [3, 5]


def test_a_class_body_made_by_compiled_code_gets_no_call_path():
    def make(value):
        class Made:
            attribute = value

            def method(self):
                return self.attribute
        return Made().method()

    jitted = jitted_nested(make)
    assert jitted(4) == make(4) == 4
    assert list(jitted.nested_functions) == []


SHIFT = 3


def shifted_all(values):
    """A lambda reading a module global whose type its compiled code assumes (an int), checked at its entry."""
    return list(map(lambda value: value + SHIFT, values))


def test_a_global_of_another_type_switches_the_nested_code_to_its_compilation_without_assumptions(monkeypatch):
    jitted = jitted_nested(shifted_all)
    assert jitted([1, 2]) == [4, 5]
    (described,) = jitted.nested_functions.values()
    assert described["state"] == "native" and "generic" not in described
    monkeypatch.setattr(sys.modules[__name__], "SHIFT", 0.5)
    assert jitted([1, 2]) == shifted_all([1, 2]) == [1.5, 2.5]
    (described,) = jitted.nested_functions.values()
    assert described["state"] == "native" and described["generic"]
    monkeypatch.setattr(sys.modules[__name__], "SHIFT", "!")
    assert outcome(jitted, ["a"]) == outcome(shifted_all, ["a"])
    assert outcome(jitted, [1]) == outcome(shifted_all, [1])           # CPython's TypeError, from the lambda

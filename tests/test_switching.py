"""The switch interval on moshjit's compile thread (``moshjit.switching``): short while LLVM is called through
ctypes there, the program's own put back after, and nothing changed on any other thread."""
from __future__ import annotations

import sys
import threading

import pytest

import moshjit
from moshjit import background, switching


@pytest.fixture
def switch_interval():
    before = sys.getswitchinterval()
    yield before
    sys.setswitchinterval(before)


def on_compile_thread(job):
    """What ``job()`` returned, run as a job of moshjit's compile thread."""
    result = []
    background.submit(lambda: result.append(job()))
    assert background.wait(60)
    return result[0]


def inside_releasing_often():
    with switching.releasing_often():
        return threading.current_thread().name, sys.getswitchinterval()


def test_the_compile_thread_calls_llvm_with_a_short_interval_and_puts_the_programs_back(switch_interval):
    sys.setswitchinterval(0.004)
    name, inside = on_compile_thread(inside_releasing_often)
    assert name == "moshjit-compile" and inside == pytest.approx(switching.SHORT_INTERVAL)
    assert sys.getswitchinterval() == pytest.approx(0.004)


def test_other_threads_keep_their_interval(switch_interval):
    sys.setswitchinterval(0.004)
    assert inside_releasing_often()[1] == pytest.approx(0.004)


def test_an_interval_the_program_sets_meanwhile_is_kept(switch_interval):
    sys.setswitchinterval(0.004)

    def changes_it():
        with switching.releasing_often():
            sys.setswitchinterval(0.002)

    on_compile_thread(changes_it)
    assert sys.getswitchinterval() == pytest.approx(0.002)


def test_a_shorter_interval_is_left_alone(switch_interval):
    sys.setswitchinterval(0.0001)
    assert on_compile_thread(inside_releasing_often)[1] == pytest.approx(0.0001)
    assert sys.getswitchinterval() == pytest.approx(0.0001)


def scaled(x):
    return x * 3 + 1


def compiled_in_background(fn, arg, **options):
    """``fn`` jitted with the tiers, called until it is hot, its background compile waited for; its result."""
    jitted = moshjit.jit(fn, tier="tiered", hot_calls=2, cache=False, **options)
    for _ in range(3):
        result = jitted(arg)
    assert background.wait(60)
    return result


def test_a_background_llvm_compile_runs_llvm_with_the_short_interval(switch_interval, monkeypatch):
    """LLVM's ctypes calls run with the short interval; the program's is back after the compile."""
    from moshjit.backends.llvm import engine
    seen = []
    real = engine.load_library

    def recording(path):
        seen.append(sys.getswitchinterval())
        return real(path)

    monkeypatch.setattr(engine, "load_library", recording)
    sys.setswitchinterval(0.004)
    assert compiled_in_background(scaled, 4, backend="llvm") == 13
    assert seen == [pytest.approx(switching.SHORT_INTERVAL)]
    assert sys.getswitchinterval() == pytest.approx(0.004)


class Box:
    def __init__(self, value):
        self.value = value


def unboxed(box):
    return box.value + 1


def uses_a_str_method(n):
    return str(n).strip()


@pytest.mark.parametrize("fn, arg, result", [
    (unboxed, Box(2), 3),                 # an argument LLVM has no native form for: Cython from the start
    (uses_a_str_method, 3, "3"),          # int arguments, a body LLVM refuses: Cython after LLVM's try
])
def test_a_background_compile_cython_builds_keeps_the_programs_interval(fn, arg, result, switch_interval,
                                                                          monkeypatch):
    from moshjit.backends import cython
    seen = []
    real = cython.compile

    def recording(ir, ctx):
        seen.append(sys.getswitchinterval())
        return real(ir, ctx)

    monkeypatch.setattr(cython, "compile", recording)
    sys.setswitchinterval(0.004)
    assert compiled_in_background(fn, arg) == result
    assert seen == [pytest.approx(0.004)] and sys.getswitchinterval() == pytest.approx(0.004)

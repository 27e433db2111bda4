"""The compile thread (``moshjit.background``): jobs run off the caller's thread, with the interpreter's switch
interval shortened while one runs and the program's own put back after it."""
from __future__ import annotations

import sys
import threading

import pytest

from moshjit import background


@pytest.fixture
def switch_interval():
    before = sys.getswitchinterval()
    yield before
    sys.setswitchinterval(before)


def test_a_job_runs_with_a_short_switch_interval_and_the_programs_comes_back(switch_interval):
    sys.setswitchinterval(0.004)
    seen = []
    background.submit(lambda: seen.append((threading.current_thread().name, sys.getswitchinterval())))
    assert background.wait(30)
    assert seen == [("moshjit-compile", pytest.approx(background.COMPILE_SWITCH_INTERVAL))]
    assert sys.getswitchinterval() == pytest.approx(0.004)


def test_a_switch_interval_the_program_sets_during_a_job_is_kept(switch_interval):
    sys.setswitchinterval(0.004)
    background.submit(lambda: sys.setswitchinterval(0.002))
    assert background.wait(30)
    assert sys.getswitchinterval() == pytest.approx(0.002)


def test_a_shorter_switch_interval_than_the_compile_threads_is_left_alone(switch_interval):
    sys.setswitchinterval(0.0001)
    seen = []
    background.submit(lambda: seen.append(sys.getswitchinterval()))
    assert background.wait(30)
    assert seen == [pytest.approx(0.0001)] and sys.getswitchinterval() == pytest.approx(0.0001)

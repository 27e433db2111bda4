"""Run a function plainly and jitted (Cython backend) and compare the outcomes: the result, or the exception's
type and message. Shared by the differential tests of single backend features."""
from __future__ import annotations

import moshjit


def outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except Exception as exc:          # the exception itself is part of the behaviour under test
        return ("raise", type(exc), str(exc))


_jitted: dict = {}


def jitted(fn):
    """One dispatcher per function, so its specialisations are compiled once per test session."""
    if fn not in _jitted:
        _jitted[fn] = moshjit.jit(fn, backend="cython")
    return _jitted[fn]


def same(fn, *args):
    """Assert the jitted ``fn`` gives CPython's outcome on ``args``; returns that outcome."""
    expected = outcome(fn, *args)
    assert outcome(jitted(fn), *args) == expected
    return expected

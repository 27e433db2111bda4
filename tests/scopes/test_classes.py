"""Class statements inside compiled functions against CPython, through the reference interpreter and the Cython
backend (``auto`` routes around the LLVM backend)."""
from __future__ import annotations

import pytest

import moshjit
from tests.scopes import class_samples as cs


def outcome(fn, args):
    try:
        return ("ok", fn(*args))
    except Exception as exc:                  # the exception is part of the behaviour under test
        return ("raise", type(exc), str(exc))


@pytest.mark.parametrize("backend", ["ssa", "auto"])
@pytest.mark.parametrize("fn,calls", cs.CASES, ids=[fn.__name__ for fn, _ in cs.CASES])
def test_class_statements_match_cpython(fn, calls, backend):
    target = moshjit.to_ssa(fn).run if backend == "ssa" else moshjit.jit(fn, backend=backend)
    for args in calls:
        assert outcome(target, args) == outcome(fn, args)

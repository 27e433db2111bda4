"""``inline._callee_ir`` builds a callee's inlinable SSA once per compilation and copies it for each call site. A
scanner's small methods calling each other at many sites used to be built once per path through the call graph
(a JavaScript parser's: 12,700 builds of 79 functions for one method, minutes of compiling and gigabytes)."""
from __future__ import annotations

import collections

import pytest

import moshjit
from moshjit import compiler
from moshjit.compiler import DriverContext


def scanner_class():
    """A fresh class each time (``jit(cls)`` changes the class it is given)."""
    class Scanner:
        def __init__(self, text):
            self.text, self.index = text, 0

        def eof(self):
            return self.index >= len(self.text)

        def peek(self):
            return "" if self.eof() else self.text[self.index]

        def advance(self):
            if not self.eof():
                self.index += 1

        def take_if(self, ch):
            if self.peek() == ch:
                self.advance()
                return True
            return False

        def skip_spaces(self):
            while self.take_if(" ") or self.take_if("\t"):
                pass

        def word(self):
            self.skip_spaces()
            start = self.index
            while not self.eof() and self.peek() not in " \t":
                self.advance()
            self.skip_spaces()
            return self.text[start:self.index]
    return Scanner


@pytest.fixture
def builds(monkeypatch):
    counted = collections.Counter()
    build = DriverContext.inlinable_ssa

    def counting(self, callee, stack):
        counted[callee.__name__] += 1
        return build(self, callee, stack)
    monkeypatch.setattr(compiler.DriverContext, "inlinable_ssa", counting)
    return counted


def test_each_callee_is_built_once_per_compilation(builds):
    jitted = moshjit.jit(scanner_class(), cache=False)
    scanner = jitted("  alpha\tbeta gamma ")
    words = [scanner.word() for _ in range(4)]
    plain = scanner_class()("  alpha\tbeta gamma ")
    assert words == [plain.word() for _ in range(4)] == ["alpha\t", "beta ", "gamma ", ""]
    compilations = sum(len(method.stats) for method in vars(jitted).values() if hasattr(method, "stats"))
    assert compilations >= 1 and set(builds) <= set(vars(jitted))
    assert all(count <= compilations for count in builds.values()), (compilations, builds)


def test_mutually_recursive_methods_stay_calls_and_compute_as_cpython():
    @moshjit.jit
    class Parity:
        def even(self, n):
            return True if n == 0 else self.odd(n - 1)

        def odd(self, n):
            return False if n == 0 else self.even(n - 1)

    parity = Parity()
    assert [parity.even(n) for n in range(12)] == [n % 2 == 0 for n in range(12)]
    assert [parity.odd(n) for n in range(12)] == [n % 2 == 1 for n in range(12)]

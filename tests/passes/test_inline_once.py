"""``inline._callee_ir`` builds a callee's inlinable SSA once per compilation and copies it for each call site. A
scanner's small methods calling each other at many sites used to be built once per path through the call graph
(a JavaScript parser's: 12,700 builds of 79 functions for one method, minutes of compiling and gigabytes). The
driver keeps the bodies across compilations (``DriverContext.inlinable_ssa``) while the names they bound hold."""
from __future__ import annotations

import collections
import sys

import pytest

import moshjit
from moshjit import compiler
from moshjit.compiler import DriverContext
from moshjit.passes.inline import inline_calls
from moshjit.passes.resolve_globals import resolve_globals


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


def counted_by_callee(monkeypatch, method: str) -> collections.Counter:
    """Calls of ``DriverContext.<method>`` (``inlinable_ssa`` or ``_build_inlinable``), per callee name."""
    counted = collections.Counter()
    original = getattr(DriverContext, method)

    def counting(self, callee, stack):
        counted[callee.__name__] += 1
        return original(self, callee, stack)
    monkeypatch.setattr(compiler.DriverContext, method, counting)
    return counted


@pytest.fixture
def builds(monkeypatch):
    """Bodies asked for (built, or handed out again)."""
    return counted_by_callee(monkeypatch, "inlinable_ssa")


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


@pytest.fixture
def fresh_builds(monkeypatch):
    """Builds of inlinable bodies (not the ones handed out again), with nothing kept from earlier tests."""
    monkeypatch.setattr(compiler, "_inlinable_bodies", collections.OrderedDict())
    return counted_by_callee(monkeypatch, "_build_inlinable")


def test_each_callee_is_built_once_across_compilations(fresh_builds):
    jitted = moshjit.jit(scanner_class(), cache=False)
    scanner = jitted("  alpha\tbeta gamma ")
    assert [scanner.word() for _ in range(4)] == ["alpha\t", "beta ", "gamma ", ""]
    compilations = sum(len(method.stats) for method in vars(jitted).values() if hasattr(method, "stats"))
    assert compilations >= 3 and fresh_builds["eof"] == 1 and fresh_builds["advance"] == 1, fresh_builds
    assert max(fresh_builds.values()) == 1, fresh_builds


def bonus(x):
    return x + 1


def scored(x):
    return bonus(x) * 2


def first_user(x):
    return scored(x) + 100


def second_user(x):
    return scored(x) - 100


def test_a_kept_body_is_built_again_once_a_name_it_bound_is_rebound(fresh_builds, monkeypatch):
    first = moshjit.jit(first_user, cache=False, backend="cython")
    assert first(1) == first_user(1) == 104
    assert fresh_builds["scored"] == 1
    monkeypatch.setattr(sys.modules[__name__], "bonus", lambda x: x + 10)
    second = moshjit.jit(second_user, cache=False, backend="cython")
    assert second(1) == second_user(1) == -78
    assert fresh_builds["scored"] == 2                # ``bonus`` bound by the kept body no longer holds
    assert first(1) == first_user(1) == 122          # (the first compilation's own check sees it too)


def test_a_kept_body_brings_what_its_build_recorded(fresh_builds):
    """A compilation handed a kept body records its dependencies, bindings and resolved globals as if it had built
    it."""
    def context_of(fn):
        ctx = DriverContext(fn, (), "cython")
        ir = moshjit.to_ssa(fn)
        resolve_globals(ir, ctx)
        inline_calls(ir, ctx, (fn.__code__,))
        return ctx

    built, kept = context_of(first_user), context_of(second_user)
    assert fresh_builds["scored"] == 1
    for ctx in (built, kept):
        assert scored in ctx.dependencies.values() and bonus in ctx.dependencies.values()
        assert {binding.name for binding in ctx.bindings} >= {"scored", "bonus"}


def ping(n):
    return pong(n) + 1


def pong(n):
    return ping(n - 1) if n > 0 else 0


def ping_user(n):
    return ping(n) * 2


def pong_user(n):
    return pong(n) * 3


def test_a_body_a_call_cycle_cut_is_not_kept(fresh_builds):
    """``pong``'s call of ``ping`` stays a call only because ``ping``'s body was being built: built for another
    entry into the cycle it would differ, so it is built again there."""
    assert moshjit.jit(ping_user, cache=False, backend="cython")(5) == ping_user(5) == 12
    assert moshjit.jit(pong_user, cache=False, backend="cython")(5) == pong_user(5) == 15
    assert fresh_builds["pong"] == 2 and fresh_builds["ping"] <= 2

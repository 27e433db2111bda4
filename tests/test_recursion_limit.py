"""A recursion through compiled code stops where CPython's stops: the deepest call that returns is the same for the
plain function and the jitted one, on every backend — native (LLVM) recursion counted in the thread's own recursion
count as Python frames are, a helper on a call cycle called (and counted) instead of inlined, a limit lowered after
compiling seen at once — and a jitted function entered from plain code counts one level, not two."""
from __future__ import annotations

import sys

import pytest

import moshjit

BACKENDS = ("cython", "llvm", "auto")


def down(n):
    if n == 0:
        return 0
    return down(n - 1) + 1


def ping(n):
    if n == 0:
        return 0
    return pong(n - 1) + 1


def pong(n):
    if n == 0:
        return 0
    return ping(n - 1) + 1


def first_helper_level(n):
    """Calls a recursive helper: inlining its first level would leave that level uncounted."""
    return down(n) + 0


def deepest_returning(fn, high: int = 3000) -> int:
    """The largest ``n`` for which ``fn(n)`` returns (calls below raise RecursionError, calls above do not return)."""
    low = 0
    while low < high:
        middle = (low + high + 1) // 2
        try:
            fn(middle)
            low = middle
        except RecursionError:
            high = middle - 1
    return low


@pytest.fixture
def limit():
    before = sys.getrecursionlimit()
    yield
    sys.setrecursionlimit(before)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [down, ping, first_helper_level], ids=lambda fn: fn.__name__)
def test_recursion_stops_where_cpythons_does(fn, backend, limit):
    jitted = moshjit.jit(fn, backend="cython" if fn is not down and backend == "llvm" else backend)
    assert jitted(5) == fn(5)
    for new_limit in (300, 120):          # lowered after compiling: the next calls see it
        sys.setrecursionlimit(new_limit)
        assert deepest_returning(jitted) == deepest_returning(fn)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_recursion_limit_raised_is_used_at_once(backend, limit):
    jitted = moshjit.jit(down, backend=backend)
    assert jitted(5) == 5
    sys.setrecursionlimit(200)
    with pytest.raises(RecursionError):
        jitted(250)
    sys.setrecursionlimit(400)
    assert jitted(250) == 250 == down(250)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [down, ping, first_helper_level], ids=lambda fn: fn.__name__)
def test_the_recursion_error_is_cpythons(fn, backend, limit):
    jitted = moshjit.jit(fn, backend="cython" if fn is not down and backend == "llvm" else backend)
    assert jitted(5) == fn(5)
    sys.setrecursionlimit(150)
    with pytest.raises(RecursionError) as expected:
        fn(400)
    with pytest.raises(RecursionError) as got:
        jitted(400)
    assert str(got.value) == str(expected.value)


class Node:
    def __init__(self, child):
        self.child = child

    def depth(self):
        if self.child is None:
            return 0
        return self.child.depth() + 1


def walk(node):
    """Calls a method that calls itself on another receiver: inlining its first level would leave it uncounted."""
    return node.depth() + 0


def chains(cls, longest: int) -> list:
    nodes, node = [], None
    for _ in range(longest + 1):
        nodes.append(node)
        node = cls(node)
    return nodes[1:] + [node]


@pytest.mark.parametrize("backend", ("cython", "auto"))
def test_a_method_recursion_stops_where_cpythons_does(backend, limit):
    jitted_walk, jitted_node = moshjit.jit(walk, backend=backend), moshjit.jit(Node, backend=backend)
    plain_chains, jitted_chains = chains(Node, 400), chains(jitted_node, 400)
    assert jitted_walk(jitted_chains[5]) == walk(plain_chains[5]) == 5
    sys.setrecursionlimit(250)
    assert (deepest_returning(lambda n: jitted_walk(jitted_chains[n]), 400)
            == deepest_returning(lambda n: walk(plain_chains[n]), 400))

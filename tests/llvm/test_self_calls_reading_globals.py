"""A native function that reads module globals (an int constant such as mpmath's ``MPZ_ONE``) takes them as
parameters after its arguments, read once by the compiled entry; a call of itself must hand its own on. mpmath's
binary-splitting sums (``bspe``) called themselves without them and llvmlite refused the call (``Type of #3 arg
mismatch``), so ``auto`` built them with Cython. A function of the call cycle other than the entry's has no
globals to hand on: that call is refused as not native, as the function's own reads already are."""
from __future__ import annotations

import pytest

import moshjit
from moshjit import UnsupportedError
from tests.llvm.oracle import check, jitted

ONE = 1
STEP = 3


def binary_split(a, b):
    """(p, q) of sum(1 / (a+1)...(k)) for k in (a, b]: mpmath's ``bspe``, whose products leave 64 bits."""
    if b - a == ONE:
        return ONE, b
    m = (a + b) // 2
    p1, q1 = binary_split(a, m)
    p2, q2 = binary_split(m, b)
    return p1 * q2 + p2, q1 * q2


def countdown(n):
    if n <= 0:
        return STEP
    return countdown(n - STEP) + n


def even(n):
    return True if n == 0 else odd(n - ONE)


def odd(n):
    return False if n == 0 else even(n - 1)


@pytest.mark.parametrize("bounds", [(0, 2), (0, 5), (3, 17), (0, 30), (0, 200)])
def test_a_recursive_function_reading_a_global_calls_itself_natively(bounds):
    check(binary_split, *bounds)
    assert jitted(binary_split).signatures and "llvm" in repr(jitted(binary_split).stats).lower()


@pytest.mark.parametrize("n", [-1, 0, 7, 300])
def test_a_self_call_hands_on_the_globals_it_read(n):
    check(countdown, n)


def test_another_function_of_the_cycle_is_refused_and_auto_builds_it_with_cython():
    with pytest.raises(UnsupportedError, match="reads module globals"):
        moshjit.jit(even, backend="llvm")(10)
    jitted = moshjit.jit(even)
    assert jitted(10) is even(10) is True and jitted(7) is even(7) is False

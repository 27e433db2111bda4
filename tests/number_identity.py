"""Functions whose results are (or may be) one of their number arguments, and the argument pairs they are run on:
the samples both backends' identity tests share (``tests/cython/test_boxed_arguments.py``,
``tests/llvm/test_argument_identity.py``). CPython returns the argument's own object."""
from __future__ import annotations

from hypothesis import strategies as st


def larger(x, y):
    return x if x > y else y


def accumulated(x, n, step):
    """An accumulator that starts as an argument: ``x`` itself when the loop runs no time."""
    s = x
    for _ in range(n):
        s = s + step
    return s


same_kind_pairs = (st.tuples(st.floats(allow_nan=True), st.floats(allow_nan=True))
                   | st.tuples(st.integers(-2 ** 63, 2 ** 63 - 1), st.integers(-2 ** 63, 2 ** 63 - 1)))

"""Functions using constructs moshjit refuses. A trailing comment "unsupported: <words>" marks the line the error
must point to, and gives words its message must contain."""
# ruff: noqa
import inspect
import sys
import types

COUNTER = 0


@types.coroutine
def generator_based_coroutine(xs):
    yield xs  # unsupported: generator-based coroutine


def except_star(x):
    try:
        x = int(x)
    except* ValueError:  # unsupported: except*
        x = None
    return x


def super_outside_method():
    return super()  # unsupported: super()


def reads_the_call_stack(size):
    frame = sys._getframe(size)  # unsupported: sys._getframe()
    return frame.f_code.co_name


def reads_the_current_frame():
    return inspect.currentframe().f_lineno  # unsupported: inspect.currentframe()

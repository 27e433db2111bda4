"""Running a function natively and with CPython, and comparing what happened (results, mutated arguments and
exceptions; floats by repr so that NaN and -0.0 compare exactly)."""
import copy

import moshjit
from moshjit.ir.interpreter import run_function

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
_jitted: dict = {}


def jitted(fn):
    """``fn`` compiled with the LLVM backend only (compiling fails loudly if it is not fully native)."""
    if fn not in _jitted:
        _jitted[fn] = moshjit.jit(fn, backend="llvm")
    return _jitted[fn]


def outcome(fn, args):
    args = copy.deepcopy(args)
    try:
        return ("ok", fn(*args), args)
    except Exception as exc:          # the exception is part of the behaviour under test
        return ("raise", type(exc), str(exc))


def same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return repr(a) == repr(b)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def too_big(value) -> bool:
    """Whether a CPython result holds an int that native code cannot represent."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return not INT64_MIN <= value <= INT64_MAX
    if isinstance(value, (list, tuple)):
        return any(too_big(v) for v in value)
    return False


class _WatchedValues(dict):
    """An interpreter environment that remembers whether any computed value was an int beyond 64 bits."""

    too_big_seen = False

    def __setitem__(self, key, value):
        if not self.too_big_seen and too_big(value):
            self.too_big_seen = True
        super().__setitem__(key, value)


def left_int64_in_cpython(fn, args) -> bool:
    """Whether some intermediate value (a local, a temporary such as ``j * y`` in ``total += j * y``, or the
    result) of the function held an int beyond 64 bits when run by the reference SSA interpreter: native code
    raises OverflowError at that point, by design."""
    ssa = moshjit.to_ssa(fn)
    watched = _WatchedValues()
    try:
        run_function(ssa, ssa.bind(copy.deepcopy(args), {}), watched)
    except Exception:             # the run is only watched, its outcome is compared elsewhere
        pass
    return watched.too_big_seen


def check(fn, *args):
    """The native run behaves like CPython; where CPython's ints go beyond 64 bits (in the result or in a local
    variable on the way), native code raises OverflowError naming the source line instead."""
    expected = outcome(fn, args)
    got = outcome(jitted(fn), args)
    overflow = got[0] == "raise" and got[1] is OverflowError and "does not fit in a 64-bit int" in got[2]
    if expected[0] == "ok" and too_big(expected[1]):
        assert overflow, got
        assert f"{fn.__code__.co_filename}:" in got[2]
        return
    if overflow and left_int64_in_cpython(fn, args):
        return
    assert got[0] == expected[0], (got, expected)
    if expected[0] == "ok":
        assert same(got[1], expected[1]), (got[1], expected[1])
        assert same(got[2], expected[2]), ("arguments after the call", got[2], expected[2])
    else:
        assert got[1:] == expected[1:], (got, expected)

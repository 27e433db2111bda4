"""Running a function natively and with CPython, and comparing what happened (results, mutated arguments and
exceptions; floats by repr so that NaN and -0.0 compare exactly)."""
import copy

import moshjit

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


def check(fn, *args):
    """The native run behaves exactly like CPython: where CPython's ints go beyond 64 bits (in the result or in a
    value on the way), native code deoptimises and the interpreter finishes the call with Python's ints."""
    expected = outcome(fn, args)
    got = outcome(jitted(fn), args)
    assert got[0] == expected[0], (got, expected)
    if expected[0] == "ok":
        assert same(got[1], expected[1]), (got[1], expected[1])
        assert same(got[2], expected[2]), ("arguments after the call", got[2], expected[2])
    else:
        assert got[1:] == expected[1:], (got, expected)

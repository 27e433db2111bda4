"""Exceptions raised in native code reach Python with CPython's type and message, and a traceback entry for
the native function at the line that raised (also when the function raised after it deoptimised)."""
import traceback

import pytest

import moshjit
from tests.llvm import samples


def frames(exc):
    return [(frame.name, frame.lineno) for frame in traceback.extract_tb(exc.__traceback__)]


def line_of(fn, text):
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def test_raise_has_the_native_frame():
    f = moshjit.jit(samples.e_raise, backend="llvm")
    with pytest.raises(ValueError, match="^too big$") as info:
        f(11)
    assert ("e_raise", line_of(samples.e_raise, "raise ValueError")) in frames(info.value)
    with pytest.raises(AssertionError, match="^three is not allowed$"):
        f(3)
    with pytest.raises(KeyError) as info:
        f(-11)
    assert info.value.args == ()


def test_errors_in_native_callees_show_both_frames():
    f = moshjit.jit(samples.e_nested_call, backend="llvm")
    with pytest.raises(ZeroDivisionError, match="^integer division or modulo by zero$") as info:
        f(5)
    assert ("e_nested_call", line_of(samples.e_nested_call, "return fib")) in frames(info.value)


def test_errors_after_a_deoptimisation_name_the_line_that_raised():
    """An int beyond 64 bits continues in the interpreter; what raises there gets the function's frame at the
    line that raised, not the interpreter's frames."""
    f = moshjit.jit(samples.e_overflow_line, backend="llvm")
    assert f(2 ** 62) == samples.e_overflow_line(2 ** 62)
    with pytest.raises(ZeroDivisionError, match="^integer division or modulo by zero$") as info:
        f(2 ** 62, 0)
    assert ("e_overflow_line", line_of(samples.e_overflow_line, "// divisor")) in frames(info.value)
    assert not any("moshjit" in frame.filename for frame in traceback.extract_tb(info.value.__traceback__))


def test_cached_native_code_names_each_copys_own_file_and_line(tmp_path):
    """The same code at another path, or moved down its file, is not served machine code that names the first
    copy's file:line (code without its location is the same bytecode)."""
    source = "def halved(a, b):\n    return a // b\n"
    for name, lines_above in (("one.py", 0), ("two.py", 3), ("one.py", 5)):
        namespace: dict = {}
        exec(compile("\n" * lines_above + source, str(tmp_path / name), "exec"), namespace)
        with pytest.raises(ZeroDivisionError) as info:
            moshjit.jit(namespace["halved"], backend="llvm")(7, 0)
        last = traceback.extract_tb(info.value.__traceback__)[-1]
        assert (last.filename, last.name, last.lineno) == (str(tmp_path / name), "halved", lines_above + 2)


def test_index_errors_release_what_they_hold():
    import sys
    f = moshjit.jit(samples.e_index, backend="llvm")
    xs = [1, 2, 3]
    before = sys.getrefcount(xs)
    for _ in range(100):
        with pytest.raises(IndexError, match="^list index out of range$"):
            f(xs, 5)
    assert sys.getrefcount(xs) == before


def test_recursion_limit_applies_to_native_recursion():
    f = moshjit.jit(samples.parity, backend="llvm")
    with pytest.raises(RecursionError):
        f(-2)
    assert f(10) == (True, False)


def test_fused_lists_keep_reference_counts_exact():
    import sys
    f = moshjit.jit(samples.pad, backend="llvm")
    big, item = 10 ** 12 + 1, 10 ** 12 + 2
    ids = [item, item]
    counts = sys.getrefcount(big), sys.getrefcount(item)
    for n in (0, 1, 5, 50):
        result = f(ids, n, big)
        assert result == samples.pad(ids, n, big)
        del result
    assert (sys.getrefcount(big), sys.getrefcount(item)) == counts


def parities(n):
    return [i % 2 == 0 for i in range(n)], [0] * n


def test_reference_counts_follow_the_running_cpythons_rules():
    """Native code boxes True/False and copies small ints into lists: on 3.12+ (PEP 683) those objects are immortal
    and their counts never move; before, every reference is counted and released."""
    import sys

    from moshjit.cpython import IMMORTAL_OBJECTS
    f = moshjit.jit(parities, backend="llvm")
    f(2)                                                  # compiled (the compiler keeps references of its own)
    before = sys.getrefcount(True), sys.getrefcount(0)
    flags, zeros = f(1000)
    assert (flags, zeros) == parities(1000)
    during = sys.getrefcount(True), sys.getrefcount(0)
    assert during == before if IMMORTAL_OBJECTS else during == (before[0] + 500, before[1] + 1000)
    del flags, zeros
    assert (sys.getrefcount(True), sys.getrefcount(0)) == before

"""'auto' picks the LLVM backend exactly when the whole function is native (visible in .stats and
.inspect_types()); backend='llvm' refuses other functions naming the construct and its line; type misses at run
time go back to the dispatcher instead of failing."""
import inspect
import re

import pytest

import moshjit
from moshjit.errors import UnsupportedError
from tests.llvm import samples


def backend_of(dispatcher, *signature):
    return dispatcher.stats[signature]["backend"]


def upper_words(text):
    return [word.upper() for word in text.split()]


def mixed(xs):
    total = 0
    for x in xs:
        total += x
    label = str(total)          # a str: not native
    return label


def test_native_function_uses_llvm():
    f = moshjit.jit(samples.c_loops)
    assert f(30) == samples.c_loops(30)
    assert backend_of(f, "int64") == "llvm"
    assert "-> backend llvm" in f.inspect_types()
    assert "define" in f.inspect_code()                 # the LLVM IR


def test_string_code_uses_cython():
    f = moshjit.jit(upper_words)
    assert f("a b") == ["A", "B"]
    assert backend_of(f, "str") == "cython"


def test_a_function_llvm_tried_and_refused_shows_the_typed_ssa_the_pipeline_built(monkeypatch):
    """'auto' formats the typed SSA for ``inspect_types`` only when Cython takes the function, after the LLVM
    backend tried it (native re-typing of its list item candidates): that try must leave the IR as it was."""
    from moshjit import compiler
    from moshjit.ir.printer import format_function
    built = []

    def recording_typed_ssa(*args, **kwargs):
        ir = typed_ssa(*args, **kwargs)
        built.append(format_function(ir))
        return ir
    typed_ssa = compiler.typed_ssa
    monkeypatch.setattr(compiler, "typed_ssa", recording_typed_ssa)
    f = moshjit.jit(mixed)
    assert f([1, 2]) == "3"
    (signature,) = f.stats
    assert f.stats[signature]["backend"] == "cython"
    assert f.inspect_types() == f"# signature {f._describe(signature)} -> backend cython\n{built[0]}"


def test_big_int_argument_uses_cython():
    f = moshjit.jit(samples.i_add)
    assert f(2 ** 70, 1) == 2 ** 70 + 1
    assert backend_of(f, "int", "int64") == "cython"
    assert f(2, 3) == 5 and backend_of(f, "int64", "int64") == "llvm"


def test_required_llvm_names_the_construct_and_line():
    f = moshjit.jit(mixed, backend="llvm")
    with pytest.raises(UnsupportedError) as info:
        f([1, 2])
    line = inspect.getsourcelines(mixed)[1] + 4
    assert f"{__file__}:{line}:" in str(info.value)
    assert "no native form" in str(info.value)


def test_required_llvm_refuses_big_int_arguments():
    with pytest.raises(UnsupportedError, match="does not fit in 64 bits"):
        moshjit.jit(samples.i_add, backend="llvm")(2 ** 70, 1)


def first_of(s, t):
    return s[0] + t[0]


WIDE = (0, 2 ** 200 + 12345, -203, 203)         # an mpf of mpmath: sign, mantissa, exponent, bit count


def test_a_tuple_holding_a_big_int_uses_cython():
    """A typed tuple whose item is an int beyond 64 bits has no native form: the LLVM entry's check would refuse
    every call of the signature and send it through the dispatcher's generic path (ten times the plain call)."""
    f = moshjit.jit(first_of)
    assert f(WIDE, WIDE) == first_of(WIDE, WIDE)
    assert backend_of(f, "tuple[int64, int, int64, int64]", "tuple[int64, int, int64, int64]") == "cython"
    assert f((1, 2), (3, 4)) == first_of((1, 2), (3, 4))
    assert backend_of(f, "tuple[int64, int64]", "tuple[int64, int64]") == "llvm"
    assert f((1, (2, 2 ** 64)), (3,)) == first_of((1, (2, 2 ** 64)), (3,))
    assert backend_of(f, "tuple[int64, tuple[int64, int]]", "tuple[int64]") == "cython"


def test_required_llvm_refuses_a_tuple_holding_a_big_int():
    with pytest.raises(UnsupportedError, match=r"argument 's' is a tuple\[int64, int, int64, int64\]: an int that "
                                               r"does not fit in 64 bits has no native form"):
        moshjit.jit(first_of, backend="llvm")(WIDE, WIDE)


def test_list_of_other_items_goes_back_to_the_dispatcher():
    f = moshjit.jit(samples.l_sum_only)
    assert f([1, 2, 3]) == (6, 6)
    assert backend_of(f, "list") == "llvm"
    assert f([1.5, 2.0]) == (3.5, 3.5)                   # a float variant, compiled on the miss
    with pytest.raises(TypeError, match="unsupported operand"):
        f(["a"])                                         # no native variant: the Cython specialisation raises


def float_mean(xs):
    total = 0.0
    for x in xs:
        total += x
    return total / len(xs)


def test_a_list_first_called_with_floats_gets_the_float_variant_first():
    """The first call's items choose the first native variant: a list of floats used to get the ints variant,
    whose check then failed at every call and sent it through an interpreted scan of every item (200 ns an item,
    ten times CPython's loop)."""
    import sys
    f = moshjit.jit(float_mean)
    floats = [0.5 * i for i in range(100)]
    assert f(floats) == float_mean(floats)
    assert backend_of(f, "list") == "llvm"
    frames = []
    sys.setprofile(lambda frame, event, arg: frames.append(frame.f_code.co_name) if event == "call" else None)
    try:
        assert f(floats) == float_mean(floats)
    finally:
        sys.setprofile(None)
    assert "argument_type" not in frames


def running_total(xs):
    total = 0
    for x in xs:
        total += x
    return total


def calls_made(f, *args):
    """The Python functions a call of ``f`` enters (a profile hook), and its result."""
    import sys
    frames = []
    sys.setprofile(lambda frame, event, arg: frames.append(frame.f_code.co_name) if event == "call" else None)
    try:
        result = f(*args)
    finally:
        sys.setprofile(None)
    return frames, result


@pytest.mark.parametrize("function", [float_mean, running_total], ids=["float variant", "no float variant"])
def test_lists_of_another_kind_by_turns_are_not_scanned_in_python_per_call(function):
    """Called with ints first, then floats and ints by turns: a later list of floats goes to its variant (or,
    where floats have none, to the fallback) by its first item, not through an interpreted scan of every item
    (that cost 200 ns an item, ten times CPython's loop), and every result is CPython's — lists whose items
    change kind half-way included."""
    f = moshjit.jit(function)
    ints, floats = list(range(1, 200)), [0.25 * i for i in range(1, 200)]
    for data in (ints, floats, ints, floats):
        assert f(data) == function(data)
    frames, result = calls_made(f, floats)
    assert result == function(floats) and "argument_type" not in frames and "item_type" not in frames
    for data in ([1.5, 2, 3], [1, 2.5, 3], [True, 2.0], [2.0, True], [1, 2**70], [0.5, "a"]):
        try:
            expected = function(data)
        except TypeError as error:
            with pytest.raises(TypeError, match=re.escape(str(error))):
                f(data)
        else:
            assert f(data) == expected and type(f(data)) is type(expected)


def test_a_list_of_strs_is_refused_by_its_first_item_not_scanned_per_call():
    """A native variant holds ints, floats, bools or lists: a list whose first item is none of them is handed to
    the fallback without an interpreted scan of its items (2,000 strs cost ~35 µs a call that way)."""
    import sys
    from moshjit.backends.llvm.variants import argument_type
    frames = []
    sys.setprofile(lambda frame, event, arg: frames.append(frame.f_code.co_name) if event == "call" else None)
    try:
        found = argument_type(["w"] * 2000 + [1])
    finally:
        sys.setprofile(None)
    assert found is None
    assert "<genexpr>" not in frames
    assert argument_type([1, 2, 3.0]) is None and argument_type([[1], [2]]) is not None


def test_mutated_list_arguments_are_seen_by_the_caller():
    f = moshjit.jit(samples.l_mutate, backend="llvm")
    xs = [1, 2, 3]
    expected_xs = [1, 2, 3]
    assert f(xs, 7) == samples.l_mutate(expected_xs, 7)
    assert xs == expected_xs


def test_module_globals_are_read_at_call_time():
    f = moshjit.jit(samples.g_constants)
    assert f(20) == samples.g_constants(20)
    assert backend_of(f, "int64") == "llvm"
    try:
        samples.SCALE = 4.0                              # rebinding is seen
        assert f(20) == samples.g_constants(20)
        samples.SCALE = "x"                              # another type: the fallback specialisation runs
        with pytest.raises(TypeError):
            f(20)
    finally:
        samples.SCALE = 2.5
    assert f(7) == samples.g_constants(7)


@moshjit.jit
def jitted_depth(n):
    if n <= 0:
        return 0
    return 1 + jitted_depth(n - 1)


def calls_jitted(n):
    return jitted_depth(n) * 2 + jitted_depth(3)


def test_calls_to_jitted_functions_are_native():
    f = moshjit.jit(calls_jitted, backend="llvm")
    assert f(10) == calls_jitted(10) == 23
    assert "call {i64, i1} @\"mj_" in f.inspect_code() or "call {i64, i1} @mj_" in f.inspect_code()
    assert backend_of(f, "int64") == "llvm"

"""Differential tests: every sample compiled with ``backend="llvm"`` against CPython (same result, same mutated
arguments, or the same exception type and message), over hypothesis-generated arguments including int64 and
2**53 boundaries, negative floor division and modulo, NaN/inf, signed zeros and empty lists."""
import pytest
from hypothesis import given, settings, strategies as st

from tests.llvm import samples
from tests.llvm.oracle import INT64_MAX, INT64_MIN, check

settings.register_profile("moshjit-llvm", max_examples=40, deadline=None)
settings.load_profile("moshjit-llvm")

BOUNDARIES = [INT64_MIN, INT64_MIN + 1, -(2 ** 53) - 1, -(2 ** 32), -7, -2, -1, 0, 1, 2, 3, 7, 2 ** 31, 2 ** 53,
              2 ** 53 + 1, 2 ** 62, INT64_MAX - 1, INT64_MAX]
int64 = st.integers(INT64_MIN, INT64_MAX) | st.integers(-60, 60) | st.sampled_from(BOUNDARIES)
small = st.integers(-40, 40)
FLOAT_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e308, -1e308, 5e-324, float("inf"), float("-inf"), float("nan"),
               2.0 ** 53, 2.0 ** 63, -(2.0 ** 63), 3.0]
floats = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(FLOAT_EDGES) | st.floats(-10, 10)
int_lists = st.lists(int64, max_size=8)
small_lists = st.lists(small, max_size=10)


@pytest.mark.parametrize("fn", [samples.i_add, samples.i_sub, samples.i_mul, samples.i_floordiv, samples.i_mod,
                                samples.i_truediv, samples.i_divmod, samples.i_bits, samples.i_compare])
@given(a=int64, b=int64)
def test_int_binary(fn, a, b):
    check(fn, a, b)


@pytest.mark.parametrize("fn", [samples.i_neg, samples.i_abs, samples.i_to_float])
@given(a=int64)
def test_int_unary(fn, a):
    check(fn, a)


@given(a=st.integers(-20, 20) | st.sampled_from([INT64_MIN, INT64_MAX, 2 ** 31, -(2 ** 31)]), b=st.integers(-4, 70))
def test_int_power(a, b):
    check(samples.i_pow, a, b)


@given(a=int64, b=st.integers(-3, 80))
def test_shifts(a, b):
    check(samples.i_lshift, a, b)
    check(samples.i_rshift, a, b)


@given(a=int64, flag=st.booleans(), b=int64)
def test_bools_as_ints(a, flag, b):
    check(samples.i_mixed_bool, a, flag)
    check(samples.i_and_or, a, b)


@pytest.mark.parametrize("flag", [True, False])
def test_invert_of_a_bool_is_native_where_cpython_does_not_warn(flag):
    """``~`` on a bool is an int64's ``~`` up to 3.11; from 3.12 CPython warns, which only its own operator does:
    backend='llvm' refuses it there (auto compiles it with Cython: tests/cython/test_exact_numbers.py)."""
    import moshjit
    from moshjit.cpython import BOOL_INVERT_WARNS
    if not BOOL_INVERT_WARNS:
        check(samples.b_invert, flag)
        return
    with pytest.raises(moshjit.UnsupportedError, match="unary operation"):
        moshjit.jit(samples.b_invert, backend="llvm")(flag)


@pytest.mark.parametrize("fn", [samples.f_arith, samples.f_div, samples.f_floordiv, samples.f_mod, samples.f_divmod,
                                samples.f_compare, samples.f_pow_float, samples.c_float_min_max, samples.m_two_args,
                                samples.m_pow])
@given(x=floats, y=floats)
def test_float_binary(fn, x, y):
    check(fn, x, y)


@given(x=floats, n=st.integers(-5, 5) | int64)
def test_float_int_power(x, n):
    check(samples.f_pow_int, x, n)


@pytest.mark.parametrize("fn", [samples.f_square, samples.f_convert, samples.f_truth, samples.m_sqrt, samples.m_exp,
                                samples.m_log, samples.m_log2_10_1p, samples.m_trig, samples.m_inverse_trig,
                                samples.m_hyperbolic, samples.m_tests, samples.m_constants])
@given(x=floats)
def test_float_unary(fn, x):
    check(fn, x)


@given(x=floats | st.floats(0.1, 100), base=floats | st.sampled_from([1.0, 2.0, 10.0, 0.5]))
def test_log_with_base(x, base):
    check(samples.m_log_base, x, base)


NEAR_2_53 = st.sampled_from([2 ** 53 - 1, 2 ** 53, 2 ** 53 + 1, -(2 ** 53) - 1, INT64_MAX, INT64_MIN, 0, 1, -1])


@pytest.mark.parametrize("fn", [samples.mixed_compare, samples.mixed_arith])
@given(a=int64 | NEAR_2_53, x=floats | st.sampled_from([2.0 ** 53, 2.0 ** 53 + 2, 9.223372036854775807e18]))
def test_int_float_mixed(fn, a, x):
    check(fn, a, x)


@given(a=int64, b=int64)
def test_gcd_and_int_math(a, b):
    check(samples.m_gcd, a, b)
    check(samples.m_int_args, a)


@given(n=st.integers(-5, 60))
def test_loops(n):
    for fn in (samples.c_loops, samples.c_early_return, samples.c_nested, samples.c_while_else):
        check(fn, n)


@given(a=small, b=small, c=st.integers(-6, 6))
def test_ranges(a, b, c):
    check(samples.c_range, a, b, c)
    check(samples.c_min_max, a, b, c)


@given(xs=int_lists, i=st.integers(-10, 10))
def test_list_reads(xs, i):
    check(samples.l_read, xs, i)
    check(samples.l_aggregates, xs)
    check(samples.l_sum_only, xs)
    check(samples.e_index, xs, i)
    check(samples.e_assign_index, xs, i)


@given(n=st.integers(-3, 12))
def test_list_building(n):
    check(samples.l_build, n)
    check(samples.l_nested, n)
    check(samples.call_with_list, n)


@given(xs=small_lists, i=st.integers(-12, 12) | st.sampled_from([INT64_MIN, INT64_MAX]), j=st.integers(-12, 12),
       k=st.integers(-4, 4))
def test_slices(xs, i, j, k):
    check(samples.l_slices, xs, i, j, k)


@given(xs=small_lists.filter(bool), ys=small_lists, v=small)
def test_list_mutation(xs, ys, v):
    check(samples.l_mutate, xs, v)
    check(samples.l_sort_copy, xs)
    check(samples.l_concat, xs, ys)
    check(samples.l_enumerate_zip, xs, ys)
    check(samples.l_reversed, xs, len(ys))


@given(xs=st.lists(floats, max_size=8), flags=st.lists(st.booleans(), max_size=8))
def test_float_and_bool_lists(xs, flags):
    check(samples.l_floats, xs)
    check(samples.l_bools, flags)


@given(rows=st.lists(small_lists, max_size=5))
def test_list_of_lists_argument(rows):
    check(samples.l_list_of_lists_arg, rows)


@given(xs=st.lists(small, max_size=4))
def test_unpacking_lists(xs):
    check(samples.l_unpack, xs)


@given(n=st.integers(0, 12), i=st.integers(-14, 14))
def test_index_assignment(n, i):
    check(samples.l_index_assign, n, i)


@given(a=st.lists(small, max_size=40), b=st.lists(small, max_size=40), budget=st.integers(0, 80),
       length=st.integers(0, 60), pad_id=int64, n=st.integers(-3, 50), m=st.integers(-3, 50))
def test_bert_helpers(a, b, budget, length, pad_id, n, m):
    check(samples.truncate_pair, a, b, budget)
    check(samples.pad, a, length, pad_id)
    check(samples.build_attention_mask, n, length)
    check(samples.build_token_type_ids, n, m)


@given(xs=small_lists.filter(lambda x: len(x) > 1), ys=small_lists, n=st.integers(-2, 6), v=int64)
def test_fused_list_expressions(xs, ys, n, v):
    check(samples.l_fused, xs, ys, n, v)
    check(samples.l_fused_rows, n)


@given(n=st.integers(-2, 12), i=st.integers(-15, 15), v=int64 | small)
def test_native_lists(n, i, v):
    check(samples.n_local_ints, n, i, v)
    check(samples.n_local_errors, n, i)
    check(samples.n_local_bools, n)
    check(samples.n_pop_empty, n)


@given(n=st.integers(-2, 12), x=floats)
def test_native_float_lists(n, x):
    check(samples.n_local_floats, n, x)


@given(a=int64, b=int64)
def test_tuples(a, b):
    check(samples.t_pack, a, b)
    check(samples.t_arg, (a, b))
    check(samples.t_swap, a, b)


@given(n=int64, x=floats, flag=st.booleans())
def test_tuple_of_mixed_kinds(n, x, flag):
    check(samples.t_mixed_arg, (n, x, flag))


@given(n=st.integers(-2, 18))
def test_native_calls(n):
    check(samples.fib, n)
    check(samples.parity, n)
    check(samples.call_helpers, n)
    check(samples.e_nested_call, n)


@given(xs=small_lists, i=st.integers(0, 12))
def test_recursion_over_a_list(xs, i):
    check(samples.recursive_sum, xs, i)


@given(x=st.integers(-15, 15))
def test_raise_and_assert(x):
    check(samples.e_raise, x)


@given(xs=small_lists)
def test_exceptions_from_lists(xs):
    check(samples.e_pop, xs)
    check(samples.e_empty_min, xs)
    check(samples.e_returns_none, xs)


@given(n=st.integers(-10, 10), step=st.integers(-3, 3))
def test_range_step_zero(n, step):
    check(samples.e_range_step, n, step)


@given(a=int64)
def test_overflow_and_none(a):
    check(samples.e_overflow_line, a)
    check(samples.e_none_compare, a)

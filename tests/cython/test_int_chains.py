"""Unboxed int chains (``backends/cython/int_chains.py``) against CPython: int arithmetic on C integers and on ints
held as objects, kept as C ``long long`` while it fits, gives CPython's results at and beyond the int64 edges
(big ints after an overflow), Python's floor division and modulo of negative operands, and CPython's
``ZeroDivisionError``. The decisions are pinned on tiny typed functions, and the generated code is checked for the
guarded native operations."""
from __future__ import annotations

from hypothesis import given, settings, strategies as hs

from moshjit.backends.cython.int_chains import IntChains
from tests.cython import chain_plans
from tests.cython.agree import jitted, outcome

EDGE = 1 << 63


def triangle(i, j):
    """spectral_norm's ``eval_A`` denominator: every step a link, the last one boxed."""
    return (i + j) * (i + j + 1) // 2 + i + 1


def signs(a, b, c):
    """Floor division and modulo of values of any sign, zero divisors included; by constant powers of two (a mask
    and a shift) and by other constants."""
    return ((a - b) // c, (a * b) % c, (a + b) // (c - 1) % (b - 1), -7 // (a - a + c) + 7 % (c + 0),
            (a - b) % 8, (a + b) // 16, (a * b) % 1, (a - c) // 1, (b - c) % 6, (b + c) // -4, (a + c) % (1 << 40))


def grow(n, k):
    """A counter typed ``object`` through the loop: each step a chain, the value leaves int64 as it grows."""
    x = 1
    for _ in range(n):
        x = x * k + 1
    return x


def indexed(seq, k):
    """Chains on the C counters of an index loop and of ``len``."""
    out = []
    for i, x in enumerate(seq):
        out.append((i + k) * (i - k) // 3 % (k + len(seq)) - x)
    return out


def ends(a, b):
    """Chain values leaving the chain: a comparison, a float division, a list, a return."""
    s = a * b + 1
    return s > a, (a - b) / 2, [a + b - 1], s


def reciprocals(i, j, x):
    """Chains ending in a true division by or of a float: the int converted as ``float_div`` converts it."""
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1), x / (i - j), (i * j) / x


def mix(words, table, s):
    """pyaes's round: bitwise steps on list items (typed ``object``) whose ints index a table (negative and out of
    range too), and ``%`` beside a C counter; the XORs of the looked-up items chain, only the last is boxed."""
    out = []
    for i in range(len(words)):
        w = words[i]
        out.append(table[(w >> s) & 7] ^ table[w & 3] ^ (w << s) ^ table[(i + s) % 4] | w)
    return out


def index_anywhere(tables, words):
    """A chain's value as an index of a list, a tuple or a dict (the generic subscript): negative indexes, out of
    range ones (CPython's IndexError), big ints and non-ints (the generic way)."""
    out = []
    for table in tables:
        for w in words:
            try:
                out.append(table[w ^ 1])
            except (IndexError, KeyError, TypeError) as exc:
                out.append((type(exc).__name__, str(exc)))
    return out


def indexes_a_chain(values):
    """A chain value used as the container of a subscript as well as its index: CPython's TypeError."""
    a, b = values
    x = a ^ b
    return x[x]


def xor_items(table, keys):
    """Items only XORs read, by a link that may be negative or out of range and by a constant negative index."""
    out = 0
    for k in keys:
        out ^= table[k ^ 0] ^ table[-1]
    return out


def bitwise(values):
    """Every bitwise operator and both shifts on values of unknown type (a list's items), chained."""
    a, b, c = values
    return (a & b) | (c ^ a), (a >> c) ^ (b << 3), ((a << c) >> 1) & b, a % (b | 1), c // (a & 5 or 1)


def bitboard(values):
    """python-chess's shape on values of unknown type: masks tested, then set, cleared and inverted in place, shifted
    right by counts up to 67 and negative ones (``&``, ``|``, ``^``, ``~`` and ``>>`` computed on 65 bits past a long
    long, ``mj_wide``); tested links share their variables with links that leave the chain."""
    occupied, pawns, mask = values
    out = []
    if occupied & mask:
        out.append("and")
    if pawns | mask:
        out.append("or")
    if occupied ^ pawns:
        out.append("xor")
    pawns ^= mask
    occupied &= ~mask
    if pawns & occupied:
        out.append("both")
    if occupied >> 60:
        out.append("top")
    return out, occupied, pawns, ~occupied, occupied | ~pawns, mask & -mask, pawns >> (mask % 70 - 2)


def masked(values):
    """64-bit hashing's shape: products, sums, differences and shifts only masked (kept in 128 bits past a long
    long, ``mj_i128_op``), a masked shift tested, a mask of any sign, size or type; ``%`` and ``//`` by a power of
    two past a long long (no C mask or shift for them)."""
    a, b, m = values
    out = []
    if (a << 5) & m:
        out.append("tested")
    return (out, (a * b) & m, (a + b) & m, (a - b) & m, m & (a << 3), (a * 3) & m & b, (a << (b & 127)) & m,
            (a ^ b) % 18446744073709551616, (a | b) // 18446744073709551616)


def generators(values):
    """A 64-bit LCG step, PCG's, and mixes of several masked steps: ``(state * MULT + INC) & MASK`` keeps the
    product and the sum in 128 bits; a value of unknown type anywhere in the chain takes CPython's way."""
    state, inc, m = values
    step = (state * 6364136223846793005 + inc) & m
    mixed = ((state << 7) - (inc * state) + 3) * 5 & m
    return step, mixed, (((state + 1) * (inc - 1)) << 2) & m


def rolling(h, c, m):
    """A polynomial rolling hash step on ints (typed ``int``): the product and the sum kept, then ``% m`` of every
    sign, zero included; a float modulus; a modulus past 2**64."""
    return (h * 1000003 + c) % m, (h * 31 - c) % 2305843009213693951, (h << 3) % m


def fnv1a(data):
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


class OwnBitLength(int):
    def bit_length(self):
        return -1


def bit_lengths(x, items):
    """``int.bit_length()`` of an int argument (a C integer or an int object), of a chain value, and of values of
    unknown type: exact ints of any size answer from their digit count, a subclass calls its own method, a float
    raises CPython's AttributeError."""
    out = []
    for item in items:
        try:
            out.append(item.bit_length())
        except AttributeError as exc:
            out.append(str(exc))
    return out, x.bit_length(), (x * 3).bit_length()


class Bits:
    """An operand with its own bitwise operators: the generic path calls them."""

    def __init__(self, v):
        self.v = v

    def __rshift__(self, other):
        return Bits(self.v // 2)

    def __and__(self, other):
        return ("and", self.v, other)

    def __rxor__(self, other):
        return ("rxor", other, self.v)

    def __repr__(self):
        return f"Bits({self.v})"


def same(fn, *args):
    """CPython's outcome, compared by ``repr``: NaN equals NaN and -0.0 differs from 0.0."""
    expected = outcome(fn, *args)
    assert repr(outcome(jitted(fn), *args)) == repr(expected)
    return expected


def near(*centres):
    return hs.one_of(*(hs.integers(c - 3, c + 3) for c in centres))


ints = hs.one_of(hs.integers(-20, 20), near(EDGE, -EDGE, EDGE // 2, -EDGE // 2, 1 << 31, -(1 << 31), 1 << 32),
                 hs.integers())


@settings(max_examples=150, deadline=None)
@given(ints, ints)
def test_the_spectral_norm_formula_at_the_int64_edges(i, j):
    same(triangle, i, j)


@settings(max_examples=150, deadline=None)
@given(ints, ints, hs.one_of(hs.integers(-3, 3), ints))
def test_floor_division_and_modulo_signs_and_zero_divisors(a, b, c):
    same(signs, a, b, c)


def test_the_edges_that_c_cannot_divide():
    for a, b, c in [(-EDGE, 1, -1), (-EDGE, -1, -1), (EDGE - 1, -1, -1), (0, 0, 0), (5, 1, 0), (-EDGE, 0, 2),
                    (-EDGE, 2, 1), (-7, 3, 1)]:
        same(signs, a, b, c)
    assert same(triangle, EDGE - 1, EDGE - 1)[1] > EDGE                     # the big int CPython computes
    assert same(signs, 1, 2, 0)[0] == "raise"                                 # CPython's ZeroDivisionError


@settings(max_examples=60, deadline=None)
@given(hs.integers(0, 70), hs.one_of(hs.integers(-40, 40), near(EDGE, -EDGE)))
def test_a_counter_grows_past_int64_as_cpython(n, k):
    same(grow, n, k)


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.integers(-5, 5), max_size=6), ints)
def test_chains_on_loop_counters(seq, k):
    same(indexed, seq, k)


@settings(max_examples=60, deadline=None)
@given(ints, ints)
def test_values_leaving_the_chain(a, b):
    same(ends, a, b)


@settings(max_examples=150, deadline=None)
@given(ints, ints, hs.one_of(hs.floats(), hs.sampled_from([0.0, -0.0, 1.0, 3.0, float("inf")])))
def test_chains_ending_in_a_float_division(i, j, x):
    same(reciprocals, i, j, x)


def test_float_divisions_of_ints_beyond_two_to_the_53_and_zero():
    for i, j, x in [((1 << 53) + 1, 0, 3.0), ((1 << 62) + 3, 1, -0.0), (-1, 0, 0.0), (5, 5, 2.0),
                    (EDGE - 1, 0, 1.5), ((1 << 60) - 1, 7, 1e-300)]:
        same(reciprocals, i, j, x)
    assert same(reciprocals, 3, 3, 1.0) == outcome(reciprocals, 3, 3, 1.0)


unknowns = hs.one_of(ints, hs.booleans(), hs.sampled_from([1.5, -0.0, "s", None, (1,), Bits(5), 1 << 64]))


@settings(max_examples=300, deadline=None)
@given(unknowns, unknowns, hs.one_of(hs.integers(-3, 70), hs.sampled_from([True, 2.5, "s", Bits(5)])))
def test_bitwise_chains_on_values_of_unknown_type(a, b, c):
    """Shift counts past 63 and negative ones (CPython's ValueError), results that leave int64, bools, floats,
    strs, big ints and an operand with its own operators all take CPython's way."""
    same(bitwise, [a, b, c])


WIDE = 1 << 64
wide_ints = hs.one_of(ints, near(WIDE, -WIDE, WIDE // 2, -WIDE // 2), hs.integers(-WIDE, WIDE),
                      hs.integers(0, WIDE - 1).map(lambda bits: bits | EDGE))


@settings(max_examples=300, deadline=None)
@given(hs.lists(hs.one_of(wide_ints, hs.sampled_from([True, 2.5, Bits(1)])), min_size=3, max_size=3))
def test_bitwise_operators_past_int64_as_cpython(values):
    """Ints of magnitude up to and past 2**64 (``-2**64``, whose 65-bit form is all zeros but the sign; ``2**64``,
    which has none), results past int64 on either side, bools, floats and an operand with its own operators."""
    same(bitboard, values)


def test_bitwise_tests_past_int64_after_tests_within_it():
    """A tested link held natively by one call's test must not answer the next test's: its variable is shared."""
    for values in ([1, 2, 3], [EDGE, EDGE | 1, 1], [-EDGE - 1, 0, EDGE], [3, EDGE, EDGE], [-WIDE, -WIDE, -1],
                   [WIDE - 1, 0, WIDE - 1], [EDGE, 1, 2]):
        same(bitboard, values)


masks = hs.one_of(hs.sampled_from([WIDE - 1, (1 << 32) - 1, -1, WIDE, EDGE, 0, 2.5, -WIDE, Bits(2)]), wide_ints)


@settings(max_examples=300, deadline=None)
@given(hs.one_of(wide_ints, hs.sampled_from([True, 2.5])), hs.one_of(wide_ints, hs.sampled_from([True, 1.5])), masks)
def test_masked_arithmetic_past_int64_as_cpython(a, b, m):
    """Products up to 2**128 (one past it: -2**64 * -2**64), shift counts at 64 and past it, masks negative, past
    2**64 or not ints take CPython's way and give its results."""
    same(masked, [a, b, m])


@settings(max_examples=300, deadline=None)
@given(hs.one_of(wide_ints, hs.sampled_from([True, 2.5])), hs.one_of(wide_ints, hs.sampled_from([True, 1.5])), masks)
def test_chains_of_masked_arithmetic_as_cpython(state, inc, m):
    """128 bits overflowing (products of products, shifts of sums), operands past 2**64, masks of every kind."""
    same(generators, [state, inc, m])


@settings(max_examples=100, deadline=None)
@given(hs.binary(max_size=40))
def test_a_64_bit_hash_as_cpython(data):
    same(fnv1a, data)


@settings(max_examples=300, deadline=None)
@given(wide_ints, wide_ints, hs.one_of(masks, hs.integers(-3, 3)))
def test_remainders_of_masked_arithmetic_on_ints_as_cpython(h, c, m):
    """Moduli negative, zero (CPython's ZeroDivisionError), past 2**64, floats, and an object without ``%``."""
    same(rolling, h, c, m)


@settings(max_examples=200, deadline=None)
@given(hs.one_of(wide_ints, hs.integers(-(1 << 300), 1 << 300)),
       hs.lists(hs.one_of(wide_ints, hs.integers(-(1 << 300), 1 << 300),
                          hs.sampled_from([True, 2.5, OwnBitLength(7), "s"])), max_size=6))
def test_bit_length_as_cpython(x, items):
    same(bit_lengths, x, items)
    assert "mj_int_bit_length(" in str(jitted(bit_lengths).inspect_code())


def test_links_only_masked_are_kept_in_128_bits():
    assert [op.op for op in chains_of(fnv1a, (bytes,)).masked] == ["*"]
    chains = chains_of(masked, (list,))
    assert sorted(op.op for op in chains.masked) == ["*", "*", "+", "-", "<<", "<<", "<<"]
    assert sorted(op.op for op in chains_of(generators, (list,)).masked) == ["*", "*", "*", "*", "+", "+", "+",
                                                                              "-", "-", "<<", "<<"]
    assert sorted(op.op for op in chains_of(rolling, (int, int, int)).masked) == ["*", "*", "+", "-", "<<"]
    assert not chains_of(rolling, (float, float, float)).masked
    same(masked, [EDGE, 3, WIDE - 1])
    assert "mj_i128_op(" in str(jitted(masked).inspect_code())


def test_bitwise_links_only_tested_are_not_boxed():
    chains = chains_of(bitboard, (list,))
    assert sorted(op.op for op in chains.truth_tested) == ["&", "&", ">>", "^", "|"]
    assert chains.truth_tested <= chains.unboxed
    same(bitboard, [EDGE, 3, EDGE | 1])
    code = str(jitted(bitboard).inspect_code())
    assert "mj_wide_pair(" in code and "mj_wide_invert(" in code


@settings(max_examples=150, deadline=None)
@given(hs.lists(hs.one_of(ints, hs.sampled_from([True, 2.0, Bits(3)])), max_size=6),
       hs.lists(hs.one_of(ints, hs.sampled_from([Bits(1), "x"])), min_size=8, max_size=9), hs.integers(-2, 66))
def test_table_lookups_indexed_by_chains(words, table, s):
    same(mix, words, table, s)


@settings(max_examples=150, deadline=None)
@given(hs.lists(hs.one_of(hs.integers(-12, 12), ints, hs.sampled_from([True, 2.0, "k"])), max_size=8))
def test_chain_values_as_indexes(words):
    table = list(range(100, 110))
    same(index_anywhere, [table, tuple(table), {0: "zero", -2: "minus two", 3: "three"}], words)


def test_a_chain_value_subscripted_by_itself_raises_cpythons_error():
    for values in ([1, 2], [[1, 2], 0], [(5, 6, 7), 1]):
        same(indexes_a_chain, values)


@settings(max_examples=150, deadline=None)
@given(hs.lists(hs.one_of(ints, hs.sampled_from([True, 1.5, Bits(2), 1 << 70])), min_size=1, max_size=6),
       hs.booleans(), hs.lists(hs.integers(-8, 8), max_size=5))
def test_items_read_in_place(items, as_tuple, keys):
    same(xor_items, tuple(items) if as_tuple else items, keys)


def chains_of(fn, key) -> IntChains:
    return chain_plans.chains_of(IntChains, fn, key)


def test_every_step_of_the_formula_is_a_link_and_only_the_last_is_boxed():
    chains = chains_of(triangle, ("int64", "int64"))
    assert len(chains.links) == 7                       # two i + j, + 1, *, // 2, + i, + 1
    assert len(chains.unboxed) == 6
    assert [op.op for op in chains.links - chains.unboxed] == ["+"]
    assert len(chains_of(triangle, (int, int)).links) == 7      # ints held as objects are operands too


def test_a_float_division_ends_a_chain_and_an_int_division_does_not():
    chains = chains_of(reciprocals, ("int64", "int64", float))
    assert len(chains.float_divisions) == 3 and len(chains.unboxed) == 9
    assert not chains_of(ends, ("int64", "int64")).float_divisions          # (a - b) / 2: long_true_divide


def test_floats_and_unknown_objects_are_not_links():
    assert not chains_of(triangle, (float, float)).links
    # of unknown values only ``// 2``, beside an int constant, is one: + and * are the float chains'
    assert [op.op for op in chains_of(triangle, (object, object)).links] == ["//"]
    escaping = chains_of(ends, ("int64", "int64"))
    assert len(escaping.links) == 5                             # a * b, + 1, a - b, a + b, - 1
    assert sorted(op.op for op in escaping.unboxed) == ["*", "+"]   # read only by links; the rest leave


def test_bitwise_operations_on_list_items_chain_and_end_where_they_index():
    chains = chains_of(mix, (list, list, "int64"))
    # i + s (a C counter and an int64: may leave int64) is one too; its % 4, a C integer, ends that chain natively
    assert sorted(op.op for op in chains.links) == ["&", "&", "+", "<<", ">>", "^", "^", "^", "|"]
    assert [op.op for op in chains.native_ends] == ["%"]
    # the two masks end where they index a table (mj_int_subscript takes the C integer); | leaves (appended)
    assert sorted(op.op for op in chains.unboxed if op in chains.links) == ["&", "&", "+", "<<", ">>", "^", "^", "^"]
    assert len(chains.subscripts) == 2
    # the items only links read: words[i] and the three table lookups (by the masks, and by the C int (i + s) % 4)
    assert len(chains.item_reads) == 4 and chains.item_reads < chains.unboxed


def powers(values):
    """``%`` and ``//`` by constants on chain values of unknown type: powers of two as a mask and a shift."""
    a, b = values
    return (a ^ b) % 8, (a | b) // 16, (a & b) % 6, (a ^ 1) // -4, (a >> 1) % (1 << 40), (b << 2) // 1


@settings(max_examples=200, deadline=None)
@given(hs.one_of(ints, hs.sampled_from([True, 2.5, "s"])), ints)
def test_division_by_constants_on_unknown_values(a, b):
    same(powers, [a, b])


def test_powers_of_two_divide_by_a_mask_and_a_shift():
    jitted(powers)([5, 6])
    code = str(jitted(powers).inspect_code())
    assert "mj_int_and(" in code and ", <long long>7, &" in code                 # % 8
    assert "mj_int_rshift(" in code and ", <long long>4, &" in code              # // 16
    assert "mj_int_mod(" in code and "mj_int_floordiv(" in code                  # the others divide


def test_the_generated_code_guards_each_native_operation():
    assert jitted(triangle)(3, 4) == triangle(3, 4)
    code = str(jitted(triangle).inspect_code())
    assert "if mj_int_add(<long long>" in code and "_u = True" in code
    assert "mj_int_floordiv(" in code and "mj_int_mul(" in code
    assert "mj_int_box(" in code                                   # the generic path boxes on demand
    assert "= _mj_ir" in code                                      # the chain's end is boxed once


def remainder_of_a_sum(t, i):
    """Chains ending in an operation whose result inference proves fits (``% constant``, ``// 2`` of a difference),
    so its variable is a C integer: native while the chain is, the generic result converted after an overflow."""
    r = (t + i) % 1000003
    return r, (t * i + 7) % 65536, (t - i) // 2 % 97, (r + i) % 1000003


def hashed(values):
    """A rolling hash over list items: each step's sum may leave int64, its remainder does not."""
    h = 0
    for v in values:
        h = (h * 31 + v) % 1000000007
    return h


@settings(max_examples=150, deadline=None)
@given(ints, ints)
def test_chains_ending_in_a_c_integer_at_the_int64_edges(t, i):
    same(remainder_of_a_sum, t, i)


@settings(max_examples=60, deadline=None)
@given(hs.lists(ints, max_size=8))
def test_a_rolling_hash_over_items_of_any_size(values):
    same(hashed, values)


def test_a_chain_ending_in_a_c_integer_is_not_boxed():
    chains = chains_of(remainder_of_a_sum, ("int64", "int64"))
    assert sorted(op.op for op in chains.native_ends) == ["%", "%", "%", "//"]     # (t - i) // 2 fits too
    assert all(value in chains.unboxed for end in chains.native_ends for value in (end.left, end.right)
               if value in chains.links)

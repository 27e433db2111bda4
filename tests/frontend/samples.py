"""Sample functions for the differential tests, grouped by the construct they exercise.

Each ``@sample(...)`` gives one hypothesis strategy per positional parameter and, in ``examples``, inputs that
must always be tried (the paths random inputs rarely reach). Module-level helpers below are the globals the
samples read.
"""
from __future__ import annotations

import collections
import contextlib
import math
import unicodedata

from hypothesis import strategies as st

from benchmarks.bert import pipeline
from tests.frontend.sample_support import call, sample

# ---- strategies -----------------------------------------------------------------------------------------------
small = st.integers(-12, 12)
ints = st.integers(-10**6, 10**6)
big = st.integers(-2**80, 2**80)
floats = st.floats(-1e6, 1e6, allow_nan=False)
any_floats = st.floats(allow_nan=True, allow_infinity=True)
numbers = st.one_of(small, floats)
bools = st.booleans()
int_lists = st.lists(small, max_size=12)
words = st.text(alphabet="abcdefgh", max_size=8)
WORD_ALPHABET = "abcdeé xyzAZ,.!?;'-()[]\t\n\u00a0\u3000\u4e2d\u6587\u00e9\u0301\u00c5\u200b\x00\x07\ufffd"
texts = st.text(alphabet=WORD_ALPHABET, max_size=30)
unicode_texts = st.text(max_size=20)
keys = st.sampled_from(["a", "b", "c", "zz", "", "key"])
str_dicts = st.dictionaries(keys, small, max_size=5)
scalars = st.one_of(small, floats, words, st.none(), bools)
maybe_none = st.one_of(st.none(), small)

VOCAB = {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "[PAD]": 3, "un": 4, "##aff": 5, "##able": 6, "the": 7, "a": 8,
         "##b": 9, "##c": 10, "ab": 11, "abc": 12, "d": 13, "##d": 14, "e": 15, "##e": 16, "he": 17, "##llo": 18}
vocab_words = st.text(alphabet="unafbledhcoe", max_size=10)
GLOBAL_SCALE = 3
GLOBAL_TABLE = {"x": 1, "y": 2}
LOG: list = []


def record(value):
    """A call with a visible side effect, to check evaluation order."""
    LOG.append(value)
    return value


class Box:
    """A plain object with attributes, for attribute get/set/del."""

    def __init__(self, value=0):
        self.value = value
        self.items = [value]

    def bump(self, by=1, *, times=1):
        self.value += by * times
        return self.value

    @classmethod
    def make(cls, value):
        return cls(value)

    @staticmethod
    def twice(value):
        return value * 2

    def total(self, extra):
        return self.value + sum(self.items) + extra

    def describe(self, prefix="box"):
        return f"{prefix}({self.value})"


class Recorder:
    """A context manager that records enter/exit and optionally suppresses exceptions."""

    def __init__(self, log, suppress=False, name="cm"):
        self.log, self.suppress, self.name = log, suppress, name

    def __enter__(self):
        self.log.append(f"enter {self.name}")
        return self.name

    def __exit__(self, kind, value, traceback):
        self.log.append(f"exit {self.name} {kind.__name__ if kind else None}")
        return self.suppress


class RaisingExit(Recorder):
    """__exit__ raises its own exception (chained to the one that was being handled)."""

    def __exit__(self, kind, value, traceback):
        super().__exit__(kind, value, traceback)
        raise KeyError(f"exit of {self.name}")


class Seq:
    """A sequence through __getitem__ only (iterable by the old protocol)."""

    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(i)
        return i * i


def helper_reraise():
    """A bare ``raise`` in a called function re-raises the exception the caller is handling."""
    raise


def current_exception_name():
    import sys
    exc = sys.exception()
    return None if exc is None else type(exc).__name__


def kwargs_echo(*args, **kwargs):
    return args, kwargs


def positional_only(a, b, /, c=3):
    return a, b, c


# =================================================================================================================
# Arithmetic, bitwise, unary
# =================================================================================================================
@sample(ints, small, examples=[(7, 0), (-7, 2), (0, -3)])
def int_arithmetic(a, b):
    return a + b, a - b, a * b, a // b, a % b, a / b


@sample(big, st.integers(-3, 40), examples=[(2, -1), (0, -2), (-3, 3)])
def power_and_negative_exponents(a, b):
    return a ** b, (-a) ** 2, 2 ** b


@sample(floats, floats, examples=[(1.5, 0.0), (-0.0, 2.0), (1e300, 1e300)])
def float_arithmetic(x, y):
    return x + y, x - y, x * y, x / y, x // y, x % y


@sample(ints, ints, examples=[(5, -1), (-1, 70)])
def bitwise_ops(a, b):
    return a & b, a | b, a ^ b, ~a, a << (b % 70), a >> (b % 70), a << (b % 9 - 4)


@sample(numbers, examples=[(0,), (-0.0,), (True,)])
def unary_ops(x):
    return -x, +x, not x, abs(x)


@sample(scalars, scalars, examples=[(1, "a"), ("a", 2), (None, 1)])
def mixed_type_arithmetic(a, b):
    return a + b, a * b


@sample(small, examples=[(3,)])
def matmul_raises(a):
    return a @ a


@sample(numbers, numbers)
def divmod_and_round(a, b):
    q, r = divmod(a, b)
    return q, r, round(a / (b or 1), 2)


@sample(ints, examples=[(0,), (1,)])
def operator_precedence(x):
    return x + 2 * 3 - x ** 2 // 7 % 5 << 1 | 3 & x ^ 6


# =================================================================================================================
# Comparisons
# =================================================================================================================
@sample(small, small, small)
def chained_comparisons(a, b, c):
    return a < b < c, a <= b >= c, a == b != c, a < b > c < a


@sample(small, small, small)
def chained_comparison_side_effects(a, b, c):
    LOG.clear()
    result = record(a) < record(b) <= record(c) != record(a)
    return result, list(LOG)


@sample(small, int_lists, str_dicts)
def membership_tests(x, xs, d):
    return x in xs, x not in xs, str(x) in d, "a" not in d, "ab" in "xabc"


@sample(scalars, scalars)
def identity_tests(a, b):
    return a is None, b is not None, a is b, a is not a, (a is None) is (b is None)


@sample(scalars, scalars, examples=[(1, "a"), (None, None)])
def ordering_type_error(a, b):
    return a < b


@sample(floats, small)
def float_int_comparisons(x, n):
    return x == n, x < n, x >= n, n != x, 0 < x < 1 or x > n


# =================================================================================================================
# Augmented assignment
# =================================================================================================================
@sample(small, small, examples=[(3, 0)])
def augmented_locals(a, b):
    a += b
    a -= 1
    a *= 2
    a //= b or 1
    a %= 7
    a **= 2
    a <<= 1
    a >>= 1
    a |= 8
    a &= 12
    a ^= 5
    c = a
    c /= 4
    return a, c


@sample(int_lists, small)
def augmented_list_aliasing(xs, x):
    alias = xs
    xs += [x]
    xs *= 2
    return alias is xs, alias


@sample(small, examples=[(0,)])
def augmented_attributes_and_items(v):
    box = Box(v)
    box.value += 10
    box.items[0] -= 3
    box.items += [v, v]
    d = {"k": [v], "n": v}
    d["k"] += [3]
    d["k"][0] *= 2
    d["n"] **= 2
    return box.value, box.items, d


@sample(int_lists, small)
def augmented_slices(xs, v):
    xs[1:3] += [v]
    xs[::2] = xs[::2]
    return xs


@sample(words, small)
def augmented_strings_and_tuples(s, n):
    t = (n,)
    t += (s,)
    s += "!"
    s *= 2
    return s, t


# =================================================================================================================
# Names: locals, globals, builtins, closures, unbound locals
# =================================================================================================================
@sample(small)
def global_and_builtin_reads(x):
    return GLOBAL_SCALE * x, len(GLOBAL_TABLE), max(x, GLOBAL_SCALE), GLOBAL_TABLE.get("x")


@sample(small)
def missing_global_name_error(x):
    if x > 100:
        return x
    return undefined_global_name + x  # noqa: F821


@sample(bools, examples=[(True,), (False,)])
def unbound_local_in_one_branch(flag):
    if flag:
        value = 1
    return value


@sample(bools, bools, examples=[(True, False), (False, True)])
def del_local_in_one_branch(a, b):
    x = 10
    if a:
        del x
    if b:
        x = 20
    return x


@sample(int_lists, examples=[([],), ([1],)])
def loop_variable_after_empty_loop(xs):
    for item in xs:
        pass
    return item


@sample(small, examples=[(0,), (5,)])
def unbound_in_loop_then_bound(n):
    i = 0
    while i < n:
        if i > 2:
            last = i
        i += 1
    return last


def _make_closure_reader(scale, offset):
    table = {"a": scale}

    def read_free_variables(x):
        return x * scale + offset + table.get("a", 0)
    return read_free_variables


sample(small)(_make_closure_reader(3, 4))


def _make_unbound_free_variable():
    def read_unassigned_free_variable(x):
        return x + late
    result = read_unassigned_free_variable
    if result is None:
        late = 1
    return result


sample(small)(_make_unbound_free_variable())


@sample(small)
def builtins_used_as_values(x):
    f = abs if x < 0 else str
    return f(x), type(x), isinstance(x, (int, float)), callable(f)


# =================================================================================================================
# Attributes, items, slices
# =================================================================================================================
@sample(small, examples=[(0,)])
def attribute_get_set_del(v):
    box = Box(v)
    box.extra = v * 2
    before = hasattr(box, "extra")
    del box.extra
    return before, hasattr(box, "extra"), box.value, getattr(box, "missing", "default")


@sample(small)
def missing_attribute_error(v):
    box = Box(v)
    return box.nothing_here


@sample(small)
def delete_missing_attribute(v):
    box = Box(v)
    del box.nothing_here


@sample(str_dicts, keys, examples=[({}, "a"), ({"a": 1}, "a")])
def subscript_get_set_del(d, k):
    d[k] = d.get(k, 0) + 1
    value = d[k]
    del d[k]
    return value, d, d[k]


@sample(int_lists, small, small, st.one_of(st.none(), st.integers(-3, 3).filter(bool)))
def slices_of_lists(xs, a, b, step):
    return xs[a:b], xs[a:], xs[:b], xs[::step], xs[a:b:step], xs[-1:]


@sample(words, small, small)
def slices_of_strings(s, a, b):
    return s[a:b], s[::-1], s[a::2], s[:b][::-1]


@sample(int_lists, small, small, int_lists)
def slice_assignment_and_deletion(xs, a, b, ys):
    xs[a:b] = ys
    del xs[::3]
    return xs


@sample(int_lists, small, examples=[([], 0), ([1, 2], 5)])
def index_errors(xs, i):
    return xs[i]


@sample(int_lists, small, examples=[([1], 0)])
def extended_slice_assignment_error(xs, v):
    xs[::2] = [v] * (len(xs) + 1)
    return xs


# =================================================================================================================
# Calls
# =================================================================================================================
@sample(small, small)
def calls_positional_and_keyword(a, b):
    return kwargs_echo(a, b), kwargs_echo(a, key=b), kwargs_echo(b=a, a=b), positional_only(a, b, c=a + b)


@sample(int_lists, str_dicts)
def calls_star_args_and_kwargs(xs, d):
    return kwargs_echo(*xs), kwargs_echo(*xs, **d), kwargs_echo(1, *xs, 2, *xs, x=1, **d), kwargs_echo(**d, z=0)


@sample(str_dicts, examples=[({"a": 1},), ({},)])
def duplicate_keyword_from_mapping(d):
    return kwargs_echo(a=0, **d)


@sample(str_dicts, examples=[({"a": 1},)])
def duplicate_keyword_into_builtin(d):
    return dict(a=0, **d)


@sample(small, examples=[(1,)])
def double_star_non_mapping(x):
    return kwargs_echo(**[x])


@sample(small, examples=[(1,)])
def star_non_iterable(x):
    return kwargs_echo(*x)


@sample(small)
def call_argument_errors(x):
    return positional_only(a=x, b=x)


@sample(small, small)
def method_calls(a, b):
    box = Box(a)
    box.bump()
    box.bump(b)
    box.bump(by=2, times=b % 3)
    return box.value, box.describe(), box.describe(prefix="p"), Box.make(b).value, Box.twice(a), box.total(b)


@sample(words, st.lists(words, max_size=4))
def string_method_calls(s, parts):
    return s.upper().strip("a"), "-".join(parts), s.split("c"), s.startswith(("a", "b")), s.replace("a", "", 1)


@sample(small)
def calling_non_callable(x):
    return x(1)


@sample(small)
def nested_calls_evaluation_order(x):
    LOG.clear()
    result = kwargs_echo(record(x), record(x + 1), k=record(x + 2))
    return result, list(LOG)


@sample(int_lists)
def calls_with_lambda_keys(xs):
    return sorted(xs, key=lambda v: (-v, v % 3)), max(xs, key=lambda v: v * v, default=None)


@sample(small, small)
def lambda_with_defaults(a, b):
    f = lambda x, y=b, *rest, k=a: (x, y, rest, k)  # noqa: E731
    return f(1), f(1, 2, 3, 4, k=5)


# =================================================================================================================
# Displays and unpacking
# =================================================================================================================
@sample(small, int_lists, str_dicts)
def displays_with_unpacking(x, xs, d):
    return (x, *xs), [*xs, x, *xs], {x, *xs}, {**d, "x": x, **{"y": x}}, (*xs,), [*"ab"]


@sample(small)
def dict_display_duplicates(x):
    return {"a": x, "a": x + 1, **{"a": 3}}, {1: "int", 1.0: "float", True: "bool"}


@sample(small, examples=[(1,)])
def star_display_non_iterable(x):
    return [*x]


@sample(small, examples=[(1,)])
def double_star_display_non_mapping(x):
    return {**x}


@sample(small)
def unhashable_in_set_display(x):
    return {x, [x]}


@sample(small, small)
def swap_assignment(a, b):
    a, b = b, a
    a, b, c = b, a, a + b
    return a, b, c


@sample(st.lists(small, max_size=6), examples=[([],), ([1],), ([1, 2],), ([1, 2, 3],)])
def starred_unpacking(xs):
    first, *middle, last = xs
    *init, tail = xs
    return first, middle, last, init, tail


@sample(st.lists(small, max_size=4), examples=[([1, 2],), ([1, 2, 3, 4],)])
def unpack_length_errors(xs):
    a, b, c = xs
    return a + b + c


@sample(st.lists(st.tuples(small, words), max_size=4))
def nested_unpacking_in_for(pairs):
    out = []
    for i, (n, s) in enumerate(pairs):
        out.append((i, n, s))
    (a, b), c = (1, 2), 3
    return out, a, b, c


@sample(words)
def unpack_strings_and_iterators(s):
    if len(s) >= 2:
        a, *b = s
        c, d = iter(s[:2])
        return a, b, c, d
    return s


@sample(small)
def unpack_non_iterable(x):
    a, b = x
    return a


# =================================================================================================================
# Control flow: if/elif/else, conditional expressions, and/or, loops
# =================================================================================================================
@sample(small)
def if_elif_else(x):
    if x < -5:
        return "very negative"
    elif x < 0:
        return "negative"
    elif x == 0:
        return "zero"
    else:
        return "positive"


@sample(scalars, scalars)
def conditional_expressions(a, b):
    return (a if a else b), ("yes" if a is None else "no"), (1 if b else 2 if a else 3)


@sample(scalars, scalars, scalars)
def and_or_values(a, b, c):
    return a and b, a or b, a and b or c, not a or b, (a or b) and c, a and (b or c)


@sample(scalars, scalars)
def and_or_in_conditions(a, b):
    out = []
    if a and b:
        out.append(1)
    if a or b:
        out.append(2)
    if not (a and not b):
        out.append(3)
    while a and len(out) < 5:
        out.append(4)
    return out


@sample(small, examples=[(0,), (7,)])
def while_with_break_continue_else(n):
    out = []
    i = 0
    while i < n:
        i += 1
        if i % 2:
            continue
        if i > 6:
            break
        out.append(i)
    else:
        out.append("else")
    return out, i


@sample(int_lists, small, examples=[([], 0), ([1, 2, 3], 2)])
def for_with_break_continue_else(xs, target):
    seen = []
    for x in xs:
        if x < 0:
            continue
        if x == target:
            seen.append("found")
            break
        seen.append(x)
    else:
        seen.append("not found")
    return seen


@sample(st.integers(0, 6), st.integers(0, 6))
def nested_loops_with_breaks(n, m):
    pairs = []
    for i in range(n):
        for j in range(m):
            if j > i:
                break
            if (i + j) % 3 == 0:
                continue
            pairs.append((i, j))
        else:
            pairs.append(("inner done", i))
        if len(pairs) > 8:
            break
    return pairs


@sample(int_lists)
def early_returns(xs):
    for x in xs:
        if x > 10:
            return "big", x
        if x < -10:
            return "small", x
    if not xs:
        return None
    return "sum", sum(xs)


@sample(str_dicts)
def for_over_dict_views(d):
    out = []
    for k in d:
        out.append(k)
    for k, v in d.items():
        out.append((k, v))
    for v in d.values():
        out.append(v)
    return out


@sample(st.integers(0, 50))
def while_true_with_return(n):
    i = 0
    while True:
        i += 3
        if i > n:
            return i


@sample(st.integers(0, 30))
def loop_else_without_break(n):
    total = 0
    for i in range(n):
        total += i
    else:
        total = -total
    while total > 100:
        total //= 2
    else:
        total += 1
    return total


@sample(st.integers(0, 8))
def iterate_old_sequence_protocol(n):
    return [x for x in Seq(n)], list(Seq(n))


@sample(small)
def iterate_non_iterable(x):
    for item in x:
        return item


@sample(int_lists, examples=[([3, None],)])
def is_none_branches(xs):
    out = []
    for x in xs + [None]:
        if x is None:
            out.append("none")
        elif x is not None and x > 0:
            out.append(x)
    value = xs[0] if xs else None
    return out, value if value is not None else "missing"


# =================================================================================================================
# f-strings
# =================================================================================================================
@sample(scalars, floats)
def fstring_conversions_and_specs(x, y):
    return f"{x}|{x!r}|{x!s}|{x!a}|{y:.3f}|{y:>12,.2f}|{'lit'}"


@sample(small, words)
def fstring_nested_specs(width, s):
    width = abs(width)
    return f"{s:>{width}}|{s!r:^{width + 2}}|{width:#x}|{width:08b}"


@sample(words, examples=[("abc",)])
def fstring_bad_spec(s):
    return f"{s:d}"


# =================================================================================================================
# Comprehensions and generator expressions
# =================================================================================================================
@sample(int_lists)
def list_set_dict_comprehensions(xs):
    return [x * 2 for x in xs if x], {x % 3 for x in xs}, {x: x * x for x in xs if x > 0}


@sample(st.integers(0, 5), st.integers(0, 5))
def nested_comprehensions_capturing_outer(n, m):
    grid = [[i * j + n for j in range(m)] for i in range(n)]
    flat = [cell for row in grid for cell in row if cell % 2 == 0]
    pairs = {(i, j) for i in range(n) for j in range(i, m)}
    return grid, flat, sorted(pairs)


@sample(int_lists, small)
def comprehension_reads_enclosing_locals(xs, k):
    scale = k * 2
    offsets = {x: x + scale for x in xs}
    return [x * scale + offsets[x] for x in xs if x != k]


@sample(int_lists, examples=[([],), ([1, 2, 5],)])
def walrus_in_comprehension(xs):
    ys = [y for x in xs if (y := x * 2) > 3]
    return ys, y


@sample(int_lists)
def walrus_in_conditions(xs):
    out = []
    i = 0
    while (n := len(xs) - i) > 0:
        if (half := n // 2) > 1:
            out.append(half)
        i += 1
    return out


@sample(int_lists, examples=[([1, 0, 2],), ([],)])
def generator_expressions_consumed(xs):
    return (sum(x * x for x in xs), any(x > 3 for x in xs), all(x for x in xs), max((x for x in xs), default=0),
            sorted(x for x in xs if x % 2), tuple(x for x in xs), set(-x for x in xs),
            ",".join(str(x) for x in xs), min((abs(x) for x in xs), default=None))


@sample(st.lists(words, max_size=5))
def generator_into_collectors(ws):
    return list(w.upper() for w in ws if w), frozenset(w[:1] for w in ws), sorted((w for w in ws), key=len)


@sample(int_lists, examples=[([1, 0],), ([2, 4],)])
def comprehension_raising_inside_try(xs):
    try:
        return [10 // x for x in xs]
    except ZeroDivisionError as exc:
        return "caught " + str(exc)


class Flag:
    """An object whose truth test raises for negative values (``__bool__`` in a condition)."""

    def __init__(self, value):
        self.value = value

    def __bool__(self):
        if self.value < 0:
            raise ValueError(f"no truth for {self.value}")
        return self.value > 0

    def __repr__(self):
        return f"Flag({self.value})"


@sample(int_lists, examples=[([1, 0, 2],), ([1, -1],), ([],)])
def comprehension_variable_shadows_a_local(xs):
    """3.12+ inline comprehensions: the outer ``x`` is saved, hidden and restored, also when the body raises."""
    x = "outer"
    try:
        ys = [10 // x for x in xs]
    except ZeroDivisionError:
        return "caught", x
    zs = {x: x for x in xs if x}
    return ys, zs, x


@sample(int_lists, examples=[([1, 0, 2],), ([1, -1, 2],)])
def comprehension_filter_truth_raises(xs):
    """A condition's ``bool()`` raising inside a comprehension (3.13: TO_BOOL at the end of the protected range)."""
    x = "outer"
    try:
        kept = [x for x in map(Flag, xs) if x]
        negated = [x.value for x in map(Flag, xs) if not x]
    except ValueError as exc:
        return str(exc), x
    return [flag.value for flag in kept], negated, x


@sample(int_lists, examples=[([3, 1, 2],)])
def comprehension_variable_is_an_argument(x):
    doubled = [x * 2 for x in x]
    return doubled, x


@sample(int_lists, examples=[([1, 2],), ([1, -1],)])
def truth_of_objects(xs):
    out = []
    for value in xs:
        flag = Flag(value)
        out.append((not flag, bool(flag) and value, value if flag else -value))
    return out


@sample(int_lists, examples=[([1, 0],)])
def generator_raising_inside_try(xs):
    try:
        return sum(10 // x for x in xs), any(1 // x for x in xs)
    except ZeroDivisionError:
        return "zero"


@sample(int_lists, examples=[([5, 0],)])
def comprehension_error_propagates(xs):
    return [x // (x - 5) for x in xs]


@sample(small)
def comprehension_over_non_iterable(x):
    return [y for y in x]


@sample(int_lists)
def any_all_short_circuit(xs):
    LOG.clear()
    found = any(record(x) > 2 for x in xs)
    everything = all(record(x) < 5 for x in xs)
    return found, everything, list(LOG)


@sample(int_lists, examples=[([1],)])
def comprehension_with_conditional_and_call(xs):
    return [str(x) if x % 2 else -x for x in xs if x != 3], {str(x): [x] * 2 for x in xs}


@sample(st.lists(int_lists, max_size=4))
def nested_comprehension_loop_variable_shadowing(rows):
    x = "outer"
    flat = [x for row in rows for x in row]
    return flat, x, [[x + 1 for x in row] for row in rows]


# =================================================================================================================
# try / except / else / finally, raise, assert
# =================================================================================================================
@sample(numbers, examples=[(0,), (2,), (0.0,)])
def try_except_else_finally(x):
    out = []
    try:
        out.append(1 / x)
    except ZeroDivisionError as exc:
        out.append(str(exc))
    else:
        out.append("else")
    finally:
        out.append("finally")
    return out


@sample(scalars, examples=[("x",), (None,), ("12",)])
def except_tuple_and_order(x):
    try:
        return int(x)
    except (ValueError, TypeError) as exc:
        return type(exc).__name__
    except Exception:
        return "other"


@sample(small, examples=[(0,)])
def exception_name_is_deleted(x):
    try:
        1 / x
    except ZeroDivisionError as exc:
        message = str(exc)
    return message, exc


@sample(scalars, examples=[("x",), (1,)])
def raise_from_cause(x):
    try:
        int(x)
    except ValueError as exc:
        raise RuntimeError(f"bad {x!r}") from exc
    return x


@sample(scalars, examples=[("x",)])
def raise_from_none(x):
    try:
        int(x)
    except ValueError:
        raise LookupError("hidden") from None
    return x


@sample(small, examples=[(0,)])
def bare_raise_in_handler(x):
    try:
        return 10 // x
    except ZeroDivisionError:
        if x == 0:
            raise
        return -1


@sample(small, examples=[(0,)])
def bare_raise_in_called_function(x):
    try:
        return 10 // x
    except ZeroDivisionError:
        helper_reraise()


@sample(small)
def bare_raise_without_active_exception(x):
    if x < 100:
        raise
    return x


@sample(small, examples=[(0,), (1,)])
def sys_exception_seen_by_callee(x):
    names = [current_exception_name()]
    try:
        1 // x
    except ZeroDivisionError:
        names.append(current_exception_name())
        try:
            {}["missing"]
        except KeyError:
            names.append(current_exception_name())
        names.append(current_exception_name())
    names.append(current_exception_name())
    return names


@sample(small, examples=[(0,)])
def implicit_exception_context(x):
    try:
        try:
            1 // x
        except ZeroDivisionError:
            raise KeyError("during handling")
    except KeyError as exc:
        return repr(exc.__context__), exc.__suppress_context__
    return None


@sample(small, examples=[(0,), (1,)])
def exception_context_propagates_out(x):
    try:
        1 // x
    except ZeroDivisionError:
        {}["inner"]
    return x


@sample(small, examples=[(0,)])
def reraise_existing_exception_object(x):
    saved = None
    try:
        1 // x
    except ZeroDivisionError as exc:
        saved = exc
    try:
        [][x]
    except IndexError:
        if saved is not None:
            raise saved
    return x


@sample(small, examples=[(0,), (1,)])
def exception_in_finally_replaces(x):
    try:
        1 // x
    finally:
        if x < 5:
            raise ValueError("from finally")
    return x


@sample(small, examples=[(0,), (1,)])
def return_in_finally_swallows(x):
    try:
        return 10 // x
    finally:
        if x < 3:
            return "finally wins"


@sample(st.integers(0, 8))
def break_continue_in_try_finally(n):
    out = []
    for i in range(n):
        try:
            if i == 2:
                continue
            if i == 5:
                break
            out.append(i)
        finally:
            out.append(-i)
    else:
        out.append("else")
    return out


@sample(st.integers(0, 10))
def continue_in_nested_try_finally_with_raise(n):
    out = []
    i = 0
    while i < n:
        i += 1
        try:
            try:
                if i % 3 == 0:
                    raise ValueError(i)
                continue
            finally:
                out.append(i)
        except ValueError as exc:
            out.append(f"v{exc}")
    return out


@sample(int_lists, examples=[([1, 0, 2],)])
def try_inside_loop_with_else(xs):
    out = []
    for x in xs:
        try:
            value = 12 // x
        except ZeroDivisionError:
            out.append("zero")
            continue
        else:
            out.append(value)
        finally:
            out.append("f")
    return out


@sample(scalars, examples=[("a",), (0,), (None,)])
def nested_handlers(x):
    try:
        try:
            return 1 / x
        except ZeroDivisionError:
            return len(x)
    except TypeError as outer:
        return "outer " + type(outer).__name__


@sample(small)
def exception_in_else_clause(x):
    try:
        y = x + 1
    except TypeError:
        return "handler"
    else:
        return 10 // (y - y)


@sample(small)
def catching_non_exception_class(x):
    try:
        return 1 // x
    except int:
        return "never"


@sample(small)
def raise_non_exception(x):
    raise x


@sample(small, examples=[(3,)])
def raise_exception_class(x):
    if x > 0:
        raise ValueError
    raise KeyError


@sample(small, examples=[(0,)])
def except_star_like_tuple_from_variable(x):
    errors = (ZeroDivisionError, OverflowError)
    try:
        return 2.0 ** (1000 * x) / x
    except errors as exc:
        return type(exc).__name__


@sample(small, examples=[(-1,), (11,), (5,)])
def assert_statements(x):
    assert x >= 0, f"negative: {x}"
    assert x < 10
    return x


@sample(st.integers(0, 6))
def return_inside_except_in_loop(n):
    for i in range(n):
        try:
            if i == 3:
                raise IndexError(i)
        except IndexError as exc:
            return f"stopped at {exc}"
    return "done"


@sample(small, examples=[(0,)])
def handler_falls_through_to_code_after(x):
    result = []
    try:
        result.append(10 // x)
    except ZeroDivisionError:
        result.append("zero")
    except Exception:
        result.append("other")
    result.append(x)
    return result


# =================================================================================================================
# with statements
# =================================================================================================================
@sample(small, examples=[(0,), (1,)])
def with_statement_records(x):
    log = []
    with Recorder(log) as name:
        log.append(name)
        log.append(10 // (x or 1))
    return log


@sample(small, examples=[(0,), (1,)])
def with_suppressing_exception(x):
    log = []
    with Recorder(log, suppress=True):
        log.append(10 // x)
    log.append("after")
    return log


@sample(small, examples=[(0,), (1,)])
def exception_inside_with(x):
    log = []
    try:
        with Recorder(log):
            log.append(10 // x)
    except ZeroDivisionError:
        log.append("caught")
    return log


@sample(small)
def return_inside_with(x):
    log = []
    with Recorder(log):
        if x > 0:
            return log, "early"
        log.append("body")
    return log, "late"


@sample(st.integers(0, 6))
def with_inside_loop_inside_try(n):
    log = []
    try:
        for i in range(n):
            with Recorder(log, suppress=i % 2 == 0, name=str(i)):
                if i == 3:
                    raise ValueError(i)
                if i == 4:
                    break
                log.append(i)
    except ValueError as exc:
        log.append(f"caught {exc}")
    return log


@sample(small, examples=[(0,), (1,)])
def nested_with_statements(x):
    log = []
    with Recorder(log, name="a") as a, Recorder(log, suppress=x == 0, name="b") as b:
        log.append(a + b)
        log.append(1 // x)
    return log


@sample(small, examples=[(0,), (1,)])
def with_exit_raises(x):
    log = []
    try:
        with RaisingExit(log):
            log.append(1 // x)
    except KeyError as exc:
        log.append((str(exc), type(exc.__context__).__name__))
    return log


@sample(scalars, examples=[("x",), ("3",)])
def contextlib_suppress(x):
    with contextlib.suppress(ValueError, TypeError):
        return int(x)
    return "suppressed"


@sample(small, examples=[(collections.OrderedDict(),)])       # a static type: tp_name has its module
def with_non_context_manager(x):
    with x:
        return 1


@sample(st.integers(0, 6))
def continue_inside_with_in_loop(n):
    log = []
    for i in range(n):
        with Recorder(log, name=str(i)):
            if i % 2:
                continue
            log.append("even")
    return log


# =================================================================================================================
# del, imports, lambdas, exec-made functions, methods
# =================================================================================================================
@sample(int_lists, str_dicts)
def del_statements(xs, d):
    box = Box(1)
    box.tmp = 2
    del box.tmp
    if xs:
        del xs[0]
    del xs[1:2]
    for k in list(d):
        if k:
            del d[k]
    a = b = 1
    del a, b
    return xs, d


@sample(small, examples=[(0,)])
def del_then_read(x):
    y = x
    del y
    if x:
        y = 2
    return y


@sample(small)
def imports_inside_function(x):
    import math as m
    from unicodedata import category, name
    from os import path
    return m.sqrt(abs(x)), category(chr(65 + abs(x))), name("a"), path.join("a", "b")


@sample(small)
def import_missing_name(x):
    from math import no_such_function
    return no_such_function(x)


@sample(int_lists)
def lambdas_inside(xs):
    square = lambda v: v * v  # noqa: E731
    add = lambda a, b=1: a + b  # noqa: E731
    return list(map(square, xs)), [add(x) for x in xs], sorted(xs, key=lambda v: abs(v))


sample(small, small)(lambda a, b: (a + b, a * b) if a > b else None)

_EXEC_SOURCE = '''
def made_by_exec(text, n):
    out = []
    for i, ch in enumerate(text):
        if i >= n:
            break
        out.append(ch.upper() if i % 2 else ch)
    return "".join(out)

def exec_with_globals(x):
    return SCALE * x + len(TABLE)
'''
_exec_namespace = {"SCALE": 5, "TABLE": [1, 2]}
exec(compile(_EXEC_SOURCE, "<generated>", "exec"), _exec_namespace)
sample(words, small)(_exec_namespace["made_by_exec"])
sample(small)(_exec_namespace["exec_with_globals"])
sample(small, small)(eval("lambda a, b: [a] * (b % 4)"))


class Counter:
    """Methods translated through the class: ``to_ssa(Counter.add)`` is called with the instance first."""

    def __init__(self, start):
        self.count = start
        self.history = []

    def add(self, amount, note=None):
        self.count += amount
        if note is not None:
            self.history.append(note)
        return self.count

    def summary(self):
        return f"{self.count}:{','.join(self.history)}"

    def reset_if(self, limit):
        if self.count > limit:
            self.count = 0
            return True
        return False


@sample(small, small)
def methods_of_a_class(start, amount):
    counter = Counter(start)
    for i in range(3):
        Counter.add(counter, amount, note=str(i))
    return counter.summary(), counter.reset_if(5), counter.count


sample(st.builds(Counter, small), small, st.one_of(st.none(), words))(Counter.add)
sample(st.builds(Counter, small), small)(Counter.reset_if)


class Shape:
    def __init__(self, sides):
        self.sides = sides

    def describe(self):
        return f"shape with {self.sides} sides"


class Square(Shape):
    def __init__(self, size):
        super().__init__(4)
        self.size = size

    def describe(self):
        return super().describe() + f" of size {self.size}"


class Cube(Square):
    def describe(self):
        return super(Cube, self).describe() + " (cube)"

    def sides_through_super(self):
        return super().sides, super(Square, self).describe(), super().__class__.__name__


sample(st.builds(Cube, small))(Cube.describe)
sample(st.builds(Cube, small))(Cube.sides_through_super)
sample(st.builds(Square, small))(Square.describe)
sample(st.builds(Square, small), small)(Square.__init__)

# =================================================================================================================
# Tokenizer-shaped functions: character loops, unicodedata, dict lookups, slicing, WordPiece
# =================================================================================================================
@sample(st.sampled_from(list(WORD_ALPHABET)))
def is_whitespace_char(ch):
    if ch == " " or ch == "\t" or ch == "\n" or ch == "\r":
        return True
    return unicodedata.category(ch) == "Zs"


@sample(st.sampled_from(list(WORD_ALPHABET)))
def is_control_char(ch):
    if ch in ("\t", "\n", "\r"):
        return False
    return unicodedata.category(ch).startswith("C")


@sample(st.characters())
def is_punctuation_char(ch):
    cp = ord(ch)
    if (33 <= cp <= 47) or (58 <= cp <= 64) or (91 <= cp <= 96) or (123 <= cp <= 126):
        return True
    return unicodedata.category(ch).startswith("P")


@sample(st.integers(0, 0x30000))
def is_cjk_codepoint(cp):
    return ((0x4E00 <= cp <= 0x9FFF) or (0x3400 <= cp <= 0x4DBF) or (0x20000 <= cp <= 0x2A6DF)
            or (0xF900 <= cp <= 0xFAFF) or (0x2F800 <= cp <= 0x2FA1F))


@sample(texts)
def clean_text(text):
    output = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or is_control_char(ch):
            continue
        if is_whitespace_char(ch):
            output.append(" ")
        else:
            output.append(ch)
    return "".join(output)


@sample(texts)
def strip_accents(text):
    text = unicodedata.normalize("NFD", text)
    return "".join([ch for ch in text if unicodedata.category(ch) != "Mn"])


@sample(texts)
def split_on_punctuation(text):
    words = []
    current = []
    for ch in text:
        if is_punctuation_char(ch):
            if current:
                words.append("".join(current))
                current = []
            words.append(ch)
        else:
            current.append(ch)
    if current:
        words.append("".join(current))
    return words


@sample(texts)
def tokenize_cjk_chars(text):
    output = []
    for ch in text:
        if is_cjk_codepoint(ord(ch)):
            output.extend([" ", ch, " "])
        else:
            output.append(ch)
    return "".join(output)


@sample(vocab_words, st.integers(1, 12))
def wordpiece(word, max_chars):
    if len(word) > max_chars:
        return ["[UNK]"]
    pieces = []
    start = 0
    while start < len(word):
        end = len(word)
        piece = None
        while start < end:
            candidate = word[start:end]
            if start > 0:
                candidate = "##" + candidate
            if candidate in VOCAB:
                piece = candidate
                break
            end -= 1
        if piece is None:
            return ["[UNK]"]
        pieces.append(piece)
        start = end
    return pieces


@sample(st.lists(vocab_words, max_size=6))
def convert_tokens_to_ids(tokens):
    unk = VOCAB["[UNK]"]
    ids = [VOCAB.get(token, unk) for token in tokens]
    return [VOCAB["[CLS]"]] + ids + [VOCAB["[SEP]"]]


@sample(texts)
def whitespace_tokenize(text):
    text = text.strip()
    if not text:
        return []
    return text.split()


@sample(texts, st.sampled_from([("[CLS]", "[SEP]"), ("ab",), ()]))
def split_on_special_tokens(text, specials):
    pieces = []
    start = 0
    while start < len(text):
        found_at, found = -1, ""
        for token in specials:
            at = text.find(token, start)
            if at != -1 and (found_at == -1 or at < found_at or (at == found_at and len(token) > len(found))):
                found_at, found = at, token
        if found_at == -1:
            pieces.append(text[start:])
            break
        if found_at > start:
            pieces.append(text[start:found_at])
        pieces.append(found)
        start = found_at + len(found)
    return pieces


@sample(texts)
def basic_tokenize(text):
    tokens = []
    for word in clean_text(text).lower().split():
        word = strip_accents(word)
        tokens.extend(split_on_punctuation(word))
    return tokens


@sample(texts)
def character_class_counts(text):
    counts = {}
    for ch in text:
        category = unicodedata.category(ch)
        counts[category[0]] = counts.get(category[0], 0) + 1
    letters = sum(1 for ch in text if ch.isalpha())
    return sorted(counts.items()), letters, unicodedata.name(text[0], "?") if text else ""


truncate_pair = sample(st.lists(small, max_size=10), st.lists(small, max_size=10), st.integers(0, 12))(
    pipeline.truncate_pair)                       # the BERT pipeline's own function


@sample(st.lists(small, max_size=6), st.integers(0, 10), small)
def pad_and_mask(ids, length, pad_id):
    padded = ids + [pad_id] * (length - len(ids))
    mask = [1] * len(ids) + [0] * (length - len(ids))
    return {"input_ids": padded, "attention_mask": mask, "length": max(len(ids), length)}


@sample(texts, st.integers(1, 5))
def sliding_windows(text, size):
    windows = []
    i = 0
    while i + size <= len(text):
        windows.append(text[i:i + size])
        i += max(1, size // 2)
    return windows, text[-size:], text[:size].lower()


@sample(texts)
def normalize_whitespace_runs(text):
    out = []
    previous_space = False
    for i in range(len(text)):
        ch = text[i]
        if ch.isspace():
            if not previous_space:
                out.append(" ")
            previous_space = True
        else:
            out.append(ch)
            previous_space = False
    return "".join(out).strip()


@sample(st.lists(vocab_words, max_size=8))
def count_and_rank_tokens(tokens):
    counts = {}
    for token in tokens:
        if token in counts:
            counts[token] += 1
        else:
            counts[token] = 1
    ranked = sorted(counts, key=counts.get, reverse=True)
    return ranked[:3], {t: VOCAB.get(t, -1) for t in ranked}


@sample(texts)
def byte_level_encoding(text):
    data = text.encode("utf-8")
    return [b for b in data if b < 128], len(data), data[:4].hex(), data.decode("utf-8") == text


# =================================================================================================================
# Numeric code: nested loops, float math, early exits
# =================================================================================================================
matrices = st.integers(1, 4).flatmap(lambda n: st.lists(st.lists(small, min_size=n, max_size=n), min_size=n,
                                                          max_size=n))


@sample(matrices, matrices)
def matrix_multiply(a, b):
    n = len(a)
    if len(b) != n:
        return None
    result = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            total = 0
            for k in range(n):
                total += a[i][k] * b[k][j]
            result[i][j] = total
    return result


@sample(st.integers(-5, 200))
def is_prime(n):
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    d = 3
    while d * d <= n:
        if n % d == 0:
            return False
        d += 2
    return True


@sample(ints, ints)
def gcd_loop(a, b):
    a, b = abs(a), abs(b)
    while b:
        a, b = b, a % b
    return a


@sample(st.integers(0, 60))
def fibonacci(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


@sample(st.floats(0, 1e6), examples=[(0.0,), (2.0,)])
def newton_sqrt(x):
    if x == 0:
        return 0.0
    guess = x
    for _ in range(100):
        better = (guess + x / guess) / 2
        if abs(better - guess) < 1e-12 * guess:
            return better
        guess = better
    return guess


@sample(st.lists(floats, max_size=10))
def mean_and_variance(xs):
    if not xs:
        return None
    n = len(xs)
    mean = sum(xs) / n
    variance = 0.0
    for x in xs:
        variance += (x - mean) ** 2
    return mean, variance / n, math.sqrt(variance / n)


@sample(st.lists(floats, max_size=6), floats)
def polynomial_horner(coefficients, x):
    result = 0.0
    for c in reversed(coefficients):
        result = result * x + c
    return result


@sample(st.lists(small, max_size=12).map(sorted), small)
def binary_search(xs, target):
    lo, hi = 0, len(xs)
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < len(xs) and xs[lo] == target else -1


@sample(st.integers(1, 500))
def collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
        if steps > 1000:
            return -1
    return steps


@sample(any_floats, any_floats)
def float_math_functions(x, y):
    return math.floor(x) if math.isfinite(x) else x, math.hypot(x, y), math.copysign(1.0, x), x != x, min(x, y)


@sample(st.integers(0, 12))
def sieve_of_eratosthenes(n):
    flags = [True] * (n + 1)
    primes = []
    for i in range(2, n + 1):
        if flags[i]:
            primes.append(i)
            for j in range(i * i, n + 1, i):
                flags[j] = False
    return primes


@sample(st.lists(small, max_size=8))
def bubble_sort_with_early_exit(xs):
    xs = list(xs)
    for i in range(len(xs)):
        swapped = False
        for j in range(len(xs) - 1 - i):
            if xs[j] > xs[j + 1]:
                xs[j], xs[j + 1] = xs[j + 1], xs[j]
                swapped = True
        if not swapped:
            break
    return xs


@sample(st.lists(floats, min_size=1, max_size=6), st.integers(1, 4))
def moving_average(xs, window):
    out = []
    total = 0.0
    for i, x in enumerate(xs):
        total += x
        if i >= window:
            total -= xs[i - window]
        out.append(round(total / min(i + 1, window), 6))
    return out


@sample(big, st.integers(2, 36))
def integer_to_base(n, base):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if n == 0:
        return "0"
    sign = "-" if n < 0 else ""
    n = abs(n)
    out = []
    while n:
        n, r = divmod(n, base)
        out.append(digits[r])
    return sign + "".join(reversed(out))


# =================================================================================================================
# Signatures
# =================================================================================================================
@sample(small, small, kwargs={"k": small})
def keyword_only_and_defaults(a, b=5, *args, k=1, **extra):
    return a, b, args, k, extra


@sample(small, examples=[call(1, 2, 3, 4), call(1, b=2), call(), call(1, 2, 3, b=4)])
def signature_binding_errors(a, b=2, /, *rest, c=3):
    return a, b, rest, c


@sample(small)
def default_argument_objects(x, acc=[]):  # noqa: B006 - the shared default is the point
    acc.append(x)
    return len(acc) > 0


# =================================================================================================================
# Corner cases: consumer interleaving, finally/with/loops combinations, walrus, context chaining
# =================================================================================================================
def raising_gen_item(x):
    """An item function for consumer interleaving: 1 gives a str, 2 raises."""
    if x == 2: raise ValueError("item")
    return "s" if x == 1 else x

@sample(int_lists, examples=[([1, 2],), ([3, 1, 2],)])
def sum_interleaving(xs):
    return sum(raising_gen_item(x) for x in xs)

@sample(int_lists, examples=[([1, 2],)])
def max_interleaving(xs):
    return max(raising_gen_item(x) for x in [3] + xs)

@sample(int_lists, examples=[([],), ([1],)])
def max_empty(xs):
    return max(x for x in xs)

@sample(st.lists(int_lists, max_size=3), examples=[([[1, 2], [3]],)])
def genexp_inside_comprehension(rows):
    return [sum(y * 2 for y in row) for row in rows], [max((y for y in row), default=-1) for row in rows]

@sample(st.integers(0, 6), examples=[(5,)])
def return_in_finally_overrides_break(n):
    for i in range(n):
        try:
            if i == 3:
                break
        finally:
            if i == 3:
                return "finally"
    return "loop"

@sample(small, examples=[(0,), (1,)])
def comprehension_inside_with(x):
    log = []
    with Recorder(log):
        vals = [10 // (x + i) for i in range(2)]
    return log, vals

@sample(small, examples=[(0,), (1,), (2,)])
def try_finally_return_in_with_in_loop(x):
    log = []
    for i in range(3):
        with Recorder(log, name=str(i)):
            try:
                if i == x:
                    return log
            finally:
                log.append("f")
    return log

@sample(int_lists, examples=[([1, 2, 0],)])
def walrus_comprehension_in_try(xs):
    total = 0
    try:
        ys = [total := total + 10 // x for x in xs]
    except ZeroDivisionError:
        return "zero", total
    return ys, total

@sample(small, examples=[(0,), (1,)])
def nested_try_in_except(x):
    try:
        1 // x
    except ZeroDivisionError:
        try:
            raise KeyError("k")
        except KeyError as e:
            r = repr(e.__context__)
        return r, current_exception_name()
    return None

@sample(small, examples=[(0,), (1,)])
def exception_var_shadowing(x):
    e = "before"
    try:
        1 // x
    except ZeroDivisionError as e:
        pass
    try:
        return e
    except UnboundLocalError:
        return "unbound"

@sample(small, examples=[(1,), (-1,)])
def jump_if_or_pop_chain(x):
    a = x > 0 and x < 5 or x == -1 and "neg" or None
    b = (x or 0) and (x + 1 or 2)
    return a, b

@sample(small, examples=[(0,), (3,)])
def deeply_nested_finally(x):
    out = []
    try:
        try:
            try:
                out.append(10 // x)
            finally:
                out.append("a")
        finally:
            out.append("b")
    except ZeroDivisionError:
        out.append("z")
    finally:
        out.append("c")
    return out

@sample(small, examples=[(0,), (1,)])
def while_in_try_with_else_and_break(x):
    out = []
    try:
        i = 0
        while i < 4:
            i += 1
            if i == x:
                break
            out.append(i // (i - 2))
        else:
            out.append("else")
    except ZeroDivisionError:
        out.append(("zero", i))
    return out

@sample(st.lists(words, max_size=4), examples=[(["ab", ""],)])
def star_args_comprehension(ws):
    return kwargs_echo(*[w.upper() for w in ws], **{w: len(w) for w in ws if w})

@sample(small, examples=[(0,)])
def assert_in_try(x):
    try:
        assert x, "zero"
    except AssertionError as e:
        return str(e)
    return x

@sample(small, examples=[(0,), (1,)])
def raise_in_with_suppressed_in_loop(x):
    log = []
    for i in range(3):
        with Recorder(log, suppress=True, name=str(i)):
            if i == x:
                raise ValueError
            log.append(i)
    return log

@sample(int_lists, examples=[([1, 2, 3],)])
def dict_comprehension_key_order(xs):
    LOG.clear()
    d = {record(x): record(-x) for x in xs}
    return d, list(LOG)

@sample(small, examples=[(0,)])
def for_else_in_try_except(x):
    try:
        for i in range(3):
            if i == x:
                raise IndexError
        else:
            return "else"
    except IndexError:
        return "idx"

@sample(words, examples=[("abc",)])
def string_iteration_with_index(s):
    out = []
    for i, ch in enumerate(s):
        if ch == "b":
            continue
        out.append(f"{i}{ch}")
    return "".join(out), s.find("b"), s[1:-1]

@sample(small)
def conditional_import(x):
    if x > 0:
        import math
    return math.floor(1.5)

@sample(small, examples=[(0,), (1,)])
def unbound_after_except(x):
    try:
        y = 1 // x
    except ZeroDivisionError:
        pass
    return y

@sample(small, examples=[(0,), (2,)])
def loop_with_try_continue_finally_return(n):
    i = 0
    while True:
        try:
            i += 1
            if i < 3:
                continue
            return i // n
        finally:
            if i > 5:
                break
    return "broke"

@sample(small, examples=[(1,)])
def set_and_dict_comprehension_in_genexp_consumer(x):
    return sorted({y % 3 for y in range(x + 5)}), tuple({k: v for k, v in [(1, 2)]}.items())

@sample(small, examples=[(1,)])
def nested_genexp_in_genexp(x):
    return sum(sum(y for y in range(i)) for i in range(x + 3))

@sample(small, examples=[(1,)])
def any_with_walrus(x):
    if any((found := y) > x for y in range(5)):
        return found
    return None

@sample(small, examples=[(1,), (0,)])
def all_with_early_exit_side_effect(x):
    LOG.clear()
    r = all(record(y) != x for y in range(3))
    return r, list(LOG)

@sample(small)
def del_in_loop(x):
    out = []
    for i in range(3):
        v = i * x
        out.append(v)
        del v
    return out

@sample(small, examples=[(0,)])
def exception_in_handler_filter(x):
    try:
        1 // x
    except (lambda: ZeroDivisionError)():
        return "called"

@sample(small, examples=[(0,)])
def except_with_undefined_name(x):
    try:
        1 // x
    except NoSuchErrorName:
        return "n"


@sample(st.lists(words, max_size=5), st.booleans(), examples=[([], True), (["b", "a", "ab"], False)])
def min_max_with_key_and_default(ws, use_key):
    key = len if use_key else None
    return (min((w for w in ws), key=key, default="none"), max((w for w in ws if w), key=len, default=None),
            max((w.upper() for w in ws), default=""), min(w for w in ws + ["z"]))


@sample(st.lists(floats, max_size=5), int_lists)
def sum_with_starts(xs, ys):
    return sum(x / 2 for x in xs), sum((x for x in xs), 0.5), sum(([y] for y in ys), []), sum((y for y in ys), start=3)


@sample(st.lists(words, max_size=4))
def join_of_bytes_and_str(ws):
    return b"-".join(w.encode() for w in ws), ", ".join(w for w in ws if w)


@sample(scalars, examples=[(1,), (2,), ("a",), (None,), (7,)])
def match_with_literal_and_capture_patterns(x):
    """Literal, value, or- and capture patterns compile to plain comparisons and stores, so they translate."""
    match x:
        case 1 | 2:
            return "small"
        case "a":
            return "letter"
        case None:
            return "none"
        case other if other == 7:
            return f"guarded {other}"
        case _:
            return "other"


@sample(small)
def branch_on_a_constant_known_only_in_ssa(a):
    x = None
    if x is None:
        y = 1
    else:
        y = a
    flag = True
    while flag:
        flag = False
        y += 1
    return y


@sample(bools, examples=[(True,), (False,)])
def unbound_cell_read_by_comprehension(flag):
    if flag:
        x = 1
    return [x for _ in range(2)]


@sample(bools, examples=[(True,), (False,)])
def unbound_cell_read_in_its_own_scope(flag):
    if flag:
        x = 1
    values = [x + i for i in range(2)] if flag else []
    return values, x


def _many_locals_source() -> str:
    """A function with 300 locals and constants: EXTENDED_ARG prefixes on loads, stores and jumps, one of them
    a jump target (the loop body starts by loading ``v299``)."""
    lines = ["def many_locals_and_far_jumps(n):", "    total = 0"]
    lines += [f"    v{i} = n + {i}" for i in range(300)]
    lines += ["    i = 0", "    while v299 - 299 + i < n + n - n:", "        v298 = v299 * 2 + i"]
    lines += [f"        total += v{i} * {i + 1000}" for i in range(0, 300, 3)]
    lines += ["        i += 1", "    return total, v299"]
    return "\n".join(lines) + "\n"


_generated: dict = {}
exec(compile(_many_locals_source(), "<generated many locals>", "exec"), _generated)
sample(st.integers(-3, 4), examples=[(0,), (3,)])(_generated["many_locals_and_far_jumps"])


class _ClaimsEverything(type):
    def __instancecheck__(cls, obj):
        return True

    def __subclasscheck__(cls, sub):
        return True


class ClaimingError(Exception, metaclass=_ClaimsEverything):
    """``except ClaimingError`` matches by the MRO only, whatever its metaclass claims."""


@sample(small, examples=[(0,), (1,)])
def except_matches_by_mro_not_isinstance(x):
    try:
        try:
            return 1 // x
        except ClaimingError:
            return "claimed"
    except ZeroDivisionError:
        return "zero"


@sample(small, examples=[(1,)])
def import_through_the_functions_builtins(x):
    import math
    from os import path as p
    return math.floor(x / 2), p.basename("a/b")


# ---- subscripts and slices of values of any type (natively typed numbers and untyped objects included) ----------
containers_and_scalars = st.one_of(small, floats, bools, words, st.lists(small, max_size=5),
                                   st.tuples(small, small), str_dicts, st.none(), st.binary(max_size=4))


@sample(containers_and_scalars, examples=[(7,), (2.5,), (True,), ("ab",), ((1, 2),)])
def subscript_of_anything(x):
    if type(x) is tuple:
        return x[0]
    return x[0] if type(x) in (list, str, bytes) and x else x


@sample(containers_and_scalars, examples=[(5,), (2.0,), ("abcd",), ([1, 2, 3],), ({"a": 1},), (None,)])
def slices_of_anything(x):
    front = x[1:3]
    every_other = x[::2]
    return front, every_other


@sample(containers_and_scalars, examples=[([1, 2, 3],), ("abc",), ((1, 2),), (5,), (4.0,), ({"a": 1},)])
def slice_assignment_and_deletion_of_anything(x):
    x[1:2] = [9]
    del x[::2]
    return x

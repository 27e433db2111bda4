"""A tuple key hashed once for the dict operations of a function (``backends/cython/known_hashes.py``), against
CPython: pure keys (ints, strs, floats with NaN, bools, bytes, None, nested tuples and namedtuples) must find
what ``hash()`` finds; keys whose hash or equality runs Python code must run it exactly as often as CPython does;
dicts, defaultdicts (with and without a factory), dict subclasses, sets, lists and other mappings keep their own
behaviour, errors included."""
from __future__ import annotations

import collections

from hypothesis import given, settings, strategies as st

import moshjit

from moshjit.backends.cython.known_hashes import plan_known_hashes
from moshjit.backends.cython.out_of_ssa import out_of_ssa
from moshjit.backends.cython.plan import EmissionPlan
from moshjit.compiler import typed_ssa
from moshjit.typeof import type_of_key
from tests.cython.agree import jitted, outcome, same

Pair = collections.namedtuple("Pair", "left right")


def memo_walk(keys, memo):
    """``k in memo``, ``memo[k]``, ``memo[k] = …``: three operations on one key."""
    hits = 0
    for k in keys:
        if k in memo:
            hits += memo[k]
        else:
            memo[k] = len(memo)
    return hits, sorted(map(repr, memo.items())) if isinstance(memo, dict) else repr(memo)


def bump(table, key):
    """A read, a store, a read: ``defaultdict``'s ``__missing__`` on the first read of a new key."""
    table[key] = table[key] + 1
    return table[key]


def one_lookup(table, key):
    return table[key]


class Counting:
    """A key part whose hash and equality are Python code: each call is logged."""
    log: list = []

    def __init__(self, n):
        self.n = n

    def __hash__(self):
        Counting.log.append(("hash", self.n))
        return self.n

    def __eq__(self, other):
        Counting.log.append(("eq", self.n))
        return isinstance(other, Counting) and other.n == self.n

    def __repr__(self):
        return f"Counting({self.n})"


class MissingZero(dict):
    def __missing__(self, key):
        return 0


class Reversed(dict):
    def __getitem__(self, key):
        return ("reversed", dict.__getitem__(self, key[::-1]))


leaves = (st.integers(-3, 3) | st.sampled_from(["a", "b", 1.5, -0.0, 0.0, float("nan"), None, True, False, b"x"])
          | st.builds(Counting, st.integers(0, 2)))
keys = st.recursive(leaves, lambda inner: st.tuples(inner, inner) | st.builds(Pair, inner, inner)
                    | st.lists(inner, max_size=2).map(tuple) | st.lists(inner, max_size=1), max_leaves=6)
containers = st.sampled_from(["dict", "defaultdict", "defaultdict-none", "missing-zero", "counter", "set", "list"])


def make(kind):
    return {"dict": dict, "defaultdict": lambda: collections.defaultdict(int),
            "defaultdict-none": lambda: collections.defaultdict(None), "missing-zero": MissingZero,
            "counter": collections.Counter, "set": set, "list": list}[kind]()


def logged(fn, *args):
    Counting.log = []
    result = outcome(fn, *args)
    return result, list(Counting.log)


@settings(max_examples=150, deadline=None)
@given(st.lists(keys, max_size=6), containers)
def test_dict_operations_on_shared_keys_agree_with_cpython(key_list, kind):
    key_list = key_list + key_list[:2]                     # repeated keys find what the first ones stored
    expected = logged(memo_walk, key_list, make(kind))
    assert logged(jitted(memo_walk), key_list, make(kind)) == expected
    for key in key_list[:3]:
        assert logged(jitted(bump), make(kind), key) == logged(bump, make(kind), key)


def test_none_as_the_first_key():
    """The hash holder started as None: a first key None found it "already hashed", the dict got None twice."""
    for keys in ([None, 0, None, 0], [None, None], [(1, None), None, None]):
        assert logged(jitted(memo_walk), keys, {}) == logged(memo_walk, keys, {})


def test_pure_keys_are_found_under_the_hash_cpython_gives_them():
    stored = [(1, 2), Pair(3, (4, "x")), ("a", (1.5, None, True, b"b")), (), ((),), (-1, -2), (2 ** 70, 1)]
    memo = {key: i for i, key in enumerate(stored)}
    assert same(memo_walk, stored, dict(memo)) == ("ok", (sum(range(len(stored))), sorted(map(repr, memo.items()))))
    nan = float("nan")
    key = (nan, 1)
    assert same(memo_walk, [key, key], {}) == outcome(memo_walk, [key, key], {})          # NaN: by identity
    assert outcome(jitted(memo_walk), [key, (nan, 1)], {})[1][0] == 0                     # the same NaN object


def test_missing_keys_raise_cpythons_key_error():
    for table in ({}, collections.defaultdict(None)):
        expected = outcome(bump, dict(table) if type(table) is dict else collections.defaultdict(None), (1, 2))
        assert expected[:2] == ("raise", KeyError) and expected[2] == "(1, 2)"
        assert outcome(jitted(bump), table, (1, 2)) == expected
    assert outcome(jitted(bump), {}, ((1, 2),)) == outcome(bump, {}, ((1, 2),))


def test_subclasses_and_other_containers_keep_their_own_subscript():
    for fresh, key in [(MissingZero, (1, 2)), (lambda: Reversed({(2, 1): 5}), (1, 2)),
                       (collections.Counter, ("a", "b")), (lambda: {(1, 2)}, (1, 2)), (lambda: [(1, 2)], (1, 2))]:
        assert outcome(jitted(bump), fresh(), key) == outcome(bump, fresh(), key)
        assert outcome(jitted(memo_walk), [key, key], fresh()) == outcome(memo_walk, [key, key], fresh())


def test_unhashable_keys_raise_as_cpython_does():
    for key in [([1],), (1, {2: 3}), [1, 2]]:
        assert same(memo_walk, [key], {})[0] == "raise"
        same(bump, {}, key)


def test_keys_with_python_hashes_are_hashed_as_often_as_cpython_hashes_them():
    key = (1, Counting(7))
    assert logged(jitted(memo_walk), [key, key], {}) == logged(memo_walk, [key, key], {})
    assert logged(jitted(bump), collections.defaultdict(int), key) == logged(bump, collections.defaultdict(int),
                                                                            key)


def test_the_hash_is_computed_once_for_the_operations_sharing_a_key():
    walk, lookup = moshjit.jit(memo_walk, backend="cython"), moshjit.jit(one_lookup, backend="cython")
    walk([(1, 2)], {})
    code = str(walk.inspect_code())
    assert code.count("= mj_tuple_hash(") == 3 and code.count("if _mj_hk_") == 3, code   # once per object
    assert "mj_contains_known(a_memo" in code and "mj_setitem_known(a_memo" in code
    lookup({(1, 2): 3}, (1, 2))
    assert "= mj_tuple_hash(" not in str(lookup.inspect_code())        # one operation: nothing to share


def plan_of(fn, *arg_kinds):
    ir = typed_ssa(fn, [type_of_key(k) for k in arg_kinds], assume_globals=False)
    plan = EmissionPlan(ir, out_of_ssa(ir))
    return ir, plan


def test_the_plan_shares_a_key_between_two_or_more_dict_operations_only():
    def shapes(table, key, text, n):
        a = table[key] if key in table else None            # key: two operations
        b = table["k"], table["k"]                          # a constant key: Cython's own code
        c = table[text] if text in table else None          # a str key: the str fast paths
        d = table[n]                                        # one operation
        table[key] = n                                      # key again: three
        return a, b, c, d

    ir, plan = plan_of(shapes, dict, tuple, str, int)
    assert sorted(type(op).__name__ for op in plan.known_hashes) == ["Compare", "GetItem", "SetItem"]
    assert set(plan.known_hashes.values()) == {ir.args[1]}
    ir, plan = plan_of(shapes, list, tuple, str, int)
    assert plan.known_hashes == {}                          # a list: no dict operation
    assert plan_known_hashes(ir, plan.ctype, set(plan.known_hashes)) == {}


def test_a_key_typed_int_takes_no_hash_site():
    """An int of any size (range items of an unknown bound) is never a tuple: no tuple hash is tried for it."""
    def counts(table, n):
        for i in range(n):
            table[i] = table[i] + 1 if i in table else 1
        return table

    ir, plan = plan_of(counts, dict, object)
    assert plan.known_hashes == {}
    assert outcome(jitted(counts), {}, 5) == outcome(counts, {}, 5) == ("ok", {0: 1, 1: 1, 2: 1, 3: 1, 4: 1})


class LoggedKeys(dict):
    def __getitem__(self, key):
        return type(key).__name__, key


def flag_key(table, x):
    return table[x > 0]


def test_a_bool_key_reaches_the_mapping_as_a_bool():
    """Found by the differential test above: a native ``bint`` key was subscripted as a C integer, so a
    ``defaultdict(None)`` raised ``KeyError(1)`` and a ``__getitem__`` saw ``1`` where CPython passes ``True``."""
    assert same(flag_key, LoggedKeys(), 3) == ("ok", ("bool", True))
    assert same(bump, collections.defaultdict(None), True)[:2] == ("raise", KeyError)

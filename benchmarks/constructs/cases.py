"""Constructs of class-heavy library code, one per function: each runs one construct ``n`` times in a loop (a
``with``, a ``try``/``except`` that catches, an f-string, a keyword call, ``super().__init__``, ...) and returns a
value the benchmark compares with CPython's. Written for this benchmark; ``benchmarks/constructs/run.py`` puts
``@jit`` on every def and class of a copy of this file, as a user would."""
import re
from collections import deque

WORD = re.compile(r"[a-z]+")


class Base:
    def __init__(self, a, b=None):
        self.a = a
        self.b = b


class Child(Base):
    KIND = "child"

    def __init__(self, a, b=None, *, c=0):
        super().__init__(a, b=b)
        self.c = c

    def get(self):
        return self.a

    @property
    def prop(self):
        return self.a


class Slotted:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


class Same:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return isinstance(other, Same) and self.v == other.v

    def __hash__(self):
        return hash(self.v)


class Manager:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Node:
    def __init__(self, name, children=None):
        self.name = name
        self.children = children or []

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


class Lazy:
    def __getattr__(self, name):
        return len(name)


def scaled(x, *, scale=1):
    return x * scale


def super_init(n):
    return sum(Child(i, b=i).b for i in range(n))


def construct_positional(n):
    return sum(Base(i, i).a for i in range(n))


def method_call(n):
    o, t = Child(1), 0
    for _ in range(n):
        t += o.get()
    return t


def property_read(n):
    o, t = Child(1), 0
    for _ in range(n):
        t += o.prop
    return t


def attribute_update(n):
    o = Base(0)
    for _ in range(n):
        o.a = o.a + 1
    return o.a


def slots_update(n):
    o = Slotted(0, 0)
    for i in range(n):
        o.x = o.y + i
    return o.x


def class_constant(n):
    o, t = Child(1), 0
    for _ in range(n):
        if o.KIND == "child":
            t += 1
    return t


def isinstance_chain(n):
    items, t = [1, "a", 2.0, None, (1,), [2]], 0
    for _ in range(n):
        for x in items:
            if isinstance(x, str):
                t += 1
            elif isinstance(x, (int, float)):
                t += 2
            elif x is None:
                t += 3
    return t


def type_is(n):
    items, t = [1, "a", 2.0, None], 0
    for _ in range(n):
        for x in items:
            if type(x) is int:
                t += 1
            elif type(x) in (str, bytes):
                t += 2
    return t


def getattr_default(n):
    o, t = Node("a"), 0
    for _ in range(n):
        t += len(getattr(o, "name", "")) + len(getattr(o, "missing", ""))
    return t


def hasattr_check(n):
    o, t = Node("a"), 0
    for _ in range(n):
        if hasattr(o, "children"):
            t += 1
        if hasattr(o, "nope"):
            t += 2
    return t


def getattr_fallback(n):
    o, t = Lazy(), 0
    for _ in range(n):
        t += o.abc
    return t


def custom_eq(n):
    a, b, t = Same(1), Same(1), 0
    for _ in range(n):
        if a == b:
            t += 1
    return t


def dict_get_in(n):
    d, keys, t = {"a": 1, "b": 2, "c": 3}, ["a", "x", "b", "y"], 0
    for _ in range(n):
        for k in keys:
            if k in d:
                t += d[k]
            t += d.get(k, 0)
    return t


def dict_items(n):
    d, t = {str(i): i for i in range(8)}, 0
    for _ in range(n // 8):
        for k, v in d.items():
            t += v + len(k)
    return t


def key_error_caught(n):
    d, t = {}, 0
    for i in range(n):
        try:
            t += d[i]
        except KeyError:
            t += 1
    return t


def with_statement(n):
    manager, t = Manager(), 0
    for i in range(n):
        with manager:
            t += i
    return t


def fstring(n):
    return len([f"{i}:{i * 2}" for i in range(n)])


def percent_format(n):
    return sum(len("%s=%d" % ("k", i)) for i in range(n))


def str_format(n):
    return sum(len("{}={}".format("k", i)) for i in range(n))


def str_methods(n):
    s, t = "Content-Type: text/html; charset=utf-8", 0
    for _ in range(n):
        k, _, v = s.partition(":")
        t += len(k.strip().lower()) + len(v.strip())
    return t


def str_startswith(n):
    lines, t = ["# comment", "key = 1", "  indented", "[section]"], 0
    for _ in range(n // 4):
        for line in lines:
            if line.startswith("#"):
                t += 1
            elif line.startswith("["):
                t += 2
            elif line.strip():
                t += 3
    return t


def string_scan(n):
    s, t = "key=value; other=thing; last=one", 0
    for _ in range(n // 32):
        pos = 0
        while pos < len(s):
            if s[pos] == ";":
                t += 1
            pos += 1
    return t


def in_tuple(n):
    t = 0
    for i in range(n):
        if "abcxyz"[i % 6] in ("a", "b", "c"):
            t += 1
    return t


def bytes_find(n):
    b, t = bytearray(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"), 0
    for _ in range(n):
        end = b.find(b"\r\n")
        t += end + len(b[:end])
    return t


def regex_match(n):
    t = 0
    for _ in range(n):
        m = WORD.match("hello world")
        if m:
            t += m.end()
    return t


def list_build(n):
    t = 0
    for i in range(n):
        xs = [i, i + 1, i + 2]
        xs.append(i)
        t += len(xs)
    return t


def listcomp_filter(n):
    xs, t = list(range(16)), 0
    for _ in range(n // 16):
        t += len([x * 2 for x in xs if x % 3])
    return t


def tuple_unpack_return(n):
    t = 0
    for i in range(n):
        a, b = divmod(i, 7)
        t += a + b
    return t


def keyword_call(n):
    t = 0
    for i in range(n):
        t += scaled(i, scale=2)
    return t


def sorted_key_lambda(n):
    pairs, t = [(3, "c"), (1, "a"), (2, "b"), (5, "e"), (4, "d")], 0
    for _ in range(n // 5):
        t += sorted(pairs, key=lambda p: p[1])[0][0]
    return t


def sum_generator(n):
    return sum(sum(x for x in range(10)) for _ in range(n // 10))


def any_generator(n):
    xs, t = [1, 3, 5, 6, 7], 0
    for _ in range(n // 5):
        if any(x % 2 == 0 for x in xs):
            t += 1
    return t


def tree_walk(n):
    root, t = Node("r", [Node("a", [Node("b"), Node("c")]), Node("d")]), 0
    for _ in range(n // 5):
        for node in root.walk():
            t += len(node.name)
    return t


def enumerate_zip(n):
    a, b, t = list(range(8)), list(range(8, 16)), 0
    for _ in range(n // 8):
        for j, (x, y) in enumerate(zip(a, b)):
            t += j + x * y
    return t


def deque_queue(n):
    q, t = deque(), 0
    for i in range(n):
        q.append(i)
        if len(q) > 4:
            t += q.popleft()
    return t


class Bitboards:
    """python-chess's board: one int per piece kind, bit 63 set (a long long cannot hold them)."""

    def __init__(self):
        self.occupied = (1 << 64) - 1 - (0xFFFF << 16)
        self.pawns = (0xFF << 8) | (0xFF << 48)

    def toggle(self, square):
        mask = 1 << square
        if self.occupied & mask:
            self.pawns ^= mask
            self.occupied &= ~mask
        else:
            self.occupied |= mask
        return self.occupied & self.pawns


def bitboard_masks(n):
    board, t = Bitboards(), 0
    for i in range(n):
        t ^= board.toggle(i % 64)
    return t


MASK64 = (1 << 64) - 1


def fnv1a_64(n):
    """64-bit FNV-1a over bytes: each product past 64 bits, masked back."""
    data, h = bytes(range(256)) * (n // 256 + 1), 0xCBF29CE484222325
    for b in data[:n]:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def xorshift_64(n):
    """Marsaglia's xorshift64: shifts masked to 64 bits by a module constant."""
    x, t = 88172645463325252, 0
    for _ in range(n):
        x ^= (x << 13) & MASK64
        x ^= x >> 7
        x ^= (x << 17) & MASK64
        t ^= x
    return t


def lcg_64(n):
    """Knuth's MMIX 64-bit LCG (PCG's state step): a product and a sum, masked."""
    state, t = 42, 0
    for _ in range(n):
        state = (state * 6364136223846793005 + 1442695040888963407) & MASK64
        t ^= state >> 33
    return t


def rolling_hash(n):
    """A Rabin-Karp rolling hash modulo the Mersenne prime 2**61 - 1: each product past int64, reduced."""
    text, h, t = "the quick brown fox " * (n // 20 + 1), 0, 0
    for ch in text[:n]:
        h = (h * 1000003 + ord(ch)) % 2305843009213693951
        t ^= h
    return t


CASES = [super_init, construct_positional, method_call, property_read, attribute_update, slots_update,
         class_constant, isinstance_chain, type_is, getattr_default, hasattr_check, getattr_fallback, custom_eq,
         dict_get_in, dict_items, key_error_caught, with_statement, fstring, percent_format, str_format, str_methods,
         str_startswith, string_scan, in_tuple, bytes_find, regex_match, list_build, listcomp_filter,
         tuple_unpack_return, keyword_call, sorted_key_lambda, sum_generator, any_generator, tree_walk,
         enumerate_zip, deque_queue, bitboard_masks, fnv1a_64, xorshift_64, lcg_64,
         rolling_hash]

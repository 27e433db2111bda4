"""``@jit`` on a class, and jitted methods as method descriptors: every method the class body defines is compiled
(plain methods, dunders, and the functions behind staticmethod/classmethod/property), the class behaves as the
plain one does — also when attributes change type, for subclass instances, when the class is patched after
compiling, with ``__getattr__`` and ``__slots__`` — and ``obj.method(x)`` calls the dispatcher with ``obj`` first
without a bound method in between."""
from __future__ import annotations

import math

import os
import re
import sys
import types
import typing

import pytest
from hypothesis import given, settings, strategies as hs

import moshjit
from moshjit import dispatcher as dispatch
from tests.cython.ir_exec import outcome

jit = moshjit.jit
METHOD_DESCRIPTOR = 1 << 17          # Py_TPFLAGS_METHOD_DESCRIPTOR
IMMUTABLE_TYPE = 1 << 8              # Py_TPFLAGS_IMMUTABLETYPE


def make_classes():
    """A fresh copy of a small class hierarchy (one copy stays plain, one gets @jit)."""

    class Account:
        rate = 2

        def __init__(self, owner, balance=0):
            self.owner = owner
            self.balance = balance

        def deposit(self, amount, fee=1):
            self.balance = self.balance + amount - fee
            return self.balance

        def interest(self):
            return self.balance * self.rate

        def twice_interest(self):
            return self.interest() + self.interest()

        @property
        def label(self):
            return self.owner + ":" + str(self.balance)

        @staticmethod
        def fee_for(amount):
            return amount // 10 if amount > 100 else 1

        @classmethod
        def opened_by(cls, owner):
            return cls(owner, cls.rate)

        def __eq__(self, other):
            return isinstance(other, Account) and self.balance == other.balance

        __hash__ = None

    class Savings(Account):
        rate = 3

        def interest(self):
            return super().interest() + 1

    class Slotted:
        __slots__ = ("x", "y")

        def total(self):
            return self.x + self.y

    class Dynamic:
        def __getattr__(self, name):
            if name.startswith("auto_"):
                return name[5:]
            raise AttributeError(name)

        def read(self, which):
            return self.auto_value if which else self.missing

    return Account, Savings, Slotted, Dynamic


PLAIN = make_classes()
JITTED = tuple(jit(cls, backend="cython") for cls in make_classes())


def exercise_accounts(Account, Savings, owner, amount, balance):
    """A run over every member kind of the account classes, returning everything it observed (errors included)."""
    seen = []
    a = Account(owner, balance)
    s = Savings.opened_by(owner)
    seen.append(outcome(lambda: a.deposit(amount)))
    seen.append(outcome(lambda: a.deposit(amount, fee=0)))
    seen.append(outcome(lambda: Account.deposit(a, amount)))
    seen.append(outcome(a.interest))
    seen.append(outcome(s.interest))
    seen.append(outcome(s.twice_interest))
    seen.append(outcome(lambda: Account.twice_interest(s)))        # a subclass instance in a base method
    seen.append(outcome(lambda: a.label))
    seen.append(outcome(lambda: (Account.fee_for(amount), a.fee_for(amount))))
    seen.append(outcome(lambda: (a == s, a == Account(owner, a.balance), a == 1)))
    seen.append(outcome(lambda: hash(a)))
    seen.append(outcome(lambda: a.deposit()))                        # CPython's binding error
    return seen


def exercise_layouts(Slotted, Dynamic, x, y):
    """``__slots__`` (an unset slot, a missing attribute) and ``__getattr__``."""
    seen = []
    p = Slotted()
    p.x = x
    seen.append(outcome(p.total))                                  # unset slot: AttributeError
    p.y = y
    seen.append(outcome(p.total))
    seen.append(outcome(lambda: setattr(p, "z", 1)))
    d = Dynamic()
    seen.append(outcome(lambda: d.read(True)))
    seen.append(outcome(lambda: d.read(False)))
    return seen


values = hs.integers(-2 ** 70, 2 ** 70) | hs.floats(allow_nan=False) | hs.text(max_size=3) | hs.none()


@settings(max_examples=60, deadline=None)
@given(hs.text(max_size=4), values, values)
def test_jitted_classes_behave_like_the_plain_ones(owner, amount, balance):
    assert comparable(exercise_accounts(*JITTED[:2], owner, amount, balance)) == \
        comparable(exercise_accounts(*PLAIN[:2], owner, amount, balance))


def comparable(value):
    """``value`` with every NaN replaced by a marker, so NaN results (inf - inf) compare equal to themselves."""
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if isinstance(value, (tuple, list)):
        return type(value)(comparable(item) for item in value)
    return value


@settings(max_examples=60, deadline=None)
@given(values, values)
def test_slots_and_getattr_behave_like_the_plain_ones(x, y):
    assert exercise_layouts(*JITTED[2:], x, y) == exercise_layouts(*PLAIN[2:], x, y)


def test_every_function_of_the_class_body_is_jitted_and_nothing_else():
    Account, Savings, Slotted, Dynamic = JITTED
    members = vars(Account)
    for name in ("__init__", "deposit", "interest", "twice_interest", "__eq__"):
        assert isinstance(members[name], dispatch.DispatcherBase), name
    assert isinstance(members["fee_for"].__func__, dispatch.DispatcherBase)
    assert isinstance(members["opened_by"].__func__, dispatch.DispatcherBase)
    assert isinstance(members["label"].fget, dispatch.DispatcherBase)
    assert members["__hash__"] is None and members["rate"] == 2
    assert isinstance(vars(Savings)["interest"], dispatch.DispatcherBase)
    assert "deposit" not in vars(Savings)                          # inherited methods stay where they are
    assert Account.__name__ == "Account" and Account.deposit.py_func.__qualname__.endswith("Account.deposit")


def protocol_checks(jitted: bool):
    """isinstance against runtime-checkable protocols (pyperformance's typing_runtime_protocols): ``Protocol``
    puts typing's own ``__subclasshook__`` and ``__init__`` into each protocol class; ``jit(cls)`` must leave
    them alone (the hook counts its callers' frames: jitted, it raised TypeError where CPython returns False)."""
    from typing import Protocol, runtime_checkable

    decorate = (lambda cls: jit(cls, backend="cython")) if jitted else (lambda cls: cls)

    @decorate
    @runtime_checkable
    class HasX(Protocol):
        x: int

    @decorate
    @runtime_checkable
    class SupportsLen(Protocol):
        def __len__(self) -> int: ...

    @decorate
    class WithX:
        def __init__(self):
            self.x = 1

        def __len__(self):
            return self.x

    members = {name: type(getattr(value, "__func__", value)).__name__ for name, value in vars(HasX).items()
               if callable(getattr(value, "__func__", value))}
    return members, [isinstance(value, protocol) for protocol in (HasX, SupportsLen)
                     for value in (WithX(), object(), [1], "s", 3)]


def test_functions_other_modules_put_into_a_class_stay_plain():
    members, checks = protocol_checks(jitted=True)
    assert (members, checks) == protocol_checks(jitted=False)
    assert "__subclasshook__" in members and set(members.values()) == {"function"}


def test_a_named_tuples_machinery_stays_plain_its_own_methods_and_dataclass_methods_compile():
    """``collections.namedtuple`` gives its ``__new__``, ``_make``, ``_replace`` the class's qualnames; compiled,
    every construction went through a dispatcher to an entry unboxing what ``tuple.__new__`` boxes again: library
    machinery compiled for no gain. ``dataclasses`` writes ``__init__`` in the class's module: that one is the
    class's code. A class presented under its package's top-level name keeps its methods compiled."""
    import dataclasses

    @jit
    class Point(typing.NamedTuple):
        x: int
        y: str

        def doubled(self):
            return self.x * 2

    @jit
    @dataclasses.dataclass
    class Pair:
        a: int

        def twice(self):
            return self.a * 2

    class Presented:
        def size(self):
            return 3
    Presented.__module__ = __name__.partition(".")[0]           # as numpy shows its classes as ``numpy.X``
    jit(Presented)

    def compiled(cls) -> set:
        return {name for name, value in vars(cls).items()
                if isinstance(getattr(value, "__func__", value), dispatch.DispatcherBase)}

    assert compiled(Point) == {"doubled"}
    assert compiled(Pair) >= {"__init__", "twice"} and compiled(Presented) == {"size"}
    assert Point(2, "s").doubled() == 4 and Point._make([1, "t"]) == (1, "t") and Point(1, "u")._replace(x=5).x == 5
    assert Pair(3).twice() == 6 and Presented().size() == 3


def test_attributes_that_change_type_and_a_patched_class():
    Account = jit(make_classes()[0], backend="cython")
    plain = make_classes()[0]
    for cls in (Account, plain):
        a = cls("o", 1)
        first = [a.deposit(2), a.interest()]
        a.balance = 2.5                                              # int -> float
        first.append(a.interest())
        a.balance = "ab"                                             # -> str: * still works, - raises
        first += [a.interest(), outcome(lambda: a.deposit(1))]
        cls.rate = 10                                                # a class attribute patched
        a.balance = 3
        first.append(a.interest())
        cls.interest = lambda self: -1                               # a method replaced after compiling
        first.append(a.twice_interest())
        del cls.interest
        first.append(outcome(a.twice_interest))                      # the method is gone now
        cls.results = first
    assert Account.results == plain.results


def test_jitted_methods_are_method_descriptors():
    Account = JITTED[0]
    a = Account("o", 5)
    bound = a.deposit
    assert isinstance(bound, types.MethodType) and bound.__self__ is a and bound.__func__ is vars(Account)["deposit"]
    assert Account.deposit is vars(Account)["deposit"]              # on the class: the dispatcher itself
    assert bound(1) == 5
    if os.environ.get("MOSHJIT_PURE_DISPATCH", "") in ("", "0"):
        assert type(vars(Account)["deposit"]).__flags__ & METHOD_DESCRIPTOR
        assert dispatch.dispatcher_class().__flags__ & IMMUTABLE_TYPE        # lets CPython specialise obj.method()


def test_jit_on_a_method_still_works_and_binds_with_both_cores():
    def scaled(self, k):
        return self.balance * k

    for core in ("compiled", "pure"):
        Account = make_classes()[0]
        if core == "pure":
            cls = type("PureDispatcher", (dispatch.DispatcherBase, dispatch.PyDispatcherCore), {})
            Account.scaled = cls(scaled, backend="cython")
        else:
            Account.scaled = jit(scaled, backend="cython")
        a = Account("o", 4)
        assert a.scaled(3) == 12 and Account.scaled(a, 2) == 8 and a.scaled(k=1) == 4
        assert outcome(lambda: a.scaled()) == outcome(lambda: scaled(a))


def test_an_llvm_method_takes_its_native_path_from_the_descriptor_too():
    class Counter:
        @jit
        def step(self, n):
            total = 0
            for i in range(n):
                total += i
            return total

    c = Counter()
    assert c.step(10) == 45 and Counter.step(c, 3) == 3 and c.step(n=4) == 6 and c.step(2 ** 40 // 2 ** 38) == 6
    assert outcome(lambda: c.step()) == outcome(lambda: Counter.step.py_func(c))
    assert outcome(lambda: c.step("x")) == outcome(lambda: Counter.step.py_func(c, "x"))


def test_signatures_are_refused_on_a_class():
    with pytest.raises(ValueError, match="on a class"):
        jit(signatures=[(int,)])(make_classes()[0])


def count_up(n):
    total = 0
    for i in range(n):
        total += i
    return total


def test_the_native_entry_never_replaces_a_subclass_call():
    """The LLVM entry that positional calls try first is the core's own; a subclass's ``__call__`` still runs."""
    cores = [dispatch.PyDispatcherCore, dispatch.dispatcher_class().__mro__[-2]]
    for core in cores:
        class Logged(dispatch.DispatcherBase, core):
            def __call__(self, *args, **kwargs):
                return "logged", core.__call__(self, *args, **kwargs)

        logged = Logged(count_up, backend="llvm")
        assert logged(4) == ("logged", 6) and logged(5) == ("logged", 10) and logged(n=3) == ("logged", 3)
        plain = type("Plain", (dispatch.DispatcherBase, core), {})(count_up, backend="llvm")
        assert plain(4) == 6 and plain(5) == 10 and plain(n=3) == 3
        assert outcome(lambda: plain()) == outcome(lambda: count_up())


def make_walker():
    class Walker:
        def down(self, n):                                # floats: the argument's kind is known, the call direct
            return 0 if n <= 0 else 1 + self.down(n - 1.0)

        def step(self, a, b, c, d, e, f, g, h):          # nine with the receiver: more than a site's C array
            return a if h <= 0 else self.step(a + b, b, c, d, e, f, g, h - 1.0)
    return Walker


def test_direct_method_calls_count_python_frames():
    """``self.down(n - 1.0)`` goes straight to the compiled entry (``mj_entry_call``) and counts one Python frame
    per call, so recursion stops with ``RecursionError`` near CPython's limit, not at C's; a call with more
    arguments than the C macros take keeps the Cython call."""
    fast, plain = jit(make_walker(), backend="cython")(), make_walker()()
    assert fast.down(100.0) == plain.down(100.0) == 100
    args = (1.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.0)
    assert fast.step(*args) == plain.step(*args) == 11.0
    assert "mj_entry_call2(" in str(type(fast).down.inspect_code())
    step_code = str(type(fast).step.inspect_code())
    assert "mj_method_is(a_self, 'step'" in step_code and re.search(r"\(_k\d+\(a_self, ", step_code)
    limit = sys.getrecursionlimit()
    for walker in (plain, fast):
        assert walker.down(limit / 2) == limit // 2
        with pytest.raises(RecursionError):
            walker.down(limit + 10.0)


def test_a_property_named_like_a_class_field_stays_the_classs():
    """toolz's ``Compose`` has a ``__name__`` property for its instances: ``setattr(cls, "__name__", ...)`` would
    rename the class (``TypeError``, a property is not a str), so ``jit(cls)`` leaves that member as it is and
    compiles the rest."""
    class Compose:
        __slots__ = ("funcs",)

        def __init__(self, *funcs):
            self.funcs = funcs

        def __call__(self, value):
            for func in reversed(self.funcs):
                value = func(value)
            return value

        @property
        def __name__(self):
            return "_of_".join(f.__name__ for f in self.funcs)

    plain = (Compose(str, len)("abc"), Compose(str, len).__name__)
    assert moshjit.jit(Compose) is Compose and Compose.__name__ == "Compose"
    assert type(vars(Compose)["__name__"]) is property and vars(Compose)["__name__"].fget.__qualname__.endswith(
        "Compose.__name__")
    assert hasattr(vars(Compose)["__call__"], "inspect_code")
    assert (Compose(str, len)("abc"), Compose(str, len).__name__) == plain == ("3", "str_of_len")

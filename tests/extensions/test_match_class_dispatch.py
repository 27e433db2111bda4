"""The class tests at the top of a match answered by one lookup (``runtime.ClassDispatch``, ``k = dispatch[s]``):
when it answers, that it could not be observed, checked on the dispatch itself and through generated code against
CPython's own ``match`` in the same module — subclasses, a class in two names, a metaclass with
``__instancecheck__``, a subject type whose ``__class__`` or ``__getattribute__`` runs code, ``__match_args__``
changed, class names rebound and the subject's ``__class__`` assigned between matches (hypothesis drives the
changes and subjects)."""
from __future__ import annotations

import functools
import pickle
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import moshjit
from moshjit import match_reference
from moshjit.extensions import rewrite_source, runtime
from tests.extensions.helpers import run_extended

COMPILED = runtime.ClassDispatch is not runtime.PyClassDispatch


def test_the_compiled_dispatch_is_the_one_generated_code_uses():
    assert runtime.ClassDispatch.__module__ == "moshjit.runtime.moshjit_match"  # built by `make venv`


class A:
    __match_args__ = ("a",)

    def __init__(self, a=0):
        self.a = a


class B:
    pass


class SubA(A):
    pass


class Both(A, B):
    pass


class Meta(type):
    def __instancecheck__(cls, instance):
        return False


class WithMeta(metaclass=Meta):
    pass


class ClassProperty:
    @property
    def __class__(self):
        return B


@pytest.mark.skipif(not COMPILED, reason="the compiled runtime is not built")
def test_answers_only_for_exact_types_whose_other_tests_cannot_be_observed():
    site = runtime.ArgsSite(("a",), match_reference.NO_MATCH_ARGS)
    namespace = {"A": A, "B": B, "ClassProperty": ClassProperty}
    dispatch = runtime.ClassDispatch(namespace, ("A", "B", "ClassProperty"), (site, None, None))
    assert dispatch[B()] == 2
    assert dispatch[A()] == 0  # A's guard has not admitted A yet
    assert site.read(A) is True and site.read(A) is True and A in site
    assert dispatch[A()] == 1
    assert dispatch[SubA()] == 0  # a subclass: isinstance is true for a class not its own
    assert dispatch[ClassProperty()] == 0  # a failing isinstance would read its __class__ property
    assert dispatch[3] == 0 and dispatch[None] == 0
    namespace["B"] = A  # one class in two names: its instances pass two isinstance tests
    assert dispatch[A()] == 0 and dispatch[B()] == 0
    namespace["B"] = B
    assert dispatch[A()] == 1
    A.__match_args__ = ("a",)  # a new version tag: the guard reads again before the dispatch answers
    assert dispatch[A()] == 0 and site.read(A) is True and site.read(A) is True and dispatch[A()] == 1
    namespace["B"] = WithMeta  # a metaclass other than type: its __instancecheck__ must run
    assert dispatch[A()] == 0
    del namespace["B"]
    assert dispatch[A()] == 0


@pytest.mark.skipif(not COMPILED, reason="the compiled runtime is not built")
def test_a_subject_type_changed_after_a_dispatch_is_decided_again():
    namespace = {"A": A, "B": B}
    dispatch = runtime.ClassDispatch(namespace, ("B", "A"), (None, None))

    class Root:
        pass

    class Late(Root):
        pass
    namespace["A"] = Late
    assert dispatch[Late()] == 2
    Late.__getattribute__ = lambda self, name: object.__getattribute__(self, name)  # a failing isinstance runs it
    assert dispatch[Late()] == 0
    del Late.__getattribute__
    assert dispatch[Late()] == 2
    Late.__bases__ = (B,)  # now an instance of B too
    assert dispatch[Late()] == 0


def test_guards_must_be_sites():
    with pytest.raises(TypeError):
        runtime.ClassDispatch({}, ("A",), (object(),))
    with pytest.raises(ValueError):
        runtime.ClassDispatch({}, tuple("ABCDEFGHI"), (None,) * 9)


@pytest.mark.skipif(not COMPILED, reason="the compiled runtime is not built")
def test_globals_of_a_dict_subclass_are_never_answered_for():
    class Namespace(dict):
        def __getitem__(self, name):  # what LOAD_GLOBAL would call
            return A

    assert runtime.ClassDispatch(Namespace(B=B), ("B",), (None,))[B()] == 0
    assert runtime.ClassDispatch(dict(A=A, B=B), ("A", "B"), (None, None))[B()] == 2


def test_a_pickled_dispatch_never_answers():
    site = runtime.ArgsSite(("a",), match_reference.NO_MATCH_ARGS)
    copy = pickle.loads(pickle.dumps(runtime.ClassDispatch({"B": B}, ("B",), (site,))))
    assert copy[B()] == 0 and copy.names == ("B",)


SOURCE = '''
from dataclasses import dataclass

LOG = []

class Meta(type):
    def __instancecheck__(cls, instance):
        LOG.append(("instancecheck", cls.__name__))
        return type.__instancecheck__(cls, instance)

@dataclass
class Num:
    value: object

@dataclass
class Add:
    left: object
    right: object

@dataclass
class Neg:
    operand: object

class SubNum(Num):
    pass

@dataclass
class Other:
    value: object

@dataclass
class WithMeta(metaclass=Meta):
    value: object

class Watched:
    """Reads of its attributes are logged (a failing isinstance reads __class__)."""
    __match_args__ = ("value",)
    def __init__(self, value):
        object.__setattr__(self, "value", value)
    def __getattribute__(self, name):
        LOG.append(("read", name))
        return object.__getattribute__(self, name)

def ours(s):
    with match(s):
        if Num(0):
            return ("zero",)
        if Num(v):
            return ("num", v)
        if Add(Num(a), Num(b)):
            return ("add nums", a, b)
        if Add(l, r):
            return ("add", l, r)
        if Neg(operand=e):
            return ("neg", e)
        if _:
            return ("other",)

def theirs(s):
    match s:
        case Num(0):
            return ("zero",)
        case Num(v):
            return ("num", v)
        case Add(Num(a), Num(b)):
            return ("add nums", a, b)
        case Add(l, r):
            return ("add", l, r)
        case Neg(operand=e):
            return ("neg", e)
        case _:
            return ("other",)
'''

ORIGINAL = ("Num", "Add", "Neg")


def _outcome(ns, fn, subject):
    ns["LOG"].clear()
    try:
        result = fn(subject)
    except Exception as error:
        result = ("raised", type(error).__name__, str(error))
    return result, set(ns["LOG"])  # the tree makes each call at most once where CPython may repeat it


def _subject(ns, kind: str, value: int):
    classes = {**ns, **ns["_original"]}  # instances of the classes the file defined, whatever the names hold now
    if kind in ("Add", "Neg"):
        parts = (classes["Num"](value), classes["Num"](value + 1))
        return classes[kind](*parts) if kind == "Add" else classes[kind](parts[0])
    return classes[kind](value) if kind != "int" else value


def _change(ns, change: str) -> None:
    if change == "rebind Num to Other":
        ns["Num"] = ns["Other"]
    elif change == "rebind Add to WithMeta":
        ns["Add"] = ns["WithMeta"]
    elif change == "rebind Neg to Watched":
        ns["Neg"] = ns["Watched"]
    elif change == "restore names":
        for name in ORIGINAL:
            ns[name] = ns["_original"][name]
    elif change == "swap Num's match args":
        ns["_original"]["Num"].__match_args__ = ("missing",)
    elif change == "restore Num's match args":
        ns["_original"]["Num"].__match_args__ = ("value",)
    elif change == "Add reads through __getattribute__":
        ns["_original"]["Add"].__getattribute__ = lambda self, name: (
            ns["LOG"].append(("add read", name)), object.__getattribute__(self, name))[1]
    elif change == "Add reads plainly":
        if "__getattribute__" in ns["_original"]["Add"].__dict__:
            del ns["_original"]["Add"].__getattribute__
    elif change == "SubNum becomes a Neg":
        ns["SubNum"].__bases__ = (ns["_original"]["Neg"],)
    else:
        raise AssertionError(change)


KINDS = ["Num", "Add", "Neg", "SubNum", "Other", "WithMeta", "Watched", "int"]
CHANGES = ["rebind Num to Other", "rebind Add to WithMeta", "rebind Neg to Watched", "restore names",
           "swap Num's match args", "restore Num's match args", "Add reads through __getattribute__",
           "Add reads plainly", "SubNum becomes a Neg"]


@functools.lru_cache(maxsize=1)
def _rewritten():
    tree = rewrite_source(textwrap.dedent(SOURCE), "<class-dispatch>", {"pattern-matching": {}}).tree
    return compile(tree, "<class-dispatch>", "exec", dont_inherit=True)


def _program() -> dict:
    """A fresh run of the rewritten SOURCE (new classes, new dispatch)."""
    ns = {"__name__": "class_dispatch_program"}
    exec(_rewritten(), ns)
    ns["_original"] = {name: ns[name] for name in ORIGINAL}
    return ns


def test_the_match_is_dispatched():
    ns = _program()
    [dispatch] = _dispatches(ns, "ours")
    assert dispatch.names == ("Num", "Add", "Neg")
    subject = ns["Num"](1)
    for _ in range(3):
        assert ns["ours"](subject) == ns["theirs"](subject) == ("num", 1)
    assert dispatch[subject] == (1 if COMPILED else 0)  # the guard admitted Num: the dispatch answers


def programs(max_size):
    """Matches of subjects of each kind interleaved with changes to the classes and the module's globals."""
    return st.lists(st.one_of(st.tuples(st.just("match"), st.sampled_from(KINDS), st.integers(0, 2)),
                              st.tuples(st.just("change"), st.sampled_from(CHANGES))), min_size=1, max_size=max_size)


def _agree_across_changes(ns, ours, program):
    """Run ``program``: each subject matched three times by ``ours`` and by CPython's ``match`` (the first matches
    read and admit, later ones are answered by the dispatch); the classes are restored at the end."""
    try:
        for step in program:
            if step[0] == "change":
                _change(ns, step[1])
                continue
            subject = _subject(ns, step[1], step[2])
            for _ in range(3):
                assert _outcome(ns, ours, subject) == _outcome(ns, ns["theirs"], subject), (program, step)
    finally:
        _change(ns, "Add reads plainly")
        _change(ns, "restore Num's match args")


@settings(max_examples=60, deadline=None)
@given(programs(25))
def test_dispatched_matches_agree_with_cpython_across_changes(program):
    ns = _program()
    _agree_across_changes(ns, ns["ours"], program)


def _compiled_ours(ns):
    """``ours`` compiled (strictly) with ``ns`` as its globals: its tree calls the dispatch's C method."""
    return moshjit.jit(ns["ours"], strict=True)


@pytest.mark.skipif(not COMPILED, reason="the compiled runtime is not built")
def test_a_compiled_tree_calls_the_dispatch_as_c():
    from moshjit.backends.cython.generate import generate_pyx
    from moshjit.compiler import typed_ssa
    from moshjit.ir.types import OBJECT

    ns = _program()
    fn = typed_ssa(ns["ours"], [OBJECT], assume_globals=False)
    pyx = generate_pyx(fn, "ours")[0]
    assert "from moshjit.runtime.moshjit_match cimport ClassDispatch as _MjClassDispatch" in pyx
    assert ").index(a_s)" in pyx and "cdef Py_ssize_t" in pyx


@settings(max_examples=30, deadline=None)
@given(programs(15))
def test_compiled_dispatched_matches_agree_with_cpython_across_changes(program):
    """The same under ``@jit``: subclasses, a metaclass with ``__instancecheck__``, rebound class names (module
    globals changed), ``__match_args__`` swapped (the guard of ``Num``'s patterns) and classes changed."""
    ns = _program()
    _agree_across_changes(ns, _compiled_ours(ns), program)


LOCAL_SOURCE = '''
from dataclasses import dataclass

@dataclass
class Num:
    value: object

@dataclass
class Add:
    left: object
    right: object

def shadowed(s, Num=Add):
    with match(s):
        if Num(v):
            return ("first", v)
        if Add(l, r):
            return ("add", l, r)
        if _:
            return ("other",)

def guarded(s):
    with match(s):
        if Num(v) and when(v > 0):
            return ("positive", v)
        if Add(l, r):
            return ("add", l, r)
        if _:
            return ("other",)
'''


def _dispatches(ns, function) -> list:
    return [ns[name] for name in ns[function].__code__.co_names
            if name.startswith("_mj_ma") and isinstance(ns[name], runtime.ClassDispatch)]


def test_local_class_names_and_guards_are_not_dispatched():
    """A class name the function binds itself is not the module global; a guard runs user code between the
    class tests, which CPython's later tests would see: neither is dispatched on."""
    ns = run_extended(LOCAL_SOURCE, active={"pattern-matching": {}}, filename="<class-dispatch-local>")
    assert [dispatch.names for dispatch in _dispatches(ns, "shadowed")] == [("Add",)]  # guarded: worth it alone
    assert _dispatches(ns, "guarded") == []
    assert ns["shadowed"](ns["Add"](1, 2)) == ("first", 1)
    assert ns["guarded"](ns["Num"](1)) == ("positive", 1)

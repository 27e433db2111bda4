"""What a call reads from a function object at run time — its ``__defaults__``, ``__kwdefaults__`` and
``__code__`` — assigned after ``@jit`` compiled code that used them, against CPython on every backend: the jitted
function's own defaults (bound by the dispatcher's C binder, its Python binder, a method site), a helper inlined
into a jitted caller, a helper whose defaults completed a call when compiling, a helper whose return type typed
its caller, and the jitted function's own code. Each world is a module namespace of its own, run plainly and
jitted; random sequences of changes and calls (hypothesis) must give the same observations."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as hs

import moshjit

SOURCE = '''
def helper(x, k=3):
    return x * k

def helper_text(x, k=3):
    return str(x) + "!"

def keyword_helper(x, *, k=2):
    return x + k

def use_helper(x):
    return helper(x) + 1

def use_keyword_helper(x):
    return keyword_helper(x) * 10

def typed_by_helper(x):
    y = helper(x)
    return y + y

def own_defaults(a, b=1, c=2):
    return a * 100 + b * 10 + c

def varargs(a, b=5, *rest, k=7):
    return (a, b, rest, k)

class Point:
    def __init__(self, x):
        self.x = x
    def scaled(self, factor=2):
        return self.x * factor

def call_method(p):
    return p.scaled() + p.scaled(3)
'''

BACKENDS = ("cython", "auto")       # "llvm" alone refuses a call that binds no longer: test_llvm_... below


def world(backend: str | None) -> dict:
    """A fresh namespace of SOURCE; with ``backend``, its functions jitted (the class with ``jit(cls)``)."""
    namespace: dict = {"__name__": f"function_state_{backend}"}
    exec(compile(SOURCE, f"<function_state_{backend}>", "exec"), namespace)
    if backend is not None:
        for name in ("use_helper", "use_keyword_helper", "typed_by_helper", "own_defaults", "varargs",
                     "call_method"):
            namespace[name] = moshjit.jit(namespace[name], backend=backend)
        namespace["Point"] = moshjit.jit(namespace["Point"])
    return namespace


def plain_function(value):
    """The Python function behind a namespace entry (what a user changes)."""
    return getattr(value, "py_func", value)


def observe(ns: dict, backend: str | None) -> list:
    """Every call whose result depends on what the functions read at run time (what ``backend`` compiles)."""
    calls = [lambda: ns["use_helper"](4), lambda: ns["use_keyword_helper"](1), lambda: ns["typed_by_helper"](3),
             lambda: ns["own_defaults"](1), lambda: ns["own_defaults"](1, c=9), lambda: ns["own_defaults"](a=2),
             lambda: ns["varargs"](1), lambda: ns["varargs"](1, 2, 3)]
    calls.append(lambda: ns["call_method"](ns["Point"](5)))
    out = []
    for call in calls:
        try:
            out.append(call())
        except TypeError as exc:
            out.append(("TypeError", str(exc)))
    return out


def change(ns: dict, step: int) -> None:
    """One change a user may make to a function object after it was compiled (through the jitted object where
    the user holds that one)."""
    helper = plain_function(ns["helper"])
    if step == 0:
        helper.__defaults__ = (5,)
    elif step == 1:
        helper.__defaults__ = None                                  # k now required: TypeError
    elif step == 2:
        helper.__code__ = ns["helper_text"].__code__               # returns a str: retypes typed_by_helper
    elif step == 3:
        plain_function(ns["keyword_helper"]).__kwdefaults__["k"] = 40       # in place
    elif step == 4:
        ns["own_defaults"].__defaults__ = (7, 8)                   # the jitted function's own, via the dispatcher
    elif step == 5:
        ns["own_defaults"].__defaults__ = (9,)                     # now a is required, b only
    elif step == 6:
        ns["varargs"].__kwdefaults__ = {"k": "changed"}
    elif step == 7:
        method = vars(ns["Point"])["scaled"]
        method.__defaults__ = (11,)


def restore(ns: dict) -> None:
    """Undo ``change`` (worlds are reused: compiling them afresh per example would take minutes)."""
    fresh: dict = {}
    exec(compile(SOURCE, "<function_state_original>", "exec"), fresh)
    for name in ("helper", "keyword_helper", "own_defaults", "varargs"):
        target, original = plain_function(ns[name]), fresh[name]
        target.__code__, target.__defaults__ = original.__code__, original.__defaults__
        target.__kwdefaults__ = None if original.__kwdefaults__ is None else dict(original.__kwdefaults__)
    plain_function(vars(ns["Point"])["scaled"]).__defaults__ = (2,)


WORLDS: dict = {}


def run_program(steps, backend: str, jitted: bool) -> list:
    """The observations of ``steps`` in the world of ``backend``, jitted or plain (the oracle)."""
    ns = WORLDS.get((backend, jitted))
    if ns is None:
        ns = WORLDS[backend, jitted] = world(backend if jitted else None)
    restore(ns)
    seen = [observe(ns, backend)]
    for step in steps:
        change(ns, step)
        seen.append(observe(ns, backend))
    return seen


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("step", range(8))
def test_each_change_after_compiling_is_seen(backend, step):
    assert run_program([step], backend, True) == run_program([step], backend, False)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=10, deadline=None)
@given(steps=hs.lists(hs.integers(0, 7), min_size=1, max_size=6))
def test_random_sequences_of_changes_agree_with_cpython(backend, steps):
    assert run_program(steps, backend, True) == run_program(steps, backend, False)


def test_the_jitted_function_reads_and_writes_its_plain_functions_defaults():
    def f(a, b=1, *, c=2):
        return a + b + c

    jitted = moshjit.jit(f)
    assert jitted.__defaults__ == (1,) and jitted.__kwdefaults__ == {"c": 2}
    jitted.__defaults__ = (10,)
    assert f.__defaults__ == (10,) and jitted(1) == f(1) == 13
    with pytest.raises(TypeError) as jitted_error:
        jitted.__defaults__ = [1]
    with pytest.raises(TypeError) as plain_error:
        f.__defaults__ = [1]
    assert str(jitted_error.value) == str(plain_error.value)
    del jitted.__kwdefaults__
    assert f.__kwdefaults__ is None
    with pytest.raises(TypeError) as missing:
        jitted(1)
    assert "missing 1 required keyword-only argument: 'c'" in str(missing.value)


def test_a_helper_whose_defaults_keep_changing_is_no_longer_bound():
    """After the second change the caller is compiled calling the helper at run time: later changes compile
    nothing (and are seen)."""
    ns = world("cython")
    use_helper, helper = ns["use_helper"], ns["helper"]
    assert use_helper(4) == 13
    for k in (5, 6):
        helper.__defaults__ = (k,)
        assert use_helper(4) == 4 * k + 1
    assert use_helper._volatile == {"helper.__defaults__"}
    compiled = list(use_helper._artifacts.values())
    helper.__defaults__ = (7,)
    assert use_helper(4) == 29 and list(use_helper._artifacts.values()) == compiled


def test_llvm_code_sees_a_changed_default_and_code_of_what_it_inlined():
    ns = world(None)
    caller = moshjit.jit(ns["use_helper"], backend="llvm")
    typed = moshjit.jit(ns["typed_by_helper"], backend="llvm")
    assert caller(4) == 13 and typed(3) == 18
    ns["helper"].__defaults__ = (5,)
    assert caller(4) == 21 and typed(3) == 30
    ns["helper"].__code__ = (lambda x, k=3: x - k).__code__
    assert caller(4) == 0 and typed(3) == -4
    assert "binding.holds" in caller.inspect_code()


@pytest.mark.parametrize("backend", ["cython", "llvm"])
def test_the_jitted_functions_code_globals_and_closure_are_the_plain_functions(backend):
    """Read through the dispatcher, assigned through it (the code, with CPython's checks: the others are
    read-only, as on a function), and a compiled signature runs the code assigned."""
    def f(x):
        return x * 3

    jitted = moshjit.jit(f, backend=backend)
    assert jitted.__code__ is f.__code__ and jitted.__globals__ is f.__globals__
    assert jitted.__closure__ is f.__closure__ and jitted.__builtins__ is f.__builtins__
    assert jitted(2) == 6
    jitted.__code__ = (lambda x: x * 3 + 1).__code__
    assert f(2) == jitted(2) == 7
    for field, value in (("__code__", 5), ("__globals__", {}), ("__closure__", None)):
        with pytest.raises((TypeError, AttributeError)) as plain_error:
            setattr(f, field, value)
        with pytest.raises(type(plain_error.value), match=str(plain_error.value)):
            setattr(jitted, field, value)


def test_rules_ordered_by_their_code_lines_as_ply_orders_a_lexers():
    """PLY's lexer sorts a class's ``t_*`` rule methods by ``rule.__code__.co_firstlineno`` (through bound
    methods); ``jit(cls)`` keeps that order."""
    class Lexer:
        def t_NUMBER(self, token):
            return token

        def t_NAME(self, token):
            return token

        def t_STRING(self, token):
            return token

    def rule_order(cls):
        lexer = cls()
        rules = [(name, getattr(lexer, name)) for name in dir(lexer) if name.startswith("t_")]
        return [name for name, rule in sorted(rules, key=lambda pair: pair[1].__code__.co_firstlineno)]

    plain = rule_order(Lexer)
    assert moshjit.jit(Lexer) is Lexer                  # the class itself, its methods jitted
    assert rule_order(Lexer) == plain == ["t_NUMBER", "t_NAME", "t_STRING"]

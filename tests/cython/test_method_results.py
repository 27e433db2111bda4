"""A method calling jitted methods of its own class types their results from their code (``typeinfer``'s
``_jitted_method_type``): ``self.clean(text)`` is a str, ``self.words(...)`` a list of str, and the code after the
call is compiled for those types. Differential: the same calls on a plain class and on the class under ``jit``
(eager, the suite's default, and tiered), also after a method was replaced between calls, with an instance
attribute shadowing it, and while the callee is a tiered method's plain-function copy."""
from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moshjit import MoshjitWarning, background, jit


def make_tokenizer():
    """A small class-style tokenizer, new each time (``jit`` changes the class it is given)."""
    class Tokenizer:
        def __init__(self, lower):
            self.lower = lower

        def clean(self, text):
            return text.strip()

        def words(self, text):
            return [w for w in text.split() if w]

        def tokenize(self, text):
            text = self.clean(text)
            out = []
            for word in self.words(text):
                out.append(word.lower() if self.lower else word)
            return out, len(text)

        def count(self, text):
            words = self.words(self.clean(text))
            return len(words), words

    return Tokenizer


TEXT = st.text(alphabet=st.sampled_from("ab C\t\u00e9\u3000x"), max_size=20)


def types_of(method):
    text = method.inspect_types(method.signatures[0])
    return [line.split("::")[1].strip() for line in text.splitlines() if "call_method['" in line
            and ("'clean'" in line or "'words'" in line)]


def test_results_of_the_classes_own_methods_are_typed():
    Tokenizer = jit(make_tokenizer())
    Tokenizer(True).tokenize("a B")
    assert types_of(vars(Tokenizer)["tokenize"]) == ["str", "list[str]"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(TEXT, st.booleans()), max_size=8))
def test_typed_method_results_give_cpythons_results(calls):
    plain, jitted = make_tokenizer(), jit(make_tokenizer())
    for text, lower in calls:
        assert jitted(lower).tokenize(text) == plain(lower).tokenize(text)
        assert jitted(lower).count(text) == plain(lower).count(text)


def _replaced_words(self, text):
    return tuple(text)                  # another type than the compiled caller assumed


@pytest.mark.parametrize("how", ["class", "instance"])
def test_a_method_replaced_between_calls_gives_cpythons_results(how):
    plain, jitted = make_tokenizer(), jit(make_tokenizer())
    assert jitted(True).count(" ab c ") == plain(True).count(" ab c ")
    objects = []
    for cls in (plain, jitted):
        obj = cls(True)
        if how == "class":
            cls.words = _replaced_words
        else:
            obj.words = _replaced_words.__get__(obj)
        objects.append(obj)
    for text in (" ab c ", "x", ""):
        assert objects[1].count(text) == objects[0].count(text)
        assert objects[1].tokenize(text) == objects[0].tokenize(text)


def test_a_method_replaced_during_a_call_with_the_same_type_gives_cpythons_results():
    def make():
        cls = make_tokenizer()

        def count(self, text):
            first = self.words(text)
            type(self).words = lambda self, text: [w.upper() for w in text.split()]
            return first, self.words(text)
        cls.count = count
        return cls
    plain, jitted = make(), jit(make())
    assert jitted(True).count("a b") == plain(True).count("a b") == (["a", "b"], ["A", "B"])


def test_a_method_replaced_during_a_call_with_another_type_is_named_in_the_error():
    """The documented limit: compiled code checked the method at its entry and cannot continue with a value of
    another type (CPython would go on); the TypeError says which method changed."""
    def make():
        cls = make_tokenizer()

        def count(self, text):
            first = self.words(text)
            type(self).words = _replaced_words
            return first, len(self.words(text))
        cls.count = count
        return cls
    jitted = jit(make())
    with pytest.raises(TypeError, match=r"moshjit: \S*Tokenizer\.words was replaced during a call"):
        jitted(True).count("a b")


def test_the_tiered_copy_of_a_cold_method_passes_the_check(monkeypatch):
    """A caller compiled on the compile thread while its callee is cold (the class holds the callee's
    plain-function copy, and no compiled entry of it is asked for there) calls it through its dispatcher, with
    the result type from its code; the entry's check takes the copy for the method, so no call goes to the
    unassuming fallback."""
    from moshjit import tiers
    Tokenizer = jit(make_tokenizer(), tier="tiered", hot_calls=10_000, hot_ms=1e9)
    obj = Tokenizer(False)
    for _ in range(40):                 # timed first calls: cold, so the class holds the copy
        obj.words("a b")
    assert getattr(vars(Tokenizer)["words"], "_moshjit_dispatcher", None) is not None
    count = vars(Tokenizer)["count"]
    monkeypatch.setattr(tiers._in_compile_thread, "active", True, raising=False)
    count.compile(obj, "x y")           # native now, typed from words' code
    monkeypatch.undo()
    assert types_of(count) == ["str", "list[str]"]
    assert getattr(vars(Tokenizer)["words"], "_moshjit_dispatcher", None) is not None
    assert [obj.count(text) for text in ("x y", "", " z ")] == [(2, ["x", "y"]), (0, []), (1, ["z"])]
    assert count._generic == {}
    background.wait(60)


def make_scale():
    class Scale:
        def __init__(self, k):
            self.k = k

        def one(self, x):
            return x * self.k

        def total(self, xs, change_at):
            t = 0
            for i, x in enumerate(xs):
                if i == change_at:
                    type(self).one = lambda self, x: x + 1000      # replaced during the call
                if i == change_at + 2:
                    self.one = lambda x: -x                      # then shadowed by the instance
                t += self.one(x)
            return t

    return Scale


@pytest.mark.parametrize("change_at", [-1, 0, 3])
def test_an_inlined_method_follows_changes_made_during_the_call(change_at):
    """``self.one(x)`` is inlined into ``total`` behind a guard checked at each call: once the class's method is
    replaced, or the instance shadows it, the loop calls what CPython would."""
    plain, jitted = make_scale(), jit(make_scale())
    xs = list(range(8))
    assert jitted(3).total(xs, change_at) == plain(3).total(xs, change_at)
    assert "method_is['one'" in vars(jitted)["total"].inspect_types(vars(jitted)["total"].signatures[0])


def make_ratios():
    class Ratio:
        def __init__(self, k):
            self.k = k

        def part(self, n):
            return self.k // n                          # ZeroDivisionError for n == 0

        def parts(self, ns):
            return [self.part(n) for n in ns]

        def guarded(self, ns):
            out = []
            for n in ns:
                try:
                    out.append(self.part(n))
                except ZeroDivisionError as exc:
                    out.append(str(exc))
            return out

    return Ratio


@settings(max_examples=40, deadline=None)
@given(st.integers(-50, 50), st.lists(st.integers(-3, 3), max_size=6))
def test_an_inlined_method_raises_as_the_call_would(k, ns):
    """``self.part(n)`` is inlined into both callers: an exception from its body reaches the caller's handler, or
    the caller's caller, with CPython's type and message."""
    plain, jitted = make_ratios(), jit(make_ratios())
    assert jitted(k).guarded(ns) == plain(k).guarded(ns)
    try:
        expected = plain(k).parts(ns)
    except ZeroDivisionError as exc:
        with pytest.raises(ZeroDivisionError) as got:
            jitted(k).parts(ns)
        assert str(got.value) == str(exc)
    else:
        assert jitted(k).parts(ns) == expected
    method = vars(jitted)["guarded"]
    if method.signatures:
        assert "method_is['part'" in method.inspect_types(method.signatures[0])

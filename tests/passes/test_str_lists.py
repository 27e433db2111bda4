"""Reads of a read-only ``list(s)`` read the str (``passes/str_lists.py``): on hand-built IR, and differentially on
jitted functions — bounds of every kind, lists that are changed or escape (left alone), str-subclass arguments."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from moshjit.context import CompileContext
from moshjit.ir import ops
from moshjit.ir.types import OBJECT, STR
from moshjit.ir.verifier import verify
from moshjit.passes.str_lists import returns_exact_str, str_lists
from moshjit.passes.typeinfer import infer_types
from tests.cython.agree import jitted, outcome, same
from tests.ir.handmade import blocks, const, emit, new_function


def _copy_then(use_copy):
    """f(s, a, b): chars = list(s); ...uses built by ``use_copy(block, chars, fn)``; typed for a str ``s``."""
    fn = new_function("s", "a", "b")
    (b0,) = blocks(fn, 1)
    chars = emit(b0, ops.Call(const(list), [fn.args[0]], ()))
    emit(b0, ops.Return(use_copy(b0, chars, fn)))
    infer_types(fn, [STR, STR, STR])   # bounds typed below where they matter
    return fn, chars


def _join_of_slice(b0, chars, fn):
    piece = emit(b0, ops.GetItem(chars, emit(b0, ops.BuildSlice(const(1), const(3), const(None)))))
    joined = emit(b0, ops.CallMethod(const(""), [piece], "join", ()))
    size = emit(b0, ops.Call(const(len), [chars], ()))
    return emit(b0, ops.BuildTuple([joined, size]))


def test_a_join_of_a_slice_and_len_read_the_str_and_the_list_goes():
    fn, chars = _copy_then(_join_of_slice)
    expected = fn.run("héllo", 0, 0)
    assert str_lists(fn)
    verify(fn)
    body = fn.blocks[0].ops
    assert chars not in body
    assert not any(isinstance(op, ops.CallMethod) and op.name == "join" for op in body)
    assert any(isinstance(op, ops.GetItem) and op.obj is fn.args[0] for op in body)
    assert fn.run("héllo", 0, 0) == expected == ("él", 5)


def test_a_list_that_is_changed_is_left_alone():
    def change_then_join(b0, chars, fn):
        emit(b0, ops.CallMethod(chars, [const("x")], "append", ()))
        return _join_of_slice(b0, chars, fn)

    fn, chars = _copy_then(change_then_join)
    assert not str_lists(fn)
    assert chars in fn.blocks[0].ops


def test_an_item_read_keeps_the_list_but_len_reads_the_str():
    def item_and_len(b0, chars, fn):
        item = emit(b0, ops.GetItem(chars, const(0)))
        return emit(b0, ops.BuildTuple([item, emit(b0, ops.Call(const(len), [chars], ()))]))

    fn, chars = _copy_then(item_and_len)
    assert str_lists(fn)
    body = fn.blocks[0].ops
    assert chars in body and [op for op in body if isinstance(op, ops.Call) and op.func.value is len][0].args \
        == [fn.args[0]]
    assert fn.run("ab", 0, 0) == ("a", 2)


def probes(word, a, b):
    chars = list(word)
    out = [len(chars)]
    out.append("".join(chars[a:b]))
    out.append("".join(chars[a:]))
    out.append("".join(chars[:b]))
    out.append("##" + "".join(chars[a:b]))
    return out


def first_char(word):
    chars = list(word)
    return chars[0], len(chars)


def changed(word, a, b):
    chars = list(word)
    chars.reverse()
    return "".join(chars[a:b]), len(chars)


def escapes(word, a, b):
    chars = list(word)
    keep = [chars]
    return "".join(chars[a:b]), keep[0] is chars


def not_int_bounds(word, a):
    chars = list(word)
    return "".join(chars[a:2])


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ab\u0301é漢😀\x00", max_size=8), st.integers(-10, 10), st.integers(-10, 10))
def test_slices_joined_agree_with_cpython(word, a, b):
    same(probes, word, a, b)
    same(changed, word, a, b)
    same(escapes, word, a, b)


class Odd(str):
    def __iter__(self):
        return iter("overridden")

    def __len__(self):
        return 99


def test_str_subclasses_bad_bounds_and_item_errors_agree_with_cpython():
    for word in ["", "a", "é漢😀", Odd("xyz")]:
        same(probes, word, 1, 3)
        same(first_char, word)                    # "" raises list's own IndexError message
    for bound in [None, 1.5, "x", 2**70]:
        same(not_int_bounds, "abc", bound)
    assert "join" not in jitted(probes).inspect_types(("str", "int64", "int64"))
    same(changed, "abc", 1, 3)                    # compiled here too: the test does not depend on the ones before
    assert "list" in jitted(changed).inspect_types(("str", "int64", "int64"))


def split_runs(text):
    """``_run_split_on_punc``'s shape: items read under ``i < len(chars)`` (proven in range: read from the str)."""
    chars = list(text)
    i = 0
    out = []
    while i < len(chars):
        ch = chars[i]
        out.append(ch if ch.isalnum() else "|")
        i += 1
    return "".join(out)


def unproven(text, k):
    """Items whose index is not proven in range: the list stays, and its IndexError is the list's."""
    chars = list(text)
    i = 0
    out = []
    while i <= len(chars):           # one past the end
        out.append(chars[i])
        i += 1
    return out, chars[k] if k < len(chars) else chars[-k]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ab,.é漢😀 \x00", max_size=10), st.integers(-12, 12))
def test_item_reads_agree_with_cpython(text, k):
    same(split_runs, text)
    same(unproven, text, k)


def test_items_read_under_a_length_test_read_the_str():
    assert "call <class list>" not in jitted(split_runs).inspect_types(("str",))
    same(unproven, "abc", 1)
    assert "call <class list>" in jitted(unproven).inspect_types(("str", "int64"))


class Shows:
    """``str(x)`` of this is an ``Odd``: typed str, but not an exact str (its list differs from its code points)."""

    def __str__(self):
        return Odd("xyz")


def via_str(obj):
    text = str(obj)
    chars = list(text)
    i = 0
    first = []
    while i < len(chars):
        first.append(chars[i])
        i += 1
    return len(chars), "".join(chars[0:3]), first


def test_a_str_that_may_be_a_subclass_keeps_its_list():
    for obj in [Shows(), 12345, "plain"]:
        same(via_str, obj)
    assert "call <class list>" in jitted(via_str).inspect_types()


def test_a_jitted_methods_exact_str_result_is_read_through_only_when_the_context_says_so():
    fn = new_function("obj")
    (b0,) = blocks(fn, 1)
    word = emit(b0, ops.CallMethod(fn.args[0], [], "word", ()))
    chars = emit(b0, ops.Call(const(list), [word], ()))
    size = emit(b0, ops.Call(const(len), [chars], ()))
    emit(b0, ops.Return(size))
    infer_types(fn, [OBJECT])
    word.type = STR                           # typed from the method, as typeinfer does for jitted methods
    assert not str_lists(fn) and size.args == [chars]       # a str, but maybe a subclass: the list stays
    ctx = CompileContext()
    ctx.exact_str_results.add(word)
    assert str_lists(fn, ctx) and size.args == [word]
    verify(fn)


def test_returns_exact_str_needs_every_returned_value_proven():
    fn = new_function("s", "obj")
    b0, b1, b2 = blocks(fn, 3)
    emit(b0, ops.Branch(fn.args[1], b1, b2))
    emit(b1, ops.Return(emit(b1, ops.CallMethod(fn.args[0], [], "lower", ()))))
    shown = emit(b2, ops.Call(const(str), [fn.args[1]], ()))
    emit(b2, ops.Return(shown))
    infer_types(fn, [STR, OBJECT])
    shown.type = STR                          # typed str, as str(x) of some x is: it may be a subclass
    assert not returns_exact_str(fn)
    b2.ops.clear()
    emit(b2, ops.Return(const("x")))
    assert not returns_exact_str(fn)            # s.lower() of an argument a caller may pass as a str subclass
    b1.ops.clear()
    built = emit(b1, ops.BuildString([fn.args[0]]))       # an f-string: always a new exact str
    built.type = STR
    emit(b1, ops.Return(built))
    assert returns_exact_str(fn)


class Words:
    """A method reading ``list()`` of another method's str result by index (``_run_split_on_punc`` of
    ``self._run_strip_accents(token)``'s shape): exact strs are read through, a possible subclass is not."""

    def cleaned(self, text):
        return " ".join(text.lower().split())          # a new str whatever ``text`` is

    def lowered(self, text):
        return text.lower()        # exact only if ``text`` is (a caller may pass a str subclass typed str)

    def shown(self, obj):
        return str(obj)

    def runs(self, text):
        chars = list(self.cleaned(text))
        i = 0
        out = []
        while i < len(chars):
            out.append(chars[i])
            i += 1
        return "|".join(out), len(chars)

    def lowered_runs(self, text):
        chars = list(self.lowered(text))
        i = 0
        out = []
        while i < len(chars):
            out.append(chars[i])
            i += 1
        return "|".join(out), len(chars)

    def shown_runs(self, obj):
        chars = list(self.shown(obj))
        i = 0
        out = []
        while i < len(chars):
            out.append(chars[i])
            i += 1
        return "|".join(out), len(chars)


def test_str_results_of_jitted_methods_agree_with_cpython_and_exact_ones_drop_the_list():
    import moshjit
    compiled = moshjit.jit(type("Words", (), dict(vars(Words))), backend="cython", strict=True)
    plain, jitted_words = Words(), compiled()
    for text in ["", "  AbC ", "é漢😀 x"]:
        assert outcome(jitted_words.runs, text) == outcome(plain.runs, text)
        assert outcome(jitted_words.lowered_runs, text) == outcome(plain.lowered_runs, text)
    for obj in [Shows(), 123, "plain"]:
        assert outcome(jitted_words.shown_runs, obj) == outcome(plain.shown_runs, obj)
    assert "call <class list>" not in vars(compiled)["runs"].inspect_types()
    assert "call <class list>" in vars(compiled)["shown_runs"].inspect_types()
    assert "call <class list>" in vars(compiled)["lowered_runs"].inspect_types()

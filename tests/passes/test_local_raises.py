"""A raise that an empty ``except C: pass`` of the same function takes becomes a branch on ``RaiseIsCaught`` to what
follows the clause's ``pop_except``, the raise kept for when the guard fails; a handler φ read after the clause gets
a φ on the new path. Raises that a handler's body sees, whose handler φ is read where another path joins, or whose
class runs Python code when made, stay."""
from __future__ import annotations

import abc

import pytest

import moshjit
from moshjit.ir import ops
from moshjit.ir.verifier import verify
from moshjit.passes.local_raises import local_raises
from moshjit.ir.ops import Phi
from tests.ir.handmade import blocks, const, emit, new_function, phi


class Skip(BaseException):
    pass


class Other(Exception):
    pass


class Noisy(BaseException):
    def __init__(self, *args):
        super().__init__(*args)


def _caught_by(clause, body_reads_exception=False, phi_read_after=False, raised=Skip, join_with=None):
    """B0 branches to B1 (which returns 1) or B2 (``raise raised()``, a φ of x = 'raised' in the handler);
    the handler H tests ``clause``, its body M pops the handled exception and returns 2 (or x, with
    ``phi_read_after``); a non-matching exception is re-raised through the clean-up. With ``join_with``, a second
    clause of that class has a body M2 too, and both jump to a block J returning x. Returns the pieces."""
    fn = new_function("a")
    entry, normal, raiser, handler, body, reraise, cleanup = blocks(fn, 7)
    emit(entry, ops.Branch(fn.args[0], normal, raiser))
    emit(normal, ops.Return(const(1)))
    exc = emit(raiser, ops.Call(const(raised), [], ()))
    emit(raiser, ops.Raise(exc, None))
    raiser.handler = handler
    x = phi(handler, {raiser: "raised"}, "x")
    caught = emit(handler, ops.CaughtException())
    pushed = emit(handler, ops.PushExcInfo(caught))
    test = emit(handler, ops.CheckExcMatch(caught, const(clause)))
    missed = reraise
    if join_with is not None:
        second, second_body, join = blocks(fn, 3)
        missed = second
        second.handler = cleanup
        second_test = emit(second, ops.CheckExcMatch(caught, const(join_with)))
        emit(second, ops.Branch(second_test, second_body, reraise))
        emit(second_body, ops.PopExcept(pushed))
        emit(second_body, ops.Jump(join))
        emit(join, ops.Return(x))
    emit(handler, ops.Branch(test, body, missed))
    handler.handler = reraise.handler = cleanup
    if body_reads_exception:
        emit(body, ops.Call(const(print), [caught], ()))
    emit(body, ops.PopExcept(pushed))
    if join_with is not None:
        emit(body, ops.Jump(join))
    else:
        emit(body, ops.Return(x if phi_read_after else const(2)))
    emit(reraise, ops.Reraise(caught))
    again = emit(cleanup, ops.CaughtException())
    emit(cleanup, ops.PopExcept(pushed))
    emit(cleanup, ops.Reraise(again))
    verify(fn)
    return fn, raiser, body


def test_a_raise_the_next_clause_takes_becomes_a_guarded_jump():
    fn, raiser, body = _caught_by(Skip)
    local_raises(fn)
    verify(fn)
    guard = raiser.ops[-1]
    assert isinstance(guard, ops.RaiseIsCaught)
    assert (guard.raised, guard.passed, guard.caught) == (Skip, (), Skip)
    fast, slow = raiser.terminator.if_true, raiser.terminator.if_false
    assert isinstance(fast.terminator, ops.Return) and fast.terminator.value.value == 2 and fast is not body
    assert body.terminator.target is fast and [type(op) for op in body.ops] == [ops.PopExcept]
    assert isinstance(slow.terminator, ops.Raise) and slow.ops[0] is slow.terminator.exc
    assert slow.handler is raiser.handler
    assert fn.run(False) == 2 and fn.run(True) == 1
    local_raises(fn)                              # the slow path is left as it is
    assert sum(isinstance(op, ops.RaiseIsCaught) for b in fn.blocks for op in b.ops) == 1


def test_a_clause_of_a_base_class_or_tuple_takes_it_and_passed_clauses_are_listed():
    fn, raiser, _ = _caught_by((Other, BaseException))
    local_raises(fn)
    assert isinstance(raiser.ops[-1], ops.RaiseIsCaught)


def test_a_handler_phi_read_after_the_clause_gets_a_phi_on_the_new_path():
    """x is 'raised' at the raise: the body's read of x now reads a φ of the new head, 'raised' from the jump."""
    fn, raiser, body = _caught_by(Skip, phi_read_after=True)
    local_raises(fn)
    verify(fn)
    fast = raiser.terminator.if_true
    merged = fast.terminator.value
    assert isinstance(merged, Phi) and merged.block is fast
    assert merged.incoming[raiser].value == "raised" and merged.incoming[body].block is raiser.handler
    assert fn.run(False) == "raised" and fn.run(True) == 1


@pytest.mark.parametrize("case", ["clause_misses", "body_reads_exception", "phi_read_after_a_join", "noisy_class"])
def test_left_alone(case):
    """A read of the handler's φ where another clause's body joins is not dominated by the new path's head."""
    fn, raiser, _ = _caught_by(Other if case == "clause_misses" else Skip,
                               body_reads_exception=case == "body_reads_exception",
                               raised=Noisy if case == "noisy_class" else Skip,
                               join_with=Other if case == "phi_read_after_a_join" else None)
    local_raises(fn)
    verify(fn)
    assert isinstance(raiser.terminator, ops.Raise)


def nested(word):
    """Snowball's shape: labels raised inside nested tries, each taken by an empty clause further out."""
    out = []
    cursor = 0
    try:
        for ch in word:
            try:
                try:
                    if ch in "aeiou":
                        raise Skip()
                    if ch == "q":
                        raise Other("quit", cursor)
                    out.append(ch)
                except Skip:
                    pass
                cursor += 1
            except ValueError:
                out.append("never")
    except Other:
        pass
    return "".join(out), cursor


def passing(word):
    """A label raised in an inner ``try`` passes its clause and is taken by the outer one."""
    out = []
    for ch in word:
        try:
            try:
                if ch == "q":
                    raise Other()
                out.append(ch)
            except Skip:
                out.append("never")
        except Other:
            pass
    return "".join(out)


def test_real_functions_raises_become_jumps_through_nested_handlers():
    """In ``nested`` the handler of ``Other`` has a φ of ``cursor`` (raises before the loop see 0) read after its
    clause: the new path carries the loop's value. In ``passing`` the raise passes ``except Skip`` on its way."""
    for fn, guards in ((nested, ["raise_is_caught[<class Other>, (<class Skip>, <class ValueError>), <class Other>]",
                                 "raise_is_caught[<class Skip>, <class Skip>]"]),
                       (passing, ["raise_is_caught[<class Other>, (<class Skip>,), <class Other>]"])):
        jitted = moshjit.jit(fn, backend="cython")
        for word in ("", "strength", "aqueduct", "rhythm", "qq", "quiet"):
            assert jitted(word) == fn(word)
        text = jitted.inspect_types()
        assert [line.split("= ", 1)[1].split("  ::")[0] for line in text.splitlines() if "raise_is_caught[" in line] \
            == guards


class Registered(BaseException, metaclass=abc.ABCMeta):
    pass


class Virtual(BaseException):
    pass


Registered.register(Virtual)            # issubclass says yes; except clauses go by the MRO and say no


def virtual_clause(n):
    caught = []
    for i in range(n):
        try:
            try:
                raise Virtual()
            except Registered:
                caught.append("registered")
        except Virtual:
            pass
        caught.append(i)
    return caught


def test_a_clause_matches_by_the_mro_not_by_subclass_hooks():
    assert issubclass(Virtual, Registered)
    jitted = moshjit.jit(virtual_clause, backend="cython")
    assert jitted(3) == virtual_clause(3) == [0, 1, 2]
    assert "raise_is_caught[<class Virtual>, (<class Registered>,), <class Virtual>]" in jitted.inspect_types()

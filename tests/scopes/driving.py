"""Driving plain and compiled code the same way: calls in turn, or a generator or a coroutine through a list of
actions."""
from __future__ import annotations


def outcomes(fn, calls) -> list:
    """Each call of ``fn`` with ``calls``' argument tuples in turn: what it returns, or the type, message and
    ``name`` (NameError, UnboundLocalError) of what it raises."""
    seen = []
    for args in calls:
        try:
            seen.append(("ok", fn(*args)))
        except Exception as exc:            # the exception is part of the behaviour under test
            seen.append(("raise", type(exc), str(exc), getattr(exc, "name", None)))
    return seen


def apply(target, action, describe) -> tuple:
    """What one action — ``("next",)``, ``("send", v)``, ``("throw", E)`` or ``("close",)`` — on ``target`` gave:
    ``("value", v)``, ``("closed", None)``, or ``describe(exc)`` of what it raised."""
    try:
        if action[0] == "next":
            return ("value", next(target))
        if action[0] == "send":
            return ("value", target.send(action[1]))
        if action[0] == "throw":
            return ("value", target.throw(action[1]))
        return ("closed", target.close())
    except BaseException as exc:               # the exception is part of the behaviour under test
        return describe(exc)


def run(target, actions, resume, describe) -> list:
    """Each action's result, then what ``resume`` gives until ``target`` ends (so that none is left suspended)."""
    seen = [apply(target, action, describe) for action in actions]
    for _ in range(20):
        got = apply(target, resume, describe)
        seen.append(("drained", got[1]) if got[0] == "value" else got)
        if got[0] != "value":
            break
    return seen

"""Raises turned into jumps (``passes/local_raises.py``) behind their guard (``backends/cython/raise_sites.py``)
against CPython: a label class raised in a loop and taken by an empty clause, while between calls the class
changes — an ``__init__``, ``__new__`` or ``__del__`` that records its calls added and removed, its bases swapped
so that the clause no longer takes it and back — and the handled exception after the ``try``, read with
``sys.exc_info()``. Random programs of such steps run plainly and jitted on two fresh copies of the same world,
which must end with the same observations."""
from __future__ import annotations

import sys

from hypothesis import given, settings, strategies as hs

import moshjit


def make_world(jitted: bool):
    """Fresh classes, a log their Python-level hooks write to, and the function raising them."""
    log = []

    class Taken(BaseException):
        pass

    class Elsewhere(BaseException):
        pass

    class Label(Taken):
        pass

    def run(n, fill):
        hits = []
        for i in range(n):
            try:
                if i % 3:
                    raise Label(fill(i))
                hits.append(i)
            except Taken:
                pass
            hits.append(sys.exc_info()[0])
        return hits

    return {"log": log, "Taken": Taken, "Elsewhere": Elsewhere, "Label": Label,
            "run": moshjit.jit(run, backend="cython") if jitted else run}


def _record(log, what):
    def hook(self, *args):
        log.append((what, args))
    return hook


def _new(log):
    def __new__(cls, *args):
        log.append(("new", args))
        return BaseException.__new__(cls, *args)
    return staticmethod(__new__)


def step(world: dict, name: str) -> None:
    label, log = world["Label"], world["log"]
    if name == "init":
        label.__init__ = _record(log, "init")
    elif name == "new":
        label.__new__ = _new(log)
    elif name == "del":
        label.__del__ = _record(log, "del")
    elif name == "plain":
        for attribute in ("__init__", "__new__", "__del__"):
            if attribute in vars(label):
                delattr(label, attribute)
    elif name == "elsewhere":
        label.__bases__ = (world["Elsewhere"],)
    elif name == "taken":
        label.__bases__ = (world["Taken"],)


def call(world: dict, n: int) -> tuple:
    try:
        result = ("ok", world["run"](n, lambda i: world["log"].append(("fill", i)) or i))
    except BaseException as exc:          # a label the clause no longer takes leaves the function
        result = ("raise", type(exc).__name__, exc.args)
    return result, list(world["log"])


STEPS = ["call", "init", "new", "del", "plain", "elsewhere", "taken"]


@settings(max_examples=25, deadline=None)
@given(hs.lists(hs.sampled_from(STEPS), min_size=1, max_size=8), hs.integers(0, 5))
def test_programs_of_class_changes_agree_with_cpython(program, n):
    plain, jitted = make_world(False), make_world(True)
    for name in ["call", *program, "call"]:
        if name == "call":
            assert call(jitted, n) == call(plain, n)
        else:
            step(plain, name)
            step(jitted, name)


def test_the_raise_became_a_jump():
    world = make_world(True)
    world["run"](4, lambda i: i)
    assert "raise_is_caught[" in world["run"].inspect_types()


def test_inside_a_handler_the_handled_exception_is_kept():
    """The jump skips setting and restoring the handled exception: around it, an outer handler's stays."""
    world = make_world(True)

    def outer(run, n):
        try:
            raise KeyError("outer")
        except KeyError:
            return run(n, lambda i: i), sys.exc_info()[0]

    assert outer(world["run"], 4) == outer(make_world(False)["run"], 4)
    assert outer(world["run"], 4)[0] == [0, KeyError, KeyError, KeyError, 3, KeyError]


def test_a_caught_exception_is_dropped_where_its_clause_ends():
    """CPython frees the handled exception at ``POP_EXCEPT``: its ``__del__`` runs before the code after the
    clause (the raise stays a raise: the class has a ``__del__``)."""
    plain, jitted = make_world(False), make_world(True)
    for world in (plain, jitted):
        step(world, "del")
        world["run"](3, lambda i: world["log"].append(("fill", i)) or i)
    assert jitted["log"] == plain["log"] == [("fill", 1), ("del", ()), ("fill", 2), ("del", ())]

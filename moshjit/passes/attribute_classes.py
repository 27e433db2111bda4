"""Guessed classes of instance attributes: which class the value a method stores in ``self.<name>`` is made by.

``self.done = Done(count)`` in a method of ``Pos`` makes ``Done`` the guess for ``pos.done``; ``self.reference =
self`` makes it the class itself. A guess is only a hint for code that checks it at run time — a method inlined
behind ``MethodIs``, which tests the receiver's exact class at every call and otherwise makes the call as CPython
would — so a wrong or stale guess costs speed, never exactness. An attribute stored from two different classes'
constructors has no guess; values of unknown class (arguments, results of other calls) and ``None`` are ignored.
"""
from __future__ import annotations

from moshjit.functions import builtins_of
from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Argument, Phi


def stored_classes(methods: list[Function], owner: type) -> dict[str, type]:
    """{attribute name: guessed class} from the raw SSA of ``owner``'s methods (``self`` is each one's argument 0)."""
    found: dict[str, set] = {}
    for method in methods:
        if not method.args:
            continue
        receiver = method.args[0]
        for block in method.blocks:
            for op in block.ops:
                if isinstance(op, ops.StoreAttr) and _strip(op.obj) is receiver:
                    classes = found.setdefault(op.name, set())
                    classes |= _classes_of(op.value, receiver, owner, method.globals, set())
    return {name: next(iter(classes)) for name, classes in found.items() if len(classes) == 1}


def _strip(value):
    return value.value if isinstance(value, ops.CheckBound) else value


def _classes_of(value, receiver: Argument, owner: type, namespace: dict, seen: set) -> set:
    """The classes whose constructors (or the receiver itself) ``value`` may come from, as far as they are seen."""
    value = _strip(value)
    if value is receiver:
        return {owner}
    if isinstance(value, Phi):
        if value in seen:
            return set()
        seen.add(value)
        out: set = set()
        for incoming in value.incoming.values():
            out |= _classes_of(incoming, receiver, owner, namespace, seen)
        return out
    if isinstance(value, ops.Call) and isinstance(value.func, ops.LoadGlobal):
        made = _global(namespace, value.func.name)
        if isinstance(made, type) and type(made) is type and made.__module__ != "builtins":
            return {made}
    return set()


def _global(namespace: dict, name: str):
    """What a global ``name`` names now in ``namespace`` (then the builtins), without running any code."""
    return namespace[name] if name in namespace else builtins_of(namespace).get(name)

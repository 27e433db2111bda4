"""``super(C, obj).name(args)`` becomes one ``super_call_method`` op: no super object, no bound method.

Class-heavy code calls its base classes' methods through ``super()`` in every constructor and often in the hot
methods themselves (``super().__init__(...)``, ``super().fn(pkt, r)``). CPython 3.11 makes a super object and a
bound method for each call (3.12 has ``LOAD_SUPER_ATTR`` for it); the op's runtime helper looks the method up in
the MRO as ``super`` does and calls it with ``obj`` first. Only the builtin ``super`` (a resolved global, so the
name's binding is checked at the entry), called with two positional arguments, and only when the super object is
used by nothing but the method call and nothing that can raise or has an effect runs between the two: CPython
makes the super object and looks the method up before it evaluates the call's arguments, and the fused op does
both when it runs, after them.
"""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Constant


def super_calls(fn: Function) -> Function:
    """Fuse every super call with the method call it feeds, where they qualify, in one sweep (fusing one pair
    changes no other pair's users: each super object has one)."""
    users = None
    for block in fn.blocks:
        index = 0
        while index < len(block.ops):
            op = block.ops[index]
            index += 1
            if not (isinstance(op, ops.CallMethod) and is_super_call(op.obj) and op.obj.block is block):
                continue
            made = op.obj
            users = fn.users() if users is None else users
            if users.get(made) != [op] or not nothing_between(block, made, index - 1):
                continue
            fused = ops.SuperCallMethod(made.args[0], made.args[1], list(op.args), op.name, op.kwnames,
                                        line=op.line)
            fused.block = block
            block.ops[index - 1] = fused
            block.ops.remove(made)          # before ``op``: the next op moves to ``index - 1``
            index -= 1
            fn.replace_all_uses(op, fused)
    return fn


def is_super_call(value) -> bool:
    """A call of the builtin ``super`` with two positional arguments."""
    return (isinstance(value, ops.Call) and isinstance(value.func, Constant) and value.func.value is super
            and len(value.args) == 2 and not value.kwnames)


def nothing_between(block, made: ops.Call, index: int) -> bool:
    """No op between the super call and the method call (at ``index``) can raise or has an effect."""
    start = block.ops.index(made)
    return all(not (op.can_raise() or op.has_side_effects()) for op in block.ops[start + 1:index])

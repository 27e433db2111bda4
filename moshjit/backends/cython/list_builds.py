"""Lists built by ``+`` and ``[x] * n`` in one go: an exact-size list filled once, no intermediate lists.

``ids + [pad] * (length - len(ids))`` makes three lists in CPython (``[pad]``, the repeat, the sum) and
``[1] * n + [0] * m`` five. Here a tree of such operations whose intermediate results have no other use becomes
one list of the final size, allocated once and filled from the leaf lists, the displays' items and the repeated
items. Exact as long as nothing can tell the difference:

- intermediate results are used only by their parent in the tree, all in one block;
- the work CPython does at an intermediate node's place — converting a repeat count (OverflowError for a huge
  int), checking sizes (MemoryError) — is done in the same order at the root, and every op between such a node
  and the root is harmless: it cannot raise and cannot run user code (so it cannot change a leaf list either);
- only exact lists (``ListType``), displays, one-item displays repeated, int counts.
"""
from __future__ import annotations

from moshjit.ir import ops
from moshjit.ir.ops import Constant
from moshjit.ir.types import BOOL, IntType, ListType

_NATIVE = ("Py_ssize_t", "bint")
_INT_OPS = ("+", "-", "*")


class ListBuilds:
    """``roots``: the op each fused tree is built at; ``fused``: the ops folded into a root (not emitted)."""

    def __init__(self, plan=None):
        self.roots: set = set()
        self.fused: set = set()
        if plan is not None:
            self._analyse(plan)

    def _analyse(self, plan) -> None:
        self.plan = plan
        for block in plan.fn.blocks:
            position = {op: i for i, op in enumerate(block.ops)}
            for op in reversed(block.ops):
                if op in self.fused or not self._node(op) or isinstance(op, ops.BuildList):
                    continue
                members = self._tree(op, position)
                if len(members) > 1:
                    self.roots.add(op)
                    self.fused |= members - {op}

    # ---- the shape of a tree ------------------------------------------------------------------------------------
    def _node(self, op) -> bool:
        """A list display, a concatenation of lists, or a one-item display repeated an int number of times."""
        if isinstance(op, ops.BuildList):
            return True
        if not (isinstance(op, ops.BinaryOp) and not op.inplace and isinstance(op.type, ListType)):
            return False
        if op.op == "+":
            return all(self.plan.ctype(v) == "list" for v in (op.left, op.right))
        if op.op == "*":
            return isinstance(op.left, ops.BuildList) and len(op.left.items) == 1 and self._count(op.right)
        return False

    def _count(self, value) -> bool:
        if isinstance(value, Constant):
            return type(value.value) in (int, bool)
        return isinstance(value.type, IntType) or value.type == BOOL

    def _only_user(self, value, user) -> bool:
        users = self.plan.users.get(value, [])
        return len(users) == 1 and users[0] is user and sum(v is value for v in user.operands()) == 1

    @staticmethod
    def children(node) -> list:
        if isinstance(node, ops.BuildList):
            return []
        return [node.left] if node.op == "*" else [node.left, node.right]

    def _shape(self, node) -> set:
        """``node`` and the children fusable into it by shape: single-use nodes of the same block."""
        members = {node}
        for child in self.children(node):
            if (isinstance(child, ops.Op) and child.block is node.block and self._node(child)
                    and self._only_user(child, node)):
                members |= self._shape(child)
        return members

    def _tree(self, root, position) -> set:
        """The nodes fused into ``root`` (itself included): by shape, less any node with an op between it and the
        root that is neither in the tree nor harmless (with the node, its subtree goes)."""
        members = self._shape(root)
        ops_of_block = root.block.ops
        changed = True
        while changed:
            changed = False
            for node in list(members):
                if node is root or isinstance(node, ops.BuildList):
                    continue                      # a display cannot raise nor see anything: any place will do
                between = ops_of_block[position[node] + 1:position[root]]
                if not all(op in members or self._harmless(op) for op in between):
                    members -= self._shape(node)
                    changed = True
                    break
        if isinstance(root, ops.BinaryOp) and root.op == "*" and root.left not in members:
            return {root}
        return members

    def _harmless(self, op) -> bool:
        """Cannot raise and cannot run user code."""
        if not op.can_raise() and not isinstance(op, (ops.ListAppend, ops.ListToTuple)):
            return True
        ctype = self.plan.ctype
        if isinstance(op, ops.BinaryOp) and op.op in _INT_OPS and not op.inplace:
            return all(isinstance(v.type if not isinstance(v, Constant) else None, IntType)
                       or isinstance(v, Constant) and type(v.value) is int for v in (op.left, op.right))
        if isinstance(op, ops.Compare) and op.op in ("<", "<=", "==", "!=", ">", ">="):
            return all(ctype(v) in _NATIVE for v in (op.left, op.right))
        if isinstance(op, ops.Call) and isinstance(op.func, Constant) and not op.kwnames:
            if op.func.value is len and len(op.args) == 1:
                return ctype(op.args[0]) in ("list", "str", "tuple", "dict")
            if op.func.value in (max, min) and len(op.args) >= 2:
                return all(ctype(a) in _NATIVE for a in op.args)
        return False


ListBuilds.NONE = ListBuilds()


# ---- emission ---------------------------------------------------------------------------------------------------
def emit_build(emitter, root, depth: int) -> None:
    """The sizes in CPython's order (raising where it would), then one list of the total size, filled."""
    builds = emitter.list_builds
    tag = f"lb{len(emitter.list_build_names)}"
    emitter.list_build_names.append(tag)
    counter = iter(range(1000))

    def leaf(node) -> bool:
        return node is not root and node not in builds.fused

    def size_of(node) -> str:
        """Emit the size computation of ``node`` (post-order) and return the variable or literal holding it."""
        if leaf(node):
            name = f"{tag}_{next(counter)}"
            emitter.decls[name] = "Py_ssize_t"
            emitter.emit(f"{name} = len({emitter.ref(node)})", depth)
            return name
        if isinstance(node, ops.BuildList):
            return str(len(node.items))
        if node.op == "*":
            name = f"{tag}_{next(counter)}"
            emitter.decls[name] = "Py_ssize_t"
            count = node.right
            if emitter.ctype(count) in _NATIVE:
                emitter.emit(f"{name} = mj_clamp_count({emitter.ref(count)})", depth)
            else:
                emitter.emit(f"{name} = mj_repeat_count({emitter.obj(count)})", depth)
            counts[node] = name
            return name
        left, right = size_of(node.left), size_of(node.right)
        name = f"{tag}_{next(counter)}"
        emitter.decls[name] = "Py_ssize_t"
        emitter.emit(f"{name} = mj_concat_size({left}, {right})", depth)
        return name

    def fill(node, at: str) -> None:
        if leaf(node):
            emitter.emit(f"{at} = mj_fill_list({target}, {at}, {emitter.ref(node)})", depth)
        elif isinstance(node, ops.BuildList):
            for item in node.items:
                emitter.emit(f"{at} = mj_fill_repeat({target}, {at}, {emitter.obj(item)}, 1)", depth)
        elif node.op == "*":
            item = emitter.obj(node.left.items[0])
            emitter.emit(f"{at} = mj_fill_repeat({target}, {at}, {item}, {counts[node]})", depth)
        else:
            fill(node.left, at)
            fill(node.right, at)

    counts: dict = {}
    total = size_of(root)
    target = emitter.var(root)
    emitter.emit(f"{target} = mj_list_of_size({total})", depth)
    at = f"{tag}_at"
    emitter.decls[at] = "Py_ssize_t"
    emitter.emit(f"{at} = 0", depth)
    fill(root, at)

"""Strs and dicts of strs in generated code: str views and native dict lookups (runtime: ``moshjit_text``).

**Str views.** ``s[a:b]`` and ``prefix + s[a:b]`` whose value is only probed against dicts (``x in vocab``) are
kept as ``MjStrView`` structs — no str is built, no hash computed — and built as a str exactly where the value
escapes (WordPiece's ``candidate = "##" + word[start:end]; if candidate in vocab: piece = candidate``: one str per
accepted piece instead of one or two per probe). A web of views (the slices, their prefixed forms and the φs
joining them) is kept only when it is exact to do so:

- it escapes at most once, and that use cannot run twice without a definition of the escaping value in between
  (so no str object is shared where CPython would share one, and none is built twice);
- no view φ sits at a loop header and none is saved in a temporary by a copy cycle (views are plain structs
  holding borrowed pointers, which must not outlive the strs they point into);
- the strs a view points into (its base and prefix) keep variables of their own (never shared with another
  value), so they stay alive as long as the view.

**Native dict lookups.** ``key in d``, ``d.get(key, default)`` and ``d[key]`` with a str key on a dict go through
``moshjit_text``'s guarded native index of the dict (see there), falling back to the dict itself. ``in`` and ``[]``
also take a value of unknown type (a dict reached through an attribute, ``self.vocab``), and ``[]`` a key of
unknown type (``vocab[token]`` over a list of tokens): the runtime uses the index when the key is a str and the
value a dict whose ``in`` (``[]``) is dict's own — an exact dict, ``OrderedDict``, a subclass overriding neither —
and asks the object itself otherwise.
"""
from __future__ import annotations

from moshjit.analysis.dominators import DominatorTree
from moshjit.backends.cython.out_of_ssa import Temp
from moshjit.ir import ops
from moshjit.ir.function import Block
from moshjit.ir.ops import Constant, Phi
from moshjit.ir.types import STR

VIEW_TYPE = "MjStrView"


class StrViews:
    """The str values of one function kept as views (``members``) and the strs they point into (``roots``)."""

    NONE: "StrViews"                 # no views (before the analysis, or with the step switched off)

    def __init__(self, plan=None):
        self.members: set = set()
        self.roots: set = set()
        if plan is not None:
            self._analyse(plan)

    def _analyse(self, plan) -> None:
        self.plan = plan
        fn = plan.fn
        domtree = DominatorTree(fn.entry, Block.successors)
        preds = fn.predecessors()
        self.headers = {b for b in fn.blocks if any(domtree.dominates(b, p) for p in preds[b])}
        candidates = self._candidates()
        for web in self._webs(candidates):
            if self._exact(web):
                self.members |= web
        for value in self.members:
            self.roots |= {root for root in self._roots(value) if not isinstance(root, Constant)}

    def __contains__(self, value) -> bool:
        return value in self.members

    # ---- which values may be views ------------------------------------------------------------------------------
    def is_slice(self, op) -> bool:
        """``s[a:b]`` of an exact str with native (or omitted) bounds and no step."""
        plan = self.plan
        if not (isinstance(op, ops.GetItem) and op.key in plan.inline_slices and plan.ctype(op.obj) == "str"
                and op.type == STR):
            return False
        key = op.key
        return (isinstance(key.step, Constant) and key.step.value is None
                and all(isinstance(v, Constant) and (v.value is None or type(v.value) is int)
                        or plan.ctype(v) == "Py_ssize_t" for v in (key.start, key.stop)))

    def is_prefixed(self, op) -> bool:
        """``prefix + s[a:b]`` with an exact str prefix (the slice itself a view candidate)."""
        plan = self.plan
        return (isinstance(op, ops.BinaryOp) and op.op == "+" and not op.inplace and op.type == STR
                and self.is_slice(op.right) and op.left is not op.right
                and (isinstance(op.left, Constant) and type(op.left.value) is str or plan.ctype(op.left) == "str"))

    def _candidates(self) -> set:
        fn = self.plan.fn
        found = {op for block in fn.blocks for op in block.ops if self.is_slice(op) or self.is_prefixed(op)}
        phis = {phi for block in fn.blocks if block not in self.headers for phi in block.phis if phi.type == STR}
        found |= phis
        changed = True
        while changed:
            changed = False
            for value in list(found):
                if isinstance(value, Phi):           # optimistic: a φ stays while all its inputs are views
                    keep = all(v in found for v in value.incoming.values())
                elif isinstance(value, ops.BinaryOp):  # the slice a view, the prefix a str of its own
                    keep = value.right in found and value.left not in found
                else:                                  # a view never points into another view
                    keep = value.obj not in found
                if not keep:
                    found.discard(value)
                    changed = True
        return found

    def _webs(self, candidates: set) -> list[set]:
        """Candidates connected through φs and prefixes (each web is kept or dropped as a whole)."""
        parent: dict = {}

        def find(v):
            while parent.get(v, v) is not v:
                v = parent[v]
            return v

        for value in candidates:
            inputs = list(value.incoming.values()) if isinstance(value, Phi) else (
                [value.right] if isinstance(value, ops.BinaryOp) else [])
            for other in inputs:
                if other in candidates:
                    a, b = find(value), find(other)
                    if a is not b:
                        parent[a] = b
        webs: dict = {}
        for value in candidates:
            webs.setdefault(find(value), set()).add(value)
        return list(webs.values())

    # ---- is keeping a web exact? ----------------------------------------------------------------------------------
    def _exact(self, web: set) -> bool:
        probes, escapes = 0, []
        for value in web:
            for user in dict.fromkeys(self.plan.users.get(value, [])):
                if user in web and (isinstance(user, Phi) or user.right is value):
                    continue
                if self.is_probe(user) and user.left is value:
                    probes += 1
                    continue
                if isinstance(user, Phi):
                    escapes += [(value, ("edge", pred, user.block)) for pred, v in user.incoming.items()
                                if v is value]
                elif _builds_once(user, value):
                    escapes += [(value, ("op", user))] * sum(v is value for v in user.operands())
                else:
                    return False
        if not probes or len(escapes) > 1:
            return False
        if escapes and not self._once_per_definition(*escapes[0]):
            return False
        for moves in self.plan.copies.edges.values():
            if any(isinstance(dst, Temp) and src in web for dst, src in moves):
                return False
        return True

    def is_probe(self, user) -> bool:
        """``view in d`` / ``view not in d`` with ``d`` a dict or any object (a dict reached through an attribute:
        the runtime asks the index when ``d`` is a dict whose ``in`` is dict's own, else builds the str)."""
        return (isinstance(user, ops.Compare) and user.op in ("in", "not in") and user.right is not user.left
                and _dict_or_object(self.plan.ctype, user.right))

    def _once_per_definition(self, value, where) -> bool:
        """Whether the use ``where`` of ``value`` can run again only after ``value`` is defined again."""
        definition = value.block
        if where[0] == "edge":
            _, use_block, start = where
            pending = [start]
        else:
            use_block = where[1].block
            pending = list(use_block.successors())
        seen = set()
        while pending:
            block = pending.pop()
            if block is definition or block in seen:
                continue
            if block is use_block:
                return False
            seen.add(block)
            pending.extend(block.successors())
        return True

    def _roots(self, value) -> list:
        """The strs a view points into."""
        if isinstance(value, Phi):
            return [r for v in value.incoming.values() for r in self._roots(v)]
        if isinstance(value, ops.BinaryOp):
            return [value.left] + self._roots(value.right)
        return [value.obj]


StrViews.NONE = StrViews()

INDEX_SLOT = "_mj_at"     # the local an object subscript's fast path leaves its index in (``mj_indexes_fast``)


# ---- emission ---------------------------------------------------------------------------------------------------
def expression(emitter, op) -> str | None:
    """The Cython expression for ``op`` when it is a view operation or a native dict lookup, else None."""
    views = emitter.views
    if op in views:
        if isinstance(op, ops.GetItem):
            key = op.key
            start = "0" if _omitted(key.start) else emitter.ref(key.start)
            stop = "PY_SSIZE_T_MAX" if _omitted(key.stop) else emitter.ref(key.stop)
            return f"mj_view_slice({emitter.ref(op.obj)}, {start}, {stop})"
        return f"mj_view_prefixed({emitter.ref(op.left)}, {emitter.var(op.right)})"
    ctype = emitter.ctype
    if isinstance(op, ops.Compare) and op.left in views and views.is_probe(op):
        test = f"mj_view_in_dict({emitter.ref(op.right)}, {emitter.var(op.left)})"
        return test if op.op == "in" else f"not {test}"
    if isinstance(op, ops.Compare) and op.op in ("in", "not in") and ctype(op.left) == "str" \
            and _dict_or_object(ctype, op.right):
        test = f"mj_str_in_dict({emitter.ref(op.right)}, {emitter.ref(op.left)})"
        return test if op.op == "in" else f"not {test}"
    if isinstance(op, ops.CallMethod) and op.name == "get" and ctype(op.obj) == "dict" and not op.kwnames \
            and len(op.args) in (1, 2) and ctype(op.args[0]) == "str":
        default = emitter.ref(op.args[1]) if len(op.args) == 2 else "None"
        return f"mj_dict_get_str({emitter.ref(op.obj)}, {emitter.ref(op.args[0])}, {default})"
    if isinstance(op, ops.GetItem) and _dict_or_object(ctype, op.obj) and ctype(op.key) == "str":
        return f"mj_dict_getitem_str({emitter.ref(op.obj)}, {emitter.ref(op.key)})"
    if isinstance(op, ops.GetItem) and _dict_or_object(ctype, op.obj) and ctype(op.key) == "object" \
            and not isinstance(op.key, Constant) and op.key not in emitter.inline_slices:
        obj, key = emitter.ref(op.obj), emitter.ref(op.key)    # an exact list, tuple or str by a small int first
        emitter.uses_index_slot = True
        return (f"(mj_index_item({obj}, {INDEX_SLOT}) if mj_indexes_fast({obj}, {key}, &{INDEX_SLOT}) "
                f"else mj_getitem_any({obj}, {key}))")
    return None


def _dict_or_object(ctype, value) -> bool:
    """A dict, or a value of unknown type (not a constant) that may be one: the runtime tests which it is."""
    return ctype(value) == "dict" or ctype(value) == "object" and not isinstance(value, Constant)


def _builds_once(user, value) -> bool:
    """Uses whose emitted code reads the value once, where the op is (so a view is built there exactly once)."""
    if isinstance(user, (ops.ListAppend, ops.Return)):
        return True
    if isinstance(user, (ops.Call, ops.CallMethod)):
        return value in user.args and getattr(user, "func", None) is not value and getattr(user, "obj", None) \
            is not value
    return False


def _omitted(bound) -> bool:
    return isinstance(bound, Constant) and bound.value is None

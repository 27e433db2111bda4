"""A list of a str's characters that is only read stands for the str: ``chars = list(s)`` then ``len(chars)`` is
``len(s)`` and ``"".join(chars[a:b])`` is ``s[a:b]``.

Tokenizers copy a word into a list of one-character strs and rebuild substrings from slices of it (WordPiece:
``"".join(chars[start:end])`` per probe). While the list holds exactly ``list(s)`` — it is never changed and never
leaves the function's reach — its length is the str's and a join of a slice of it is the same slice of the str
(list and str slices clamp their int bounds alike; joining one-character strs concatenates their code points).
So each such use reads ``s`` instead (no list, no join), and the list goes when nothing else needs it. An item
``chars[i]`` is ``s[i]`` too where ``0 <= i < len(chars)`` is proven (a non-negative int tested against the length
on every path: ``while i < len(chars): ch = chars[i]``); elsewhere it stays a list item (an index out of range
raises the list's own IndexError message, which differs from the str's).

Exact as long as nothing else can reach the list: every use of it is ``len``, an item or slice read, a loop over
it or a truth test (none changes it or lets it escape: a slice is a new list); ``s`` is an exact str (its own
``__iter__``/``__len__``: see ``exact_str``); bounds are ints or None.
"""
from __future__ import annotations

import builtins

from moshjit.analysis.dominators import DominatorTree
from moshjit.context import CompileContext
from moshjit.ir import ops
from moshjit.ir.function import Block, Function
from moshjit.ir.ops import Constant, Phi
from moshjit.ir.types import CHAR, STR, IntType


def _call_of(value, function, arity: int) -> bool:
    return (isinstance(value, ops.Call) and isinstance(value.func, Constant) and value.func.value is function
            and len(value.args) == arity and not value.kwnames)


def _copy_of_str(op, exact_calls) -> bool:
    """``list(s)`` of an exact str ``s``."""
    return _call_of(op, builtins.list, 1) and exact_str(op.args[0], exact_calls)


# str methods that return an exact str when called on an exact str (a str subclass could override them, and
# ``str(x)`` may return a subclass instance: such values are typed str too, but never exact here)
_STR_RESULTS = ("lower", "upper", "casefold", "strip", "lstrip", "rstrip", "replace", "title", "capitalize",
                "swapcase", "join")
_LIST_RESULTS = ("split", "rsplit", "splitlines")


def exact_str(value, exact_calls=frozenset(), seen=None, arguments=True) -> bool:
    """Whether ``value`` is always an exact str (its own ``__iter__``/``__len__``): a str argument (the dispatcher
    keys arguments by exact type; not with ``arguments`` False), a str constant, a slice or concatenation of exact strs, a str method's result on
    an exact str, an item of an exact str's ``split()``, a jitted method's result in ``exact_calls``
    (``CompileContext.exact_str_results``)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return True                                   # a φ cycle: exact if its other inputs are
    seen.add(id(value))
    if isinstance(value, Constant):
        return type(value.value) is str
    if getattr(value, "type", None) not in (STR, CHAR):
        return False
    if isinstance(value, ops.Argument):
        return arguments
    if isinstance(value, Phi):
        return all(exact_str(v, exact_calls, seen, arguments) for v in value.incoming.values())
    if isinstance(value, ops.GetItem):
        return exact_str(value.obj, exact_calls, seen, arguments)
    if isinstance(value, ops.BinaryOp):
        return (value.op == "+" and exact_str(value.left, exact_calls, seen, arguments)
                and exact_str(value.right, exact_calls, seen, arguments))
    if isinstance(value, ops.BuildString):
        return True
    if isinstance(value, ops.CallMethod):
        return value in exact_calls or value.name in _STR_RESULTS and exact_str(value.obj, exact_calls, seen,
                                                                                 arguments)
    if isinstance(value, ops.ForIter) and isinstance(value.iterator, ops.GetIter):
        return _exact_str_items(value.iterator.obj, exact_calls, seen, arguments)
    return False


def _exact_str_items(value, exact_calls, seen, arguments) -> bool:
    """Whether every item of the list ``value`` is an exact str."""
    if isinstance(value, Phi):
        return all(_exact_str_items(v, exact_calls, seen, arguments) for v in value.incoming.values())
    if isinstance(value, ops.BuildList):
        return all(exact_str(item, exact_calls, seen, arguments) for item in value.items)
    return (isinstance(value, ops.CallMethod) and value.name in _LIST_RESULTS and not value.kwnames
            and exact_str(value.obj, exact_calls, seen, arguments))


def returns_exact_str(fn: Function, exact_calls=frozenset()) -> bool:
    """Whether every value ``fn`` returns is an exact str whatever its arguments are (so a call of its compiled
    code gives one: a caller's str argument typed str may be a subclass, and a method may return it)."""
    returned = [block.terminator.value for block in fn.blocks if isinstance(block.terminator, ops.Return)]
    return bool(returned) and all(exact_str(value, exact_calls, arguments=False) for value in returned)


def _bound(value) -> bool:
    if isinstance(value, Constant):
        return value.value is None or type(value.value) is int
    return isinstance(value.type, IntType)


def _plain_slice(key) -> bool:
    """``a:b`` with int (or omitted) bounds and no step."""
    if isinstance(key, ops.BuildSlice):
        return (isinstance(key.step, Constant) and key.step.value is None
                and _bound(key.start) and _bound(key.stop))
    return (isinstance(key, Constant) and type(key.value) is slice and key.value.step is None
            and all(b is None or type(b) is int for b in (key.value.start, key.value.stop)))


def _joins_of(value, users) -> list | None:
    """The ``"".join(value)`` ops that are all of ``value``'s uses (None when it has another use)."""
    found = users.get(value, [])
    if found and all(isinstance(u, ops.CallMethod) and u.name == "join" and isinstance(u.obj, Constant)
                     and u.obj.value == "" and u.args == [value] and not u.kwnames for u in found):
        return found
    return None


def _only_read(user, chars) -> bool:
    if _call_of(user, builtins.len, 1):
        return True
    if isinstance(user, ops.GetItem):
        return user.obj is chars and user.key is not chars
    if isinstance(user, ops.GetIter):
        return True
    return isinstance(user, ops.Branch) and user.cond is chars


class Bounds:
    """Which int values are proven to lie in ``[0, len(x))`` where they are used, from the branches on
    ``value < len(x)`` that dominate the use (for a φ: that end each incoming edge)."""

    def __init__(self, fn: Function):
        self.domtree = DominatorTree(fn.entry, Block.successors)
        self.preds = fn.predecessors()

    def below_length(self, value, lengths, block) -> bool:
        """``0 <= value < len`` at ``block``, ``lengths`` the values equal to that length."""
        if not _non_negative(value):
            return False
        if isinstance(value, Phi):
            return all(_non_negative(v) and self._tested(v, lengths, pred, value.block)
                       for pred, v in value.incoming.items())
        return self._tested(value, lengths, block, None)

    def _tested(self, value, lengths, block, edge_to) -> bool:
        """Whether ``value < length`` held on the way to the end of ``block`` (and on its edge to ``edge_to``)."""
        if edge_to is not None and self._true_edge(block, edge_to, value, lengths):
            return True
        node = block
        while True:
            preds = self.preds.get(node, [])
            if len(preds) == 1 and self._true_edge(preds[0], node, value, lengths):
                return True
            parent = self.domtree.idom.get(node)
            if parent is None or parent is node:
                return False
            node = parent

    @staticmethod
    def _true_edge(pred, succ, value, lengths) -> bool:
        term = pred.terminator
        if not (isinstance(term, ops.Branch) and term.if_true is succ and term.if_false is not succ
                and isinstance(term.cond, ops.Compare)):
            return False
        cond = term.cond
        if cond.op == "<":
            index, length = cond.left, cond.right
        elif cond.op == ">":
            index, length = cond.right, cond.left
        else:
            return False
        return _same(index, value) and any(length is n for n in lengths)


def _non_negative(value) -> bool:
    if isinstance(value, Constant):
        return type(value.value) is int and value.value >= 0
    t = value.type
    return isinstance(t, IntType) and t.lo is not None and t.lo >= 0


def _same(a, b) -> bool:
    if isinstance(a, Constant) and isinstance(b, Constant):
        return type(a.value) is type(b.value) is int and a.value == b.value
    return a is b


def str_lists(fn: Function, ctx: CompileContext | None = None) -> bool:
    """Rewrite the reads of every read-only ``list(s)`` (see the module docstring); whether anything changed.
    ``ctx`` tells which calls of jitted methods give exact strs."""
    exact_calls = ctx.exact_str_results if ctx is not None else frozenset()
    users = fn.users()
    replacements: dict = {}
    changed = False
    bounds = Bounds(fn)
    for block in fn.blocks:
        for chars in list(block.ops):
            if not _copy_of_str(chars, exact_calls):
                continue
            uses = users.get(chars, [])
            if not all(_only_read(user, chars) for user in uses):
                continue
            text = chars.args[0]
            remaining = len(uses)
            lengths = [user for user in uses if _call_of(user, builtins.len, 1)]
            for user in uses:
                if user in lengths:
                    user.args = [text]
                    remaining -= 1
                    changed = True
                    continue
                if isinstance(user, ops.GetItem) and not _plain_slice(user.key) and bounds.below_length(
                        user.key, lengths, user.block):
                    item = ops.GetItem(text, user.key, line=user.line)
                    item.block = user.block
                    item.type = CHAR
                    user.block.ops[user.block.ops.index(user)] = item
                    replacements[user] = item
                    remaining -= 1
                    changed = True
                    continue
                joins = _joins_of(user, users) if isinstance(user, ops.GetItem) and _plain_slice(user.key) else None
                if joins is None:
                    continue
                for join in joins:
                    piece = ops.GetItem(text, user.key, line=join.line)
                    piece.block = join.block
                    piece.type = STR
                    join.block.ops[join.block.ops.index(join)] = piece
                    replacements[join] = piece
                user.block.ops.remove(user)              # the list slice: no use left
                remaining -= 1
                changed = True
            if remaining == 0:
                block.ops.remove(chars)
    fn.substitute(replacements)
    return changed

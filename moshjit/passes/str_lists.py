"""A list of a str's characters that is only read stands for the str: ``chars = list(s)`` then ``len(chars)`` is
``len(s)`` and ``"".join(chars[a:b])`` is ``s[a:b]``.

Tokenizers copy a word into a list of one-character strs and rebuild substrings from slices of it (WordPiece:
``"".join(chars[start:end])`` per probe). While the list holds exactly ``list(s)`` — it is never changed and never
leaves the function's reach — its length is the str's and a join of a slice of it is the same slice of the str
(list and str slices clamp their int bounds alike; joining one-character strs concatenates their code points).
So each such use reads ``s`` instead (no list, no join), and the list goes when nothing else needs it.

Exact as long as nothing else can reach the list: every use of it is ``len``, an item or slice read, a loop over
it or a truth test (none changes it or lets it escape: a slice is a new list); ``s`` is typed str (its own
``__iter__``/``__len__``, as the backends already assume of str-typed values); bounds are ints or None.
"""
from __future__ import annotations

import builtins

from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.ops import Constant
from moshjit.ir.types import CHAR, STR, IntType


def _call_of(value, function, arity: int) -> bool:
    return (isinstance(value, ops.Call) and isinstance(value.func, Constant) and value.func.value is function
            and len(value.args) == arity and not value.kwnames)


def _copy_of_str(op) -> bool:
    """``list(s)`` of a str-typed ``s``."""
    return _call_of(op, builtins.list, 1) and getattr(op.args[0], "type", None) in (STR, CHAR)


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


def str_lists(fn: Function) -> bool:
    """Rewrite the reads of every read-only ``list(s)`` (see the module docstring); whether anything changed."""
    users = fn.users()
    replacements: dict = {}
    changed = False
    for block in fn.blocks:
        for chars in list(block.ops):
            if not _copy_of_str(chars):
                continue
            uses = users.get(chars, [])
            if not all(_only_read(user, chars) for user in uses):
                continue
            text = chars.args[0]
            remaining = len(uses)
            for user in uses:
                if _call_of(user, builtins.len, 1):
                    user.args = [text]
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

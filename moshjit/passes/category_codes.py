"""Tests on a Unicode category become integer tests on its code.

``c = unicodedata.category(x)`` whose every use is a test against constants — ``c == "Zs"``, ``c != "Mn"``,
``c in ("Cc", "Cf")``, ``c.startswith("P")`` — becomes ``k = category_code(x)`` (``primitives/unicode_categories``:
a real function, raising exactly what ``category`` raises), and each test an integer test on ``k``: ``k == 29``
when one category passes, ``k != 12`` when all but one do, else a bit test ``(mask >> k) & 1 != 0``. Which
categories pass is computed by running the test itself on each of the 30 names, so the rewrite is exact by
construction. Backends lower ``category_code`` of a character to a table lookup; the interpreter just calls it.
"""
from __future__ import annotations

import unicodedata

from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.ir.interpreter import COMPARE_FUNCTIONS
from moshjit.ir.ops import Constant
from moshjit.primitives.unicode_categories import CATEGORY_NAMES, category_code

# str methods that are pure and return a bool for constant arguments.
_TEST_METHODS = ("startswith", "endswith", "isupper", "islower", "isalpha", "isalnum", "isascii")
_FOLDABLE = (str, int, bool, type(None))


def _is_category_call(op) -> bool:
    return (isinstance(op, ops.Call) and isinstance(op.func, Constant) and op.func.value is unicodedata.category
            and len(op.args) == 1 and not op.kwnames)


def _constant(value) -> bool:
    if not isinstance(value, Constant):
        return False
    v = value.value
    return type(v) in _FOLDABLE or (type(v) in (tuple, frozenset) and all(type(i) in _FOLDABLE for i in v))


def _passing_codes(user, category) -> list[int] | None:
    """The codes of the categories for which ``user`` (a use of ``category``) is true, or None when ``user`` is
    not a test on constants whose result is a bool for every category."""
    if isinstance(user, ops.Compare) and user.op not in ("is", "is not"):
        if user.left is category and _constant(user.right) and user.right is not category:
            test = lambda name: COMPARE_FUNCTIONS[user.op](name, user.right.value)
        elif user.right is category and _constant(user.left):
            test = lambda name: COMPARE_FUNCTIONS[user.op](user.left.value, name)
        else:
            return None
    elif (isinstance(user, ops.CallMethod) and user.obj is category and user.name in _TEST_METHODS
          and not user.kwnames and all(_constant(a) for a in user.args)):
        test = lambda name: getattr(name, user.name)(*(a.value for a in user.args))
    else:
        return None
    try:
        results = [test(name) for name in CATEGORY_NAMES]
    except Exception:                 # the test raises at run time: leave it to run
        return None
    if not all(type(r) is bool for r in results):
        return None
    return [code for code, passed in enumerate(results) if passed]


def _integer_test(code, passing: list[int], line) -> list:
    """Ops computing, from ``code``, whether it is one of ``passing`` (the last op is the bool; none when the
    answer is the same for every category)."""
    count = len(CATEGORY_NAMES)
    if not passing or len(passing) == count:
        return []
    if len(passing) == 1:
        return [ops.Compare(code, Constant(passing[0]), "==", line=line)]
    if len(passing) == count - 1:
        (missing,) = set(range(count)) - set(passing)
        return [ops.Compare(code, Constant(missing), "!=", line=line)]
    mask = sum(1 << c for c in passing)
    shifted = ops.BinaryOp(Constant(mask), code, ">>", False, line=line)
    bit = ops.BinaryOp(shifted, Constant(1), "&", False, line=line)
    return [shifted, bit, ops.Compare(bit, Constant(0), "!=", line=line)]


def category_codes(fn: Function) -> Function:
    """Rewrite every category call whose uses are all tests on constants (see the module docstring)."""
    users = fn.users()
    replacements: dict = {}
    for block in fn.blocks:
        for op in list(block.ops):
            if not _is_category_call(op):
                continue
            uses = users.get(op, [])
            passing = [_passing_codes(user, op) for user in uses]
            if not uses or any(p is None for p in passing):
                continue
            code = ops.Call(Constant(category_code), [op.args[0]], (), line=op.line)
            code.block = block
            block.ops[block.ops.index(op)] = code
            for user, codes in zip(uses, passing):
                new_ops = _integer_test(code, codes, user.line)
                where = user.block.ops.index(user)
                for new in new_ops:
                    new.block = user.block
                user.block.ops[where:where + 1] = new_ops
                replacements[user] = new_ops[-1] if new_ops else Constant(bool(codes))
    fn.substitute(replacements)
    return fn

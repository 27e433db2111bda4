"""Unicode general categories as small integer codes, so that tests on ``unicodedata.category(ch)`` become
integer compares (``passes/category_codes.py``) instead of comparisons of two-letter strings.

``category_code`` is a real function: the reference interpreter calls it, and the Cython backend lowers it to a
lookup in the table ``runtime/unicode_tables.py`` generates in this same order from the running interpreter's
``unicodedata``.
"""
from __future__ import annotations

import unicodedata

# Unicode's 30 general categories, sorted: a category's code is its index. Sorting keeps every major class
# (C, L, M, N, P, S, Z) contiguous.
CATEGORY_NAMES = ("Cc", "Cf", "Cn", "Co", "Cs", "Ll", "Lm", "Lo", "Lt", "Lu", "Mc", "Me", "Mn", "Nd", "Nl", "No",
                  "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "Sc", "Sk", "Sm", "So", "Zl", "Zp", "Zs")
CATEGORY_CODES = {name: code for code, name in enumerate(CATEGORY_NAMES)}


def category_code(ch):
    """``unicodedata.category(ch)`` as its code in ``CATEGORY_NAMES`` (raising exactly what it raises)."""
    return CATEGORY_CODES[unicodedata.category(ch)]

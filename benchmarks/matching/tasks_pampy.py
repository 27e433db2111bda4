"""The same tasks with Pampy (``pip install pampy``), as close as its patterns allow."""
from pampy import REST, _, match

from benchmarks.matching.shapes import Add, Circle, Mul, Neg, Num, Point, Rect


def tuple_shapes(s):
    return match(s, (), lambda empty: 0, (_,), lambda x: x, (_, _), lambda a, b: a - b,
                 (_, _, REST), lambda a, b, rest: a + len(rest) + rest[-1])


def nested_lists(s):
    return match(s, [], lambda empty: 0, [[_, _], [_, _]], lambda a, b, c, d: a * d - b * c,
                 [_, [_, REST]], lambda x, y, rest: x + y, [[_], _], lambda x, y: x - y, _, lambda other: -1)


def shapes(s):
    return match(s,
                 Circle, lambda c: match(c.center, Point, lambda p: c.r * c.r * 3 if p.x == 0 and p.y == 0
                                         else p.x + p.y + c.r),
                 Rect, lambda r: match(r.corner, Point, lambda p: r.w * r.h if p.x == 0 and p.y == 0
                                       else r.w + r.h),
                 Point, lambda p: p.x * p.y)


def tokens(s):
    return match(s, "(", 1, ")", 2, "+", 3, "-", 3, "*", 4, "/", 4, "if", 5, "else", 6, "while", 7, "for", 8,
                 0, 9, 1, 9, None, 10, _, 0)


def evaluate(node):
    return match(node, Num, lambda n: n.value,
                 Add, lambda n: evaluate(n.left) + evaluate(n.right),
                 Mul, lambda n: evaluate(n.left) * evaluate(n.right),
                 Neg, lambda n: -evaluate(n.operand))

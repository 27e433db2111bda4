# moshmosh?
# +pattern-matching
# +pipeline
"""The matching tasks written with moshjit's extended syntax (imported through the hook)."""
from benchmarks.matching.shapes import Add, Circle, Mul, Neg, Num, Point, Rect


def tuple_shapes(s):
    with match(s):
        if ():
            return 0
        if (x,):
            return x
        if (a, b):
            return a - b
        if (a, *rest, z):
            return a + len(rest) + z


def nested_lists(s):
    with match(s):
        if []:
            return 0
        if [[a, b], [c, d]]:
            return a * d - b * c
        if [x, [y, *_]]:
            return x + y
        if [[x], y]:
            return x - y
        if _:
            return -1


def shapes(s):
    with match(s):
        if Circle(center=Point(x=0, y=0), r=r):
            return r * r * 3
        if Circle(center=Point(x=x, y=y), r=r):
            return x + y + r
        if Rect(corner=Point(x=0, y=0), w=w, h=h):
            return w * h
        if Rect(w=w, h=h):
            return w + h
        if Point(x=x, y=y):
            return x * y


def positional_shapes(s):
    with match(s):
        if Circle(Point(0, 0), r):
            return r * r * 3
        if Circle(Point(x, y), r):
            return x + y + r
        if Rect(Point(0, 0), w, h):
            return w * h
        if Rect(_, w, h):
            return w + h
        if Point(x, y):
            return x * y


def events(e):
    with match(e):
        if {"type": "click", "x": x, "y": y}:
            return x + y
        if {"type": "key", "key": "enter"}:
            return 1
        if {"type": "key", "key": k}:
            return len(k)
        if {"type": "scroll", "delta": d} and when(d > 0):
            return d
        if {"type": _}:
            return -1
        if _:
            return 0


def token_pairs(t):
    with match(t):
        if ("num", n):
            return n
        if ("op", "+" or "-"):
            return 1
        if ("op", _):
            return 2
        if ("name", name) and when(name.startswith("_")):
            return 3
        if ("name", _):
            return 4
        if ("eof",):
            return 5
        if _:
            return 0


def tokens(s):
    with match(s):
        if "(":
            return 1
        if ")":
            return 2
        if "+" or "-":
            return 3
        if "*" or "/":
            return 4
        if "if":
            return 5
        if "else":
            return 6
        if "while":
            return 7
        if "for":
            return 8
        if 0 or 1:
            return 9
        if None:
            return 10
        if _:
            return 0


def evaluate(node):
    with match(node):
        if Num(v):
            return v
        if Add(l, r):
            return evaluate(l) + evaluate(r)
        if Mul(l, r):
            return evaluate(l) * evaluate(r)
        if Neg(e):
            return -evaluate(e)


def evaluate_keywords(node):
    with match(node):
        if Num(value=v):
            return v
        if Add(left=l, right=r):
            return evaluate_keywords(l) + evaluate_keywords(r)
        if Mul(left=l, right=r):
            return evaluate_keywords(l) * evaluate_keywords(r)
        if Neg(operand=e):
            return -evaluate_keywords(e)


def normalise(text):
    return text | str.strip | str.lower | str.split | len

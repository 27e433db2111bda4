"""The same tasks hand-written as isinstance/len chains, and as CPython 3.10+ ``match`` statements."""
from benchmarks.matching.shapes import Add, Circle, Mul, Neg, Num, Point, Rect


def tuple_shapes_chain(s):
    if isinstance(s, tuple):
        n = len(s)
        if n == 0:
            return 0
        if n == 1:
            return s[0]
        if n == 2:
            return s[0] - s[1]
        return s[0] + len(list(s[1:-1])) + s[-1]
    return None


def tuple_shapes_match(s):
    match s:
        case ():
            return 0
        case (x,):
            return x
        case (a, b):
            return a - b
        case (a, *rest, z):
            return a + len(rest) + z


def nested_lists_chain(s):
    if isinstance(s, list):
        n = len(s)
        if n == 0:
            return 0
        if n == 2:
            first, second = s[0], s[1]
            if isinstance(first, list) and len(first) == 2 and isinstance(second, list) and len(second) == 2:
                return first[0] * second[1] - first[1] * second[0]
            if isinstance(second, list) and len(second) >= 1:
                return first + second[0]
            if isinstance(first, list) and len(first) == 1:
                return first[0] - second
    return -1


def nested_lists_match(s):
    match s:
        case []:
            return 0
        case [[a, b], [c, d]]:
            return a * d - b * c
        case [x, [y, *_]]:
            return x + y
        case [[x], y]:
            return x - y
        case _:
            return -1


def shapes_chain(s):
    if isinstance(s, Circle):
        c = s.center
        if isinstance(c, Point):
            if c.x == 0 and c.y == 0:
                return s.r * s.r * 3
            return c.x + c.y + s.r
    if isinstance(s, Rect):
        c = s.corner
        if isinstance(c, Point) and c.x == 0 and c.y == 0:
            return s.w * s.h
        return s.w + s.h
    if isinstance(s, Point):
        return s.x * s.y
    return None


def shapes_match(s):
    match s:
        case Circle(center=Point(x=0, y=0), r=r):
            return r * r * 3
        case Circle(center=Point(x=x, y=y), r=r):
            return x + y + r
        case Rect(corner=Point(x=0, y=0), w=w, h=h):
            return w * h
        case Rect(w=w, h=h):
            return w + h
        case Point(x=x, y=y):
            return x * y


def tokens_chain(s):
    if s == "(":
        return 1
    if s == ")":
        return 2
    if s == "+" or s == "-":
        return 3
    if s == "*" or s == "/":
        return 4
    if s == "if":
        return 5
    if s == "else":
        return 6
    if s == "while":
        return 7
    if s == "for":
        return 8
    if s == 0 or s == 1:
        return 9
    if s is None:
        return 10
    return 0


def tokens_match(s):
    match s:
        case "(":
            return 1
        case ")":
            return 2
        case "+" | "-":
            return 3
        case "*" | "/":
            return 4
        case "if":
            return 5
        case "else":
            return 6
        case "while":
            return 7
        case "for":
            return 8
        case 0 | 1:
            return 9
        case None:
            return 10
        case _:
            return 0


def evaluate_chain(node):
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Add):
        return evaluate_chain(node.left) + evaluate_chain(node.right)
    if isinstance(node, Mul):
        return evaluate_chain(node.left) * evaluate_chain(node.right)
    if isinstance(node, Neg):
        return -evaluate_chain(node.operand)
    return None


def evaluate_match(node):
    match node:
        case Num(v):
            return v
        case Add(l, r):
            return evaluate_match(l) + evaluate_match(r)
        case Mul(l, r):
            return evaluate_match(l) * evaluate_match(r)
        case Neg(e):
            return -evaluate_match(e)


def positional_shapes_match(s):
    match s:
        case Circle(Point(0, 0), r):
            return r * r * 3
        case Circle(Point(x, y), r):
            return x + y + r
        case Rect(Point(0, 0), w, h):
            return w * h
        case Rect(_, w, h):
            return w + h
        case Point(x, y):
            return x * y


def events_chain(e):
    if isinstance(e, dict):
        kind = e.get("type")
        if kind == "click" and "x" in e and "y" in e:
            return e["x"] + e["y"]
        if kind == "key" and "key" in e:
            key = e["key"]
            if key == "enter":
                return 1
            return len(key)
        if kind == "scroll" and "delta" in e and e["delta"] > 0:
            return e["delta"]
        if "type" in e:
            return -1
    return 0


def events_match(e):
    match e:
        case {"type": "click", "x": x, "y": y}:
            return x + y
        case {"type": "key", "key": "enter"}:
            return 1
        case {"type": "key", "key": k}:
            return len(k)
        case {"type": "scroll", "delta": d} if d > 0:
            return d
        case {"type": _}:
            return -1
        case _:
            return 0


def token_pairs_chain(t):
    if isinstance(t, tuple):
        n = len(t)
        if n == 2:
            kind, value = t
            if kind == "num":
                return value
            if kind == "op":
                return 1 if value == "+" or value == "-" else 2
            if kind == "name":
                return 3 if value.startswith("_") else 4
        elif n == 1 and t[0] == "eof":
            return 5
    return 0


def token_pairs_match(t):
    match t:
        case ("num", n):
            return n
        case ("op", "+" | "-"):
            return 1
        case ("op", _):
            return 2
        case ("name", name) if name.startswith("_"):
            return 3
        case ("name", _):
            return 4
        case ("eof",):
            return 5
        case _:
            return 0


def normalise_nested(text):
    return len(str.split(str.lower(str.strip(text))))

"""Generator expressions whose consumer moshjit does not write out: they become real generators, created where
CPython creates them, capturing variables through cells (late binding included)."""
# ruff: noqa


def stored(xs):
    g = (x * 2 for x in xs)
    return list(g)


def returned(xs):
    return (x for x in xs)


def to_unknown_function(xs):
    return list(enumerate(x for x in xs))


def to_dict(xs):
    return dict((x, i) for i, x in enumerate(xs))


def to_list_extend(out, xs):
    out = list(out)
    out.extend(x for x in xs)
    return out


def to_join_of_variable(sep, xs):
    return sep.join(x for x in xs)


def sum_with_variable_start(xs, start):
    return sum((x for x in xs), start)


def late_binding(xs, k):
    g = (x * k for x in xs)
    k = 10
    return list(g)


def to_user_function(xs, k):
    def consume(it):
        return [v for v in it if v != k]
    return consume(x + k for x in xs)


def partially_consumed(xs):
    g = (x * x for x in xs)
    first = next(g, None)
    return first, list(g)


def nested(xs):
    return sum(y for y in (x + 1 for x in xs))


def conditional(xs, c):
    g = (x for x in xs) if c else []
    return list(g)


def raising_item(xs):
    g = (10 // x for x in xs)
    out = []
    try:
        for v in g:
            out.append(v)
    except ZeroDivisionError as exc:
        out.append(str(exc))
    return out


CASES = [
    (stored, [([1, 2],), ([],), ("ab",)]),
    (returned, [([1, 2],)]),
    (to_unknown_function, [("abc",)]),
    (to_dict, [("abca",), ([],)]),
    (to_list_extend, [([0], [1, 2]), ([], 3)]),
    (to_join_of_variable, [("-", "abc"), (", ", ["x", 1])]),
    (sum_with_variable_start, [([1, 2], 10), ([[1]], []), (["a"], "")]),
    (late_binding, [([1, 2], 3)]),
    (to_user_function, [([1, 2, 3], 1)]),
    (partially_consumed, [([3, 4, 5],), ([],)]),
    (nested, [([1, 2, 3],), ([],)]),
    (conditional, [([1, 2], 1), ([1, 2], 0)]),
    (raising_item, [([1, 2, 0, 5],), ([5],)]),
]

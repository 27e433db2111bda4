"""Functions with cells: nested functions and lambdas capturing variables, ``nonlocal`` writes and deletions,
and jitted functions that are closures themselves, for the differential tests."""
# ruff: noqa


def accumulate(x, ys):
    total = 0

    def add(v):
        nonlocal total
        total += v
    for y in ys:
        add(y * x)
    f = lambda: total + x
    return total, f()


def sort_by_modulus(xs, k):
    return sorted(xs, key=lambda v: (v % k, v))


def lambdas_in_comprehension(xs):
    return [f() for f in [lambda: x * 2 for x in xs]]


def late_binding(n):
    fs = []
    for i in range(n):
        fs.append(lambda: i)
    return [f() for f in fs]


def counter_factory(start):
    count = start

    def step(by=1):
        nonlocal count
        count += by
        return count
    return step


def use_counter(start, steps):
    step = counter_factory(start)
    out = [step(s) for s in steps]
    return out, step()


def unbound_when_called(flag):
    def read():
        return value
    if flag:
        value = "set"
    return read()


def deleted_cell(flag):
    value = [flag]

    def read():
        return value
    first = read()
    if flag:
        del value
    return first, read()


def captured_argument(a, b):
    def swap():
        nonlocal a, b
        a, b = b, a
    swap()
    c = a
    swap()
    return a, b, c


def recursive_inner(n):
    def fact(k):
        return 1 if k <= 1 else k * fact(k - 1)
    return fact(n)


def nested_generator(xs):
    def gen():
        yield from xs
    return list(gen())


def cell_in_handler(x):
    log = []

    def note(msg):
        log.append(msg)
    try:
        note("try")
        r = 10 // x
    except ZeroDivisionError as exc:
        note(str(exc))
        r = None
    finally:
        note("finally")
    return r, log


def _make_nonlocal_writer():
    total = 0

    def nonlocal_write(x):
        nonlocal total
        total = total + x
        return total
    return nonlocal_write


nonlocal_write = _make_nonlocal_writer()


def _make_nonlocal_deleter():
    total = 0

    def nonlocal_delete(flag):
        nonlocal total
        if flag:
            del total
        return total
    return nonlocal_delete


nonlocal_delete = _make_nonlocal_deleter()


def _make_shared_rebinder():
    def helper(x):
        return x + 1

    def shared_rebinder(flag):
        nonlocal helper
        first = helper(1)
        if flag:
            helper = str
        inner = lambda: helper(2)
        return first, inner()
    return shared_rebinder


shared_rebinder = _make_shared_rebinder()


def annotated_helpers(x):
    """Nested functions with annotations (tomli's ``make_safe_parse_float``): evaluated at the ``def``, in
    order, and kept as CPython keeps them (``__annotations__`` a dict of the pairs); one closes over ``x``."""
    log = []

    def note(value):
        log.append(value)
        return value

    def plain(v: note(int), *rest: note("rest"), k: note(x) = 1, **kw: note(dict)) -> note("out"):
        return v

    def closing(v: int) -> type(x):
        return v + x
    return plain(x), closing(x), plain.__annotations__, closing.__annotations__, list(log), closing.__qualname__


# The samples whose state lives in their closure: a fresh one for each run.
FACTORIES = {"nonlocal_write": _make_nonlocal_writer, "nonlocal_delete": _make_nonlocal_deleter,
             "shared_rebinder": _make_shared_rebinder}

CASES = [
    (accumulate, [(2, [1, 2, 3]), (0, []), (1.5, [2]), ("a", [1])]),
    (sort_by_modulus, [([5, 3, 8, 1], 3), ([], 2), ([1, 2], 0)]),
    (lambdas_in_comprehension, [([1, 2, 3],), ([],)]),
    (late_binding, [(0,), (3,)]),
    (use_counter, [(0, [1, 2]), (10, []), ("a", ["b"]), (1, ["x"])]),
    (unbound_when_called, [(0,), (1,)]),
    (deleted_cell, [(0,), (1,)]),
    (captured_argument, [(1, 2), ("a", None)]),
    (recursive_inner, [(0,), (5,), (25,)]),
    (nested_generator, [([1, 2],), ("ab",), (3,)]),
    (cell_in_handler, [(0,), (3,)]),
    (nonlocal_write, [(1,), (2,), ("x",)]),
    (nonlocal_delete, [(0,), (1,), (0,)]),
    (shared_rebinder, [(0,), (1,), (0,)]),
    (annotated_helpers, [(1,), ("a",)]),
]

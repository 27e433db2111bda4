"""Functions that assign and delete module globals (``global`` statements), for the differential tests. Each test
resets these globals before running a function, so CPython and the compiled code start from the same state."""
# ruff: noqa

COUNTER = 0
LIMIT = 3
SCALE = 2.5
LABEL = "n"
STATE = None


def helper(x):
    return x * 2


_ORIGINAL_HELPER = helper


def INITIAL():
    return {"COUNTER": 0, "LIMIT": 3, "SCALE": 2.5, "LABEL": "n", "STATE": None, "helper": _ORIGINAL_HELPER}


def bump(n):
    global COUNTER
    COUNTER += n
    return COUNTER


def count_up(xs):
    global COUNTER
    for x in xs:
        if x > LIMIT:
            COUNTER += 1
    return COUNTER


def retype(flag):
    """A global whose type changes inside the call: its type cannot be assumed on entry."""
    global LIMIT
    before = LIMIT + 1
    if flag:
        LIMIT = "three"
    return before, LIMIT * 2


def rebind_function(flag):
    """A global naming a function, rebound inside the call: it cannot be resolved when compiling."""
    global helper
    first = helper(3)
    if flag:
        helper = len
    return first, helper("abc")


def scale_all(xs, factor):
    global SCALE
    SCALE = SCALE * factor
    return [x * SCALE for x in xs]


def delete_and_recreate(flag):
    global STATE
    if flag > 0:
        del STATE
    if flag > 1:
        del STATE                       # the second deletion raises NameError
    try:
        return STATE
    except NameError as exc:
        STATE = len(str(exc))
        return STATE


def set_in_handler(x):
    global LABEL
    try:
        return 10 // x
    except ZeroDivisionError:
        LABEL = "zero"
        raise
    finally:
        LABEL = LABEL + "!"


def new_global(n):
    global FRESH
    FRESH = [n] * n
    return len(FRESH)


def escaping_list(n):
    """A list stored in a global escapes: its element types cannot be inferred from the function alone."""
    global STATE
    out = []
    STATE = out
    for i in range(n):
        out.append(i)
    return STATE


CASES = [
    (bump, [(1,), (2 ** 70,), (-3,), ("x",)]),
    (count_up, [([1, 5, 7, 2],), ([],), ([4.5, "a"],)]),
    (retype, [(0,), (1,)]),
    (rebind_function, [(0,), (1,)]),
    (scale_all, [([1.0, 2.0], 2.0), ([], 0.5), ([1], None)]),
    (delete_and_recreate, [(0,), (1,), (2,)]),
    (set_in_handler, [(0,), (5,)]),
    (new_global, [(0,), (3,)]),
    (escaping_list, [(0,), (4,)]),
]

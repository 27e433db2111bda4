"""Functions that read their own frame through ``locals()``, ``vars()``, ``dir()``, ``eval(source)`` and
``exec(source)``, for ``test_frame_locals.py``. Results avoid holding the locals dict inside itself."""
# ruff: noqa
import sys


def items(namespace, *skip):
    """The namespace's items in its order, dicts shown by their keys (a held ``locals()`` dict holds itself)."""
    return [(k, sorted(v) if isinstance(v, dict) else v) for k, v in namespace.items() if k not in skip]


def bound_so_far(a, b=2):
    """Arguments, locals bound so far; one assigned later is not there yet."""
    x = a + b
    first = items(locals())
    y = x * 2
    return first, items(locals())


def one_dict_per_frame(a):
    """Before 3.13 every call returns the frame's one dict, updated; from 3.13 on a new snapshot each time."""
    held = locals()
    a += 1
    late = "late"
    again = locals()
    return held is again, items(held), items(again)


def unbound_and_deleted(a, flag):
    """A local bound on one path only, and one deleted: an unbound name is left out (and removed from the dict)."""
    if flag:
        maybe = a
    gone = a * 3
    held = locals()
    before = items(held)
    del gone
    if flag:
        del maybe
    after = items(locals())
    return before, after, items(held)


def cells_and_free_variables(n):
    """A captured variable's cell contents are its value; an empty cell is left out; the nested function's own
    free variables show in its locals."""
    def inner(k):
        return n + total + k, sorted(locals())
    early = items(locals(), "inner")
    total = n * 2
    return early, items(locals(), "inner"), inner(1)


def make_closure(start):
    def counter(step):
        nonlocal start
        start += step
        return items(locals())
    return counter


def with_eval(a, b):
    """``eval(source)`` reads the function's locals and globals."""
    scale = 10
    return eval("a * scale + b"), eval("len(sys.argv) >= 0")


def with_exec(a):
    """``exec(source)`` writes into the locals dict, not the local variables: before 3.13 the frame's dict keeps the
    new name for later ``locals()`` calls; from 3.13 on each call has its own snapshot."""
    exec("made = a * 2")
    first = items(locals())
    exec("a = 100")
    return a, first, items(locals())


def with_vars_and_dir(a):
    b = a + 1
    return items(vars()), dir()


def in_a_loop(n):
    """The frame's dict across loop iterations: a name bound on some iterations only."""
    out = []
    for i in range(n):
        if i % 2:
            odd = i
        elif i:
            del odd
        out.append(items(locals(), "out"))
    return out


def in_a_handler(text):
    try:
        value = int(text)
    except ValueError as error:
        return "error", items(locals(), "error")
    return "ok", items(locals())


def unidecode_style(section):
    """Unidecode's ``__import__(name, globals(), locals(), ['data'])``."""
    try:
        module = __import__("json.decoder" if section else "no_such_module_x", globals(), locals(), ["scanner"])
    except ImportError:
        return None
    return module.__name__


CASES = [
    (bound_so_far, [(1,), (1, 5), ("a", "b")]),
    (one_dict_per_frame, [(1,), (2.5,)]),
    (unbound_and_deleted, [(1, True), (2, False)]),
    (cells_and_free_variables, [(3,)]),
    (with_eval, [(1, 2), ("x", "y")]),
    (with_exec, [(4,), ("s",)]),
    (with_vars_and_dir, [(1,)]),
    (in_a_loop, [(0,), (5,)]),
    (in_a_handler, [("12",), ("twelve",)]),
    (unidecode_style, [(1,), (0,)]),
]

"""Global-read inline caches (``backends/cython/global_cache.py``) against CPython: one site reads a module global
while the module dict changes under it — the value replaced (also by another type), the name deleted
(``NameError``) or deleted and added back (another entry index), names added until the dict is resized (a new keys
object), holes left by deletions, a big int or a float where a machine int was assumed; and a builtin read at run
time (after ``globals()``) while a module global shadows it, the shadow goes, or the module's own builtins dict
changes — in random orders, in two fresh module namespaces, one plain and one jitted."""
from __future__ import annotations

import builtins
import types

from hypothesis import given, settings, strategies as hs

import moshjit

SOURCE = '''
def read():
    try:
        return ("ok", target)
    except NameError as exc:
        return ("NameError", str(exc), exc.name)


def scaled():
    try:
        return ("ok", target * 3 + 1)
    except (NameError, TypeError) as exc:
        return (type(exc).__name__, str(exc))


def measured():
    globals()                       # what follows is read at run time: len through the globals, then builtins
    try:
        return ("ok", len("abc"))
    except NameError as exc:
        return ("NameError", str(exc), exc.name)
'''


def namespace(jitted: bool):
    module = types.ModuleType("global_cache_world")
    module.__builtins__ = dict(vars(builtins))          # the world's own builtins, changed by the actions
    exec(compile(SOURCE, "<global_cache_world>", "exec"), vars(module))
    module.target = 1
    if jitted:
        for name in ("read", "scaled", "measured"):
            setattr(module, name, moshjit.jit(getattr(module, name), backend="cython"))
    return module


WORLDS = {True: namespace(True), False: namespace(False)}     # one each: the jitted read compiles once


def reset(module):
    g = vars(module)
    for name in [n for n in g if n.startswith("filler_")]:
        del g[name]
    g["target"] = 1
    g.pop("len", None)
    g["__builtins__"]["len"] = len
    return module


def step(module, action: int, counter: list) -> None:
    g = vars(module)
    counter[0] += 1
    if action == 0:
        g["target"] = counter[0]                       # a new value, same keys
    elif action == 1:
        g.pop("target", None)                          # gone: NameError
    elif action == 2:
        for i in range(40):                            # many new names: the keys object is replaced
            g[f"filler_{counter[0]}_{i}"] = i
    elif action == 3:
        g["target"] = f"a str {counter[0]}"            # another type (the specialisation's guard sees it)
    elif action == 4:
        g.pop("target", None)                          # deleted, then added back: a new entry index
        g["target"] = -counter[0]
    elif action == 5:
        g["target"] = counter[0]
        for name in [n for n in g if n.startswith("filler_")][:30]:
            del g[name]                                 # deletions leave holes; indexes stay
    elif action == 6:
        g["target"] = 2 ** 80 + counter[0]             # an int no longer a machine int
    elif action == 7:
        g["target"] = counter[0] + 0.5                 # a float
    elif action == 8:
        g["len"] = lambda text, n=counter[0]: n        # a module global shadows the builtin
    elif action == 9:
        g.pop("len", None)                             # the builtin again
    elif action == 10:
        g["__builtins__"]["len"] = lambda text, n=counter[0]: -n     # the builtins dict changes
    elif action == 11:
        g["__builtins__"].pop("len", None)             # gone from both: NameError


def run(actions, jitted: bool) -> list:
    module, counter, seen = reset(WORLDS[jitted]), [0], []
    for action in actions:
        seen.append((module.read(), module.scaled(), module.measured(), module.measured()))
        step(module, action, counter)
    seen.append((module.read(), module.scaled(), module.measured()))
    return seen


def test_every_change_of_the_module_dict_is_seen():
    actions = [0, 0, 1, 0, 2, 0, 3, 4, 5, 1, 2, 0, 6, 0, 7, 4, 1, 0, 8, 8, 9, 10, 0, 8, 9, 11, 10, 9, 2, 10]
    assert run(actions, True) == run(actions, False)


@settings(max_examples=40, deadline=None)
@given(hs.lists(hs.integers(min_value=0, max_value=11), max_size=15))
def test_random_changes(actions):
    assert run(actions, True) == run(actions, False)


def test_generated_code_reads_globals_through_a_cache():
    module = reset(WORLDS[True])
    module.read()
    assert "mj_global_load(_g, _b, 'target', &_mj_gc" in str(module.read.inspect_code())
    module.scaled()
    # the entry check of the type assumed for ``target`` reads it through a cache too, and runs only when the
    # globals changed since it last passed
    code = str(module.scaled.inspect_code())
    assert "if _mj_tag == 0 or _mj_tag != _mj_globals_held:" in code
    assert "if not _mj_is_int64(mj_global_peek(_g, 'target', &_mj_gc0)):" in code
    module.measured()
    assert "mj_global_load(_g, _b, 'len', &_mj_gc" in str(module.measured.inspect_code())


def test_a_type_check_held_at_one_state_of_the_globals_sees_every_later_write():
    """After the entry's check of ``target``'s type passed, writes to the module's globals — of another name, of
    ``target`` through the module, its dict or ``globals()`` in a function, back and forth between types — are each
    seen at the next call (the dict's version tag moved)."""
    outcomes = []
    for jitted in (False, True):
        module = namespace(jitted)
        exec("def rebind(name, value):\n    globals()[name] = value", vars(module))
        seen = [module.scaled() for _ in range(3)]
        for how, value in [("attr", 2 ** 70), ("attr", 4), ("other", 0), ("dict", 2.5), ("dict", 5),
                           ("globals", "x"), ("other", 1), ("globals", 6), ("attr", -2 ** 63 - 1)]:
            if how == "attr":
                module.target = value
            elif how == "dict":
                vars(module)["target"] = value
            elif how == "globals":
                module.rebind("target", value)
            else:
                module.unrelated = value
            seen.append((module.scaled(), module.scaled()))
        outcomes.append(seen)
    assert outcomes[1] == outcomes[0]

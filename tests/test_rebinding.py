"""Names bound when compiling (``moshjit.bindings``) rebound later, against CPython, on every backend: a helper
function, a builtin shadowed by a global and un-shadowed again, a module attribute, a closure cell written by the
outer function, a generator's and an async generator's helper — in random orders (hypothesis), in module namespaces of their own, one plain
and one jitted per backend. Writes to other globals between calls (a module-level loop variable) must not make the
jitted function compile again."""
from __future__ import annotations

import asyncio
import sys
import types

import pytest
from hypothesis import given, settings, strategies as hs

import moshjit

SOURCE = '''
import rebinding_helpers

def helper(x):
    return x + 1

def other_helper(x):
    return x * 10

def sized(xs):
    return len(xs) + helper(len(xs))

def through_module(x):
    return rebinding_helpers.scale(x) + 1

def numbers(n):
    total = 0
    for i in range(n):
        total += helper(i)
    return total

def produce(n):
    for i in range(n):
        yield helper(i)

async def aproduce(n):
    for i in range(n):
        got = yield helper(i)
        if got is not None:
            yield ("got", helper(got))

def make_counter():
    step = helper
    def counted(x):
        return step(x) * 2
    def rebind(new):
        nonlocal step
        step = new
    return counted, rebind
'''

HELPERS = types.ModuleType("rebinding_helpers")
exec("def scale(x):\n    return x * 3\n\ndef double(x):\n    return x * 2\n", vars(HELPERS))
sys.modules["rebinding_helpers"] = HELPERS
ORIGINAL_SCALE = HELPERS.scale

BACKENDS = ("cython", "llvm", "auto")
JITTED = ("sized", "through_module", "numbers", "produce", "aproduce")


def world(backend: str | None):
    module = types.ModuleType(f"rebinding_world_{backend}")
    exec(compile(SOURCE, f"<rebinding_world_{backend}>", "exec"), vars(module))
    module.counted, module.rebind_step = module.make_counter()
    if backend is not None:
        chosen = "cython" if backend == "llvm" else backend     # LLVM takes the numeric ones only
        for name in JITTED:
            setattr(module, name, moshjit.jit(getattr(module, name), backend=chosen))
        module.numbers = moshjit.jit(module.numbers.py_func, backend=backend)
        module.counted = moshjit.jit(module.counted, backend=chosen)
    return module


def calls(module) -> list:
    out = []
    for run in (lambda: module.sized([1, 2, 3]), lambda: module.through_module(4), lambda: module.numbers(5),
                lambda: list(module.produce(3)), lambda: module.counted(6),
                lambda: asyncio.run(drive_async(module.aproduce(4)))):
        try:
            out.append(("ok", run()))
        except Exception as exc:                          # noqa: BLE001 - compared with CPython's
            out.append((type(exc).__name__, str(exc)))
    return out


async def drive_async(agen) -> list:
    """An async generator driven through asend, athrow and aclose (what a rebound one's delegation passes on)."""
    out = [await agen.asend(None), await agen.asend(7), await agen.asend(None)]
    try:
        out.append(await agen.athrow(KeyError("thrown")))
    except KeyError as exc:
        out.append(("raised", repr(exc)))
    await agen.aclose()
    return out


ACTIONS = ("helper_other", "helper_back", "shadow_len", "unshadow_len", "module_attr", "module_attr_back",
           "cell", "other_global", "lambda_helper", "grow")


def act(module, action: str, counter: list) -> None:
    g = vars(module)
    counter[0] += 1
    if action == "helper_other":
        g["helper"] = g["other_helper"]
    elif action == "helper_back":
        g["helper"] = g["__helper__"]
    elif action == "shadow_len":
        g["len"] = lambda xs: 100
    elif action == "unshadow_len":
        g.pop("len", None)
    elif action == "module_attr":
        HELPERS.scale = HELPERS.double
    elif action == "module_attr_back":
        HELPERS.scale = ORIGINAL_SCALE
    elif action == "cell":
        module.rebind_step(g["other_helper"] if counter[0] % 2 else g["__helper__"])
    elif action == "other_global":
        g["loop_variable"] = counter[0]                   # what `for i in ...:` at module level does
    elif action == "lambda_helper":
        g["helper"] = lambda x, k=counter[0]: x - k
    elif action == "grow":                                 # a new keys object: every entry moves
        for i in range(40):
            g[f"filler_{counter[0]}_{i}"] = i


def reset(module) -> None:
    g = vars(module)
    g.setdefault("__helper__", g["helper"])
    g["helper"] = g["__helper__"]
    g.pop("len", None)
    for name in [n for n in g if n.startswith("filler_")]:
        del g[name]
    module.rebind_step(g["__helper__"])
    HELPERS.scale = ORIGINAL_SCALE


@pytest.fixture(scope="module")
def worlds():
    made = {backend: world(backend) for backend in (None,) + BACKENDS}
    for module in made.values():
        reset(module)
    yield made
    HELPERS.scale = ORIGINAL_SCALE


@pytest.mark.parametrize("backend", BACKENDS)
def test_each_rebinding_is_seen(worlds, backend):
    plain, jitted = worlds[None], worlds[backend]
    for module in (plain, jitted):
        reset(module)
    assert calls(jitted) == calls(plain)
    for action in ACTIONS:
        counters = [0], [0]
        act(plain, action, counters[0])
        act(jitted, action, counters[1])
        assert calls(jitted) == calls(plain), action
        HELPERS.scale = ORIGINAL_SCALE


@settings(max_examples=25, deadline=None)
@given(hs.lists(hs.sampled_from(ACTIONS), max_size=8), hs.sampled_from(BACKENDS))
def test_random_rebindings_match_cpython(worlds, actions, backend):
    plain, jitted = worlds[None], worlds[backend]
    for module in (plain, jitted):
        reset(module)
    counters = [0], [0]
    for action in actions:
        act(plain, action, counters[0])
        act(jitted, action, counters[1])
        assert calls(jitted) == calls(plain), actions
    HELPERS.scale = ORIGINAL_SCALE


def test_writes_to_other_globals_do_not_recompile():
    module = world(None)
    g = vars(module)
    module.numbers = moshjit.jit(module.numbers, backend="cython")
    module.numbers(3)
    compiled = list(module.numbers._artifacts.values())
    for i in range(50):
        g["loop_variable"] = i                      # a module-level loop's variable, rebound at every call
        g[f"new_name_{i}"] = i                      # new names too: the dict grows, its keys object changes
        assert module.numbers(3) == 6
    assert list(module.numbers._artifacts.values()) == compiled
    assert not module.numbers._volatile


def test_a_name_rebound_twice_is_read_at_run_time():
    module = world(None)
    g = vars(module)
    module.numbers = moshjit.jit(module.numbers, backend="cython")
    assert module.numbers(3) == 6
    g["helper"] = lambda x: x
    assert module.numbers(3) == 3                   # compiled again, binding the new helper
    assert not module.numbers._volatile
    g["helper"] = lambda x: 2 * x
    assert module.numbers(3) == 6                   # compiled again, `helper` now read at each call
    assert module.numbers._volatile == {"helper"}
    recompiled = module.numbers.inspect_code()
    for k in range(5):                             # no more compiles: each call reads the current helper
        g["helper"] = lambda x, k=k: k
        assert module.numbers(3) == 3 * k
    assert module.numbers.inspect_code() == recompiled


def test_a_stale_direct_call_still_sees_the_new_binding():
    """A caller compiled before the callee was recompiled holds the old entry: it forwards to the new one."""
    module = world(None)
    g = vars(module)
    exec("def caller(x):\n    return numbers(x) + 1\n", g)
    module.numbers = moshjit.jit(module.numbers, backend="cython")
    caller = moshjit.jit(g["caller"], backend="cython")
    assert caller(3) == 7
    g["helper"] = lambda x: 0
    assert caller(3) == 1
    assert module.numbers(3) == 0


def test_the_generated_entries_show_the_check():
    module = world(None)
    cython = moshjit.jit(module.numbers, backend="cython")
    native = moshjit.jit(module.numbers, backend="llvm")
    assert cython(4) == native(4) == module.numbers(4)
    assert "if not mj_bindings_hold(&_mj_bindings, " in cython.inspect_code()
    code = native.inspect_code()
    assert "binding.look_up" in code and "mj_binding_entry_is" in code and "_binding1_0" in code   # 0: its code
    plain_data = moshjit.jit(module.other_helper, backend="cython")     # binds no name: checks its code only
    plain_data(2)
    artifact = next(iter(plain_data._artifacts.values()))
    assert [(b.namespace, b.name) for b in artifact.bindings] == [(module.other_helper, "__code__")]


MID_CALL = '''
def impl(x):
    return x + 1

def install():
    global impl
    impl = lambda x: x * 100

def run(x):
    before = impl(x)
    install()
    return before, impl(x)
'''


@pytest.mark.parametrize("backend", ["cython", "auto"])
def test_a_name_another_function_of_the_module_writes_is_never_bound(backend):
    """``install()`` rebinds ``impl`` during the call, after the entry's check: names written by any function of
    the module are read at run time."""
    plain, jitted = ({"__name__": f"mid_call_{i}"} for i in range(2))
    for g in (plain, jitted):
        exec(MID_CALL, g)
    run = moshjit.jit(jitted["run"], backend=backend)
    assert run(2) == plain["run"](2) == (3, 200)
    assert "impl" not in {b.label for b in run._artifacts[next(iter(run._artifacts))].bindings}


def test_written_in_module_reads_functions_methods_and_jitted_ones():
    from moshjit.passes.resolve_globals import written_in_module
    g = {"__name__": "writers"}
    exec("def a():\n    global A\n    A = 1\n"
         "class K:\n    def m(self):\n        global B\n        del B\n"
         "    @staticmethod\n    def s():\n        def inner():\n            global C\n            C = 2\n"
         "    @property\n    def p(self):\n        global D\n        D = 3\n", g)
    exec("def w():\n    global W\n    W = 5\n", g)
    g["w"] = moshjit.jit(g["w"])                                  # jitted: its plain function counts
    elsewhere = {"__name__": "elsewhere"}
    exec("def e():\n    global E\n    E = 4\n", elsewhere)
    g["e"] = elsewhere["e"]                                       # writes another module's globals
    assert written_in_module(g) == {"A", "B", "C", "D", "W"}


def test_bindings_described_in_the_llvm_index_are_found_again_as_the_same_keys():
    """The LLVM index records where each binding lives; loaded in another process (here: rebuilt from the JSON
    text) each name must be the very key object of its dict, which the entry's check compares."""
    import json

    from moshjit.backends.llvm import binding_check
    from moshjit.bindings import Binding
    from moshjit.functions import builtins_dict
    module = world(None)
    fn = module.through_module
    builtins_ = builtins_dict(fn)
    made = [Binding(fn.__globals__, "helper", module.helper, builtins_, "helper"),
            Binding(fn.__globals__, "len", len, builtins_, "len"),
            Binding(vars(HELPERS), "scale", HELPERS.scale, None, "rebinding_helpers.scale")]
    described = json.loads(json.dumps(binding_check.describe(made, fn, builtins_)))
    rebuilt = binding_check.rebuild(described, fn, builtins_)
    assert [b.value for b in rebuilt] == [b.value for b in made]
    for binding in rebuilt:
        where = binding.namespace if binding.name in binding.namespace else binding.then
        assert any(key is binding.name for key in where)


MANY_DICTS = "def spread(x):\n    return " + " + ".join(f"many_dicts_{i}.f(x)" for i in range(9)) + " + len([x])\n"


def test_dict_version_tags_stand_for_the_bindings_only_while_no_dict_was_written():
    """The Cython entry compares each dict's version tag before checking names one by one: writes to other names,
    a rebinding after them, a builtin shadowed in the globals, and more dicts than it notes tags for (nine modules
    here) — each call answers as CPython."""
    helpers = []
    for i in range(9):
        helper = types.ModuleType(f"many_dicts_{i}")
        exec(f"def f(x):\n    return x + {i}\n", vars(helper))
        helpers.append(helper)
    plain, jitted = ({"__name__": f"many_dicts_world_{k}"} for k in range(2))
    for g in (plain, jitted):
        g.update({h.__name__: h for h in helpers})
        exec(MANY_DICTS, g)
        exec("def two(x):\n    return helpers_f(x) + len([x])\n", g)
        g["helpers_f"] = helpers[0].f
    spread = moshjit.jit(jitted["spread"], backend="cython")
    two = moshjit.jit(jitted["two"], backend="cython")

    def same():
        assert spread(1) == plain["spread"](1)
        assert two(1) == plain["two"](1)

    for step in range(3):
        same()
        same()                                        # the second call answers from the tags
        for g in (plain, jitted):
            g[f"other_{step}"] = step                 # another name written: the tags move, the names hold
        same()
    helpers[4].f = lambda x: 1000                     # one of nine module dicts written
    same()
    for g in (plain, jitted):
        g["helpers_f"] = helpers[1].f                 # a bound name rebound
        g["len"] = lambda xs: -1                      # a builtin shadowed
    same()
    for g in (plain, jitted):
        del g["len"]
    same()

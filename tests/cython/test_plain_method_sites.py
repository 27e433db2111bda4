"""Method sites calling methods that are not jitted (``backends/cython/method_sites.py``): builtin types' methods
(``list.append``, ``StringIO.write``, ``dict.get``) and plain Python functions, kept per receiver type and called
with the receiver first, against CPython. Receivers with instance dicts (a ``list`` subclass, a plain
class) get an attribute shadowing the method, then lose it; an unrelated attribute changes the dict's version tag
without shadowing; the class gets another method, a ``staticmethod`` or a ``classmethod`` under the name. Random
programs of such steps run plainly and jitted on two fresh copies of the same world."""
from __future__ import annotations

import io

from hypothesis import given, settings, strategies as hs

from tests.cython.agree import jitted


def append_to_each(objs, values):
    """The site under test: ``o.append(v)`` on receivers read from a list (typed ``object``)."""
    out = []
    for v in values:
        for o in objs:
            try:
                out.append(o.append(v))
            except (TypeError, AttributeError, ValueError) as exc:
                out.append((type(exc).__name__, str(exc)))
    return out


def write_each(objs, text):
    """A second site, a builtin method with a result: ``StringIO.write`` returns the count written."""
    return [o.write(text) for o in objs]


def get_with_keyword(objs):
    """Keywords passed on to the kept method: ``dict.get`` takes none (its own TypeError), a Python method does."""
    out = []
    for o in objs:
        try:
            out.append(o.get(1, default=5))
        except TypeError as exc:
            out.append(("TypeError", str(exc)))
    return out


def make_world():
    class Log(list):                          # a builtin method on an instance that has a dict
        pass

    class Recorder:
        def __init__(self):
            self.seen = []

        def append(self, v):
            self.seen.append(v)
            if v == "boom":
                raise ValueError("boom in Recorder.append")
            return len(self.seen)

    objs = [[], Log(), Recorder(), Log(), {}, Recorder()]     # four receiver types: none evicts another
    for o in (objs[1], objs[3], objs[5]):
        vars(o)                               # a real instance dict (CPython 3.11+ keeps values inline until asked)
    return (Log, Recorder), objs


def mutate(classes, objs, step: int) -> None:
    Log, Recorder = classes
    if step == 0:
        objs[1].append = lambda v: ("instance attribute", v)        # shadows list.append on one Log
    elif step == 1:
        vars(objs[1]).pop("append", None)                           # list.append shows again
    elif step == 2:
        objs[3].unrelated = len(vars(objs[3]))                       # a new dict version tag, no shadowing
    elif step == 3:
        Log.append = lambda self, v: ("Log.append", v)               # the class gains an override
    elif step == 4:
        Recorder.append = staticmethod(lambda v: ("static", v))     # not a method descriptor: looked up each call
    elif step == 5:
        Recorder.append = classmethod(lambda cls, v: (cls.__name__, v))
    elif step == 6:
        objs[2].append = objs[5].append = lambda v: ("shadowed recorder", v)
    elif step == 7:
        del Log.append                                               # the override removed: list.append again


VALUES = [1, "boom", 2 ** 70]


def observe(objs) -> list:
    """What the receivers hold (a Recorder by what it saw)."""
    return [list(o) if not hasattr(o, "seen") else list(o.seen) for o in objs]


def run_program(steps, call) -> list:
    classes, objs = make_world()
    seen = []
    for step in steps:
        if step == "call":
            seen.append(call(objs, VALUES))
            seen.append(observe(objs))
        else:
            try:
                mutate(classes, objs, step)
                seen.append("ok")
            except AttributeError as exc:                            # deleting twice
                seen.append(("AttributeError", str(exc)))
    return seen


def agree(steps):
    assert run_program(steps, jitted(append_to_each)) == run_program(steps, append_to_each)


def test_builtin_and_plain_methods_call_as_cpython():
    agree(["call", "call"])


def test_changes_after_the_site_filled_are_seen():
    for step in range(8):
        agree(["call", step, "call", "call"])


@settings(max_examples=30, deadline=None)
@given(hs.lists(hs.sampled_from(["call", *range(8)]), min_size=1, max_size=12))
def test_random_programs_of_calls_and_changes(steps):
    agree(steps)


def test_a_builtin_method_with_a_result_through_a_site():
    plain, fast = [io.StringIO(), io.StringIO()], [io.StringIO(), io.StringIO()]
    for _ in range(3):
        assert jitted(write_each)(fast, "ab") == write_each(plain, "ab") == [2, 2]
    assert [s.getvalue() for s in fast] == [s.getvalue() for s in plain]
    fast[0].write = plain[0].write = lambda text: "shadowed"        # StringIO instances have a dict
    assert jitted(write_each)(fast, "c") == write_each(plain, "c") == ["shadowed", 1]
    assert "mj_site_call2('write', &_mj_ms0, " in str(jitted(write_each).inspect_code())


def test_keywords_reach_the_kept_method():
    class Settings:
        def get(self, key, default=None):
            return ("Settings.get", key, default)

    objs = [{1: 2}, Settings(), {}]
    for _ in range(3):                                              # the site filled, then hit
        assert jitted(get_with_keyword)(objs) == get_with_keyword(objs)
    assert "mj_site_callkw3('get', &_mj_ms0, " in str(jitted(get_with_keyword).inspect_code())

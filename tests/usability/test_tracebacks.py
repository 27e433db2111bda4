"""Tracebacks through compiled code show the user's file, function and line, as CPython's do: the frames below
the caller are compared with those of the plain function (the oracle) on both backends, and compile errors end
at the user's line with moshjit's own frames trimmed (kept under MOSHJIT_DEBUG=1)."""
from __future__ import annotations

import os
import traceback
import types

import pytest

import moshjit
from tests.usability import raising_samples
from tests.usability.raising_samples import CASES

HERE = os.path.abspath(__file__)


def frames_below_caller(call):
    """(file, line, function, source text) of every frame the exception passed through, below this test."""
    try:
        call()
    except Exception as exc:
        frames = traceback.extract_tb(exc.__traceback__)
        return type(exc), str(exc), [(f.filename, f.lineno, f.name, f.line) for f in frames
                                     if f.name not in ("frames_below_caller", "<lambda>")]
    raise AssertionError("no exception")


# ``in_loop`` on 'auto': the list's items miss the native variant LLVM compiled, and the call goes back to the
# Cython specialisation through moshjit's hand-offs (the variant switch, the dispatcher's generic call), whose
# frames must not show.
PARAMS = [pytest.param(fn, args, backend, id=f"{fn.__name__}-{backend}")
          for fn, args in CASES for backend in ("auto", "cython")]


@pytest.mark.parametrize("fn, args, backend", PARAMS)
def test_frames_are_cpythons(fn, args, backend):
    expected = frames_below_caller(lambda: fn(*args))
    jitted = moshjit.jit(fn, backend=backend)
    got = frames_below_caller(lambda: jitted(*args))
    assert got == expected
    assert all(not name.endswith((".pyx", ".c")) for name, *_ in got[2])


def caught_key_errors(table, keys):
    caught = []
    for key in keys:
        try:
            table[key]
        except KeyError as exc:
            caught.append(exc)
        try:
            table[key, key]
        except KeyError as exc:
            caught.append(exc)
    return caught


@pytest.mark.parametrize("backend", ("cython", "auto"))
def test_exceptions_caught_in_a_loop_get_cpythons_entries_on_one_frame_per_line(backend):
    """An exception raised and caught again and again in one call (``try: d[k] except KeyError:`` in a loop) gets
    the entry CPython gives it, on the frame object the call made for that line the first time (CPython has one
    per call; Cython would make a new one for each exception); another call never shares it."""
    def entries(caught):
        return [[(f.filename, f.lineno, f.name, f.line) for f in traceback.extract_tb(exc.__traceback__)]
                for exc in caught]
    jitted = moshjit.jit(caught_key_errors, backend=backend)
    plain = caught_key_errors({}, [1, 2, 3])
    first, second = jitted({}, [1, 2, 3]), jitted({}, [4, 5])
    assert entries(first) == entries(plain) and entries(second) == entries(caught_key_errors({}, [4, 5]))
    assert [exc.args for exc in first] == [exc.args for exc in plain]
    frames = [exc.__traceback__.tb_frame for exc in first]
    assert frames[0] is frames[2] is frames[4] and frames[1] is frames[3] is frames[5]
    assert plain[0].__traceback__.tb_frame is plain[2].__traceback__.tb_frame           # as CPython's
    assert not {id(frame) for frame in frames} & {id(exc.__traceback__.tb_frame) for exc in second}


@pytest.mark.parametrize("fn, args, call_line, backend", [
    pytest.param(raising_samples.calls_helper, (["ab", ""],), "out.append(first_letter(w))", backend,
                 id=f"str-{backend}") for backend in ("cython", "auto")] + [
    pytest.param(raising_samples.sums_first_items, ([[1], []],), "total += first_item(row)", backend,
                 id=f"int-{backend}") for backend in ("cython", "llvm", "auto")])
def test_an_inlined_helper_is_shown_at_the_line_that_calls_it(fn, args, call_line, backend):
    expected = frames_below_caller(lambda: fn(*args))
    got = frames_below_caller(lambda: moshjit.jit(fn, backend=backend)(*args))
    assert got[:2] == expected[:2]
    assert got[2][0] == expected[2][0] and got[2][0][3] == call_line
    assert got[2] in (expected[2], expected[2][:1])     # the helper's own frame when it was compiled on its own


@pytest.mark.parametrize("backend", ("cython", "auto"))
def test_a_function_calling_itself_in_place_shows_one_frame_per_call(backend, monkeypatch):
    """The body of a function that calls itself in place is a cdef function the entry and a call wrapper call:
    their traceback entries showed as ``_mj_in_place``/``_mj_in_place_body``, two per level."""
    expected = frames_below_caller(lambda: raising_samples.down_to_three(6))
    jitted = moshjit.jit(raising_samples.down_to_three, backend=backend)
    monkeypatch.setattr(raising_samples, "down_to_three", jitted)
    got = frames_below_caller(lambda: jitted(6))
    assert got == expected
    assert [name for _, _, name, _ in got[2]] == ["down_to_three"] * 4


def test_a_call_handed_on_after_a_helper_was_rebound_shows_no_frame_of_moshjit():
    namespace = {}
    exec(compile("def helper(row):\n    return row[0]\n\ndef total(rows):\n    t = 0\n    for row in rows:\n"
                 "        t += helper(row)\n    return t\n", "<rebound>", "exec"), namespace)
    jitted = moshjit.jit(namespace["total"])
    assert jitted([[1], [2]]) == 3
    exec(compile("def helper(row):\n    return row[5]\n", "<rebound>", "exec"), namespace)   # the compiled one is stale
    got = frames_below_caller(lambda: jitted([[1]]))
    expected = frames_below_caller(lambda: namespace["total"]([[1]]))
    assert got[:2] == expected[:2]
    assert got[2][0] == expected[2][0] == ("<rebound>", 7, "total", "")       # the call line, in no moshjit frame
    assert got[2] in (expected[2], expected[2][:1])


def test_compile_error_ends_at_the_users_line():
    @types.coroutine
    def gen(n):
        yield n                                   # the construct
    line = gen.__code__.co_firstlineno + 2                  # the decorator's line, the def's, then the yield
    kind, message, frames = frames_below_caller(lambda: moshjit.jit(gen)(3))
    assert kind is moshjit.UnsupportedError
    assert frames == [(HERE, line, "gen", "yield n                                   # the construct")]
    first, shown, caret, step = message.split("\n")
    assert first == f"{HERE}:{line}: unsupported: generator-based coroutine (in test_compile_error_ends_at_the_" \
                    f"users_line.<locals>.gen)"
    assert shown.endswith("|         yield n                                   # the construct")
    assert caret.endswith("|         ^^^^^^^")                  # under `yield n`, not the comment
    assert step.startswith("  next: write it as an async def") and "fallback=True" in step


def test_moshjit_debug_keeps_the_compilers_frames(monkeypatch):
    monkeypatch.setenv("MOSHJIT_DEBUG", "1")

    def uses_frame(n):
        return super()
    _, _, frames = frames_below_caller(lambda: moshjit.jit(uses_frame)(3))
    assert any("moshjit" + os.sep in name for name, *_ in frames)


def test_llvm_refusals_speak_python():
    def reads_attribute(p, n):
        s = 0
        for i in range(n):
            s += i.real                           # an attribute: a Python object for the LLVM backend
        return s
    with pytest.raises(moshjit.UnsupportedError) as info:
        moshjit.jit(reads_attribute, backend="llvm")(1, 3)
    message = str(info.value)
    assert "the attribute access (obj.name), whose value is a Python object of unknown type, has no native form" \
        in message
    assert "load_attr" not in message and "s += i.real" in message
    assert "backend='cython' or 'auto'" in message


def test_llvm_refuses_an_argument_at_the_parameter():
    def takes(n, text):
        return n
    with pytest.raises(moshjit.UnsupportedError) as info:
        moshjit.jit(takes, backend="llvm")(1, "abc")
    lines = str(info.value).split("\n")
    assert "argument 'text' is a str, which has no native form" in lines[0]
    assert lines[1].endswith("def takes(n, text):") and lines[2].endswith("              ^^^^")


def test_notebook_cells_are_named_as_ipython_names_them(monkeypatch):
    import sys
    import types

    from moshjit.errors import location
    shell = types.SimpleNamespace(compile=types.SimpleNamespace(_filename_map={"/tmp/ipykernel_1/123.py": 7}))
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    assert location("/tmp/ipykernel_1/123.py", 4) == "Cell In[7], line 4"
    assert location(raising_samples.__file__, 4) == f"{raising_samples.__file__}:4"

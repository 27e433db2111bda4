"""Generated modules include Python.h through a header precompiled once per cache directory, compiler and flags
(``runtime/toolchain.py``): the module gcc builds from it works as the one built from the plain text, the header
is built once and shared, and whatever stops it from being built leaves the module to compile as it is."""
import os
import shutil
import subprocess

import pytest

from moshjit.runtime import toolchain

MODULE_C = '''/* a module head as Cython writes it */
#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include "Python.h"
static PyObject *answer(PyObject *self, PyObject *unused) { return PyLong_FromLong(42); }
static PyMethodDef methods[] = {{"answer", answer, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef definition = {PyModuleDef_HEAD_INIT, "NAME", NULL, -1, methods};
PyMODINIT_FUNC PyInit_NAME(void) { return PyModule_Create(&definition); }
'''


def write_module(directory, name: str) -> str:
    path = os.path.join(directory, name + ".c")
    with open(path, "w", encoding="utf-8") as f:
        f.write(MODULE_C.replace("NAME", name))
    return path


def built_answer(c_path: str, name: str, headers_root) -> int:
    so_path = os.path.join(os.path.dirname(c_path), name + toolchain.EXT_SUFFIX)
    toolchain.compile_c(c_path, so_path, toolchain.GENERATED_OPT, headers_root)
    return toolchain.load_extension(so_path, name).answer()


@pytest.mark.skipif(shutil.which(toolchain.compiler_command()[0]) is None, reason="no C compiler")
def test_modules_share_one_precompiled_python_h(tmp_path):
    headers = str(tmp_path / "headers")
    for i in range(2):
        name = f"_mj_pch_probe{i}_{os.getpid()}"
        c_path = write_module(tmp_path, name)
        assert built_answer(c_path, name, headers) == 42
        with open(c_path, encoding="utf-8") as f:
            assert f.readline() == f'#include "{toolchain.PYTHON_HEADER}"\n'      # the head was replaced
    (built,) = os.listdir(headers)                              # one header for both modules, nothing half-made
    assert sorted(os.listdir(os.path.join(headers, built))) == ["mj_python.h", "mj_python.h.gch"]
    include = "-I" + os.path.join(headers, built)
    listing = subprocess.run(toolchain._base_command(toolchain.GENERATED_OPT) + [include, "-H", "-fsyntax-only",
                             c_path], capture_output=True, text=True).stderr
    assert listing.startswith("! ")                             # gcc's mark for a precompiled header it used


def test_a_head_naming_the_module_is_left_as_it_is(tmp_path):
    name = f"_mj_pch_named_{os.getpid()}"
    c_path = write_module(tmp_path, name)
    with open(c_path, encoding="utf-8") as f:
        text = f"/* {name} */\n" + f.read()
    with open(c_path, "w", encoding="utf-8") as f:
        f.write(text)
    assert toolchain.with_precompiled_python_header(c_path, toolchain.GENERATED_OPT, str(tmp_path / "h"))[0] == []
    assert not os.path.exists(tmp_path / "h")
    assert built_answer(c_path, name, str(tmp_path / "h")) == 42


def test_a_header_that_cannot_be_built_leaves_the_module_as_it_is(tmp_path, monkeypatch):
    name = f"_mj_pch_failed_{os.getpid()}"
    c_path = write_module(tmp_path, name)
    real = toolchain._base_command
    missing = str(tmp_path / "missing.h")                       # gcc stops: no such file
    monkeypatch.setattr(toolchain, "_base_command", lambda optimize: real(optimize) + ["-include", missing])
    headers = str(tmp_path / "headers")
    assert toolchain.with_precompiled_python_header(c_path, toolchain.GENERATED_OPT, headers)[0] == []
    assert os.listdir(headers) == []                             # the failed attempt left nothing behind
    calls = []
    monkeypatch.setattr(toolchain.subprocess, "run", lambda *args, **kw: calls.append(args))
    assert toolchain.with_precompiled_python_header(c_path, toolchain.GENERATED_OPT, headers)[0] == []
    assert calls == []                                           # remembered: not tried again for each module
    monkeypatch.undo()
    assert built_answer(c_path, name, None) == 42


@pytest.mark.skipif(shutil.which(toolchain.compiler_command()[0]) is None, reason="no C compiler")
def test_a_damaged_header_is_built_again_and_the_module_still_compiles(tmp_path):
    headers = str(tmp_path / "headers")
    assert built_answer(write_module(tmp_path, f"_mj_pch_whole_{os.getpid()}"), f"_mj_pch_whole_{os.getpid()}",
                        headers) == 42
    (built,) = os.listdir(headers)
    gch = os.path.join(headers, built, toolchain.PYTHON_HEADER + ".gch")
    with open(gch, "r+b") as f:
        f.truncate(100_000)                                     # gcc stops at it instead of reading the header
    name = f"_mj_pch_damaged_{os.getpid()}"
    assert built_answer(write_module(tmp_path, name), name, headers) == 42
    assert not os.path.exists(gch)                              # dropped, so the next module builds it anew
    name = f"_mj_pch_after_{os.getpid()}"
    assert built_answer(write_module(tmp_path, name), name, headers) == 42
    assert os.path.getsize(gch) > 100_000


def test_an_error_in_the_module_is_reported_not_blamed_on_the_header(tmp_path):
    headers = str(tmp_path / "headers")
    name = f"_mj_pch_broken_{os.getpid()}"
    c_path = write_module(tmp_path, name)
    with open(c_path, "a", encoding="utf-8") as f:
        f.write("this is not C;\n")
    with pytest.raises(toolchain.BuildError, match="C compiler failed"):
        built_answer(c_path, name, headers)
    (built,) = os.listdir(headers)                              # the header stays
    assert os.path.exists(os.path.join(headers, built, toolchain.PYTHON_HEADER + ".gch"))

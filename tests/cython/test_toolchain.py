"""Cython as the toolchain drives it for generated modules: one compile context per process, reused."""
from __future__ import annotations

import pytest

from moshjit.errors import BuildError
from moshjit.runtime import toolchain


def _cythonize(tmp_path, name: str, module: str, body: str) -> str:
    pyx, c = tmp_path / f"{name}.pyx", tmp_path / f"{name}.c"
    pyx.write_text(body, encoding="utf-8")
    toolchain.cythonize_file(str(pyx), module, str(c))
    return c.read_text(encoding="utf-8")


def test_generated_modules_share_one_context_and_each_module_is_compiled_afresh(tmp_path):
    """The .pxd files every generated module cimports are parsed once per process (the context keeps them), while
    each module's own scope is dropped after its compile: the same module name compiled again with other code
    gets that code, with no declaration carried over from the first."""
    first = _cythonize(tmp_path, "first", "_mj_toolchain_probe",
                       "from libc.math cimport sqrt\ncdef double half = 0.5\ndef f(double x):\n"
                       "    return sqrt(x) * half, 'first body'\n")
    contexts = dict(toolchain._generated_contexts)
    again = _cythonize(tmp_path, "again", "_mj_toolchain_probe",
                       "from libc.math cimport sqrt\ncdef int half = 2\ndef f(double x):\n"
                       "    return sqrt(x) + half, 'second body'\n")
    assert "first body" in first and "second body" in again and "first body" not in again
    assert toolchain._generated_contexts == contexts and len(contexts) == 1
    context, = contexts.values()
    assert "_mj_toolchain_probe" not in context.modules and "libc" in context.modules


def test_a_failed_compile_leaves_no_context_behind(tmp_path):
    """Whatever state a Cython error left in the shared context is not handed on: the next module gets a new one
    and compiles."""
    _cythonize(tmp_path, "fine", "_mj_toolchain_fine", "def f(x):\n    return x\n")
    with pytest.raises(BuildError, match="Cython"):
        _cythonize(tmp_path, "broken", "_mj_toolchain_broken", "cdef int x = 'not an int'\n")
    assert toolchain._generated_contexts == {}
    assert "after" in _cythonize(tmp_path, "after", "_mj_toolchain_after", "def f():\n    return 'after'\n")
    assert len(toolchain._generated_contexts) == 1

"""A generated module's load-time code (Cython's module initialisation, ``_mj_setup``, ``_mj_set_constants``) is
marked for GCC to compile without optimisation (``toolchain.with_run_once_code_unoptimised``), and the module built
that way still runs as CPython does."""
import re

import pytest

import moshjit
from moshjit.backends.cython.prelude import PRELUDE
from moshjit.runtime import toolchain
from moshjit.runtime.toolchain import BuildError, with_run_once_code_unoptimised


def generated_c(tmp_path, body: str) -> str:
    """Cython's C for a module made of the prelude and ``body``, as the build worker sees it before its rewrites."""
    pyx = tmp_path / "_mj_probe.pyx"
    pyx.write_text(PRELUDE + body, encoding="utf-8")
    c_path = tmp_path / "_mj_probe.c"
    toolchain.cythonize_file(str(pyx), "_mj_probe", str(c_path))
    return c_path.read_text(encoding="utf-8")


CONSTANTS = "\n\ncdef object _k0\ncdef int _mj_set_constants(tuple constants) except -1:\n    global _k0\n" \
            "    _k0 = constants[0]\n    return 0\n\ndef f(x):\n    return x + _k0\n"


def test_setup_and_constants_are_declared_and_defined_run_once(tmp_path):
    marked = with_run_once_code_unoptimised(generated_c(tmp_path, CONSTANTS))
    assert marked.startswith("/* moshjit: code run once per load")
    run_once = re.findall(r"^static MJ_RUN_ONCE (?:int |PyObject \*)__pyx_\w+?(_mj_set\w*)\(", marked, re.MULTILINE)
    assert sorted(run_once) == ["_mj_set_constants"] * 2 + ["_mj_setup"] * 4
    assert not re.search(r"^static (?:int |PyObject \*)__pyx_\w+?_mj_set\w*\(", marked, re.MULTILINE)
    assert not re.search(r"MJ_RUN_ONCE \S+ \S*\bf\(", marked)          # the user's function stays optimised


def test_a_module_without_setup_gets_only_the_header():
    text = "static int g(void) { return 1; }\n"
    assert with_run_once_code_unoptimised(text) == toolchain._RUN_ONCE_HEADER + text


def test_a_setup_of_another_shape_is_refused():
    with pytest.raises(BuildError, match="_mj_setup changed shape"):
        with_run_once_code_unoptimised("static PyObject *_mj_setup_renamed(void);\n")


def test_a_module_built_with_it_computes_as_cpython():
    def scaled(values, factor=2.5):
        return [v * factor for v in values if v], {"k": factor}

    jitted = moshjit.jit(scaled, backend="cython")
    for args in (([1, 0, 3],), ([1.5, -2.0], 4), ([],)):
        assert jitted(*args) == scaled(*args)
    assert {entry["backend"] for entry in jitted.stats.values()} == {"cython"}

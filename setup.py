"""Builds the runtime's compiled support modules; the package metadata is in pyproject.toml.

The C of each module comes from ``moshjit.runtime.support.generate_c`` (the recipe builds on demand use too), so
the installed modules are exactly what moshjit would build itself; their runtime fingerprint is recorded in
``moshjit/runtime/prebuilt.<cache tag>.json`` beside them (one per interpreter: an editable install for each
supported CPython builds into the same source tree), and moshjit uses them only while it still matches.
"""
import json
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
RUNTIME_MODULES = ("moshjit.runtime.moshjit_cyshared", "moshjit.runtime.moshjit_rt",
                   "moshjit.runtime.moshjit_text", "moshjit.runtime.moshjit_dispatch", "moshjit.runtime.moshjit_match")


class BuildRuntime(build_ext):
    """Generate the runtime's C with moshjit's own Cython settings, compile it, record the fingerprint."""

    def build_extensions(self):
        sys.path.insert(0, HERE)               # the moshjit being built, not an installed one
        from moshjit.runtime.support import generate_c
        from moshjit.runtime.toolchain import CFLAGS, SUPPORT_OPT, runtime_fingerprint
        workdir = os.path.join(os.path.abspath(self.build_temp), "moshjit-runtime")
        for ext in self.extensions:
            ext.sources = [generate_c(ext.name, workdir)]
            ext.include_dirs.append(workdir)
            ext.extra_compile_args = [SUPPORT_OPT, "-g0"] + [flag for flag in CFLAGS if flag != "-fPIC"]
        super().build_extensions()
        self.record = {"fingerprint": runtime_fingerprint(), "modules": list(RUNTIME_MODULES)}
        self._write_record(os.path.dirname(self.get_ext_fullpath(RUNTIME_MODULES[0])))

    def run(self):
        super().run()
        if self.inplace or getattr(self, "editable_mode", False):    # the modules were copied into the sources
            self._write_record(os.path.join(HERE, "moshjit", "runtime"))

    def _write_record(self, directory):
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, f"prebuilt.{sys.implementation.cache_tag}.json"), "w", encoding="utf-8") as f:
            json.dump(self.record, f, indent=1)


def sources(name):
    """The .pyx a module is built from (Cython generates the shared utility module from nothing)."""
    pyx = f"moshjit/runtime/{name.rpartition('.')[2]}.pyx"
    return [pyx] if os.path.exists(os.path.join(HERE, pyx)) else []


setup(
    ext_modules=[Extension(name, sources=sources(name)) for name in RUNTIME_MODULES],
    cmdclass={"build_ext": BuildRuntime},
)

"""A samples file loaded as CPython runs it and with every function it marks ``@decorate`` jitted (Cython backend,
strict), so that each global names its dispatcher as it would under ``@jit``: for differential tests of code that
calls or awaits itself through its global name."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import moshjit


def jit_strictly(fn):
    return moshjit.jit(fn, backend="cython", strict=True)


def load(path: Path, name: str, jitted: bool):
    """A fresh module ``name`` from ``path``; with ``jitted``, its ``decorate`` is ``jit_strictly`` (injected before
    its code runs; the file's own default is the identity)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    if jitted:
        module.decorate = jit_strictly
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

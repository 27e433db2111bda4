"""Shared helpers: compile extended-syntax snippets in-process, write pragma'd modules to import."""
from __future__ import annotations

import importlib
import sys
import textwrap

from moshjit.extensions import rewrite_source

ALL_ON = {"pattern-matching": {}, "pipeline": {}, "quick-lambda": {}}


def run_extended(source: str, namespace: dict | None = None, active=None, filename="<extended>") -> dict:
    """Rewrite ``source`` with the given extensions on from line 1, execute it, return its namespace."""
    source = textwrap.dedent(source)
    tree = rewrite_source(source, filename, ALL_ON if active is None else active).tree
    namespace = {} if namespace is None else namespace
    namespace.setdefault("__name__", "extended_snippet")
    exec(compile(tree, filename, "exec", dont_inherit=True), namespace)
    return namespace


def write_module(directory, name: str, source: str):
    path = directory / f"{name}.py"
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return path


def forget_module(name: str) -> None:
    for key in [k for k in sys.modules if k == name or k.endswith("." + name) or k.startswith(name + ".")]:
        del sys.modules[key]
    importlib.invalidate_caches()

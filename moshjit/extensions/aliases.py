"""Alias module names under ``moshjit.extensions.rewritten`` for rewritten modules and files loaded by path.

See ``moshjit.extensions.rewritten`` for why they exist; this module only names and registers them, so
that the process that rewrote a module does not need the alias finder.
"""
from __future__ import annotations

import base64
import sys
import types

PREFIX = "moshjit.extensions.rewritten"
PATH_MARK = "_p"


def path_alias(path: str) -> str:
    """The module name standing for the file at absolute ``path``."""
    encoded = base64.b32encode(path.encode("utf-8")).decode("ascii").rstrip("=").lower()
    return f"{PREFIX}.{PATH_MARK}{encoded}"


def decode_path(token: str) -> str:
    """The file path a ``path_alias`` token stands for."""
    encoded = token[len(PATH_MARK):].upper()
    return base64.b32decode(encoded + "=" * (-len(encoded) % 8)).decode("utf-8")


def register_alias(module: types.ModuleType) -> None:
    """Register ``module`` under its alias and relabel its functions and classes with that alias."""
    name = module.__name__
    if name.startswith(PREFIX + ".") or name in ("__main__", "__mp_main__"):
        return
    alias = f"{PREFIX}.{name}"
    sys.modules[alias] = module
    seen: set[int] = set()

    def relabel(obj) -> None:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        if isinstance(obj, (staticmethod, classmethod)):
            relabel(obj.__func__)
        elif isinstance(obj, property):
            for accessor in (obj.fget, obj.fset, obj.fdel):
                relabel(accessor)
        elif isinstance(obj, (types.FunctionType, type)) or "__wrapped__" in getattr(obj, "__dict__", ()):
            if getattr(obj, "__module__", None) != name:
                return
            try:
                obj.__module__ = alias
            except (AttributeError, TypeError):
                return
            if isinstance(obj, type):
                for member in list(vars(obj).values()):
                    relabel(member)

    for value in list(vars(module).values()):
        relabel(value)

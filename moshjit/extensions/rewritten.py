"""Alias module names that make functions of rewritten modules pickle into processes without the hook.

Pickle stores a function or class by reference, as ``(obj.__module__, obj.__qualname__)``. Resolving the
plain name in a worker that never installed the hook would silently import the *unrewritten* file there.
So after a rewritten module ``pkg.mod`` runs, its functions and classes are relabelled with the module name
``moshjit.extensions.rewritten.pkg.mod``, registered in ``sys.modules`` as the very same module object. In
another process, unpickling imports that name: importing this package installs the hook and a finder
that resolves ``moshjit.extensions.rewritten.<name>`` to ``<name>`` imported through the hook, and
``moshjit.extensions.rewritten._p<base32 path>`` to the file at that path (scripts, files loaded by path).
Importing this module therefore changes ``sys.meta_path``; that is its purpose.
"""
from __future__ import annotations

import base64
import importlib
import importlib.machinery
import importlib.util
import logging
import sys
import types

from moshjit.extensions import hook

logger = logging.getLogger("moshjit")
PREFIX = __name__
__path__: list[str] = []  # a package: aliases are its submodules
_PATH_MARK = "_p"


def path_alias(path: str) -> str:
    """The module name standing for the file at absolute ``path``."""
    encoded = base64.b32encode(path.encode("utf-8")).decode("ascii").rstrip("=").lower()
    return f"{PREFIX}.{_PATH_MARK}{encoded}"


def _decode_path(token: str) -> str:
    encoded = token[len(_PATH_MARK):].upper()
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


class _AliasLoader:
    """Creates an alias module by importing the real module through the hook and returning it as is."""

    def __init__(self, real_name: str):
        self.real_name = real_name
        self.real_spec = None

    def create_module(self, spec):
        module = sys.modules.get(self.real_name)
        if module is None or not (isinstance(module.__spec__.loader, hook.RewritingLoader)
                                  or not hook.file_has_header(getattr(module, "__file__", None) or "")):
            if module is not None:
                logger.warning("moshjit: %s was imported without the rewriting hook; importing it again "
                               "rewritten", self.real_name)
                del sys.modules[self.real_name]
            module = importlib.import_module(self.real_name)
        self.real_spec = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self.real_spec  # the import system set it to the alias spec


class AliasFinder:
    """Resolves ``moshjit.extensions.rewritten.*`` names (see the module docstring)."""

    @classmethod
    def find_spec(cls, fullname: str, path=None, target=None):
        if not fullname.startswith(PREFIX + "."):
            return None
        real = fullname[len(PREFIX) + 1:]
        if real.startswith(_PATH_MARK) and "." not in real:
            file_path = _decode_path(real)
            return importlib.util.spec_from_file_location(fullname, file_path,
                                                          loader=hook.file_loader(fullname, file_path))
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(real))


hook.install()
if AliasFinder not in sys.meta_path:
    sys.meta_path.insert(0, AliasFinder)

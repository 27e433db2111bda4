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

import importlib
import importlib.machinery
import importlib.util
import logging
import sys

from moshjit.extensions import aliases, hook

logger = logging.getLogger("moshjit")
__path__: list[str] = []  # a package: the aliases are its submodules


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
        if not fullname.startswith(aliases.PREFIX + "."):
            return None
        real = fullname[len(aliases.PREFIX) + 1:]
        if real.startswith(aliases.PATH_MARK) and "." not in real:
            file_path = aliases.decode_path(real)
            return importlib.util.spec_from_file_location(fullname, file_path,
                                                          loader=hook.file_loader(fullname, file_path))
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(real))


hook.install()
if AliasFinder not in sys.meta_path:
    sys.meta_path.insert(0, AliasFinder)

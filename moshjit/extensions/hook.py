"""The import hook: a meta-path finder that hands files with the ``# moshmosh?`` header to a rewriting loader.

Rewritten modules cache their bytecode in ``__pycache__`` under their own tag
(``name.cpython-311.opt-moshjit<digest>.pyc``), where the digest covers moshjit's version, the source of the
rewriting code (every module of this package) and the optimisation level: a plain ``.pyc`` is never loaded for a rewritten file and
vice versa, and an edit to the file (its pragmas included) invalidates the cache through the usual
mtime/size check. After running a rewritten module, its functions and classes are relabelled with an alias
module name (see ``moshjit.extensions.rewritten``) so that pickles of them import the rewritten module in
a process that never installed the hook.
"""
from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.machinery
import importlib.util
import logging
import marshal
import os
import sys
import types

from moshjit.extensions import pragma
from moshjit.extensions.rewriter import compile_module

logger = logging.getLogger("moshjit")
_HEAD_BYTES = 8192  # where a header (or a misplaced one, after a docstring) is looked for


def rewriter_sources() -> list[str]:
    """The files whose code decides what a rewritten module becomes: every module of this package (the rewriters
    and the decision trees, patterns and emitters they import) and the module of each registered extension (one
    registered from outside the package included), so an edit to any of them invalidates the cache."""
    from moshjit.extensions import registry
    package = os.path.dirname(os.path.abspath(__file__))
    paths = {os.path.join(package, name) for name in os.listdir(package) if name.endswith(".py")}
    for cls in registry.ordered():
        module_file = getattr(sys.modules.get(cls.__module__), "__file__", None)
        if module_file:
            paths.add(os.path.abspath(module_file))
    return sorted(paths)


@functools.lru_cache(maxsize=None)
def _digest(optimize: int) -> str:
    from moshjit._version import __version__
    hasher = hashlib.sha256(f"{__version__}|{sys.implementation.cache_tag}|{optimize}".encode())
    for path in rewriter_sources():
        with open(path, "rb") as source:
            hasher.update(os.path.basename(path).encode() + b"\0" + source.read())
    return hasher.hexdigest()[:12]


def cache_tag() -> str:
    """The pyc ``optimization`` tag of rewritten modules for this moshjit, its rewriters and ``-O`` level."""
    return f"moshjit{sys.flags.optimize}{_digest(sys.flags.optimize)}"


def cache_path(source_path: str) -> str:
    """Where the rewritten bytecode of ``source_path`` is cached."""
    return importlib.util.cache_from_source(source_path, optimization=cache_tag())


def file_has_header(path: str) -> bool:
    """Cheap check of a file's first bytes for the ``# moshmosh?`` header. A file with the header comment
    elsewhere in those bytes is claimed too, so that loading it reports the misplaced header."""
    try:
        with open(path, "rb") as source:
            head = source.read(_HEAD_BYTES)
    except OSError:
        return False
    if b"moshmosh?" not in head:
        return False
    text = head.decode("utf-8", "replace")
    if pragma.has_header(text):
        return True
    try:
        pragma.check_header(importlib.util.decode_source(_read(path)), path)
    except SyntaxError:
        return True  # a misplaced header: claim the file, so that importing it reports the error
    except (OSError, UnicodeDecodeError):
        return False
    return False


def _read(path: str) -> bytes:
    with open(path, "rb") as source:
        return source.read()


class RewritingLoader(importlib.machinery.SourceFileLoader):
    """Loads a source file through the syntax-extension rewriter, caching bytecode under its own pyc tag."""

    def get_code(self, fullname: str) -> types.CodeType:
        source_path = self.get_filename(fullname)
        bytecode_path = cache_path(source_path)
        stats = self.path_stats(source_path)
        code = self._cached_code(bytecode_path, stats)
        if code is not None:
            return code
        source = importlib.util.decode_source(self.get_data(source_path))
        code = compile_module(source, source_path)
        if not sys.dont_write_bytecode:
            header = (importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little")
                      + (int(stats["mtime"]) & 0xFFFFFFFF).to_bytes(4, "little")
                      + (stats["size"] & 0xFFFFFFFF).to_bytes(4, "little"))
            self.set_data(bytecode_path, header + marshal.dumps(code))
        return code

    def _cached_code(self, bytecode_path: str, stats: dict) -> types.CodeType | None:
        try:
            data = self.get_data(bytecode_path)
        except OSError:
            return None
        expected = (importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little")
                    + (int(stats["mtime"]) & 0xFFFFFFFF).to_bytes(4, "little")
                    + (stats["size"] & 0xFFFFFFFF).to_bytes(4, "little"))
        if data[:16] != expected:
            return None
        try:
            return marshal.loads(data[16:])
        except (EOFError, ValueError, TypeError):
            logger.warning("moshjit: ignoring corrupt bytecode cache %s", bytecode_path)
            return None

    def exec_module(self, module: types.ModuleType) -> None:
        super().exec_module(module)
        from moshjit.extensions import aliases
        aliases.register_alias(module)


class RewritingFinder:
    """Meta-path finder claiming source modules whose file starts with the ``# moshmosh?`` header."""

    @classmethod
    def find_spec(cls, fullname: str, path=None, target=None):
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or type(spec.loader) is not importlib.machinery.SourceFileLoader:
            return None
        if not file_has_header(spec.origin):
            return None
        spec.loader = RewritingLoader(fullname, spec.origin)
        spec.cached = cache_path(spec.origin)
        return spec


def install() -> None:
    """Insert the finder first in ``sys.meta_path`` (before pytest's assertion rewriter, if that is there)."""
    if RewritingFinder not in sys.meta_path:
        sys.meta_path.insert(0, RewritingFinder)
        importlib.invalidate_caches()


def uninstall() -> None:
    while RewritingFinder in sys.meta_path:
        sys.meta_path.remove(RewritingFinder)


def is_installed() -> bool:
    return RewritingFinder in sys.meta_path


def file_loader(name: str, path: str) -> importlib.machinery.SourceFileLoader:
    """The loader for a file imported by path: rewriting if it has the header, plain otherwise."""
    if file_has_header(path):
        return RewritingLoader(name, path)
    return importlib.machinery.SourceFileLoader(name, path)


def load_source_module(path: str) -> types.ModuleType:
    """Import a ``.py`` file by path as a module, rewritten if it carries the header (plain import otherwise).

    The module is named ``moshjit.extensions.rewritten._p<encoded path>`` so that its functions pickle by
    reference and still import (rewritten) in another process.
    """
    from moshjit.extensions import aliases
    path = os.path.abspath(path)
    name = aliases.path_alias(path)
    if name in sys.modules:
        return sys.modules[name]
    loader = file_loader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module

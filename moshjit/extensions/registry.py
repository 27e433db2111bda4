"""Registration of syntax extensions and the order their rewrites run in (declared, not import-ordered)."""
from __future__ import annotations

import ast
import graphlib
import importlib
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from moshjit.extensions.pragma import Activation
    from moshjit.extensions.rewriter import RewriteContext

_BUILTIN_MODULES = (
    "moshjit.extensions.pattern_matching",
    "moshjit.extensions.pipeline",
    "moshjit.extensions.quick_lambda",
)
_registered: dict[str, type["Extension"]] = {}
_builtins_loaded = False


class Extension:
    """One syntax extension: an AST rewrite applied to the lines where its pragma has switched it on.

    Subclasses set ``name`` (the pragma name), ``parameters`` (pragma parameter names with defaults, in
    positional order) and ``runs_before``/``runs_after`` (names of extensions whose rewrite must come
    after/before this one), and implement ``rewrite``.
    """

    name: ClassVar[str]
    parameters: ClassVar[dict[str, object]] = {}
    runs_before: ClassVar[tuple[str, ...]] = ()
    runs_after: ClassVar[tuple[str, ...]] = ()

    def __init__(self, activation: "Activation", context: "RewriteContext"):
        self.activation = activation
        self.context = context

    def params_at(self, lineno: int) -> dict | None:
        """The extension's parameters if it is switched on at ``lineno``, else None."""
        return self.activation.params_at(lineno)

    def rewrite(self, tree: ast.Module) -> ast.Module:
        raise NotImplementedError(f"extension {self.name!r} does not implement rewrite()")


def register(cls: type[Extension]) -> type[Extension]:
    """Class decorator making an extension available to pragmas under ``cls.name``."""
    existing = _registered.get(cls.name)
    if existing is not None and existing is not cls:
        raise ValueError(f"syntax extension {cls.name!r} is already registered by {existing.__module__}")
    _registered[cls.name] = cls
    return cls


def _load_builtins() -> None:
    global _builtins_loaded
    if not _builtins_loaded:
        _builtins_loaded = True
        for module in _BUILTIN_MODULES:
            importlib.import_module(module)


def get(name: str) -> type[Extension] | None:
    _load_builtins()
    return _registered.get(name)


def names() -> list[str]:
    _load_builtins()
    return sorted(_registered)


def ordered() -> list[type[Extension]]:
    """All extensions in an order that honours every declared ``runs_before``/``runs_after``."""
    _load_builtins()
    sorter: graphlib.TopologicalSorter = graphlib.TopologicalSorter()
    for name, cls in sorted(_registered.items()):
        sorter.add(name)
        for later in cls.runs_before:
            if later in _registered:
                sorter.add(later, name)
        for earlier in cls.runs_after:
            if earlier in _registered:
                sorter.add(name, earlier)
    try:
        order = list(sorter.static_order())
    except graphlib.CycleError as err:
        raise RuntimeError(f"syntax extensions declare a cyclic order: {err.args[1]}") from None
    return [_registered[name] for name in order]

"""Syntax extensions as source rewrites: pattern matching, pipelines and quick lambdas.

A file opts in with a first line ``# moshmosh?`` and switches extensions on with ``# +pattern-matching``,
``# +pipeline``, ``# +quick-lambda`` (off again with ``# -name``). ``install()`` adds the import hook that
rewrites such files; ``rewrite()`` shows what a file becomes. See docs/extensions.md.
"""
from __future__ import annotations

from moshjit.extensions import hook
from moshjit.extensions.registry import Extension, register
from moshjit.extensions.rewriter import Rewritten, rewrite, rewrite_source, rewrite_tree
from moshjit.extensions.runtime import MatchError, match, pin, when

__all__ = ["hook", "install", "uninstall", "rewrite", "rewrite_source", "rewrite_tree", "Rewritten", "MatchError",
           "match", "pin", "when", "Extension", "register", "load_source_module"]


def install() -> None:
    """Put the import hook in place (idempotent): modules with the ``# moshmosh?`` header get rewritten."""
    hook.install()


def uninstall() -> None:
    """Remove the import hook; modules already imported stay as they are."""
    hook.uninstall()


def load_source_module(path: str):
    """Import a ``.py`` file by path, rewritten if it carries the header."""
    return hook.load_source_module(path)

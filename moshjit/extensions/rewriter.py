"""Drive the registered extensions over one source: pragmas → activations → AST rewrites in declared order.

``rewrite_source`` is the entry point shared by the import hook, the script runner, the CLI and the IPython
extension; the latter passes the extensions left on by the previous cell as ``initially_active``.
"""
from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass

from moshjit.extensions import pragma, registry


class RewriteContext:
    """What every extension needs while rewriting one source: its filename and lines, fresh hygienic names."""

    def __init__(self, filename: str, source: str, tree: ast.AST, activations: pragma.PragmaScan):
        self.filename = filename
        self.source = source
        self.activations = activations
        self.lines = source.splitlines()
        self.identifiers = _identifiers(tree)
        self._counter = itertools.count()
        self.changed = False

    def fresh_name(self, hint: str) -> str:
        """A valid identifier that no name in the source uses, so generated code cannot capture user names."""
        while True:
            name = f"_mj_{hint}{next(self._counter)}"
            if name not in self.identifiers:
                self.identifiers.add(name)
                return name

    def error(self, node: ast.AST, message: str) -> SyntaxError:
        """A SyntaxError pointing at ``node`` in the original file, line and column."""
        lineno = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0)
        end_lineno = getattr(node, "end_lineno", None) or lineno
        end_col = getattr(node, "end_col_offset", None)
        text = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else None
        if end_col is None or end_lineno != lineno:
            end_lineno, end_col = lineno, len(text or "")
        return SyntaxError(message, (self.filename, lineno, col + 1, text, end_lineno, end_col + 1))


def _identifiers(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).partition(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
    return names


@dataclass
class Rewritten:
    """The rewritten module AST, the extensions still switched on at its end, and whether anything changed."""

    tree: ast.Module
    active_at_end: dict[str, dict]
    changed: bool


def rewrite_tree(tree: ast.Module, source: str, filename: str,
                 initially_active: dict[str, dict] | None = None) -> Rewritten:
    """Apply every extension switched on somewhere in ``source`` to ``tree`` (in place), in declared order."""
    scan = pragma.scan(source, filename, initially_active)
    context = RewriteContext(filename, source, tree, scan)
    for extension in registry.ordered():
        activation = scan.activation(extension.name)
        if activation:
            tree = extension(activation, context).rewrite(tree)
    ast.fix_missing_locations(tree)
    return Rewritten(tree, scan.active_at_end, context.changed)


def rewrite_source(source: str, filename: str, initially_active: dict[str, dict] | None = None) -> Rewritten:
    """Parse and rewrite ``source`` with ``initially_active`` extensions on from line 1 (no header needed)."""
    tree = ast.parse(source, filename)
    return rewrite_tree(tree, source, filename, initially_active)


def rewrite(source: str, filename: str) -> str:
    """The rewritten source of a file, for inspection; a file without the ``# moshmosh?`` header is returned as is."""
    if not pragma.check_header(source, filename):
        return source
    return ast.unparse(rewrite_source(source, filename).tree) + "\n"


def compile_module(source: str, filename: str, optimize: int = -1):
    """Compile a module's source, rewriting it first if it carries the header; line numbers stay original."""
    if pragma.check_header(source, filename):
        tree = rewrite_source(source, filename).tree
        return compile(tree, filename, "exec", dont_inherit=True, optimize=optimize)
    return compile(source, filename, "exec", dont_inherit=True, optimize=optimize)

"""Syntax extensions in IPython/Jupyter cells.

After loading, pragma lines in a cell (``# +pattern-matching``, ``# +pipeline``, ``# +quick-lambda``,
``# -name``) switch extensions on or off from that line, for that cell and the cells after it; a notebook
needs no ``# moshmosh?`` header. The rewrite is done by an input transformer (which sees the comments and
raises extended-syntax ``SyntaxError``s, shown by IPython like any other, with the cell's line) and
handed to an AST transformer (which replaces the parsed cell, keeping its line numbers). IPython drops an
AST transformer that raises, so that one never does.

``CellSyntax`` only deals with syntax; the compilation magics are in ``magics.py``.
"""
from __future__ import annotations

import ast
import copy
import re

_SWITCH_HINT = re.compile(r"^[ \t]*#\s*[+-][A-Za-z]", re.MULTILINE)


class CellSyntax:
    """Per-shell state of the syntax extensions: which are on, and the rewrites waiting for their AST."""

    def __init__(self, shell):
        self.shell = shell
        self.active: dict[str, dict] = {}
        self._rewritten: dict[str, tuple[ast.Module, dict[str, dict]]] = {}
        self.input_transformer = _InputTransformer(self)
        self.ast_transformer = _AstTransformer(self)

    def register(self) -> None:
        if self.input_transformer not in self.shell.input_transformers_post:
            self.shell.input_transformers_post.append(self.input_transformer)
        if self.ast_transformer not in self.shell.ast_transformers:
            self.shell.ast_transformers.append(self.ast_transformer)

    def unregister(self) -> None:
        while self.input_transformer in self.shell.input_transformers_post:
            self.shell.input_transformers_post.remove(self.input_transformer)
        while self.ast_transformer in self.shell.ast_transformers:
            self.shell.ast_transformers.remove(self.ast_transformer)

    def rewrite_lines(self, lines: list[str]) -> list[str]:
        """Rewrite the cell now (raising its extended-syntax errors) and keep the result for its AST."""
        source = "".join(lines)
        if not self.active and not _SWITCH_HINT.search(source):
            return lines
        try:
            parsed = compile(source, "<cell>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        except SyntaxError:
            return lines  # plain Python syntax error: IPython reports it when it parses the cell
        from moshjit.extensions import rewrite_tree
        key = ast.dump(parsed)
        filename = self._cell_filename(source)
        try:
            rewritten = rewrite_tree(parsed, source, filename, self.active)
        except SyntaxError:
            self._register_cell(source)  # so IPython shows "Cell In[n], line k" and the line's text
            raise
        self._rewritten[key] = (rewritten.tree, rewritten.active_at_end)
        while len(self._rewritten) > 8:  # cells transformed but never run (e.g. by other tools)
            del self._rewritten[next(iter(self._rewritten))]
        return lines

    def rewrite_ast(self, tree: ast.Module) -> ast.Module:
        """The rewritten version of the cell IPython just parsed, if the input transformer prepared one."""
        found = self._rewritten.pop(ast.dump(tree), None)
        if found is None:
            return tree
        rewritten, self.active = found
        return copy.deepcopy(rewritten)

    def _cell_filename(self, source: str) -> str:
        """The name IPython will compile this cell under, so errors name the cell as tracebacks do."""
        number = cell_number(self.shell)
        try:
            return self.shell.compile.get_code_name(source, source, number)
        except (AttributeError, TypeError):
            return f"<ipython-input-{number}>"

    def _register_cell(self, source: str) -> None:
        """Put the cell's text in IPython's line cache under the name its errors carry."""
        cache = getattr(getattr(self.shell, "compile", None), "cache", None)
        if cache is not None:
            cache(source, cell_number(self.shell), raw_code=source)


def cell_number(shell) -> int:
    """The execution number of the cell being run (``In[n]``), also from code that runs inside a cell (a magic),
    where ``shell.execution_count`` has already moved on to the next cell."""
    running = getattr(getattr(shell, "displayhook", None), "exec_result", None)
    number = getattr(running, "execution_count", None)
    return number if number is not None else getattr(shell, "execution_count", 0)


class _InputTransformer:
    """``input_transformers_post`` entry; marked as having side effects so IPython runs it once per cell."""

    has_side_effects = True

    def __init__(self, syntax: CellSyntax):
        self.syntax = syntax

    def __call__(self, lines: list[str]) -> list[str]:
        return self.syntax.rewrite_lines(lines)


class _AstTransformer(ast.NodeTransformer):
    """``ast_transformers`` entry: swaps in the tree the input transformer rewrote."""

    def __init__(self, syntax: CellSyntax):
        self.syntax = syntax

    def visit(self, node: ast.AST) -> ast.AST:
        return self.syntax.rewrite_ast(node)


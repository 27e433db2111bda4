"""The ``pipeline`` extension: inside an active region ``x | f`` means ``f(x)``, chaining left to right.

``x | f | g`` is ``g(f(x))``, exactly the nested calls (``f`` is evaluated before ``x``, as in ``f(x)``), so a
pipeline costs what the nested calls cost. With ``quick-lambda`` also on, a stage may mark where the value
goes with one placeholder: ``xs | map(str, _) | list`` is ``list(map(str, xs))``. Outside active regions
``|`` keeps its meaning.
"""
from __future__ import annotations

import ast

from moshjit.extensions.quick_lambda import free_placeholders, placeholder_index
from moshjit.extensions.registry import Extension, register


@register
class Pipeline(Extension):
    """``value | function`` as function application."""

    name = "pipeline"
    runs_after = ("pattern-matching",)
    runs_before = ("quick-lambda",)

    def rewrite(self, tree: ast.Module) -> ast.Module:
        return _PipeRewriter(self).visit(tree)


class _PipeRewriter(ast.NodeTransformer):
    def __init__(self, extension: Pipeline):
        self.extension = extension
        self.context = extension.context

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.BitOr) or self.extension.params_at(node.lineno) is None:
            return node
        self.context.changed = True
        lambdas = self.context_quick_lambda(node.lineno)
        if lambdas is not None:
            slots = free_placeholders(node.right, lambdas["token"])
            if len(slots) == 1 and placeholder_index(slots[0], lambdas["token"]) == 0:
                return self.substitute(node.right, slots[0], node.left)
            if slots:
                raise self.context.error(node.right, "a pipeline stage takes the piped value through exactly one "
                                         f"{lambdas['token']!r}; use a lambda for anything else")
        return ast.copy_location(ast.Call(node.right, [node.left], []), node)

    def context_quick_lambda(self, lineno: int) -> dict | None:
        return self.context.activations.activation("quick-lambda").params_at(lineno)

    @staticmethod
    def substitute(stage: ast.expr, slot: ast.Name, value: ast.expr) -> ast.expr:
        class Replace(ast.NodeTransformer):
            def visit_Name(self, node):
                return value if node is slot else node

        return Replace().visit(stage)

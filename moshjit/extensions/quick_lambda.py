"""The ``quick-lambda`` extension: ``map(_ + 1, xs)`` means ``map(lambda a: a + 1, xs)``.

A placeholder is ``_`` (same as ``_0``) or ``_1``, ``_2``, ... in load position. A call argument (positional or
keyword value) that contains placeholders becomes a lambda over them, parameters ordered by index. A bare
placeholder argument, as in ``f(_, 2)``, does not make a lambda by itself: the call containing it does, when
that call is itself an argument (``map(f(_, 2), xs)``) or a pipeline stage. Placeholders anywhere else keep
their plain meaning. Runs after pattern matching, whose ``_`` wildcards are gone by then.
"""
from __future__ import annotations

import ast
import re

from moshjit.extensions.registry import Extension, register


@register
class QuickLambda(Extension):
    """Scala-style placeholder lambdas in argument position; ``# +quick-lambda(it)`` renames the placeholder."""

    name = "quick-lambda"
    parameters = {"token": "_"}
    runs_after = ("pattern-matching", "pipeline")

    def rewrite(self, tree: ast.Module) -> ast.Module:
        return _LambdaRewriter(self).visit(tree)


def placeholder_index(node: ast.AST, token: str) -> int | None:
    """The parameter index a placeholder name stands for, or None for other nodes."""
    if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load):
        return None
    if node.id == token:
        return 0
    found = re.fullmatch(re.escape(token) + r"(\d+)", node.id)
    return int(found.group(1)) if found else None


def free_placeholders(node: ast.AST, token: str) -> list[ast.Name]:
    """Placeholders of ``node`` that a lambda made at ``node``'s level would bind.

    Skips placeholders that an inner call argument already binds, and names shadowed by an explicit lambda
    parameter or comprehension target.
    """
    found: list[ast.Name] = []

    def walk(current: ast.AST, shadowed: frozenset[str]) -> None:
        if placeholder_index(current, token) is not None:
            if current.id not in shadowed:
                found.append(current)
            return
        if isinstance(current, ast.Lambda):
            params = {a.arg for a in ast.walk(current.args) if isinstance(a, ast.arg)}
            walk(current.body, shadowed | params)
            for default in current.args.defaults + [d for d in current.args.kw_defaults if d is not None]:
                walk(default, shadowed)
            return
        if isinstance(current, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            targets = {n.id for g in current.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
            for child in ast.iter_child_nodes(current):
                walk(child, shadowed | targets)
            return
        if isinstance(current, ast.Call):
            walk(current.func, shadowed)
            for argument in _arguments(current):
                if placeholder_index(argument, token) is not None:
                    walk(argument, shadowed)
            return
        for child in ast.iter_child_nodes(current):
            walk(child, shadowed)

    walk(node, frozenset())
    return found


def _arguments(call: ast.Call) -> list[ast.expr]:
    return [a for a in call.args if not isinstance(a, ast.Starred)] + [k.value for k in call.keywords]


class _LambdaRewriter(ast.NodeTransformer):
    def __init__(self, extension: QuickLambda):
        self.extension = extension
        self.context = extension.context

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        node.args = [self.make_lambda(a) if not isinstance(a, ast.Starred) else a for a in node.args]
        for keyword in node.keywords:
            keyword.value = self.make_lambda(keyword.value)
        return node

    def make_lambda(self, argument: ast.expr) -> ast.expr:
        params = self.extension.params_at(argument.lineno)
        if params is None:
            return argument
        token = params["token"]
        if placeholder_index(argument, token) is not None:
            return argument
        placeholders = free_placeholders(argument, token)
        if not placeholders:
            return argument
        self.context.changed = True
        count = max(placeholder_index(p, token) for p in placeholders) + 1
        names = [self.context.fresh_name("arg") for _ in range(count)]
        for placeholder in placeholders:
            placeholder.id = names[placeholder_index(placeholder, token)]
        arguments = ast.arguments(posonlyargs=[], args=[ast.arg(name) for name in names], vararg=None,
                                  kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        lam = ast.Lambda(arguments, argument)
        for node in ast.walk(arguments):
            ast.copy_location(node, argument)
        return ast.copy_location(lam, argument)

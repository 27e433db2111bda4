"""The previous pattern-matching rewrite (one case at a time, before decision trees), frozen so that the
matching benchmark can time it beside the current one. ``load(path, name)`` imports a ``# moshmosh?`` file
rewritten by it (the other extensions, pipeline and quick lambdas, are moshjit's current ones)."""
from __future__ import annotations

import ast
import sys
import types

from moshjit.extensions import pragma, registry
from moshjit.extensions.rewriter import RewriteContext

from benchmarks.matching.previous_rewrite.pattern_matching import PatternMatching


def load(path: str, name: str) -> types.ModuleType:
    """Import the file at ``path`` as module ``name``, its matches rewritten by the frozen rewrite."""
    with open(path, encoding="utf-8") as file:
        source = file.read()
    tree = ast.parse(source, path)
    scan = pragma.scan(source, path)
    context = RewriteContext(path, source, tree, scan)
    for extension in registry.ordered():
        activation = scan.activation(extension.name)
        if activation:
            cls = PatternMatching if extension.name == PatternMatching.name else extension
            tree = cls(activation, context).rewrite(tree)
    ast.fix_missing_locations(tree)
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    exec(compile(tree, path, "exec", dont_inherit=True), module.__dict__)
    return module

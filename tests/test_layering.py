"""Imports run down the pipeline only, and no module imports itself through others (docs/architecture.md, "What may
import what"). Every ``import`` in ``moshjit/`` counts — also those inside functions and in the runtime's .pyx
files — except those under ``if TYPE_CHECKING:``, which never run."""
from __future__ import annotations

import ast
import os
import re

import pytest

import moshjit

PACKAGE_DIR = os.path.dirname(moshjit.__file__)

# Lowest first: a module may import modules of its own layer or of layers below it.
LAYERS = [
    ("base", ("moshjit._version", "moshjit.cpython", "moshjit.errors", "moshjit.functions", "moshjit.artifact",
              "moshjit.cache", "moshjit.match_reference", "moshjit.async_reference", "moshjit.bindings", "moshjit.samples",
              "moshjit.progress", "moshjit.switching", "moshjit.raising")),
    ("analysis", ("moshjit.analysis",)),
    ("ir", ("moshjit.ir",)),
    ("typing", ("moshjit.primitives", "moshjit.typeof", "moshjit.context")),
    ("passes", ("moshjit.passes",)),
    ("frontend", ("moshjit.frontend",)),
    ("runtime", ("moshjit.runtime",)),
    ("backends", ("moshjit.backends",)),
    ("driver", ("moshjit.compiler",)),
    ("dispatcher", ("moshjit.dispatcher", "moshjit.classes", "moshjit.tiers", "moshjit.cold_copy",
                    "moshjit.background", "moshjit.nested")),
    ("tools", ("moshjit.annotate", "moshjit.info", "moshjit.notebook", "moshjit.cli", "moshjit.__main__",
               "moshjit")),
]
# Beside the pipeline: the syntax extensions touch only source text (their run time also uses the compiled
# ``__match_args__`` guard of class patterns, which itself imports nothing of moshjit).
EXTENSIONS = "moshjit.extensions"
EXTENSIONS_MAY_IMPORT = ("moshjit.extensions", "moshjit._version", "moshjit.errors", "moshjit.match_reference",
                         "moshjit.runtime.moshjit_match")
BACKENDS = ("moshjit.backends.cython", "moshjit.backends.llvm")
_PYX_IMPORT = re.compile(r"^\s*(?:from\s+(moshjit(?:\.\w+)*)\s+c?import\b|c?import\s+(moshjit(?:\.\w+)*))",
                         re.MULTILINE)


def _modules() -> dict[str, str]:
    """Module name → path, for every .py and .pyx file of the package."""
    found = {}
    for directory, _, files in os.walk(PACKAGE_DIR):
        for name in files:
            if name.endswith((".py", ".pyx")):
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, os.path.dirname(PACKAGE_DIR))
                module = os.path.splitext(relative)[0].replace(os.sep, ".")
                found[module.removesuffix(".__init__")] = path
    return found


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported_names(tree: ast.AST, module: str, is_package: bool):
    """(line, imported module name) of every import that can run, resolving relative imports and
    ``from package import submodule``."""
    package = module if is_package else module.rpartition(".")[0]
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield node.lineno, full if full in MODULES else base
        stack.extend(ast.iter_child_nodes(node))


def _known(name: str) -> str | None:
    """The moshjit module an imported name refers to (the longest known prefix), or None for other packages."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, dict[str, int]]:
    """module → {imported moshjit module: line of the first such import}."""
    graph: dict[str, dict[str, int]] = {}
    for module, path in MODULES.items():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        edges: dict[str, int] = {}
        if path.endswith(".pyx"):
            for match in _PYX_IMPORT.finditer(text):
                target = _known(match.group(1) or match.group(2))
                if target and target != module:
                    edges.setdefault(target, text.count("\n", 0, match.start()) + 1)
        else:
            tree = ast.parse(text, path)
            for line, name in _imported_names(tree, module, path.endswith("__init__.py")):
                target = _known(name)
                if target and target != module:
                    edges.setdefault(target, line)
        graph[module] = edges
    return graph


def layer_of(module: str) -> int | None:
    """Index of the layer ``module`` belongs to (longest matching prefix), None for the extensions."""
    best, best_length = None, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_length:
                best, best_length = index, len(prefix)
    return best


def _within(module: str, prefixes) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_every_module_has_a_layer():
    unplaced = [m for m in MODULES if not _within(m, (EXTENSIONS,)) and layer_of(m) is None]
    assert not unplaced, f"modules outside every layer of LAYERS: {unplaced}"


def test_imports_run_down_the_pipeline():
    wrong = []
    for module, edges in sorted(import_graph().items()):
        for target, line in sorted(edges.items()):
            where = f"{MODULES[module]}:{line}: {module} imports {target}"
            if _within(module, (EXTENSIONS,)):
                if not _within(target, EXTENSIONS_MAY_IMPORT):
                    wrong.append(f"{where} (the extensions import only themselves and {EXTENSIONS_MAY_IMPORT[1:]})")
                continue
            if _within(target, (EXTENSIONS,)):
                if layer_of(module) != len(LAYERS) - 1:
                    wrong.append(f"{where} (only the tools use the extensions)")
                continue
            source_layer, target_layer = layer_of(module), layer_of(target)
            if target_layer > source_layer:
                wrong.append(f"{where} (layer '{LAYERS[source_layer][0]}' may not import "
                             f"layer '{LAYERS[target_layer][0]}')")
            for backend in BACKENDS:
                if _within(module, BACKENDS) and not _within(module, (backend,)) and _within(target, (backend,)):
                    wrong.append(f"{where} (a backend does not import the other one)")
    assert not wrong, "imports against the pipeline's direction:\n" + "\n".join(wrong)


def find_cycle(graph: dict[str, dict[str, int]]) -> list[str] | None:
    """One import cycle as a list of modules (first = last), or None."""
    state: dict[str, int] = {}            # 1: on the current path, 2: finished
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def test_no_import_cycles():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


@pytest.mark.parametrize("graph, cycle", [
    ({"a": {"b": 1}, "b": {"c": 1}, "c": {}}, None),
    ({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}}, ["a", "b", "c", "a"]),
    ({"a": {"a": 1}}, ["a", "a"]),
])
def test_find_cycle_finds_cycles(graph, cycle):
    assert find_cycle(graph) == cycle


def test_imports_inside_functions_and_type_checking_blocks_are_told_apart():
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import moshjit.compiler\n"
                     "def f():\n    from moshjit.dispatcher import jit\n")
    names = [name for _, name in _imported_names(tree, "moshjit.passes.example", False)]
    assert "moshjit.dispatcher" in names and "moshjit.compiler" not in names


def test_every_directory_with_python_files_is_a_package():
    missing = [directory for directory, _, files in os.walk(PACKAGE_DIR)
               if any(f.endswith(".py") for f in files) and "__init__.py" not in files]
    assert not missing, f"directories without __init__.py (a normal install would leave them out): {missing}"

"""The LLVM backend's modules import one another in one direction only: no import cycle among the
``moshjit.backends.*`` modules they reach, counting imports inside functions too (only those under
``if TYPE_CHECKING:`` are exempt). ``from package import name`` is an edge to the submodule when ``name`` is one,
otherwise to the package's ``__init__``."""
import ast
import os

import moshjit

ROOT = os.path.dirname(moshjit.__file__)
BACKENDS = "moshjit.backends"
LLVM = "moshjit.backends.llvm"


def module_path(name: str) -> str | None:
    """The source file of module ``name`` under ``moshjit/`` (a package's ``__init__.py``), or None."""
    base = os.path.join(os.path.dirname(ROOT), *name.split("."))
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return path
    return None


def is_package(name: str) -> bool:
    path = module_path(name)
    return path is not None and os.path.basename(path) == "__init__.py"


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"
            or isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported_names(tree: ast.AST, module: str):
    """(imported module, line) for every import in ``tree``, at any depth, except under ``if TYPE_CHECKING:``."""
    package = module if is_package(module) else module.rpartition(".")[0]
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[:len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                yield (submodule if module_path(submodule) else base), node.lineno
        stack.extend(ast.iter_child_nodes(node))


def import_graph() -> dict[str, dict[str, int]]:
    """module → {imported module: line} among ``moshjit.backends.*``, from the LLVM backend's modules and
    whatever backend modules they reach."""
    graph: dict[str, dict[str, int]] = {}
    todo = [f"{LLVM}.{name[:-3]}" if name != "__init__.py" else LLVM
            for name in sorted(os.listdir(os.path.join(ROOT, "backends", "llvm"))) if name.endswith(".py")]
    while todo:
        module = todo.pop()
        if module in graph:
            continue
        with open(module_path(module), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        edges = graph[module] = {}
        for target, line in imported_names(tree, module):
            if (target == BACKENDS or target.startswith(BACKENDS + ".")) and module_path(target) and target != module:
                edges[target] = min(line, edges.get(target, line))
                todo.append(target)
    return graph


def find_cycle(graph: dict[str, dict[str, int]]) -> list[str] | None:
    """One cycle of ``graph`` as [a, b, ..., a], or None."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = "open"
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == "open":
                return path[path.index(target):] + [target]
            if target not in state and (found := visit(target)):
                return found
        state[module] = "done"
        path.pop()
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_llvm_backend_has_no_import_cycle():
    graph = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle (module:line of its import of the next): " + " → ".join(
        f"{a}:{graph[a][b]}" for a, b in zip(cycle, cycle[1:])) + f" → {cycle[-1]}"


def test_cycles_are_found():
    """The checker itself: a submodule imported by name is an edge to it, imports inside functions count and
    those under ``if TYPE_CHECKING:`` do not."""
    tree = ast.parse("from moshjit.backends.llvm import reprs\n"
                     "def f():\n    from moshjit.backends.llvm.lower import NotNative\n"
                     "if TYPE_CHECKING:\n    from moshjit.backends.llvm import calls\n")
    found = [name for name, _ in imported_names(tree, f"{LLVM}.arith")]
    assert sorted(found) == [f"{LLVM}.lower", f"{LLVM}.reprs"]
    assert find_cycle({"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b": 1}, "b": {}}) is None

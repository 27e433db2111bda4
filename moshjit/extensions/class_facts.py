"""What the pattern-matching rewrite can know about a class pattern's class before the program runs.

A name bound once, by a ``class`` statement of the file being rewritten or of a module it imports from
(found on ``sys.path`` and parsed, never imported), is a *static* class: the rewrite then knows whether it
is a Moshmosh recogniser and, when the source spells it out, its ``__match_args__`` (a literal tuple, a
dataclass's fields, a ``NamedTuple``/``namedtuple``'s fields). Generated code still checks that guess at
run time; a wrong guess only costs the fast path. Everything else is decided at run time.
"""
from __future__ import annotations

import ast
import collections
import os
import sys
from dataclasses import dataclass

SELF_MATCHING = frozenset({"bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list", "set",
                           "str", "tuple"})
_MAX_IMPORT_DEPTH = 3


@dataclass(frozen=True)
class StaticClass:
    """A class known from source: is it a recogniser, and its ``__match_args__`` if the source fixes them."""

    recogniser: bool
    match_args: tuple[str, ...] | None


class ModuleFacts:
    """Static facts about one module's source: names bound, top-level classes, imports."""

    def __init__(self, tree: ast.Module, filename: str | None, depth: int = 0):
        self.filename = filename
        self.depth = depth
        self.binding_counts: collections.Counter[str] = collections.Counter()
        for node in ast.walk(tree):
            for name in _bound_names(node):
                self.binding_counts[name] += 1
        self.classes = {stmt.name: stmt for stmt in tree.body if isinstance(stmt, ast.ClassDef)}
        self.namedtuples = {stmt.targets[0].id: stmt.value for stmt in tree.body
                            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                            and isinstance(stmt.targets[0], ast.Name) and _is_namedtuple_call(stmt.value)}
        self.imports: dict[str, tuple[str, str | None]] = {}  # local name -> (module, attribute or None)
        for stmt in tree.body:
            if isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.asname:
                        self.imports[alias.asname] = (alias.name, None)
                    else:
                        top = alias.name.partition(".")[0]
                        self.imports[top] = (top, None)
            elif isinstance(stmt, ast.ImportFrom) and stmt.module != "__future__":
                module = _absolute(stmt.module, stmt.level, filename)
                if module is None:
                    continue
                for alias in stmt.names:
                    if alias.name != "*":
                        self.imports[alias.asname or alias.name] = (module, alias.name)
        self._static: dict[str, StaticClass | None] = {}

    def is_bound(self, name: str) -> bool:
        return self.binding_counts[name] > 0

    # -- class patterns ---------------------------------------------------------------------------------
    def static_class(self, callee: ast.expr) -> StaticClass | None:
        """The static class a class pattern's callee (a name or dotted name) denotes, if the source shows it."""
        if isinstance(callee, ast.Name):
            return self._named_class(callee.id)
        parts = []
        node = callee
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or self.binding_counts[node.id] != 1 or node.id not in self.imports:
            return None
        module, attribute = self.imports[node.id]
        parts.reverse()
        if attribute is not None:
            module = f"{module}.{attribute}"
        *submodules, name = parts
        facts = _module_facts(".".join([module, *submodules]), self.depth + 1)
        return facts._named_class(name) if facts is not None else None

    def _named_class(self, name: str) -> StaticClass | None:
        if name in self._static:
            return self._static[name]
        self._static[name] = None  # guards against cycles while computing
        result = None
        if self.binding_counts[name] == 1:
            if name in self.classes:
                traits = self._class_traits(name, set())
                if traits is not None:
                    recogniser = traits[0] and not traits[1]
                    result = StaticClass(recogniser, None if recogniser else self._match_args(name))
            elif name in self.namedtuples:
                result = StaticClass(False, _namedtuple_fields(self.namedtuples[name]))
            elif name in self.imports and self.imports[name][1] is not None:
                module, attribute = self.imports[name]
                facts = _module_facts(module, self.depth + 1)
                result = facts._named_class(attribute) if facts is not None else None
        self._static[name] = result
        return result

    def _class_traits(self, name: str, visiting: set[str]) -> tuple[bool, bool] | None:
        """(defines ``__match__``, defines ``__match_args__``) for a class statement here, None if unknown."""
        cls = self.classes.get(name)
        if cls is None or self.binding_counts[name] != 1 or name in visiting or cls.keywords:
            return None
        if not all(self._is_dataclass_decorator(d) for d in cls.decorator_list):
            return None
        defines = {target for stmt in cls.body for target in _defined_names(stmt)}
        has_match = "__match__" in defines
        has_match_args = "__match_args__" in defines or bool(cls.decorator_list) or self._is_named_tuple(cls)
        for base in cls.bases:
            if self._is_named_tuple(cls):
                continue
            if isinstance(base, ast.Name) and base.id == "object" and not self.is_bound("object"):
                continue
            base_traits = self._class_traits(base.id, visiting | {name}) if isinstance(base, ast.Name) else None
            if base_traits is None:
                return None
            has_match = has_match or base_traits[0]
            has_match_args = has_match_args or base_traits[1]
        return has_match, has_match_args

    def _match_args(self, name: str) -> tuple[str, ...] | None:
        """``__match_args__`` of a class statement when its source determines them: a literal tuple of
        strings, a ``NamedTuple``'s fields, or a ``@dataclass``'s ``__init__`` fields (as ``dataclasses``
        computes them, bases that are dataclasses of this module included)."""
        cls = self.classes[name]
        for stmt in cls.body:
            if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                    and stmt.targets[0].id == "__match_args__"):
                try:
                    value = ast.literal_eval(stmt.value)
                except ValueError:
                    return None
                return value if type(value) is tuple and all(type(item) is str for item in value) else None
        if self._is_named_tuple(cls):
            fields = [stmt.target.id for stmt in cls.body
                      if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)]
            return tuple(fields)
        fields = self._dataclass_fields(name, set())
        return None if fields is None else tuple(fields)

    def _dataclass_fields(self, name: str, visiting: set[str]) -> list[str] | None:
        cls = self.classes.get(name)
        if cls is None or name in visiting or len(cls.decorator_list) != 1:
            return None
        decorator = cls.decorator_list[0]
        if not self._is_dataclass_decorator(decorator):
            return None
        options = {}
        if isinstance(decorator, ast.Call):
            if decorator.args or any(not (isinstance(k.value, ast.Constant) and k.value.value in (True, False))
                                     for k in decorator.keywords):
                return None
            options = {k.arg: k.value.value for k in decorator.keywords}
        if options.get("match_args", True) is False:
            return None
        fields: list[str] = []
        for base in cls.bases:
            if not isinstance(base, ast.Name):
                return None
            inherited = self._dataclass_fields(base.id, visiting | {name})
            if inherited is None:
                return None
            fields += [f for f in inherited if f not in fields]
        if options.get("kw_only") is True:
            return fields
        for stmt in cls.body:
            if not isinstance(stmt, ast.AnnAssign):
                continue
            if not isinstance(stmt.target, ast.Name) or isinstance(stmt.annotation, ast.Constant):
                return None  # string annotations: dataclasses decides ClassVar/KW_ONLY by name lookup
            annotation = stmt.annotation.value if isinstance(stmt.annotation, ast.Subscript) else stmt.annotation
            annotation_name = annotation.attr if isinstance(annotation, ast.Attribute) else getattr(
                annotation, "id", None)
            if annotation_name == "ClassVar":
                continue
            if annotation_name == "KW_ONLY":
                break
            if isinstance(stmt.value, ast.Call) and getattr(stmt.value.func, "id", getattr(
                    stmt.value.func, "attr", None)) == "field":
                keywords = {k.arg: k.value for k in stmt.value.keywords}
                if any(not isinstance(v, ast.Constant) for k, v in keywords.items() if k in ("init", "kw_only")):
                    return None
                if keywords.get("init") is not None and keywords["init"].value is False:
                    continue
                if keywords.get("kw_only") is not None and keywords["kw_only"].value is True:
                    continue
            if stmt.target.id not in fields:
                fields.append(stmt.target.id)
        return fields

    def _is_dataclass_decorator(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Call):
            node = node.func
        if isinstance(node, ast.Name):
            return node.id == "dataclass" and self.imports.get("dataclass") == ("dataclasses", "dataclass") \
                and self.binding_counts["dataclass"] == 1
        return (isinstance(node, ast.Attribute) and node.attr == "dataclass" and isinstance(node.value, ast.Name)
                and self.imports.get(node.value.id) == ("dataclasses", None))

    def _is_named_tuple(self, cls: ast.ClassDef) -> bool:
        if len(cls.bases) != 1 or cls.decorator_list:
            return False
        base = cls.bases[0]
        if isinstance(base, ast.Name):
            return base.id == "NamedTuple" and self.imports.get("NamedTuple") == ("typing", "NamedTuple")
        return (isinstance(base, ast.Attribute) and base.attr == "NamedTuple" and isinstance(base.value, ast.Name)
                and self.imports.get(base.value.id) == ("typing", None))


def _bound_names(node: ast.AST):
    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        yield node.id
    elif isinstance(node, ast.arg):
        yield node.arg
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.name
    elif isinstance(node, ast.alias):
        yield (node.asname or node.name).partition(".")[0]
    elif isinstance(node, (ast.Global, ast.Nonlocal)):
        yield from node.names
    elif isinstance(node, ast.ExceptHandler) and node.name:
        yield node.name
    elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
        yield node.name
    elif isinstance(node, ast.MatchMapping) and node.rest:
        yield node.rest


def _defined_names(stmt: ast.stmt):
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield stmt.name
    elif isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                yield target.id
    elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
        yield stmt.target.id


def _is_namedtuple_call(node: ast.expr) -> bool:
    return (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "namedtuple"
            and len(node.args) == 2 and not node.keywords and isinstance(node.args[1], (ast.Constant, ast.List,
                                                                                        ast.Tuple)))


def _namedtuple_fields(call: ast.Call) -> tuple[str, ...] | None:
    try:
        fields = ast.literal_eval(call.args[1])
    except ValueError:
        return None
    if isinstance(fields, str):
        fields = fields.replace(",", " ").split()
    if not all(isinstance(f, str) and f.isidentifier() and not f.startswith("_") for f in fields):
        return None
    return tuple(fields)


def _absolute(module: str | None, level: int, filename: str | None) -> str | None:
    """The absolute name of a (possibly relative) ``from`` import, relative to the file's package."""
    if not level:
        return module
    if not filename:
        return None
    package = _package_of(filename)
    if package is None:
        return None
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return None
    base = parts[:len(parts) - (level - 1)]
    return ".".join(base + ([module] if module else [])) or None


def _package_of(filename: str) -> str | None:
    """The dotted package a source file belongs to, from ``__init__.py`` files above it ('' at top level)."""
    directory = os.path.dirname(os.path.abspath(filename))
    parts = []
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        parts.append(os.path.basename(directory))
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return ".".join(reversed(parts))


_cache: dict[str, tuple[float, ModuleFacts | None]] = {}


def _module_facts(module: str, depth: int) -> ModuleFacts | None:
    """Facts about an imported module, from its source file (parsed, never executed); None if not found."""
    if depth > _MAX_IMPORT_DEPTH:
        return None
    path = _find_source(module)
    if path is None:
        return None
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return None
    cached = _cache.get(path)
    if cached is not None and cached[0] == mtime:
        return cached[1]
    try:
        with open(path, "rb") as source:
            tree = ast.parse(source.read(), path)
    except (OSError, SyntaxError, ValueError):
        facts = None
    else:
        facts = ModuleFacts(tree, path, depth)
    _cache[path] = (mtime, facts)
    return facts


def _find_source(module: str) -> str | None:
    """The ``.py`` file of ``module``: the loaded module's file, or a search of ``sys.path`` (no import)."""
    loaded = sys.modules.get(module)
    if loaded is not None:
        path = getattr(loaded, "__file__", None)
        return path if path and path.endswith(".py") and os.path.isfile(path) else None
    parts = module.split(".")
    for entry in sys.path:
        base = os.path.join(entry or os.getcwd(), *parts)
        for candidate in (base + ".py", os.path.join(base, "__init__.py")):
            if os.path.isfile(candidate):
                return candidate
    return None

"""FROZEN COPY, for benchmarks/matching/run.py only: moshjit's pattern-matching rewrite as it was before
decision trees (commit 2da160b), each case compiled on its own. Not registered, not used by moshjit.

The ``pattern-matching`` extension: ``with match(subject):`` blocks of ``if <pattern>:`` cases.

Each block becomes a plain ``if``/``elif`` chain over a once-evaluated subject: ``type``/``isinstance``/
``len``/``==``/``is`` tests combined with ``and``/``or``, intermediate values held in hygienic temporaries
(walrus), user names bound only after a case has matched. Class patterns that look attributes up test in
a ``try`` whose ``except`` re-runs the case through ``runtime.match_class`` (CPython's exact semantics,
including "a missing attribute means no match"); that path, and ``MatchError``, are the only places
generated code reaches moshjit at run time. Semantics follow PEP 634 (sequences are any non-str sequence,
``*rest`` binds a list, ``None``/``True``/``False`` compare by identity, ``__match_args__``), plus
Moshmosh's ``pin(expr)``, ``when(cond, ...)`` guards, ``isinstance(T)`` tests and ``__match__`` recognisers.
"""
from __future__ import annotations

import ast
import collections
import copy
from typing import Callable

from moshjit.extensions.registry import Extension

_SELF_MATCHING = frozenset({"bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list", "set",
                            "str", "tuple"})
_TPFLAGS_SEQUENCE = 1 << 5
_TPFLAGS_MAPPING = 1 << 6
_RUNTIME = "benchmarks.matching.previous_rewrite.runtime"
_FALLBACK_ERRORS = ("AttributeError", "TypeError", "IndexError")
_PATTERN_HELP = ("patterns are literals, names, _, (tuples)/[lists] with one *star, {mappings}, Class(...), "
                 "pin(expr), isinstance(T), when(cond), p or q, p and q")


class PatternMatching(Extension):
    """``with match(subject): if pattern: ...``; ``# +pattern-matching(case)`` renames the ``match`` keyword."""

    name = "pattern-matching"
    parameters = {"token": "match"}
    runs_before = ("pipeline", "quick-lambda")

    def rewrite(self, tree: ast.Module) -> ast.Module:
        return _MatchRewriter(self, _ModuleFacts(tree)).visit(tree)


class _ModuleFacts:
    """What the rewriter can know statically: which names are ever bound, and module-level classes."""

    def __init__(self, tree: ast.Module):
        self.binding_counts: collections.Counter[str] = collections.Counter()
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                self.binding_counts[node.id] += 1
            elif isinstance(node, ast.arg):
                self.binding_counts[node.arg] += 1
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.binding_counts[node.name] += 1
            elif isinstance(node, ast.alias):
                self.binding_counts[(node.asname or node.name).partition(".")[0]] += 1
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                self.binding_counts.update(node.names)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                self.binding_counts[node.name] += 1
        self.classes = {stmt.name: stmt for stmt in tree.body if isinstance(stmt, ast.ClassDef)}
        self.dataclass_imported = any(
            isinstance(stmt, ast.ImportFrom) and stmt.module == "dataclasses" and stmt.level == 0
            and any(alias.name == "dataclass" and alias.asname is None for alias in stmt.names)
            for stmt in tree.body)
        self._traits: dict[str, tuple[bool, bool]] = {}

    def is_bound(self, name: str) -> bool:
        return self.binding_counts[name] > 0

    def static_match_args(self, name: str) -> tuple[str, ...] | None:
        """``__match_args__`` of a class of this module, when its source determines it: a literal tuple of
        strings, or the fields of a ``@dataclass`` without bases (as ``dataclasses`` computes them)."""
        if self._local_class_kind(name, set()) != "plain":
            return None
        cls = self.classes[name]
        if cls.bases:
            return None
        for stmt in cls.body:
            if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                    and stmt.targets[0].id == "__match_args__"):
                try:
                    value = ast.literal_eval(stmt.value)
                except ValueError:
                    return None
                ok = type(value) is tuple and all(type(item) is str for item in value)
                return value if ok else None
        if len(cls.decorator_list) != 1 or not self._imports_dataclass():
            return None
        decorator = cls.decorator_list[0]
        if not isinstance(decorator.func if isinstance(decorator, ast.Call) else decorator, ast.Name):
            return None
        options = {k.arg: k.value for k in decorator.keywords} if isinstance(decorator, ast.Call) else {}
        if isinstance(decorator, ast.Call) and (decorator.args or any(
                not (isinstance(v, ast.Constant) and v.value in (True, False)) for v in options.values())):
            return None
        if options.get("match_args") is not None and options["match_args"].value is False:
            return None
        if options.get("kw_only") is not None and options["kw_only"].value is True:
            return ()
        fields = []
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
            fields.append(stmt.target.id)
        return tuple(fields)

    def _imports_dataclass(self) -> bool:
        return self.binding_counts["dataclass"] == 1 and self.dataclass_imported

    def class_kind(self, callee: ast.expr) -> str:
        """'self' (int(x)-style builtin), 'recogniser', 'plain', 'unknown' (a name we cannot see) or 'dynamic'."""
        if isinstance(callee, ast.Name):
            if callee.id in _SELF_MATCHING and not self.is_bound(callee.id):
                return "self"
            return self._local_class_kind(callee.id, set()) or "unknown"
        return "unknown" if _is_dotted(callee) else "dynamic"

    def _local_class_kind(self, name: str, visiting: set[str]) -> str | None:
        traits = self._local_class_traits(name, visiting)
        if traits is None:
            return None
        has_match, has_match_args = traits
        return "recogniser" if has_match and not has_match_args else "plain"

    def _local_class_traits(self, name: str, visiting: set[str]) -> tuple[bool, bool] | None:
        """(defines __match__, defines __match_args__) for a class statement of this module, None if unknown."""
        if name in self._traits:
            return self._traits[name]
        cls = self.classes.get(name)
        if cls is None or self.binding_counts[name] != 1 or name in visiting or cls.keywords:
            return None
        if not all(_is_dataclass_decorator(d) for d in cls.decorator_list):
            return None
        defines = {target for stmt in cls.body for target in _defined_names(stmt)}
        has_match = "__match__" in defines
        has_match_args = "__match_args__" in defines or bool(cls.decorator_list)
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id == "object" and not self.is_bound("object"):
                continue
            base_traits = self._local_class_traits(base.id, visiting | {name}) if isinstance(
                base, ast.Name) else None
            if base_traits is None:
                return None
            has_match = has_match or base_traits[0]
            has_match_args = has_match_args or base_traits[1]
        self._traits[name] = (has_match, has_match_args)
        return self._traits[name]


def _defined_names(stmt: ast.stmt):
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield stmt.name
    elif isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                yield target.id
    elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
        yield stmt.target.id


def _is_dataclass_decorator(node: ast.expr) -> bool:
    if isinstance(node, ast.Call):
        node = node.func
    return (isinstance(node, ast.Name) and node.id == "dataclass") or (
        isinstance(node, ast.Attribute) and node.attr == "dataclass")


def _is_dotted(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _name(identifier: str, store: bool = False) -> ast.Name:
    return ast.Name(identifier, ast.Store() if store else ast.Load())


def _walrus(identifier: str, value: ast.expr) -> ast.NamedExpr:
    return ast.NamedExpr(_name(identifier, store=True), value)


def _bind_true(identifier: str, value: ast.expr) -> ast.expr:
    """``(identifier := value) is identifier``: assign inside a test, always true."""
    return ast.Compare(_walrus(identifier, value), [ast.Is()], [_name(identifier)])


def _and(conditions: list[ast.expr]) -> ast.expr:
    if not conditions:
        return ast.Constant(True)
    return conditions[0] if len(conditions) == 1 else ast.BoolOp(ast.And(), conditions)


def _locate(node: ast.AST, origin: ast.AST) -> ast.AST:
    """Give every generated node without a position the position of the user's node it came from."""
    for child in ast.walk(node):
        if "lineno" in child._attributes and not hasattr(child, "lineno"):
            ast.copy_location(child, origin)
    return node


def _irrefutable(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.BoolOp):
        test = any if isinstance(node.op, ast.Or) else all
        return test(_irrefutable(value) for value in node.values)
    return False


class _Subject:
    """A value a pattern is matched against: a temporary, or an expression that may be re-evaluated."""

    def __init__(self, access: Callable[[], ast.expr], temp: str | None = None, reevaluable: bool = True,
                 fetch: bool = False):
        self.access = access
        self.temp = temp
        self.reevaluable = reevaluable
        self.fetch = fetch  # reading it looks an attribute up (may raise AttributeError)


class _CaseCompiler:
    """Compiles one case's pattern into a list of conditions plus the user bindings made on success."""

    def __init__(self, rewriter: "_MatchRewriter", name_temps: dict[str, str], exact: bool, materialise: bool):
        self.rewriter = rewriter
        self.context = rewriter.context
        self.name_temps = name_temps
        self.exact = exact
        self.materialise = materialise
        self.binds: dict[str, ast.expr] = {}
        self.assigned: set[int] = set()
        self.looks_up_attributes = False
        self.runtime_temp: str | None = None
        self.outer_renames: dict[str, str] = {}
        self.test_fetches = 0

    # -- subjects -------------------------------------------------------------------------------------
    def fresh(self, hint: str) -> str:
        return self.rewriter.fresh(hint)

    def use(self, subject: _Subject) -> ast.expr:
        """The subject's value for a pattern that reads it several times: first read stores it in a temp."""
        if subject.temp is not None and id(subject) in self.assigned:
            return _name(subject.temp)
        self.test_fetches += subject.fetch
        if subject.temp is None:
            subject.temp = self.fresh("v")
        self.assigned.add(id(subject))
        return _walrus(subject.temp, subject.access())

    def once(self, subject: _Subject) -> ast.expr:
        """The subject's value for a pattern that reads it exactly once."""
        if subject.temp is not None and id(subject) in self.assigned:
            return _name(subject.temp)
        if not subject.reevaluable:
            return self.use(subject)
        self.test_fetches += subject.fetch
        return subject.access()

    def item(self, base: _Subject, index: int) -> _Subject:
        return _Subject(lambda: ast.Subscript(_name(base.temp), ast.Constant(index), ast.Load()))

    def builtin(self, name: str) -> ast.expr:
        return self.rewriter.builtin(name)

    def runtime(self) -> ast.expr:
        """The runtime module: a temp on the exact path, an import where a dynamic pattern needs it."""
        if self.runtime_temp is not None:
            return _name(self.runtime_temp)
        return self.rewriter.runtime_import("match_class")

    # -- bindings -------------------------------------------------------------------------------------
    def bind(self, node: ast.AST, name: str, value: ast.expr, conditions: list[ast.expr]) -> None:
        if name in self.binds:
            raise self.context.error(node, f"multiple assignments to name {name!r} in pattern")
        if self.materialise and not (isinstance(value, ast.Name) and value.id == self.name_temps.get(name)):
            temp = self.name_temps.setdefault(name, self.fresh(f"{name}_"))
            conditions.append(_bind_true(temp, value))
            value = _name(temp)
        self.binds[name] = value

    def materialise_binds(self, conditions: list[ast.expr]) -> None:
        """Store every binding made so far in its temporary, so that a guard can read it."""
        for name, value in self.binds.items():
            temp = self.name_temps.setdefault(name, self.fresh(f"{name}_"))
            if not (isinstance(value, ast.Name) and value.id == temp):
                conditions.append(_bind_true(temp, value))
                self.binds[name] = _name(temp)

    # -- patterns -------------------------------------------------------------------------------------
    def pattern(self, node: ast.expr, subject: _Subject) -> list[ast.expr]:
        """Conditions (in evaluation order) under which ``node`` matches ``subject``."""
        conditions: list[ast.expr] = []
        if isinstance(node, ast.Name):
            fetch_now = not subject.reevaluable and id(subject) not in self.assigned
            if node.id == "_":
                if fetch_now:
                    conditions.append(ast.Compare(self.use(subject), [ast.Is()], [_name(subject.temp)]))
                return conditions
            if fetch_now and not self.materialise:
                # Fetched after the test succeeds, inside the same try: a missing attribute still means
                # "no match" (the except re-runs the case exactly), and all names are bound at once.
                self.bind(node, node.id, subject.access(), conditions)
                return conditions
            if fetch_now:
                subject.temp = self.name_temps.setdefault(node.id, self.fresh(f"{node.id}_"))
                conditions.append(ast.Compare(self.use(subject), [ast.Is()], [_name(subject.temp)]))
            self.bind(node, node.id, self.once(subject), conditions)
            return conditions
        literal = self.literal(node)
        if literal is not None:
            operator = ast.Is() if isinstance(literal.value, bool) or literal.value is None else ast.Eq()
            return [ast.Compare(self.once(subject), [operator], [literal])]
        if _is_dotted(node):
            return [ast.Compare(self.once(subject), [ast.Eq()], [node])]
        if isinstance(node, (ast.Tuple, ast.List)):
            return self.sequence(node, subject)
        if isinstance(node, ast.Dict):
            return self.mapping(node, subject)
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And):
                for value in node.values:
                    conditions += self.pattern(value, subject)
                return conditions
            return self.alternatives(node, subject)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("pin", "when",
                                                                                            "isinstance"):
            return self.special_call(node, subject)
        if isinstance(node, ast.Call):
            return self.class_pattern(node, subject)
        hint = " (use when(...) for conditions)" if isinstance(node, ast.Compare) else ""
        raise self.context.error(node, f"unsupported pattern {ast.unparse(node)!r}{hint}; {_PATTERN_HELP}")

    def static_names(self, callee: ast.expr, positional: int, keywords: list[str]) -> tuple[str, ...] | None:
        """The attribute names of the positional sub-patterns when known from the source and valid."""
        if not isinstance(callee, ast.Name):
            return None
        match_args = self.rewriter.facts.static_match_args(callee.id)
        if match_args is None or len(match_args) < positional:
            return None
        chosen = match_args[:positional]
        if len(set(chosen) | set(keywords)) != len(chosen) + len(keywords):
            return None  # duplicate attribute: let the runtime raise CPython's TypeError
        return chosen

    def reads_once(self, node: ast.expr) -> bool:
        """True for patterns that read their subject exactly once (a literal or value comparison, a type test),
        so an attribute fetched for them needs no temporary."""
        if isinstance(node, ast.Name):
            return False
        if _is_dotted(node) or isinstance(node, (ast.Constant, ast.UnaryOp, ast.BinOp)):
            return True
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("pin",
                                                                                                   "isinstance")

    def literal(self, node: ast.expr) -> ast.Constant | None:
        if isinstance(node, ast.Constant):
            if node.value is Ellipsis:
                raise self.context.error(node, "'...' is not a pattern")
            return node
        if isinstance(node, ast.JoinedStr):
            raise self.context.error(node, "patterns may only match literals and attribute lookups, not f-strings")
        numeric = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(
            node.operand, ast.Constant) and type(node.operand.value) in (int, float, complex)
        complex_literal = isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) and isinstance(
            node.right, ast.Constant) and type(node.right.value) is complex and (
            self.literal(node.left) is not None and type(ast.literal_eval(node.left)) in (int, float))
        if numeric or complex_literal:
            return ast.copy_location(ast.Constant(ast.literal_eval(node)), node)
        return None

    def special_call(self, node: ast.Call, subject: _Subject) -> list[ast.expr]:
        kind = node.func.id
        if node.keywords or not node.args or any(isinstance(arg, ast.Starred) for arg in node.args):
            raise self.context.error(node, f"{kind}() in a pattern takes positional expressions only")
        if kind == "pin":
            if len(node.args) != 1:
                raise self.context.error(node, "pin() takes exactly one expression to compare the subject with")
            return [ast.Compare(self.once(subject), [ast.Eq()], [node.args[0]])]
        if kind == "isinstance":
            types = node.args[0] if len(node.args) == 1 else ast.Tuple(list(node.args), ast.Load())
            return [ast.Call(self.builtin("isinstance"), [self.once(subject), types], [])]
        conditions: list[ast.expr] = []
        self.materialise_binds(conditions)
        renames = {**self.outer_renames, **{name: value.id for name, value in self.binds.items()}}
        for condition in node.args:
            conditions.append(_RenameCaptures(renames).visit(condition))
        return conditions

    def alternatives(self, node: ast.BoolOp, subject: _Subject) -> list[ast.expr]:
        prefix: list[ast.expr] = []
        if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "when"
               for n in ast.walk(node)):
            self.materialise_binds(prefix)
        outer_binds, outer_assigned = self.binds, self.assigned
        branches, names = [], None
        for index, alternative in enumerate(node.values):
            self.binds, self.assigned = {}, set(outer_assigned)
            self.outer_renames = {name: value.id for name, value in outer_binds.items()
                                  if isinstance(value, ast.Name)}
            conditions = self.pattern(alternative, subject)
            if names is None:
                names = list(self.binds)
            elif set(names) != set(self.binds):
                raise self.context.error(node, "alternative patterns bind different names")
            for name, value in self.binds.items():
                temp = self.name_temps.setdefault(name, self.fresh(f"{name}_"))
                if not (isinstance(value, ast.Name) and value.id == temp):
                    conditions.append(_bind_true(temp, value))
            branches.append(_and(conditions))
        self.binds, self.assigned = outer_binds, outer_assigned
        self.outer_renames = {}
        conditions = prefix + [ast.BoolOp(ast.Or(), branches)]
        for name in names:
            self.bind(node, name, _name(self.name_temps[name]), conditions)
        return conditions

    def sequence(self, node: ast.Tuple | ast.List, subject: _Subject) -> list[ast.expr]:
        stars = [i for i, element in enumerate(node.elts) if isinstance(element, ast.Starred)]
        if len(stars) > 1:
            raise self.context.error(node.elts[stars[1]], "multiple starred names in sequence pattern")
        for i in stars:
            if not isinstance(node.elts[i].value, ast.Name):
                raise self.context.error(node.elts[i], "a starred sub-pattern must be a name (*rest) or *_")
        fixed = len(node.elts) - len(stars)
        facts = self.rewriter.top_facts if subject.temp == self.rewriter.top_temp else None
        if facts is not None:
            type_temp, length_temp = facts
            conditions = [ast.Compare(_name(length_temp), [ast.GtE() if stars else ast.Eq()], [ast.Constant(fixed)])]
            return self.sequence_items(node, subject, stars, type_temp, conditions)
        type_temp = self.fresh("ty")
        value = self.use(subject)
        is_sequence = self.rewriter.is_sequence(
            _walrus(type_temp, ast.Call(self.builtin("type"), [value], [])), type_temp, isinstance(node, ast.List))
        length = ast.Compare(ast.Call(self.builtin("len"), [_name(subject.temp)], []),
                             [ast.GtE() if stars else ast.Eq()], [ast.Constant(fixed)])
        return self.sequence_items(node, subject, stars, type_temp, [is_sequence, length])

    def sequence_items(self, node, subject, stars, type_temp, conditions):
        star = stars[0] if stars else len(node.elts)
        for i, element in enumerate(node.elts):
            if i < star:
                conditions += self.pattern(element, self.item(subject, i))
            elif i > star:
                conditions += self.pattern(element, self.item(subject, i - len(node.elts)))
        if stars and node.elts[star].value.id != "_":
            after = len(node.elts) - star - 1
            self.bind(node.elts[star], node.elts[star].value.id,
                      self.star_slice(subject.temp, type_temp, star, after), conditions)
        return conditions

    def star_slice(self, temp: str, type_temp: str, start: int, after: int) -> ast.expr:
        """``*rest`` as a list, as PEP 634 binds it, for lists, tuples and sequences without slicing (deque)."""
        def sliced(value):
            bounds = ast.Slice(ast.Constant(start) if start else None, ast.Constant(-after) if after else None)
            return ast.Subscript(value, bounds, ast.Load())

        as_list = ast.Call(self.builtin("list"), [sliced(_name(temp))], [])
        general = sliced(ast.List([ast.Starred(_name(temp), ast.Load())], ast.Load()))
        return ast.IfExp(ast.Compare(_name(type_temp), [ast.Is()], [self.builtin("list")]), sliced(_name(temp)),
                         ast.IfExp(ast.Compare(_name(type_temp), [ast.Is()], [self.builtin("tuple")]), as_list,
                                   general))

    def mapping(self, node: ast.Dict, subject: _Subject) -> list[ast.expr]:
        rest = None
        keys, patterns = [], []
        for index, (key, value) in enumerate(zip(node.keys, node.values)):
            if key is None:
                if index != len(node.keys) - 1 or not isinstance(value, ast.Name) or value.id == "_":
                    raise self.context.error(value, "a mapping pattern takes one **rest name, last")
                rest = value
                continue
            keys.append(self.mapping_key(key))
            patterns.append(value)
        seen = set()
        for key in keys:
            if isinstance(key, ast.Constant):
                if key.value in seen:
                    raise self.context.error(key, f"mapping pattern checks duplicate key ({key.value!r})")
                seen.add(key.value)
        facts = self.rewriter.top_facts if subject.temp == self.rewriter.top_temp else None
        if facts is not None:
            type_temp, value = facts[0], self.use(subject)
            type_of = _name(type_temp)
        else:
            type_temp = self.fresh("ty")
            value = self.use(subject)
            type_of = _walrus(type_temp, ast.Call(self.builtin("type"), [value], []))
        conditions = [ast.BoolOp(ast.Or(), [
            ast.Compare(type_of, [ast.Is()], [self.builtin("dict")]),
            ast.BinOp(ast.Attribute(_name(type_temp), "__flags__", ast.Load()), ast.BitAnd(),
                      ast.Constant(_TPFLAGS_MAPPING)),
        ])]
        if keys:
            conditions.append(ast.Compare(ast.Call(self.builtin("len"), [_name(subject.temp)], []), [ast.GtE()],
                                          [ast.Constant(len(keys))]))
            get = self.fresh("get")
            conditions.append(_bind_true(get, ast.Attribute(_name(subject.temp), "get", ast.Load())))
            for key, pattern in zip(keys, patterns):
                found = _Subject(lambda: None, self.fresh("v"))
                self.assigned.add(id(found))
                conditions.append(ast.Compare(
                    _walrus(found.temp, ast.Call(_name(get), [key, _name(get)], [])), [ast.IsNot()], [_name(get)]))
                conditions += self.pattern(pattern, found)
        if rest is not None:
            rest_temp = self.fresh("rest")
            copied = _walrus(rest_temp, ast.Call(self.builtin("dict"), [_name(subject.temp)], []))
            deletions = [ast.Call(ast.Attribute(copied if i == 0 else _name(rest_temp), "__delitem__", ast.Load()),
                                  [key], []) for i, key in enumerate(keys)]
            conditions.append(ast.Compare(ast.Tuple(deletions, ast.Load()), [ast.IsNot()], [ast.Constant(None)])
                              if deletions else _bind_true(rest_temp, copied.value))
            self.bind(rest, rest.id, _name(rest_temp), conditions)
        return conditions

    def mapping_key(self, key: ast.expr) -> ast.expr:
        literal = self.literal(key)
        if literal is not None:
            return literal
        if isinstance(key, ast.Attribute) and _is_dotted(key):
            return key
        if isinstance(key, ast.Call) and isinstance(key.func, ast.Name) and key.func.id == "pin" and len(
                key.args) == 1 and not key.keywords:
            return key.args[0]
        raise self.context.error(key, "mapping pattern keys are literals, dotted names or pin(expr)")

    def class_pattern(self, node: ast.Call, subject: _Subject) -> list[ast.expr]:
        if any(isinstance(arg, ast.Starred) for arg in node.args):
            raise self.context.error(node, "a class pattern takes no *args")
        names = []
        for keyword in node.keywords:
            if keyword.arg is None:
                raise self.context.error(keyword, "a class pattern takes no **kwargs")
            if keyword.arg in names:
                raise self.context.error(keyword, f"attribute name repeated in class pattern: {keyword.arg}")
            names.append(keyword.arg)
        callee, positional = node.func, len(node.args)
        sub_patterns = list(node.args) + [keyword.value for keyword in node.keywords]
        kind = self.rewriter.facts.class_kind(callee)
        value = self.use(subject)
        self.looks_up_attributes = True
        mixed = positional and names and kind != "self" and self.static_names(callee, positional, names) is None
        if self.exact or kind == "dynamic" or (kind == "self" and positional > 1) or mixed:
            # Exact semantics through the runtime; mixed positional and keyword sub-patterns go there too,
            # since only __match_args__ can tell whether they name the same attribute (a TypeError).
            found = self.fresh("found")
            conditions = [ast.Compare(_walrus(found, ast.Call(
                ast.Attribute(self.runtime(), "match_class", ast.Load()),
                [callee, value, ast.Constant(positional), ast.Constant(tuple(names))], [])), [ast.IsNot()],
                [ast.Constant(None)])]
            holder = _Subject(lambda: None, found)
            self.assigned.add(id(holder))
            for index, pattern in enumerate(sub_patterns):
                conditions += self.pattern(pattern, self.item(holder, index))
            return conditions
        if kind == "recogniser" and not names:
            found = self.fresh("found")
            conditions = [ast.Compare(_walrus(found, ast.Call(ast.Attribute(callee, "__match__", ast.Load()),
                                                              [ast.Constant(positional), value], [])),
                                      [ast.IsNot()], [ast.Constant(None)])]
            holder = _Subject(lambda: None, found)
            self.assigned.add(id(holder))
            for index, pattern in enumerate(sub_patterns):
                conditions += self.pattern(pattern, self.item(holder, index))
            return conditions
        conditions: list[ast.expr] = []
        is_instance = ast.Call(self.builtin("isinstance"), [value, callee], [])
        if kind not in ("plain", "self") and not positional and not names:
            # An unseen name may be a recogniser object rather than a class, making isinstance raise
            # TypeError: let the exact path decide. With sub-patterns that TypeError is CPython's too.
            self.test_fetches += 1
        match_args = None
        if kind == "self" and positional:
            conditions.append(is_instance)
            conditions += self.pattern(node.args[0], _Subject(lambda: _name(subject.temp)))
        elif positional and self.static_names(callee, positional, names) is not None:
            # A class of this module whose __match_args__ the source spells out: plain attribute loads.
            conditions.append(is_instance)
            for pattern, attribute in zip(node.args, self.static_names(callee, positional, names)):
                fetched = ast.Attribute(_name(subject.temp), attribute, ast.Load())
                conditions += self.pattern(pattern, _Subject(lambda fetched=fetched: fetched,
                                                             reevaluable=self.reads_once(pattern), fetch=True))
        elif positional:
            match_args = self.fresh("args")
            lookup = _bind_true(match_args, ast.Attribute(callee, "__match_args__", ast.Load()))
            # An imported class might be a recogniser: looking __match_args__ up first sends those (which lack
            # it) to the exact path; a class of this module is known not to be one, so test the type first.
            conditions += [is_instance, lookup] if kind == "plain" else [lookup, is_instance]
            self.test_fetches += 1
            for index, pattern in enumerate(node.args):
                fetched = ast.Call(self.builtin("getattr"), [_name(subject.temp), ast.Subscript(
                    _name(match_args), ast.Constant(index), ast.Load())], [])
                conditions += self.pattern(pattern, _Subject(lambda fetched=fetched: fetched,
                                                             reevaluable=self.reads_once(pattern), fetch=True))
        else:
            conditions.append(is_instance)
        for keyword in node.keywords:
            fetched = ast.Attribute(_name(subject.temp), keyword.arg, ast.Load())
            conditions += self.pattern(keyword.value, _Subject(lambda fetched=fetched: fetched,
                                                               reevaluable=self.reads_once(keyword.value), fetch=True))
        return conditions


def _check_reachable(node: ast.expr, irrefutable_allowed: bool, context) -> None:
    """CPython's rule: a bare name or ``_`` may not stand where it would make later cases or alternatives
    unreachable (a case that is not last, an alternative that is not last)."""
    if isinstance(node, ast.Name):
        if not irrefutable_allowed:
            message = ("wildcard" if node.id == "_" else f"name capture {node.id!r}")
            raise context.error(node, f"{message} makes remaining patterns unreachable")
    elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        for index, alternative in enumerate(node.values):
            _check_reachable(alternative, irrefutable_allowed and index == len(node.values) - 1, context)
    elif isinstance(node, ast.BoolOp):
        if not irrefutable_allowed and _irrefutable(node):
            _check_reachable(node.values[0], False, context)
        for value in node.values:
            _check_reachable(value, True, context)
    elif isinstance(node, (ast.Tuple, ast.List)):
        for element in node.elts:
            _check_reachable(element.value if isinstance(element, ast.Starred) else element, True, context)
    elif isinstance(node, ast.Dict):
        for value in node.values:
            _check_reachable(value, True, context)
    elif isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in ("pin", "when")):
        for argument in node.args + [keyword.value for keyword in node.keywords]:
            _check_reachable(argument, True, context)


class _RenameCaptures(ast.NodeTransformer):
    """Inside a guard, read captured names from their temporaries (the user names are bound only on success)."""

    def __init__(self, renames: dict[str, str]):
        self.renames = renames

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.renames:
            return ast.copy_location(_name(self.renames[node.id]), node)
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        shadowed = {arg.arg for arg in ast.walk(node.args) if isinstance(arg, ast.arg)}
        inner = _RenameCaptures({k: v for k, v in self.renames.items() if k not in shadowed})
        node.args = self.visit(node.args)
        node.body = inner.visit(node.body)
        return node


class _MatchRewriter(ast.NodeTransformer):
    """Replaces active ``with match(...)`` statements, tracking whether temporaries land in a function."""

    def __init__(self, extension: PatternMatching, facts: _ModuleFacts):
        self.extension = extension
        self.context = extension.context
        self.facts = facts
        self.scopes = ["module"]
        self.temps: list[str] | None = None
        self.top_temp: str | None = None
        self.top_facts: tuple[str, str] | None = None
        self.functions: list[ast.AST] = []

    def fresh(self, hint: str) -> str:
        name = self.context.fresh_name(hint)
        self.temps.append(name)
        return name

    def builtin(self, name: str) -> ast.expr:
        if self.facts.is_bound(name):
            return ast.Attribute(ast.Call(_name("__import__"), [ast.Constant("builtins")], []), name, ast.Load())
        return _name(name)

    def is_sequence(self, type_of: ast.expr, type_temp: str, lists_first: bool) -> ast.expr:
        """PEP 634's "is a sequence" (CPython's Py_TPFLAGS_SEQUENCE), with exact list/tuple tried first in
        the order the pattern's brackets suggest (``[...]`` lists first, ``(...)`` tuples first)."""
        first, second = ("list", "tuple") if lists_first else ("tuple", "list")
        return ast.BoolOp(ast.Or(), [
            ast.Compare(type_of, [ast.Is()], [self.builtin(first)]),
            ast.Compare(_name(type_temp), [ast.Is()], [self.builtin(second)]),
            ast.BinOp(ast.Attribute(_name(type_temp), "__flags__", ast.Load()), ast.BitAnd(),
                      ast.Constant(_TPFLAGS_SEQUENCE))])

    def runtime_import(self, name: str) -> ast.expr:
        return ast.Call(self.builtin("__import__"), [ast.Constant(_RUNTIME), ast.Constant(None),
                                                     ast.Constant(None), ast.Constant((name,))], [])

    def _scoped(self, node, kind):
        self.scopes.append(kind)
        try:
            return self.generic_visit(node)
        finally:
            self.scopes.pop()

    def visit_FunctionDef(self, node):
        self.functions.append(node)
        try:
            return self._scoped(node, "function")
        finally:
            self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        return self._scoped(node, "class")

    def visit_With(self, node: ast.With):
        params = self.extension.params_at(node.lineno)
        call = node.items[0].context_expr if node.items else None
        if not (params and isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id == params["token"]):
            return self.generic_visit(node)
        self.context.changed = True
        outer_temps, self.temps = self.temps, []
        try:
            return self.compile_match(node, call)
        finally:
            self.temps = outer_temps

    def compile_match(self, node: ast.With, call: ast.Call) -> list[ast.stmt]:
        token = call.func.id
        if len(node.items) != 1 or node.items[0].optional_vars is not None:
            raise self.context.error(node, f"'with {token}(subject):' takes exactly one subject and no 'as'")
        if call.keywords or not call.args:
            raise self.context.error(call, f"{token}() takes the subject as positional argument(s)")
        subject = call.args[0] if len(call.args) == 1 and not isinstance(call.args[0], ast.Starred) else (
            ast.copy_location(ast.Tuple(list(call.args), ast.Load()), call))
        for index, case in enumerate(node.body):
            if not isinstance(case, ast.If):
                raise self.context.error(case, f"the body of 'with {token}(...)' holds only 'if <pattern>:' cases")
            if case.orelse:
                raise self.context.error(case.orelse[0], "a case has no elif/else; write each case as its own "
                                                         "'if <pattern>:' (use 'if _:' for a catch-all)")
            _check_reachable(case.test, index == len(node.body) - 1, self.context)
        subject_temp = self.local_subject(subject, node) or self.fresh("subject")
        top = _Subject(lambda: _name(subject_temp), subject_temp)
        outer_facts = self.top_facts, self.top_temp
        self.top_temp, self.top_facts = subject_temp, None
        hoisted = []
        if sum(_tests_top_sequence(case.test) for case in node.body) >= 2:
            # Several cases ask "is it a sequence, of which length?": answer once, -1 meaning "not one".
            type_temp, length_temp = self.fresh("ty"), self.fresh("n")
            lists_first = next(_top_sequence_kind(case.test) for case in node.body
                               if _tests_top_sequence(case.test)) is ast.List
            is_sequence = self.is_sequence(_name(type_temp), type_temp, lists_first)
            hoisted = [
                ast.Assign([_name(type_temp, store=True)], ast.Call(self.builtin("type"), [_name(subject_temp)], [])),
                ast.Assign([_name(length_temp, store=True)], ast.IfExp(
                    is_sequence, ast.Call(self.builtin("len"), [_name(subject_temp)], []), ast.Constant(-1)))]
            hoisted = [_locate(stmt, node) for stmt in hoisted]
            self.top_facts = (type_temp, length_temp)
        try:
            return self.compile_cases(node, top, subject, subject_temp, hoisted)
        finally:
            self.top_facts, self.top_temp = outer_facts

    def local_subject(self, subject: ast.expr, node: ast.With) -> str | None:
        """A subject that is a plain local variable nothing in the patterns can rebind needs no copy."""
        if not (isinstance(subject, ast.Name) and self.scopes[-1] == "function" and self.functions):
            return None
        function = self.functions[-1]
        for inner in ast.walk(function):
            if isinstance(inner, (ast.Global, ast.Nonlocal)) and subject.id in inner.names:
                return None
        for case in node.body:
            for inner in ast.walk(case.test):
                if isinstance(inner, ast.NamedExpr) and inner.target.id == subject.id:
                    return None
        return subject.id

    def compile_cases(self, node, top, subject, subject_temp, hoisted) -> list[ast.stmt]:
        no_match = _locate(ast.Raise(ast.Call(ast.Attribute(self.runtime_import("MatchError"), "MatchError",
                                                            ast.Load()),
            [_name(subject_temp)], []), None), node)
        cases = [self.compile_case(case, top) for case in node.body]
        if all(_terminates(case.body) for case in node.body):
            chain = self.flat_chain(cases) + ([no_match] if cases[-1].conditions else [])
        else:
            chain = [no_match]
            for case in reversed(cases):
                chain = case.emit(case.conditions, chain)
        assign = hoisted if subject_temp == getattr(subject, "id", None) else (
            [_locate(ast.Assign([_name(subject_temp, store=True)], subject), node)] + hoisted)
        if self.scopes[-1] == "function":
            return assign + chain
        # Module and class bodies: temporaries would become globals or class attributes, so remove them.
        others = [t for t in self.temps if t != subject_temp]
        prelude = [ast.Assign([_name(t, store=True) for t in others], ast.Constant(None))] if others else []
        cleanup = ast.Delete([_name(t, store=False) for t in self.temps])
        for target in cleanup.targets:
            target.ctx = ast.Del()
        return [_locate(stmt, node) for stmt in prelude] + assign + [_locate(ast.Try(chain, [], [], [cleanup]), node)]

    def flat_chain(self, cases: list["_CompiledCase"]) -> list[ast.stmt]:
        """Cases whose bodies always leave (return, raise, break, continue) become consecutive ``if``s, and
        consecutive cases that start with the same plain test share it, as a hand-written chain would."""
        chain: list[ast.stmt] = []
        index = 0
        while index < len(cases):
            key = cases[index].shareable_test()
            end = index + 1
            while key is not None and end < len(cases) and cases[end].shareable_test() == key:
                end += 1
            if end - index > 1:
                inner = [stmt for case in cases[index:end] for stmt in case.emit_flat(case.conditions[1:])]
                chain.append(_locate(ast.If(cases[index].conditions[0], inner, []), cases[index].node.test))
            else:
                chain += cases[index].emit_flat(cases[index].conditions)
            index = end
        return chain

    def compile_case(self, case: ast.If, top: _Subject) -> "_CompiledCase":
        name_temps: dict[str, str] = {}
        fast = _CaseCompiler(self, name_temps, exact=False, materialise=False)
        fast.assigned.add(id(top))
        conditions = fast.pattern(copy.deepcopy(case.test), top)
        body = [self.visit(stmt) for stmt in case.body]
        body = [stmt for item in body for stmt in (item if isinstance(item, list) else [item])]
        compiled = _CompiledCase(self, case, conditions, fast.binds, body)
        compiled.test_fetches = fast.test_fetches
        if fast.looks_up_attributes:
            # The case looks attributes up: test (and fetch captured attributes) in a try whose handler re-runs
            # the case through runtime.match_class, where a missing attribute means "no match" as in CPython.
            exact = _CaseCompiler(self, name_temps, exact=True, materialise=True)
            exact.assigned.add(id(top))
            exact.runtime_temp = self.fresh("rt")
            compiled.exact_conditions = [_bind_true(exact.runtime_temp, self.runtime_import("match_class"))]
            compiled.exact_conditions += exact.pattern(copy.deepcopy(case.test), top)
            compiled.exact_binds = exact.binds
            compiled.ok = self.fresh("ok")
        return compiled

    @staticmethod
    def bind_all(ok: str, binds: dict[str, ast.expr]) -> list[ast.stmt]:
        """``if ok: a, b = <values>``: every name bound at once, or none if a value raises."""
        if not binds:
            return []
        if len(binds) == 1:
            (name, value), = binds.items()
            assign = ast.Assign([_name(name, store=True)], value)
        else:
            assign = ast.Assign([ast.Tuple([_name(n, store=True) for n in binds], ast.Store())],
                                ast.Tuple(list(binds.values()), ast.Load()))
        return [ast.If(_name(ok), [assign], [])]


class _CompiledCase:
    """One case's compiled test, bindings and body, emitted either nested (if/else) or flat."""

    def __init__(self, rewriter: _MatchRewriter, node: ast.If, conditions, binds, body):
        self.rewriter = rewriter
        self.node = node
        self.conditions = conditions
        self.binds = binds
        self.body = body
        self.exact_conditions: list[ast.expr] | None = None
        self.exact_binds: dict[str, ast.expr] = {}
        self.ok: str | None = None
        self.test_fetches = 0

    def shareable_test(self) -> str | None:
        """A key for the first condition when another case may evaluate it once for both."""
        if not self.conditions or any(isinstance(n, ast.NamedExpr) for n in ast.walk(self.conditions[0])):
            return None
        return ast.dump(self.conditions[0])

    def emit(self, conditions: list[ast.expr], otherwise: list[ast.stmt]) -> list[ast.stmt]:
        builtin = self.rewriter.builtin
        if self.ok is None:
            binds = [_locate(ast.Assign([_name(n, store=True)], v), self.node.test) for n, v in self.binds.items()]
            if not conditions:
                return binds + self.body
            return [_locate(ast.If(_locate(_and(conditions), self.node.test), binds + self.body, otherwise),
                            self.node)]
        ok = self.ok
        attempt = ast.Try(
            [ast.Assign([_name(ok, store=True)], _and(conditions)), *_MatchRewriter.bind_all(ok, self.binds)],
            [ast.ExceptHandler(ast.Tuple([builtin(name) for name in _FALLBACK_ERRORS], ast.Load()), None,
                               [ast.Assign([_name(ok, store=True)], _and(self.exact_conditions)),
                                *_MatchRewriter.bind_all(ok, self.exact_binds)])],
            [], [])
        return [_locate(attempt, self.node.test), _locate(ast.If(_name(ok), self.body, otherwise), self.node)]


    def emit_flat(self, conditions: list[ast.expr]) -> list[ast.stmt]:
        """In a flat chain (the body always leaves), a case whose test looks no attribute up but whose
        captures do fetches them in a ``try`` whose ``else`` is the body: no flag on the fast path. The rare
        path (an attribute is missing) re-runs the case exactly and runs a copy of the body if it matched."""
        if self.ok is None or self.test_fetches or sum(1 for _ in ast.walk(ast.Module(self.body, []))) > 400:
            return self.emit(conditions, [])
        if not self.binds:  # nothing can raise: the test is all there is
            return [_locate(ast.If(_locate(_and(conditions), self.node.test), self.body, []), self.node)] \
                if conditions else self.body
        ok, builtin = self.ok, self.rewriter.builtin
        fetch = _MatchRewriter.bind_all(ok, self.binds)[0].body
        attempt = ast.Try(fetch, [ast.ExceptHandler(
            ast.Tuple([builtin(name) for name in _FALLBACK_ERRORS], ast.Load()), None,
            [ast.Assign([_name(ok, store=True)], _and(self.exact_conditions)),
             *_MatchRewriter.bind_all(ok, self.exact_binds)])], self.body, [])
        matched = [_locate(attempt, self.node.test),
                   _locate(ast.If(_name(ok), copy.deepcopy(self.body), []), self.node)]
        if not conditions:
            return matched
        return [_locate(ast.If(_locate(_and(conditions), self.node.test), matched, []), self.node)]


def _terminates(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def _top_sequence_kind(node: ast.expr) -> type:
    if isinstance(node, (ast.Tuple, ast.List)):
        return type(node)
    return next(_top_sequence_kind(v) for v in node.values if _tests_top_sequence(v))


def _tests_top_sequence(node: ast.expr) -> bool:
    if isinstance(node, (ast.Tuple, ast.List)):
        return True
    return isinstance(node, ast.BoolOp) and any(_tests_top_sequence(value) for value in node.values)

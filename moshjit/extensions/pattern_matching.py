"""The ``pattern-matching`` extension: ``with match(subject):`` blocks of ``if <pattern>:`` cases.

Each block is compiled as a whole to a decision tree (``patterns`` → ``decision_tree`` → ``match_emit``):
the subject is evaluated once, each type/length/equality test is made at most once on a path, cases a
failed test rules out are skipped, and user names are bound only once a case has matched. Semantics
follow PEP 634 (sequences are any non-str sequence, ``*rest`` binds a list, ``None``/``True``/``False``
compare by identity, ``__match_args__``), plus Moshmosh's ``pin(expr)``, ``when(cond, ...)`` guards,
``isinstance(T)`` tests and ``__match__`` recognisers. Generated code reaches moshjit at run time only
through one module-level import of ``moshjit.extensions.runtime`` (no-match error, the general path of
class and mapping patterns).
"""
from __future__ import annotations

import ast
import copy
import hashlib
import itertools
import re

from moshjit.extensions import class_dispatch, decision_tree, match_emit
from moshjit.extensions import patterns as P
from moshjit.extensions.class_facts import ModuleFacts
from moshjit.extensions.registry import Extension, register

_RUNTIME = "moshjit.extensions.runtime"
_BUDGET_PER_STEP = 6
_MIN_BUDGET = 400


@register
class PatternMatching(Extension):
    """``with match(subject): if pattern: ...``; ``# +pattern-matching(case)`` renames the ``match`` keyword."""

    name = "pattern-matching"
    parameters = {"token": "match"}
    runs_before = ("pipeline", "quick-lambda")

    def rewrite(self, tree: ast.Module) -> ast.Module:
        rewriter = _MatchRewriter(self, ModuleFacts(tree, self.context.filename))
        tree = rewriter.visit(tree)
        if rewriter.runtime_name is not None:
            _insert_imports(tree, rewriter.imports + rewriter.slot_list())
        return tree


def _insert_imports(tree: ast.Module, imports: list[ast.stmt]) -> None:
    """Put the hidden imports after the module docstring and ``from __future__`` imports."""
    position = 0
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(
            body[0].value.value, str):
        position = 1
    while position < len(body) and isinstance(body[position], ast.ImportFrom) and \
            body[position].module == "__future__":
        position += 1
    origin = body[position] if position < len(body) else (body[-1] if body else None)
    for stmt in imports:
        if origin is not None:
            ast.copy_location(stmt, origin)
            stmt.end_lineno, stmt.end_col_offset = stmt.lineno, stmt.col_offset
    body[position:position] = imports


def _name(identifier: str, store: bool = False) -> ast.Name:
    return ast.Name(identifier, ast.Store() if store else ast.Load())


class _MatchRewriter(ast.NodeTransformer):
    """Replaces active ``with match(...)`` statements, tracking whether temporaries land in a function."""

    def __init__(self, extension: PatternMatching, facts: ModuleFacts):
        self.extension = extension
        self.context = extension.context
        self.facts = facts
        self.scopes = ["module"]
        self.functions: list[ast.AST] = []
        self.temps: list[str] | None = None
        self.uids = itertools.count()
        self.runtime_name: str | None = None
        self.builtins_name: str | None = None
        self.imports: list[ast.stmt] = []
        self.slots: dict = {}
        self.slots_name: str | None = None
        self.dispatches: list[tuple[str, list]] = []  # (hidden global, [(class name, ArgsSite global or None)])
        self.class_guards: dict[tuple[str, str], str] = {}  # (class name, ArgsSite global) -> hidden global

    # -- names ----------------------------------------------------------------------------------------
    def fresh(self, hint: str) -> str:
        name = self.context.fresh_name(hint)
        self.temps.append(name)
        return name

    def runtime(self) -> str:
        if self.runtime_name is None:
            self.runtime_name = self.context.fresh_name("rt")
            self.imports.append(ast.Import([ast.alias(_RUNTIME, self.runtime_name)]))
        return self.runtime_name

    def builtin(self, name: str) -> ast.expr:
        """A builtin the generated code uses, reached through ``builtins`` if the file rebinds its name."""
        if not self.facts.is_bound(name):
            return _name(name)
        if self.builtins_name is None:
            self.runtime()
            self.builtins_name = self.context.fresh_name("builtins")
            self.imports.append(ast.Import([ast.alias("builtins", self.builtins_name)]))
        return ast.Attribute(_name(self.builtins_name), name, ast.Load())

    def slot(self, key) -> str:
        """The hidden module global holding the ``runtime.ArgsSite`` of a class pattern's class and guessed
        ``__match_args__`` (``key``). Names derive from the file and its source, so notebook cells never share one."""
        if key not in self.slots:
            self.slots[key] = f"{self.slot_prefix()}_{len(self.slots)}"
        return self.slots[key]

    def slot_prefix(self) -> str:
        if self.slots_name is None:
            source = f"{self.context.filename}\0{self.context.source}"
            self.slots_name = f"_mj_ma{hashlib.sha256(source.encode()).hexdigest()[:10]}"
        return self.slots_name

    def dispatch(self, classes: list) -> str:
        """A hidden module global holding a ``runtime.ClassDispatch`` over ``classes`` (made after the sites)."""
        name = f"{self.slot_prefix()}_d{len(self.dispatches)}"
        self.dispatches.append((name, [(cls.name, None if cls.guess is None else self.slot((cls.key, cls.guess)))
                                       for cls in classes]))
        return name

    def class_guard(self, class_name: str, site: str) -> str:
        """A hidden module global holding the ``runtime.ClassGuard`` of a class (by its module-global name) and
        the ``ArgsSite`` of its guarded patterns (made after the sites)."""
        key = (class_name, site)
        if key not in self.class_guards:
            self.class_guards[key] = f"{self.slot_prefix()}_g{len(self.class_guards)}"
        return self.class_guards[key]

    def slot_list(self) -> list[ast.stmt]:
        if not self.slots and not self.dispatches:
            return []
        runtime = self.runtime()
        missing = ast.Attribute(_name(runtime), "NO_MATCH_ARGS", ast.Load())
        sites = [ast.Assign([_name(name, store=True)], ast.Call(ast.Attribute(_name(runtime), "ArgsSite", ast.Load()),
                                                                 [ast.Constant(guess), copy.deepcopy(missing)], []))
                 for (_, guess), name in self.slots.items()]
        dispatches = [ast.Assign([_name(name, store=True)], ast.Call(
            ast.Attribute(_name(runtime), "ClassDispatch", ast.Load()),
            [ast.Call(self.builtin("globals"), [], []), ast.Constant(tuple(cls for cls, _ in classes)),
             ast.Tuple([_name(site) if site else ast.Constant(None) for _, site in classes], ast.Load())], []))
            for name, classes in self.dispatches]
        guards = [ast.Assign([_name(name, store=True)], ast.Call(
            ast.Attribute(_name(runtime), "ClassGuard", ast.Load()),
            [ast.Call(self.builtin("globals"), [], []), ast.Constant(class_name), _name(site)], []))
            for (class_name, site), name in self.class_guards.items()]
        return sites + dispatches + guards

    # -- scopes ---------------------------------------------------------------------------------------
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

    # -- one match ------------------------------------------------------------------------------------
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
                raise self.misplaced_else(case)
            P.check_reachable(case.test, index == len(node.body) - 1, self.context)
        compiler = P.CaseCompiler(self.context, self.facts, self.uids)
        rows = []
        for index, case in enumerate(node.body):
            row = compiler.row(index, case)
            row.body = [stmt for item in (self.visit(stmt) for stmt in case.body)
                        for stmt in (item if isinstance(item, list) else [item])]
            row.terminates = match_emit.terminates(row.body)
            rows.append(row)
        subject_name = self.local_subject(subject, node)
        subject_temp = subject_name or self.fresh("subject")
        scope = match_emit.Scope(self.fresh, self.builtin, self.runtime(), _name(subject_temp),
                                 compiler.class_exprs, compiler.dynamic_classes, self.slot, self.class_guard)
        budget = max(_MIN_BUDGET, _BUDGET_PER_STEP * sum(_size(row.steps) for row in rows))
        classes = class_dispatch.plan(rows, compiler.class_exprs, compiler.dynamic_classes, self.is_global)
        exact = class_dispatch.guarded(rows, compiler.class_exprs, compiler.dynamic_classes, self.is_global)
        tree = decision_tree.build(rows, decision_tree.Facts(), budget, None if classes else exact)
        trees = [decision_tree.build(rows, class_dispatch.facts_for(classes, i), budget, exact)
                 for i in range(len(classes))] if classes else []
        done = self.fresh("done") if any(match_emit.needs_done_flag(t) for t in [tree] + trees) else None
        emitter = match_emit.Emitter(scope, lambda row: row.body, done, subject_name)
        chain = emitter.node(tree, fall=False)
        if classes:  # k = dispatch[s]; if k == 1: <tree knowing s is exactly the first class> elif ... else: chain
            answer = self.fresh("k")
            for index in reversed(range(len(classes))):
                test = ast.Compare(_name(answer), [ast.Eq()], [ast.Constant(index + 1)])
                chain = [ast.If(test, emitter.node(trees[index], fall=False) or [ast.Pass()], chain)]
            lookup = ast.Subscript(_name(self.dispatch(classes)), _name(subject_temp), ast.Load())
            chain = [ast.Assign([_name(answer, store=True)], lookup)] + chain
        chain = [match_emit.locate(stmt, node) for stmt in chain]
        prelude = [] if subject_name else [match_emit.locate(ast.Assign([_name(subject_temp, store=True)], subject),
                                                              node)]
        if done is not None:
            prelude.append(match_emit.locate(ast.Assign([_name(done, store=True)], ast.Constant(False)), node))
        if self.scopes[-1] == "function":
            return prelude + chain
        # Module and class bodies: temporaries would become globals or class attributes, so remove them.
        others = [t for t in self.temps if t != subject_temp and t != done]
        cleared = [ast.Assign([_name(t, store=True) for t in others], ast.Constant(None))] if others else []
        cleanup = ast.Delete([ast.Name(t, ast.Del()) for t in self.temps])
        return [match_emit.locate(stmt, node) for stmt in cleared] + prelude + [
            match_emit.locate(ast.Try(chain, [], [], [cleanup]), node)]

    def misplaced_else(self, case: ast.If) -> SyntaxError:
        """A case with ``elif``/``else``, reported at that keyword's own line."""
        message = ("a case has no elif/else; write each case as its own 'if <pattern>:' "
                   "(use 'if _:' for a catch-all)")
        first = case.orelse[0]
        start = (case.body[-1].end_lineno or case.body[-1].lineno) + 1
        for lineno in range(start, first.lineno + 1):
            line = self.context.lines[lineno - 1] if lineno <= len(self.context.lines) else ""
            found = re.match(r"[ \t]*(else\s*:|elif\b)", line)
            if found:
                column = len(line) - len(line.lstrip())
                keyword = ast.Pass(lineno=lineno, col_offset=column, end_lineno=lineno,
                                   end_col_offset=column + len(found.group(1).split()[0].rstrip(":")))
                return self.context.error(keyword, message)
        return self.context.error(first, message)

    def is_global(self, name: str) -> bool:
        """Whether ``name`` in the match being compiled is read from the module's globals."""
        if self.scopes[-1] == "class":
            return False
        return not any(class_dispatch.bound_in(function, name) for function in self.functions)

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


def _size(steps: list[P.Step]) -> int:
    total = 0
    for step in steps:
        total += 1
        if isinstance(step, P.Branch):
            total += _size(step.then) + _size(step.otherwise)
        elif isinstance(step, P.OrBlock):
            total += sum(_size(alternative) for alternative in step.alternatives)
    return total

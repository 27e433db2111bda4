"""A decision tree → Python statements: plain ``if``s, assignments, ``try``/``except AttributeError`` and, for a
sequence test, a native ``match v: case [*_]:`` (CPython's MATCH_SEQUENCE opcode).

Values live in hygienic temporaries (``_mj_<kind><n>``), one per key, so a value fetched on one path is
read by name everywhere below. A test whose true branch always leaves (``return``, ``raise``, ...) is
emitted flat, like a hand-written chain; a join falls through from its first part into the next only when
no case matched there (a flag records a match only when a case body can complete normally). Attribute
loads sit alone in a ``try`` whose ``else`` continues, so nothing but the load is protected.
"""
from __future__ import annotations

import ast
import copy

from moshjit.extensions import decision_tree as T
from moshjit.extensions import patterns as P

_TPFLAGS_MAPPING = 1 << 6


def _name(identifier: str, store: bool = False) -> ast.Name:
    return ast.Name(identifier, ast.Store() if store else ast.Load())


def _assign(target: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([_name(target, store=True)], value)


def _is(left: ast.expr, right: ast.expr) -> ast.Compare:
    return ast.Compare(left, [ast.Is()], [right])


def _or(values: list[ast.expr]) -> ast.expr:
    return values[0] if len(values) == 1 else ast.BoolOp(ast.Or(), values)


def _and(values: list[ast.expr]) -> ast.expr:
    if not values:
        return ast.Constant(True)
    return values[0] if len(values) == 1 else ast.BoolOp(ast.And(), values)


def locate(node: ast.AST, origin: ast.AST) -> ast.AST:
    """Give every generated node without a position the position of the user's node it came from."""
    for child in ast.walk(node):
        if "lineno" in child._attributes and not hasattr(child, "lineno"):
            ast.copy_location(child, origin)
    return node


def terminates(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def falls(node: T.Node, fall: bool) -> bool:
    """Whether control can reach the end of ``node``'s statements."""
    if isinstance(node, T.Fail):
        return fall
    if isinstance(node, T.Leaf):
        return not node.row.terminates
    if isinstance(node, T.OrLeaf):
        return True
    if isinstance(node, T.Do):
        return falls(node.next, fall)
    if isinstance(node, T.Join):
        return falls(node.then, fall) or matches_complete(node.first)
    return falls(node.yes, fall) or falls(node.no, fall)


def matches_complete(node: T.Node) -> bool:
    """Whether a case can match in ``node`` and then let control continue (so a join needs the flag)."""
    if isinstance(node, (T.Leaf, T.OrLeaf)):
        return isinstance(node, T.OrLeaf) or not node.row.terminates
    if isinstance(node, T.Do):
        return matches_complete(node.next)
    if isinstance(node, T.Join):
        return matches_complete(node.first) or matches_complete(node.then)
    if isinstance(node, T.If):
        return matches_complete(node.yes) or matches_complete(node.no)
    return False


def needs_done_flag(tree: T.Node) -> bool:
    """A join whose first part holds a case body that can complete needs a flag to skip the rest."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, T.Join):
            if matches_complete(node.first):
                return True
            stack += [node.first, node.then]
        elif isinstance(node, T.Do):
            stack.append(node.next)
        elif isinstance(node, T.If):
            stack += [node.yes, node.no]
    return False


def reads_length(node: T.Node, occ) -> bool:
    """Whether anything in ``node`` reads the length of ``occ`` (a length test, an item counted from the end)."""
    stack = [node]
    while stack:
        node = stack.pop()
        if isinstance(node, T.Do):
            steps, more = [node.step], [node.next]
        elif isinstance(node, T.If):
            steps, more = [node.step], [node.yes, node.no] + ([node.inner] if node.inner is not None else [])
        elif isinstance(node, T.Join):
            steps, more = [], [node.first, node.then]
        else:
            continue
        stack += more
        while steps:
            step = steps.pop()
            if isinstance(step, P.AnyOf):
                steps += [test for alternative in step.alternatives for test in alternative]
            elif isinstance(step, (P.LengthIs, P.Length)) and step.occ == occ:
                return True
            elif isinstance(step, P.Item) and step.occ[0] == "item_end" and step.occ[1] == occ:
                return True
    return False


class Scope:
    """Names and expressions of one ``with match`` block: the subject, temporaries, classes, helpers.

    Temporaries are scoped to the subtree of the node that fetched their value: ``define`` names a key's
    value (reusing a name freed by an earlier subtree), ``use`` reads it, ``release`` frees everything
    defined since a mark. So a function has as many temporaries as its deepest path needs, not one per
    value (each local costs CPython time on every call)."""

    def __init__(self, fresh, builtin, runtime: str, subject: ast.expr, class_exprs: dict, dynamic: set, slot,
                 class_guard=None):
        self.fresh = fresh
        self.builtin = builtin
        self.slot = slot  # (class key, guess) -> hidden global holding that class's runtime.ArgsSite
        self.class_guard = class_guard  # (class name, its ArgsSite's global) -> hidden global: runtime.ClassGuard
        self.guard_reads: dict = {}  # class key -> temporary holding (value,) that its failed ArgsGuard read
        self.runtime_name = runtime
        self.subject_expr = subject
        self.class_exprs = class_exprs
        self.dynamic = dynamic
        self.env: dict = {}
        self.defined: list = []
        self.free: list[str] = []
        self.aliases: set = set()

    def define(self, key) -> str:
        if key in self.env:  # fetched again on a path that fell through from a join
            return self.env[key]
        name = self.free.pop() if self.free else self.fresh("v")
        self.env[key] = name
        self.defined.append(key)
        return name

    def alias_name(self, key, name: str) -> None:
        """``key``'s value is held in ``name`` (a user's variable) for the subtree being emitted."""
        self.env[key] = name
        self.defined.append(key)
        self.aliases.add(key)

    def use(self, key) -> str:
        return self.env[key]

    def mark(self) -> int:
        return len(self.defined)

    def release(self, mark: int) -> None:
        while len(self.defined) > mark:
            key = self.defined.pop()
            name = self.env.pop(key)
            if key in self.aliases:
                self.aliases.discard(key)
            else:
                self.free.append(name)

    def value(self, occ) -> ast.expr:
        if occ == P.SUBJECT:
            return copy.deepcopy(self.subject_expr)
        return _name(self.use(occ))

    def cls(self, key) -> ast.expr:
        if key in self.dynamic:
            return _name(self.use(key))
        return copy.deepcopy(self.class_exprs[key])

    def runtime(self, attribute: str) -> ast.expr:
        return ast.Attribute(_name(self.runtime_name), attribute, ast.Load())

    def call(self, function: ast.expr, *args: ast.expr) -> ast.Call:
        return ast.Call(function, list(args), [])


class Emitter:
    """Emits one tree; ``done`` is the flag a matched case sets when control may flow past a join."""

    def __init__(self, scope: Scope, body_of, done: str | None, subject_name: str | None):
        self.scope = scope
        self.body_of = body_of  # row -> the (rewritten) statements of its case body
        self.done = done
        self.subject_name = subject_name  # a user variable holding the subject: never a direct target
        self.emitted: set[int] = set()

    # -- nodes ----------------------------------------------------------------------------------------
    def node(self, node: T.Node, fall: bool) -> list[ast.stmt]:
        """Statements for ``node``; ``fall``: a failure falls through (inside a join) rather than raising."""
        mark = self.scope.mark()
        try:
            return self._node(node, fall)
        finally:
            self.scope.release(mark)

    def _node(self, node: T.Node, fall: bool) -> list[ast.stmt]:
        scope = self.scope
        if isinstance(node, T.Fail):
            if fall:
                return []
            return [ast.Raise(scope.call(scope.runtime("MatchError"), scope.value(P.SUBJECT)), None)]
        if isinstance(node, T.Leaf):
            return self.leaf(node, {})
        if isinstance(node, T.OrLeaf):
            stores = [_assign(scope.use(node.block.bound[name]), scope.value(source))
                      for name, source in node.binds.items()]
            return stores + [_assign(self.done, ast.Constant(True))]
        if isinstance(node, T.Do):
            chain = [node]
            while isinstance(chain[-1].next, T.Do):
                chain.append(chain[-1].next)
            provided = [key for do in chain for key in (do.step.provides or (do.step.key,))]
            direct = self.direct_targets(provided, chain[-1].next)
            if direct is not None:  # actions cannot fail: their values go straight into the user's names
                return [stmt for do in chain for stmt in self.action(do.step, direct)] + self.leaf(chain[-1].next,
                                                                                                 direct)
            return self.action(node.step) + self.node(node.next, fall)
        if isinstance(node, T.Join):
            first = self.node(node.first, True)
            then = self.node(node.then, fall)
            if then and matches_complete(node.first):
                then = [ast.If(ast.UnaryOp(ast.Not(), _name(self.done)), then, [])]
            return first + then
        if isinstance(node.step, P.Attrs):
            return self.attributes(node, fall)
        return self.test(node, fall)

    def direct_targets(self, keys, then: T.Node) -> dict | None:
        """When the values fetched for ``keys`` go straight into a leaf that only binds them, fetch them into
        the user's names themselves (one assignment, so none is bound if a fetch fails): key → name."""
        if not isinstance(then, T.Leaf) or not keys:
            return None
        targets = {}
        for name, source in then.binds.items():
            if source in keys and source not in targets and name != self.subject_name:
                targets[source] = name
        return targets or None

    def leaf(self, node: T.Leaf, direct: dict) -> list[ast.stmt]:
        """Bind the case's names (those not fetched straight into them) and run its body."""
        row = node.row
        # A capture of the subject itself first: the subject may be a local variable another name rebinds.
        order = sorted(node.binds.items(), key=lambda item: item[1] != P.SUBJECT)
        stmts: list[ast.stmt] = []
        for name, source in order:
            if direct.get(source) == name:
                continue
            value = _name(direct[source]) if source in direct else self.scope.value(source)
            stmts.append(locate(_assign(name, value), row.node.test))
        if self.done is not None and not row.terminates:
            stmts.append(locate(_assign(self.done, ast.Constant(True)), row.node.test))
        body = self.body_of(row)
        if id(row) in self.emitted:
            body = copy.deepcopy(body)
        self.emitted.add(id(row))
        return stmts + body

    def branch(self, condition: ast.expr, yes: list, no: list, yes_falls: bool) -> list[ast.stmt]:
        if not no:
            return [ast.If(condition, yes or [ast.Pass()], [])]
        if not yes:
            return [ast.If(ast.UnaryOp(ast.Not(), condition), no, [])]
        if not yes_falls:
            return [ast.If(condition, yes, [])] + no
        return [ast.If(condition, yes, no)]

    def test(self, node: T.If, fall: bool) -> list[ast.stmt]:
        step, scope = node.step, self.scope
        if isinstance(step, P.IsSequence):
            return self.sequence_test(node, fall)
        if isinstance(step, P.ArgsGuard):
            return self.args_guard(node, fall)
        prefix: list[ast.stmt] = []
        if step.kind == "fetch":
            prefix, condition = self.fetch(step)
        elif step.kind == "or":
            for name in step.names:
                scope.define(step.bound[name])
            flag = scope.define(step.key)
            inner = Emitter(scope, self.body_of, flag, self.subject_name)
            prefix = [_assign(flag, ast.Constant(False))] + inner.node(node.inner, True)
            condition = _name(flag)
        elif step.kind == "guard":
            renames = {name: scope.value(source) for name, source in node.renames.items()}
            condition = _RenameCaptures(renames).visit(copy.deepcopy(step.expr))
        else:
            condition = self.condition(step)
        yes, no = self.node(node.yes, fall), self.node(node.no, fall)
        return prefix + self.branch(condition, yes, no, falls(node.yes, fall))

    def sequence_test(self, node: T.If, fall: bool) -> list[ast.stmt]:
        """``match v: case [*_]: ... case _: ...``: CPython's own MATCH_SEQUENCE (the type's sequence flag), one
        opcode where a Python-level test needs ``type(v)`` and comparisons. When the tree tests ``v``'s length
        once and nothing below reads it again, the test is a native length pattern instead (``case [_, _]:``,
        CPython's GET_LEN: ``len(v)`` called once, as by the tree, without a call and a temporary)."""
        occ = node.step.occ
        yes = node.yes
        if (isinstance(yes, T.Do) and isinstance(yes.step, P.Length) and isinstance(yes.next, T.If)
                and isinstance(yes.next.step, P.LengthIs) and yes.next.step.occ == occ
                and not reads_length(yes.next.yes, occ) and not reads_length(yes.next.no, occ)):
            test = yes.next.step
            matched, other = self.node(yes.next.yes, fall), self.node(yes.next.no, fall)
            no = self.node(node.no, fall)
            items = [ast.MatchAs(None, None) for _ in range(test.count)]
            cases = [ast.match_case(ast.MatchSequence(items + ([ast.MatchStar(None)] if test.at_least else [])),
                                    None, matched or [ast.Pass()])]
            if other or no:  # a sequence of another length: MATCH_SEQUENCE again, no second len()
                cases.append(ast.match_case(ast.MatchSequence([ast.MatchStar(None)]), None, other or [ast.Pass()]))
            if no:
                cases.append(ast.match_case(ast.MatchAs(None, None), None, no))
            return [ast.Match(self.scope.value(occ), cases)]
        yes, no = self.node(node.yes, fall), self.node(node.no, fall)
        cases = [ast.match_case(ast.MatchSequence([ast.MatchStar(None)]), None, yes or [ast.Pass()])]
        if no:
            cases.append(ast.match_case(ast.MatchAs(None, None), None, no))
        return [ast.Match(self.scope.value(occ), cases)]

    def args_guard(self, node: T.If, fall: bool) -> list[ast.stmt]:
        """``C in site or (read := site.read(C)) is True``: the class's ``ArgsSite`` tells without reading
        ``C.__match_args__`` that a read would give the guess again, or it is read, once; on the general path
        (``no``) its value is ``read[0]``. A value this path has read already is examined by ``site.accepts``."""
        step, scope = node.step, self.scope
        site = scope.slot((step.cls, step.guess))
        known = scope.env.get(("match_args", step.cls))
        if known is not None:
            condition = scope.call(ast.Attribute(_name(site), "accepts", ast.Load()), _name(known))
            yes, no = self.node(node.yes, fall), self.node(node.no, fall)
            return self.branch(condition, yes, no, falls(node.yes, fall))
        read = scope.define(("args_read", step.cls))
        fresh = ast.NamedExpr(_name(read, store=True),
                              scope.call(ast.Attribute(_name(site), "read", ast.Load()), scope.cls(step.cls)))
        condition = _or([ast.Compare(scope.cls(step.cls), [ast.In()], [_name(site)]),
                         _is(fresh, ast.Constant(True))])
        yes = self.node(node.yes, fall)
        outer = scope.guard_reads.get(step.cls)
        scope.guard_reads[step.cls] = read
        try:
            no = self.node(node.no, fall)
        finally:
            scope.guard_reads[step.cls] = outer
        return self.branch(condition, yes, no, falls(node.yes, fall))

    def attributes(self, node: T.If, fall: bool) -> list[ast.stmt]:
        """``try: v = o.a ... except AttributeError`` around the loads of consecutive attribute groups that fail
        alike; nothing else is inside the ``try``."""
        scope = self.scope
        occs = list(node.step.occs)
        last = node
        while (isinstance(last.yes, T.If) and isinstance(last.yes.step, P.Attrs) and last.no is T.FAIL
               and last.yes.no is T.FAIL):
            last = last.yes
            occs += last.step.occs
        occs = [occ for occ in occs if occ not in scope.env]
        reads = [ast.Attribute(scope.value(occ[1]), occ[2], ast.Load()) for occ in occs]
        handler_type = scope.builtin("AttributeError")
        # A flag says which way to go only if the "missing" code cannot simply follow the "found" code.
        flag = None
        if not (isinstance(node.no, T.Fail) and fall) and falls(last.yes, fall):
            flag = scope.define(("found", node.step.key))
        mark = scope.mark()  # the loaded values exist on the "found" side only
        direct = self.direct_targets(occs, last.yes)
        if direct is not None:  # one assignment, so no name is bound if a later load fails
            targets = [direct.get(occ) or scope.define(occ) for occ in occs]
            for occ in occs:
                if occ in direct:
                    scope.alias_name(occ, direct[occ])
            fetch = [_assign(targets[0], reads[0])] if len(occs) == 1 else [ast.Assign(
                [ast.Tuple([_name(t, store=True) for t in targets], ast.Store())], ast.Tuple(reads, ast.Load()))]
            ok = self.leaf(last.yes, direct)
        else:
            fetch = [_assign(scope.define(occ), read) for occ, read in zip(occs, reads)]
            ok = self.node(last.yes, fall)
        scope.release(mark)
        missing = self.node(node.no, fall)
        if flag is None:
            guarded = ast.Try(fetch, [ast.ExceptHandler(handler_type, None, [ast.Pass()])], ok or [ast.Pass()], [])
            return [guarded] + missing
        guarded = ast.Try(fetch, [ast.ExceptHandler(handler_type, None, [_assign(flag, ast.Constant(False))])],
                          [_assign(flag, ast.Constant(True))], [])
        return [guarded, ast.If(_name(flag), ok or [ast.Pass()], missing)]

    # -- steps ----------------------------------------------------------------------------------------
    def condition(self, step: P.Step) -> ast.expr:
        scope, builtin = self.scope, self.scope.builtin
        if isinstance(step, P.IsMapping):
            return self.type_flags(step.occ, ["dict"], ["list", "tuple", "int", "str"], _TPFLAGS_MAPPING)
        if isinstance(step, P.IsExactDict):
            return _is(_name(scope.use(("type", step.occ))), builtin("dict"))
        if isinstance(step, P.HasKey):
            return ast.Compare(copy.deepcopy(step.key_expr), [ast.In()], [scope.value(step.occ)])
        if isinstance(step, P.LengthIs):  # the length is len()'s exact int: `not n` is `n == 0`, `n` is `n >= 1`
            length = _name(scope.use(("len", step.occ)))
            if (step.count, step.at_least) == (0, False):
                return ast.UnaryOp(ast.Not(), length)
            if (step.count, step.at_least) == (1, True):
                return length
            operator = ast.GtE() if step.at_least else ast.Eq()
            return ast.Compare(length, [operator], [ast.Constant(step.count)])
        if isinstance(step, P.Equals):
            return ast.Compare(scope.value(step.occ), [ast.Eq()], [copy.deepcopy(step.value)])
        if isinstance(step, P.IsSingleton):
            return _is(scope.value(step.occ), ast.Constant(step.value))
        if isinstance(step, P.IsInstance):
            return scope.call(builtin("isinstance"), scope.value(step.occ), scope.cls(step.cls))
        if isinstance(step, P.ExactClass):
            guard = scope.class_guard(scope.class_exprs[step.cls].id, scope.slot((step.cls, step.guess)))
            return ast.Compare(scope.value(step.occ), [ast.In()], [_name(guard)])
        if isinstance(step, P.KindIsClass):
            return _name(scope.use(("kind", step.cls, step.has_keywords)))
        if isinstance(step, P.AnyOf):
            return _or([_and([self.condition(test) for test in alternative]) for alternative in step.alternatives])
        raise AssertionError(f"no condition for {step!r}")

    def type_flags(self, occ, yes: list[str], no: list[str], flag: int) -> ast.expr:
        """``type(occ)`` is one of ``yes``, or (being none of ``no``) has ``flag`` set: CPython's check of
        Py_TPFLAGS_MAPPING, with the common types decided by identity (their flags never change). The type is
        read anyway for a mapping pattern (an exact dict takes ``in`` and ``[]``), so it is not a native ``case {}:``."""
        builtin = self.scope.builtin
        kind = self.scope.use(("type", occ))
        flags = ast.BinOp(ast.Attribute(_name(kind), "__flags__", ast.Load()), ast.BitAnd(), ast.Constant(flag))
        others = [ast.Compare(_name(kind), [ast.IsNot()], [builtin(name)]) for name in no]
        return _or([_is(_name(kind), builtin(name)) for name in yes] + [_and(others + [flags])])

    def fetch(self, step: P.Step) -> tuple[list[ast.stmt], ast.expr]:
        """The statements of a fallible fetch and the condition meaning "found"."""
        scope = self.scope
        if isinstance(step, P.KeyGet):  # `v = mapping.get(key, MISSING)`: a method call CPython specialises
            found = scope.define(step.occ)
            lookup = _assign(found, ast.Call(ast.Attribute(scope.value(step.mapping), "get", ast.Load()),
                                             [copy.deepcopy(step.key_expr), scope.runtime("MISSING")], []))
            return [lookup], ast.Compare(_name(found), [ast.IsNot()], [scope.runtime("MISSING")])
        if isinstance(step, P.ClassAttrs):
            call = scope.call(scope.runtime("class_attrs"), scope.cls(step.cls), scope.value(step.subject),
                              ast.Constant(step.positional), ast.Constant(step.keywords),
                              _name(scope.use(("match_args", step.cls))))
        elif isinstance(step, P.Recognise):
            call = scope.call(scope.runtime("recognise"), scope.cls(step.cls), ast.Constant(step.positional),
                              scope.value(step.subject))
        else:
            assert isinstance(step, P.MatchKeys)
            call = scope.call(scope.runtime("match_keys"), scope.value(step.mapping),
                              ast.Tuple([copy.deepcopy(key) for key in step.keys], ast.Load()))
        result = scope.define(step.occ)
        return [_assign(result, call)], ast.Compare(_name(result), [ast.IsNot()], [ast.Constant(None)])

    def action(self, step: P.Step, direct: dict | None = None) -> list[ast.stmt]:
        """The statements of an action; ``direct`` names user variables to fetch straight into."""
        scope, builtin = self.scope, self.scope.builtin
        direct = direct or {}

        def target(key) -> ast.Name:
            if key in direct:  # a user's name: later actions of the chain may read it
                if key not in scope.env:
                    scope.alias_name(key, direct[key])
                return _name(direct[key], store=True)
            if key in scope.env:  # held already (an unpacking that reads it again): keep that value
                return _name(scope.define(("discarded", key, scope.mark())), store=True)
            return _name(scope.define(key), store=True)

        if isinstance(step, P.TypeOf):
            return [ast.Assign([target(step.key)], scope.call(builtin("type"), scope.value(step.occ)))]
        if isinstance(step, P.Length):
            return [ast.Assign([target(step.key)], scope.call(builtin("len"), scope.value(step.occ)))]
        if isinstance(step, P.Alias):
            if step.key in direct:
                return [ast.Assign([target(step.key)], _name(scope.use(step.existing)))]
            scope.alias_name(step.key, scope.use(step.existing))
            return []
        if isinstance(step, P.Unpack):
            targets = [target(item) for item in step.provides]
            return [ast.Assign([ast.Tuple(targets, ast.Store())], scope.value(step.occ))]
        if isinstance(step, P.StarFromItems):  # the values of the items unpacked already, the star as a list
            stmts = []
            for key, existing in step.sources.items():
                if key in direct:
                    stmts.append(ast.Assign([target(key)], _name(scope.use(existing))))
                else:
                    scope.alias_name(key, scope.use(existing))
            middle = [scope.value(item) for item in step.middle]
            return stmts + [ast.Assign([target(step.unpack.star)], ast.List(middle, ast.Load()))]
        if isinstance(step, P.UnpackStar):
            targets = [target(item) for item in step.provides]
            targets[step.before] = ast.Starred(targets[step.before], ast.Store())
            return [ast.Assign([ast.Tuple(targets, ast.Store())], scope.value(step.occ))]
        if isinstance(step, P.Item):
            kind, parent, index = step.occ
            if kind == "item":
                position = ast.Constant(index)
            else:  # non-negative, from the length, as CPython does (a sequence need not take -1)
                position = ast.BinOp(_name(scope.use(("len", parent))), ast.Sub(), ast.Constant(index))
            return [ast.Assign([target(step.occ)], ast.Subscript(scope.value(parent), position, ast.Load()))]
        if isinstance(step, P.ResultItem):
            _, found, index = step.occ
            return [ast.Assign([target(step.occ)],
                               ast.Subscript(_name(scope.use(found)), ast.Constant(index), ast.Load()))]
        if isinstance(step, P.DictItem):
            return [ast.Assign([target(step.occ)], ast.Subscript(scope.value(step.mapping),
                                                                 copy.deepcopy(step.key_expr), ast.Load()))]
        if isinstance(step, P.EvalClass):
            return [ast.Assign([target(step.cls)], copy.deepcopy(step.expr))]
        if isinstance(step, P.MatchArgs):
            name = scope.define(step.key)
            guard_read = scope.guard_reads.get(step.cls)
            if guard_read is not None:  # the general path after a failed ArgsGuard: the value it read
                return [_assign(name, ast.Subscript(_name(guard_read), ast.Constant(0), ast.Load()))]
            read = _assign(name, ast.Attribute(scope.cls(step.cls), "__match_args__", ast.Load()))
            missing = _assign(name, scope.runtime("NO_MATCH_ARGS"))
            return [ast.Try([read], [ast.ExceptHandler(builtin("AttributeError"), None, [missing])], [], [])]
        if isinstance(step, P.ClassKind):
            check = scope.call(scope.runtime("class_kind"), scope.cls(step.cls), ast.Constant(step.has_keywords))
            if step.has_keywords:  # no recogniser possible: only a class will do (class_kind raises otherwise)
                is_class = scope.call(builtin("isinstance"), scope.cls(step.cls), builtin("type"))
                return [ast.If(ast.UnaryOp(ast.Not(), is_class), [ast.Expr(check)], [])]
            return [ast.Assign([target(step.key)], check)]
        if isinstance(step, P.Rest):
            rest = target(step.occ)
            stmts: list[ast.stmt] = [ast.Assign([rest], scope.call(builtin("dict"), scope.value(step.mapping)))]
            for key in step.keys:
                stmts.append(ast.Delete([ast.Subscript(_name(rest.id), copy.deepcopy(key), ast.Del())]))
            return stmts
        raise AssertionError(f"no action for {step!r}")


class _RenameCaptures(ast.NodeTransformer):
    """Inside a guard, read captured names from their temporaries (the user names are bound only on success);
    names a lambda or comprehension binds for itself are left alone."""

    def __init__(self, renames: dict[str, ast.expr]):
        self.renames = renames

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.renames:
            return ast.copy_location(copy.deepcopy(self.renames[node.id]), node)
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        node.args = self.visit(node.args)  # defaults are evaluated outside the lambda
        shadowed = {arg.arg for arg in ast.walk(node.args) if isinstance(arg, ast.arg)}
        node.body = _RenameCaptures({k: v for k, v in self.renames.items() if k not in shadowed}).visit(node.body)
        return node

    def _comprehension(self, node: ast.AST) -> ast.AST:
        bound = {n.id for generator in node.generators for n in ast.walk(generator.target)
                 if isinstance(n, ast.Name)}
        inner = _RenameCaptures({k: v for k, v in self.renames.items() if k not in bound})
        for index, generator in enumerate(node.generators):
            # the first iterable is evaluated in the enclosing scope, everything else inside
            generator.iter = (self if index == 0 else inner).visit(generator.iter)
            generator.ifs = [inner.visit(condition) for condition in generator.ifs]
        for name in ("elt", "key", "value"):
            if hasattr(node, name):
                setattr(node, name, inner.visit(getattr(node, name)))
        return node

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

"""The cases of a ``with match`` block → rows of *steps*, the input of the decision-tree compiler.

A case's pattern becomes the list of steps CPython's ``match`` performs for that case, in its order: tests
(sequence/mapping type, length, ``==``, ``is``, ``isinstance``), fetches of sub-values (items, attributes,
mapping values) and guards. Each step has a *key* that names what it computes, from the subject down
(``("attr", ("item", SUBJECT, 0), "x")`` is ``subject[0].x``): the same key in two cases is the same test,
which the tree performs once. Class patterns whose class the rewrite knows statically get a guarded fast
arm (attribute loads by name) and the general arm (``runtime.class_attrs``), as a ``Branch``.
"""
from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, field

from moshjit.extensions.class_facts import SELF_MATCHING, ModuleFacts

SUBJECT = ("subject",)
PATTERN_HELP = ("patterns are literals, names, _, (tuples)/[lists] with one *star, {mappings}, Class(...), "
                "pin(expr), isinstance(T), when(cond), p or q, p and q")


class Step:
    """One thing a case does while matching. ``kind``: 'action' (a fetch that cannot fail), 'fetch' (a fetch
    that can mean "no match"), 'test', 'guard' (user code, never shared), 'branch' or 'or'."""

    kind = ""
    key: tuple = ()
    provides: tuple = ()  # keys of the values an action or fetch makes available

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self.key}"


class _Action(Step):
    kind = "action"


class TypeOf(_Action):
    def __init__(self, occ):
        self.occ, self.key = occ, ("type", occ)


class Length(_Action):
    def __init__(self, occ):
        self.occ, self.key = occ, ("len", occ)


class Unpack(_Action):
    """``v0, ..., vk = occ`` once its length is known to be k (CPython's UNPACK_SEQUENCE), for patterns
    without a star. Its values are keyed ``("iter", occ, i)``, apart from the ``("item", occ, i)`` a subscript
    reads for ``*_`` patterns: a sequence's iteration and indexing may disagree."""

    def __init__(self, occ, count):
        self.occ, self.count, self.key = occ, count, ("unpack", occ, count)
        self.provides = tuple(("iter", occ, i) for i in range(count))


class UnpackStar(_Action):
    """``v0, ..., *star, ..., vk = occ`` once its length is known to be at least ``before + after`` (CPython's
    UNPACK_EX, for patterns with a named star: the sequence is iterated once). Its values have keys of their
    own: an item read by iterating need not be the one a subscript reads (CPython subscripts for ``*_``)."""

    def __init__(self, occ, before, after):
        self.occ, self.before, self.after = occ, before, after
        self.key = ("unpack_star", occ, before, after)
        self.provides = tuple(("unpacked", occ, before, after, i) for i in range(before + 1 + after))
        self.star = self.provides[before]


class StarFromItems(_Action):
    """An ``UnpackStar`` of a sequence whose length is known exactly and whose items an ``Unpack`` read already
    (by iterating too): its values are those items, the star list built from them, the sequence not read again."""

    def __init__(self, unpack: UnpackStar, length: int):
        self.unpack, self.length, self.key, self.provides = unpack, length, unpack.key, unpack.provides
        items = [("iter", unpack.occ, i) for i in range(length)]
        self.middle = items[unpack.before:length - unpack.after]
        self.sources = dict(zip(unpack.provides[:unpack.before], items[:unpack.before]))
        self.sources.update(zip(unpack.provides[unpack.before + 1:], items[length - unpack.after:]))


class Alias(_Action):
    """A value known under another key (an item counted from the end of a sequence of known length)."""

    def __init__(self, key, existing):
        self.key, self.existing, self.provides = key, existing, (key,)


class Item(_Action):
    """``occ[i]``, or ``occ[len - j]`` for the j-th item from the end (patterns with ``*_``)."""

    def __init__(self, occ):
        self.occ, self.key = occ, occ


class ResultItem(_Action):
    """Item i of a tuple a runtime helper returned (the sub-values of a class or mapping pattern)."""

    def __init__(self, occ):
        self.occ, self.key = occ, occ


class EvalClass(_Action):
    """A class pattern's callee that is an arbitrary expression, evaluated once for the case."""

    def __init__(self, cls, expr):
        self.cls, self.expr, self.key = cls, expr, cls


class MatchArgs(_Action):
    """``cls.__match_args__``, read once per match (a missing attribute gives ``runtime.NO_MATCH_ARGS``)."""

    def __init__(self, cls):
        self.cls, self.key = cls, ("match_args", cls)


class ClassKind(_Action):
    """``runtime.class_kind(cls, has_keywords)``: a class (True), a recogniser (False), else TypeError."""

    def __init__(self, cls, has_keywords):
        self.cls, self.has_keywords, self.key = cls, has_keywords, ("kind", cls, has_keywords)


class Rest(_Action):
    """``**rest``: a dict of the mapping without the pattern's keys."""

    def __init__(self, occ, mapping, keys):
        self.occ, self.mapping, self.keys, self.key = occ, mapping, keys, occ


class _Fetch(Step):
    kind = "fetch"


class Attrs(_Fetch):
    """The attributes a class pattern reads (``("attr", parent, name)`` each), loaded together: an
    ``AttributeError`` from any of them means "no match" (CPython's MATCH_CLASS)."""

    def __init__(self, occs: list):
        self.occs = list(occs)
        self.key = ("attrs",) + tuple(occs)
        self.provides = tuple(occs)


class ClassAttrs(_Fetch):
    """``runtime.class_attrs(cls, subject, n, keywords, match_args)``: the sub-values, or None."""

    def __init__(self, occ, cls, subject, positional, keywords):
        self.occ, self.cls, self.subject, self.positional, self.keywords = occ, cls, subject, positional, keywords
        self.key = occ
        self.provides = (occ,)


class Recognise(_Fetch):
    """``runtime.recognise(cls, n, subject)``: Moshmosh's ``__match__`` protocol, the sub-values or None."""

    def __init__(self, occ, cls, positional, subject):
        self.occ, self.cls, self.positional, self.subject, self.key = occ, cls, positional, subject, occ
        self.provides = (occ,)


class KeyGet(_Fetch):
    """``mapping.get(key, MISSING)``: absent means "no match"."""

    def __init__(self, occ, mapping, key_expr):
        self.occ, self.mapping, self.key_expr, self.key = occ, mapping, key_expr, occ
        self.provides = (occ,)


class MatchKeys(_Fetch):
    """``runtime.match_keys(mapping, keys)`` for keys that are not literals (duplicates raise ValueError)."""

    def __init__(self, occ, mapping, keys):
        self.occ, self.mapping, self.keys, self.key = occ, mapping, keys, occ
        self.provides = (occ,)


class _Test(Step):
    kind = "test"


class IsSequence(_Test):
    """Py_TPFLAGS_SEQUENCE (CPython's MATCH_SEQUENCE), emitted as a native ``match occ: case [*_]:``."""

    def __init__(self, occ):
        self.occ, self.key = occ, ("seq", occ)


class IsMapping(_Test):
    def __init__(self, occ):
        self.occ, self.key = occ, ("map", occ)


class IsExactDict(_Test):
    """``type(occ) is dict``: a mapping whose items can be read with ``in`` and ``[]``."""

    def __init__(self, occ):
        self.occ, self.key = occ, ("dict", occ)


class HasKey(_Test):
    """``key in occ`` for an exact dict (the same as ``get`` finding it)."""

    def __init__(self, occ, key_expr, identity):
        self.occ, self.key_expr, self.key = occ, key_expr, ("in", occ, identity)


class DictItem(_Action):
    """``occ[key]`` for an exact dict known to hold the key."""

    def __init__(self, occ, mapping, key_expr):
        self.occ, self.mapping, self.key_expr, self.key = occ, mapping, key_expr, occ
        self.provides = (occ,)


class LengthIs(_Test):
    def __init__(self, occ, count, at_least):
        self.occ, self.count, self.at_least = occ, count, at_least
        self.key = (">=" if at_least else "len==", occ, count)


class Equals(_Test):
    """``occ == value``: a literal, a value pattern (dotted name) or ``pin(expr)``."""

    def __init__(self, occ, value: ast.expr, identity):
        self.occ, self.value, self.key = occ, value, ("==", occ, identity)


class IsSingleton(_Test):
    def __init__(self, occ, value):
        self.occ, self.value, self.key = occ, value, ("is", occ, repr(value))


class IsInstance(_Test):
    def __init__(self, occ, cls):
        self.occ, self.cls, self.key = occ, cls, ("isinstance", occ, cls)


class ArgsGuard(_Test):
    """``cls.__match_args__`` is ``guess`` (the names the source gives it), an exact tuple of exact strings: then
    positional sub-patterns are loads by name. It reads ``__match_args__`` only when the class's site in
    ``runtime.ArgsSite`` cannot tell that a read would give the guess again; on failure the value read is
    the ``MatchArgs`` of the general path."""

    def __init__(self, cls, guess):
        self.cls, self.guess, self.key = cls, guess, ("args==", cls, guess)


class ExactClass(_Test):
    """``occ in guard`` (``runtime.ClassGuard``): the type of ``occ`` is exactly ``cls`` and ``cls``'s
    ``ArgsGuard`` for ``guess`` would pass without a read. Rows never hold it: the tree builder puts it before
    an ``IsInstance`` of a nested class pattern, and on success knows both tests' outcomes."""

    def __init__(self, occ, cls, guess):
        self.occ, self.cls, self.guess, self.key = occ, cls, guess, ("exact", occ, cls)


class KindIsClass(_Test):
    def __init__(self, cls, has_keywords):
        self.cls, self.has_keywords, self.key = cls, has_keywords, ("kind?", cls, has_keywords)


class AnyOf(_Test):
    """An or-pattern whose alternatives are plain tests of one value: ``(t1 and t2) or t3``."""

    def __init__(self, alternatives: list[list[Step]]):
        self.alternatives = alternatives
        self.key = ("or", tuple(tuple(step.key for step in alt) for alt in alternatives))


class Guard(Step):
    """A ``when(...)`` condition: user code, evaluated in case order and never shared or skipped. It reads the
    names bound before it in its case (from their temporaries: user names are bound only on success)."""

    kind = "guard"

    def __init__(self, expr: ast.expr, uid: int):
        self.expr, self.key = expr, ("guard", uid)


class Bind(Step):
    """The case binds ``name`` to the value ``occ`` (assigned when the case has matched)."""

    kind = "bind"

    def __init__(self, name: str, occ):
        self.name, self.occ, self.key = name, occ, ("bind", name, occ)


class Branch(Step):
    """A test choosing between two ways to match the rest of the case (fast arm, general arm)."""

    kind = "branch"

    def __init__(self, test: Step, then: list[Step], otherwise: list[Step]):
        self.test, self.then, self.otherwise, self.key = test, then, otherwise, ("branch",) + test.key


class OrBlock(Step):
    """An or-pattern that fetches or binds: alternatives tried in order, the first that matches commits;
    each stores the names it binds in the block's own temporaries (``bound``)."""

    kind = "or"

    def __init__(self, uid: int, alternatives: list[list[Step]], names: list[str], node: ast.AST):
        self.uid, self.alternatives, self.names, self.node = uid, alternatives, names, node
        self.key = ("orblock", uid)
        self.bound = {name: ("orbind", uid, name) for name in names}


@dataclass
class Row:
    """One case (or one alternative of an or-block): its steps and what runs if it matches. ``outer``: names
    bound before an or-block, which guards inside its alternatives may read."""

    index: int
    steps: list[Step]
    node: ast.AST
    body: list[ast.stmt] = field(default_factory=list)
    terminates: bool = False
    outer: dict = field(default_factory=dict)


def append_steps(steps: list[Step], more: list[Step]) -> None:
    """Append ``more`` after ``steps``: into both arms when ``steps`` ends in a Branch."""
    if not more:
        return
    if steps and isinstance(steps[-1], Branch):
        last = steps[-1]
        append_steps(last.then, list(more))
        append_steps(last.otherwise, _copy_steps(more))
    else:
        steps.extend(more)


def _copy_steps(steps: list[Step]) -> list[Step]:
    """Branch arms own their step lists; steps themselves are immutable and shared."""
    copied = []
    for step in steps:
        if isinstance(step, Branch):
            step = Branch(step.test, _copy_steps(step.then), _copy_steps(step.otherwise))
        copied.append(step)
    return copied


def is_wildcard(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "_"


def _is_dotted(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _pure_expression(node: ast.expr) -> bool:
    """Names, attributes and constants only: evaluating it twice gives the same value with no effect."""
    return all(isinstance(n, (ast.Name, ast.Attribute, ast.Constant, ast.Load, ast.expr_context))
               for n in ast.walk(node))


class CaseCompiler:
    """Turns the case patterns of one ``with match`` block into rows (raising SyntaxErrors like CPython's).

    ``names`` (a set, threaded through) holds the names a pattern has bound so far, to reject duplicates."""

    def __init__(self, context, facts: ModuleFacts, uids: itertools.count):
        self.context = context
        self.facts = facts
        self.uids = uids
        self.class_exprs: dict[tuple, ast.expr] = {}  # class key -> the callee expression (names, dotted)
        self.dynamic_classes: set[tuple] = set()

    def row(self, index: int, case: ast.If) -> Row:
        return Row(index, self.pattern(case.test, SUBJECT, set()), case)

    def bind(self, node: ast.AST, names: set, name: str, occ) -> list[Step]:
        if name in names:
            raise self.context.error(node, f"multiple assignments to name {name!r} in pattern")
        names.add(name)
        return [Bind(name, occ)]

    # -- patterns -------------------------------------------------------------------------------------
    def pattern(self, node: ast.expr, occ, names: set) -> list[Step]:
        """The steps matching ``node`` against the value ``occ`` (``Bind`` steps for the names it captures)."""
        if isinstance(node, ast.Name):
            return [] if node.id == "_" else self.bind(node, names, node.id, occ)
        literal = self.literal(node)
        if literal is not None:
            value = literal.value
            if value is None or isinstance(value, bool):
                return [IsSingleton(occ, value)]
            return [Equals(occ, literal, ("literal", type(value).__name__, repr(value)))]
        if _is_dotted(node):
            return [Equals(occ, node, ("value", ast.dump(node)))]
        if isinstance(node, (ast.Tuple, ast.List)):
            return self.sequence(node, occ, names)
        if isinstance(node, ast.Dict):
            return self.mapping(node, occ, names)
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And):
                steps: list[Step] = []
                for value in node.values:
                    append_steps(steps, self.pattern(value, occ, names))
                return steps
            return self.alternatives(node, occ, names)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("pin", "when",
                                                                                            "isinstance"):
            return self.special_call(node, occ)
        if isinstance(node, ast.Call):
            return self.class_pattern(node, occ, names)
        hint = " (use when(...) for conditions)" if isinstance(node, ast.Compare) else ""
        raise self.context.error(node, f"unsupported pattern {ast.unparse(node)!r}{hint}; {PATTERN_HELP}")

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

    def special_call(self, node: ast.Call, occ) -> list[Step]:
        kind = node.func.id
        if node.keywords or not node.args or any(isinstance(arg, ast.Starred) for arg in node.args):
            raise self.context.error(node, f"{kind}() in a pattern takes positional expressions only")
        if kind == "pin":
            if len(node.args) != 1:
                raise self.context.error(node, "pin() takes exactly one expression to compare the subject with")
            value = node.args[0]
            identity = ("value", ast.dump(value)) if _pure_expression(value) else ("pin", next(self.uids))
            return [Equals(occ, value, identity)]
        if kind == "isinstance":
            types = node.args[0] if len(node.args) == 1 else ast.Tuple(list(node.args), ast.Load())
            return [IsInstance(occ, self.class_key(types, static=True))]
        return [Guard(condition, next(self.uids)) for condition in node.args]

    def alternatives(self, node: ast.BoolOp, occ, names: set) -> list[Step]:
        compiled: list[list[Step]] = []
        bound = None
        for alternative in node.values:
            alternative_names: set = set()
            compiled.append(self.pattern(alternative, occ, alternative_names))
            if bound is None:
                bound = alternative_names
            elif bound != alternative_names:
                raise self.context.error(node, "alternative patterns bind different names")
        if not bound and all(all(step.kind == "test" for step in steps) for steps in compiled):
            return [AnyOf(compiled)]
        block = OrBlock(next(self.uids), compiled, sorted(bound), node)
        steps: list[Step] = [block]
        for name in block.names:
            steps += self.bind(node, names, name, block.bound[name])
        return steps

    def sequence(self, node: ast.Tuple | ast.List, occ, names: set) -> list[Step]:
        stars = [i for i, element in enumerate(node.elts) if isinstance(element, ast.Starred)]
        if len(stars) > 1:
            raise self.context.error(node.elts[stars[1]], "multiple starred names in sequence pattern")
        for i in stars:
            if not isinstance(node.elts[i].value, ast.Name):
                raise self.context.error(node.elts[i], "a starred sub-pattern must be a name (*rest) or *_")
        size = len(node.elts)
        fixed = size - len(stars)
        steps: list[Step] = [IsSequence(occ), Length(occ), LengthIs(occ, fixed, at_least=bool(stars))]
        if not stars:  # unpacked at once, then matched in order (CPython's UNPACK_SEQUENCE)
            if not all(is_wildcard(element) for element in node.elts):
                steps.append(Unpack(occ, size))
                for i, element in enumerate(node.elts):
                    append_steps(steps, self.pattern(element, ("iter", occ, i), names))
            return steps
        star = stars[0]
        name = node.elts[star].value.id
        if name != "_":  # CPython's UNPACK_EX: every item at once, then each matched in order
            unpack = UnpackStar(occ, star, size - star - 1)
            append_steps(steps, [unpack])
            for i, element in enumerate(node.elts):
                if i == star:
                    append_steps(steps, self.bind(element, names, name, unpack.star))
                else:
                    append_steps(steps, self.pattern(element, unpack.provides[i], names))
            return steps
        # With '*_', the items needed are read by index (CPython's subscripts), each then matched.
        for i, element in enumerate(node.elts):
            if i == star or is_wildcard(element):
                continue
            item = ("item", occ, i) if i < star else ("item_end", occ, size - i)
            append_steps(steps, [Item(item)])
            append_steps(steps, self.pattern(element, item, names))
        return steps

    def mapping(self, node: ast.Dict, occ, names: set) -> list[Step]:
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
        identities = tuple(_key_identity(key) for key in keys)
        length = [Length(occ), LengthIs(occ, len(keys), at_least=True)] if keys else []
        if not all(isinstance(key, ast.Constant) for key in keys):
            # runtime.match_keys finds duplicate keys at run time, as CPython does
            found = ("mkeys", occ, identities)
            steps: list[Step] = [TypeOf(occ), IsMapping(occ)] + length + [MatchKeys(found, occ, keys)]
            for i, pattern in enumerate(patterns):
                if not is_wildcard(pattern):
                    value = ("ritem", found, i)
                    append_steps(steps, [ResultItem(value)])
                    append_steps(steps, self.pattern(pattern, value, names))
            return self.mapping_rest(steps, rest, occ, keys, identities, names)
        # Each key looked up, then its value matched (the PEP's order; CPython looks all keys up first): an
        # exact dict with ``in`` and ``[]``, any other mapping with ``get``.
        as_dict: list[Step] = list(length)
        as_mapping: list[Step] = [IsMapping(occ)] + _copy_steps(length)
        for identity, key, pattern in zip(identities, keys, patterns):
            value = ("key", occ, identity)
            sub = self.pattern(pattern, value, names)
            append_steps(as_dict, [HasKey(occ, key, identity)] + ([] if is_wildcard(pattern) else [
                DictItem(value, occ, key)]))
            append_steps(as_dict, sub)
            append_steps(as_mapping, [KeyGet(value, occ, key)])
            append_steps(as_mapping, _copy_steps(sub))
        steps = [TypeOf(occ), Branch(IsExactDict(occ), as_dict, as_mapping)]
        return self.mapping_rest(steps, rest, occ, keys, identities, names)

    def mapping_rest(self, steps, rest, occ, keys, identities, names) -> list[Step]:
        if rest is not None:
            rest_occ = ("rest", occ, identities)
            append_steps(steps, [Rest(rest_occ, occ, keys)])
            append_steps(steps, self.bind(rest, names, rest.id, rest_occ))
        return steps

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

    # -- class patterns -------------------------------------------------------------------------------
    def class_key(self, callee: ast.expr, static: bool) -> tuple:
        """The key standing for a class pattern's callee; arbitrary expressions get a key of their own."""
        if static or _is_dotted(callee):
            key = ("class", ast.dump(callee))
        else:
            key = ("class", next(self.uids))
            self.dynamic_classes.add(key)
        self.class_exprs.setdefault(key, callee)
        return key

    def class_pattern(self, node: ast.Call, occ, names: set) -> list[Step]:
        if any(isinstance(arg, ast.Starred) for arg in node.args):
            raise self.context.error(node, "a class pattern takes no *args")
        keywords = []
        for keyword in node.keywords:
            if keyword.arg is None:
                raise self.context.error(keyword, "a class pattern takes no **kwargs")
            if keyword.arg in keywords:
                raise self.context.error(keyword, f"attribute name repeated in class pattern: {keyword.arg}")
            keywords.append(keyword.arg)
        keywords = tuple(keywords)
        callee, positional = node.func, len(node.args)
        subs = list(node.args) + [keyword.value for keyword in node.keywords]
        cls = self.class_key(callee, static=False)
        if isinstance(callee, ast.Name) and callee.id in SELF_MATCHING and not self.facts.is_bound(callee.id):
            if positional > 1:  # CPython's TypeError, raised by the general path
                return [IsInstance(occ, cls), MatchArgs(cls)] + self.general_arm(occ, cls, subs, keywords, names,
                                                                                  positional)
            steps: list[Step] = [IsInstance(occ, cls)]
            if positional:
                append_steps(steps, self.pattern(subs[0], occ, names))
            append_steps(steps, self.attribute_arm(occ, keywords, subs[positional:], names))
            return steps
        static = self.facts.static_class(callee) if _is_dotted(callee) else None
        if static is not None and static.recogniser and not keywords:
            return self.recogniser_arm(occ, cls, subs, names)
        if static is not None:
            steps = [IsInstance(occ, cls)]
            if not positional:
                return steps + self.attribute_arm(occ, keywords, subs, names)
            guess = static.match_args
            if guess is None or len(guess) < positional or len(set(guess[:positional]) | set(keywords)) != (
                    positional + len(keywords)):
                return steps + [MatchArgs(cls)] + self.general_arm(occ, cls, subs, keywords, names, positional)
            fast_names, general_names = set(names), set(names)
            fast = self.attribute_arm(occ, guess[:positional] + keywords, subs, fast_names)
            general = [MatchArgs(cls)] + self.general_arm(occ, cls, subs, keywords, general_names, positional)
            names |= fast_names
            return steps + [Branch(ArgsGuard(cls, guess), fast, general)]
        steps = [EvalClass(cls, callee)] if cls in self.dynamic_classes else []
        class_names, recogniser_names = set(names), set(names)
        as_class: list[Step] = [IsInstance(occ, cls)]
        if positional:
            as_class.append(MatchArgs(cls))
            as_class += self.general_arm(occ, cls, subs, keywords, class_names, positional)
        else:
            as_class += self.attribute_arm(occ, keywords, subs, class_names)
        if keywords:  # recognisers take no keywords: runtime.class_kind raises for anything but a class
            names |= class_names
            return steps + [ClassKind(cls, True)] + as_class
        recogniser = self.recogniser_arm(occ, cls, subs, recogniser_names)
        names |= class_names
        return steps + [ClassKind(cls, False), Branch(KindIsClass(cls, False), as_class, recogniser)]

    def attribute_arm(self, occ, attributes: tuple, subs: list, names: set) -> list[Step]:
        """Every attribute loaded first, then the sub-patterns matched in order: CPython's order, which lets
        the loads of one class pattern share one ``try``."""
        attrs = [("attr", occ, attribute) for attribute in attributes]
        steps: list[Step] = [Attrs(attrs)] if attrs else []
        for attr, sub in zip(attrs, subs):
            append_steps(steps, self.pattern(sub, attr, names))
        return steps

    def general_arm(self, occ, cls, subs, keywords, names, positional) -> list[Step]:
        found = ("class_attrs", occ, cls, positional, keywords)
        steps: list[Step] = [ClassAttrs(found, cls, occ, positional, keywords)]
        return steps + self.result_items(found, subs, names)

    def recogniser_arm(self, occ, cls, subs, names) -> list[Step]:
        found = ("recognised", occ, cls, len(subs))
        return [Recognise(found, cls, len(subs), occ)] + self.result_items(found, subs, names)

    def result_items(self, found, subs, names) -> list[Step]:
        steps: list[Step] = []
        for i, sub in enumerate(subs):
            if is_wildcard(sub):
                continue
            item = ("ritem", found, i)
            append_steps(steps, [ResultItem(item)])
            append_steps(steps, self.pattern(sub, item, names))
        return steps


def _key_identity(key: ast.expr) -> tuple:
    if isinstance(key, ast.Constant):
        return ("literal", type(key.value).__name__, repr(key.value))
    return ("value", ast.dump(key))


def check_reachable(node: ast.expr, irrefutable_allowed: bool, context) -> None:
    """CPython's rule: a bare name or ``_`` may not stand where it would make later cases or alternatives
    unreachable (a case that is not last, an alternative that is not last)."""
    if isinstance(node, ast.Name):
        if not irrefutable_allowed:
            message = ("wildcard" if node.id == "_" else f"name capture {node.id!r}")
            raise context.error(node, f"{message} makes remaining patterns unreachable")
    elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        for index, alternative in enumerate(node.values):
            check_reachable(alternative, irrefutable_allowed and index == len(node.values) - 1, context)
    elif isinstance(node, ast.BoolOp):
        if not irrefutable_allowed and _irrefutable(node):
            check_reachable(node.values[0], False, context)
        for value in node.values:
            check_reachable(value, True, context)
    elif isinstance(node, (ast.Tuple, ast.List)):
        for element in node.elts:
            check_reachable(element.value if isinstance(element, ast.Starred) else element, True, context)
    elif isinstance(node, ast.Dict):
        for value in node.values:
            check_reachable(value, True, context)
    elif isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in ("pin", "when")):
        for argument in node.args + [keyword.value for keyword in node.keywords]:
            check_reachable(argument, True, context)


def _irrefutable(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.BoolOp):
        test = any if isinstance(node.op, ast.Or) else all
        return test(_irrefutable(value) for value in node.values)
    return False

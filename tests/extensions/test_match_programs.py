"""Whole generated ``with match`` blocks against the same block as a PEP 634 ``match`` statement (hypothesis).

Each program has several cases that overlap (later cases are often variations of earlier ones), guards with
side effects, nested class/sequence/mapping patterns, classes with custom, reordered or missing
``__match_args__`` (defined in the program, so the rewrite knows them statically, and one it cannot know),
and is run on generated subjects, with the classes changed between some of them (``__match_args__``
reassigned, an attribute of a class or base set, the name ``Point`` rebound to a class whose metaclass
computes ``__match_args__``, that metaclass's answer changed). Both must return the same thing (or raise the
same exception) and call the guards in the same order with the same values. Separate tests check that the
generators produce the constructs and changes they claim to cover, in the proportions claimed.
"""
from __future__ import annotations

import collections
import itertools
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.extensions.helpers import run_extended

PRELUDE = '''
from dataclasses import dataclass

_UNSET = object()

@dataclass
class Point:
    x: object
    y: object

@dataclass
class Sub(Point):
    z: object = 0

class Box:
    __match_args__ = ("b", "a")
    def __init__(self, a, b):
        self.a, self.b = a, b
    def __repr__(self):
        return f"Box({self.a!r}, {self.b!r})"

class Slot:
    __slots__ = ("u", "v")
    __match_args__ = ("u", "v")
    def __init__(self, u, v=_UNSET):
        self.u = u
        if v is not _UNSET:
            self.v = v
    def __repr__(self):
        return f"Slot({self.u!r}, {getattr(self, 'v', '<unset>')!r})"

class Lazy:
    __match_args__ = ("w",)
    @property
    def w(self):
        raise AttributeError("computed elsewhere")
    def __repr__(self):
        return "Lazy()"

class Flipper(type):
    flipped = False
    def __getattribute__(cls, name):
        if name == "__match_args__" and Flipper.flipped:
            return ("y", "x")
        return super().__getattribute__(name)

class FlipPoint(metaclass=Flipper):  # what a change may rebind the name Point to
    __match_args__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __repr__(self):
        return f"FlipPoint({self.x!r}, {self.y!r})"

class Consts:
    K = 2

log = []

def seen(case, *values):
    log.append((case, repr(values)))
    return True
'''


@dataclass
class Ext:
    """A class the rewrite cannot see (it comes from outside the program): the general path matches it."""

    p: object
    q: object


CLASSES = {  # name -> (attribute names, positional names)
    "Point": (("x", "y"), ("x", "y")), "Sub": (("x", "y", "z"), ("x", "y", "z")), "Box": (("a", "b"), ("b", "a")),
    "Slot": (("u", "v"), ("u", "v")), "Lazy": (("w",), ("w",)), "Ext": (("p", "q"), ("p", "q")),
}
# What the generator claims to produce, with the least share of programs (out of 1) that must contain each.
CLAIMED = {
    "overlapping cases": 0.4, "guard with side effects": 0.4, "class pattern, positional": 0.3,
    "class pattern, keywords": 0.3, "custom __match_args__": 0.1, "class the rewrite cannot see": 0.08,
    "nested class pattern": 0.1, "sequence with star": 0.15, "mapping pattern": 0.25, "mapping **rest": 0.05,
    "or-pattern": 0.2, "as-pattern": 0.15, "class nested in a sequence or mapping": 0.15,
    "literal or value pattern": 0.5, "capture": 0.4, "case bodies that complete": 0.2,
}


# -- patterns ---------------------------------------------------------------------------------------------
leaf_patterns = st.one_of(
    st.tuples(st.just("lit"), st.sampled_from([0, 1, 2, "a", None, True, 2.0])),
    st.just(("wild",)), st.just(("cap",)), st.just(("cap",)), st.just(("value",)),
    st.tuples(st.just("isinstance"), st.sampled_from(["int", "str", "Point", "list"])))


def _extend(children):
    star = st.none() | st.tuples(st.integers(0, 2), st.booleans())
    seq = st.tuples(st.sampled_from(["tuple", "list"]), st.lists(children, max_size=3), star).map(
        lambda t: (t[0], t[1], None if t[2] is None else (min(t[2][0], len(t[1])), t[2][1])))
    cls = st.sampled_from(sorted(CLASSES)).flatmap(lambda name: st.tuples(
        st.just("cls"), st.just(name),
        st.lists(children, max_size=len(CLASSES[name][1]) + (name == "Point")),
        st.lists(st.tuples(st.sampled_from(CLASSES[name][0] + ("nope",)), children), max_size=2,
                 unique_by=lambda kv: kv[0])))
    mapping = st.tuples(st.just("map"), st.lists(st.tuples(st.sampled_from(["a", "b", 1]), children), max_size=2,
                                                 unique_by=lambda kv: kv[0]), st.booleans())
    alternatives = st.tuples(st.just("or"), st.lists(st.recursive(closed_leaves, _extend_closed, max_leaves=3),
                                                     min_size=2, max_size=3))
    return st.one_of(seq, cls, cls, mapping, alternatives, alternatives, st.tuples(st.just("as"), children))


# or-alternatives bind no names (CPython requires every alternative to bind the same ones)
closed_leaves = leaf_patterns.filter(lambda leaf: leaf[0] != "cap")


def _extend_closed(children):
    return st.one_of(
        st.tuples(st.sampled_from(["tuple", "list"]), st.lists(children, max_size=2), st.just(None)),
        st.sampled_from(sorted(CLASSES)).flatmap(lambda name: st.tuples(
            st.just("cls"), st.just(name), st.lists(children, max_size=len(CLASSES[name][1])), st.just([]))),
        st.tuples(st.just("map"), st.lists(st.tuples(st.sampled_from(["a", "b"]), children), max_size=2,
                                           unique_by=lambda kv: kv[0]), st.just(False)))


patterns = st.recursive(leaf_patterns, _extend, max_leaves=6).filter(
    lambda p: p[0] not in ("cap", "wild") and not (p[0] == "as" and p[1][0] in ("cap", "wild")))


def _subtrees(tree):
    """Every sub-pattern of ``tree`` with a function that rebuilds ``tree`` with it replaced."""
    yield tree, lambda new: new
    kind = tree[0]
    if kind in ("tuple", "list"):
        for i, item in enumerate(tree[1]):
            for sub, rebuild in _subtrees(item):
                yield sub, (lambda new, i=i, rebuild=rebuild:
                            (kind, tree[1][:i] + [rebuild(new)] + tree[1][i + 1:], tree[2]))
    elif kind == "cls":
        for i, item in enumerate(tree[2]):
            for sub, rebuild in _subtrees(item):
                yield sub, (lambda new, i=i, rebuild=rebuild:
                            ("cls", tree[1], tree[2][:i] + [rebuild(new)] + tree[2][i + 1:], tree[3]))
    elif kind == "map":
        for i, (key, item) in enumerate(tree[1]):
            for sub, rebuild in _subtrees(item):
                yield sub, (lambda new, i=i, key=key, rebuild=rebuild:
                            ("map", tree[1][:i] + [(key, rebuild(new))] + tree[1][i + 1:], tree[2]))
    elif kind == "as":
        for sub, rebuild in _subtrees(tree[1]):
            yield sub, (lambda new, rebuild=rebuild: ("as", rebuild(new)))


@st.composite
def case_patterns(draw, earlier):
    """A new pattern, or (overlapping) a variation of an earlier case's: one sub-pattern replaced."""
    if earlier and draw(st.integers(0, 2)):
        base = draw(st.sampled_from(earlier))
        sites = list(_subtrees(base))
        index = draw(st.integers(0, len(sites) - 1))
        replacement = patterns if index == 0 else leaf_patterns | patterns  # a case stays refutable
        return sites[index][1](draw(replacement)), True
    return draw(patterns), False


@st.composite
def programs(draw):
    """(cases, whether some overlap, whether case bodies return or complete and fall out of the match)."""
    completing = draw(st.integers(0, 2)) == 1
    cases, overlapping = [], False
    for _ in range(draw(st.integers(2, 5))):
        pattern, varied = draw(case_patterns([c[0] for c in cases]))
        overlapping |= varied
        guard = draw(st.none() | st.sampled_from(["True", "False", "first == 1", "first is not None"]))
        cases.append((pattern, guard))
    return cases, overlapping, completing


def render(tree, names, pep: bool) -> str:
    """A pattern in moshjit's syntax or as a PEP 634 pattern."""
    kind = tree[0]
    sub = lambda t: render(t, names, pep)  # noqa: E731
    if kind == "lit":
        return repr(tree[1])
    if kind == "wild":
        return "_"
    if kind == "cap":
        return next(names)
    if kind == "value":
        return "Consts.K"
    if kind == "isinstance":
        return f"{tree[1]}()" if pep else f"isinstance({tree[1]})"
    if kind in ("tuple", "list"):
        items = [sub(t) for t in tree[1]]
        if tree[2] is not None:
            items.insert(tree[2][0], "*" + ("_" if tree[2][1] else next(names)))
        text = ", ".join(items)
        return f"({text}{',' if len(items) == 1 else ''})" if kind == "tuple" else f"[{text}]"
    if kind == "cls":
        arguments = [sub(t) for t in tree[2]] + [f"{key}={sub(t)}" for key, t in tree[3]]
        return f"{tree[1]}({', '.join(arguments)})"
    if kind == "map":
        entries = [f"{key!r}: {sub(t)}" for key, t in tree[1]]
        if tree[2]:
            entries.append("**" + next(names))
        return "{" + ", ".join(entries) + "}"
    if kind == "or":
        return "(" + (" | " if pep else " or ").join(sub(t) for t in tree[1]) + ")"
    if kind == "as":
        inner, name = sub(tree[1]), next(names)
        return f"({inner} as {name})" if pep else f"({inner} and {name})"
    raise AssertionError(kind)


def constructs(program) -> set[str]:
    """The constructs a generated program contains (for the distribution check)."""
    cases, overlapping, completing = program
    found = {"overlapping cases"} if overlapping else set()
    if completing:
        found.add("case bodies that complete")
    if any(guard is not None for _, guard in cases):
        found.add("guard with side effects")

    def walk(tree, inside_container):
        kind = tree[0]
        if kind in ("lit", "value"):
            found.add("literal or value pattern")
        elif kind == "cap":
            found.add("capture")
        elif kind in ("tuple", "list"):
            if tree[2] is not None:
                found.add("sequence with star")
                if not tree[2][1]:
                    found.add("capture")
            for item in tree[1]:
                walk(item, True)
        elif kind == "map":
            found.add("mapping pattern")
            if tree[2]:
                found.add("mapping **rest")
            for _, item in tree[1]:
                walk(item, True)
        elif kind == "cls":
            found.add("class pattern, positional" if tree[2] else "class pattern, keywords")
            if tree[3]:
                found.add("class pattern, keywords")
            if tree[1] in ("Box", "Slot", "Lazy"):
                found.add("custom __match_args__")
            if tree[1] == "Ext":
                found.add("class the rewrite cannot see")
            if inside_container:
                found.add("class nested in a sequence or mapping")
            for item in tree[2] + [t for _, t in tree[3]]:
                if item[0] == "cls":
                    found.add("nested class pattern")
                walk(item, True)
        elif kind == "or":
            found.add("or-pattern")
            for item in tree[1]:
                walk(item, inside_container)
        elif kind == "as":
            found.add("as-pattern")
            walk(tree[1], inside_container)

    for pattern, _ in cases:
        walk(pattern, False)
    return found


def source_of(program) -> tuple[str, list[str]] | None:
    """The program as a ``with match`` function ``ours`` and a ``match`` function ``theirs``; None when
    CPython rejects a pattern (irrefutable case not last, names bound differently in an or-pattern...)."""
    cases, _, completing = program
    ours, theirs = [], []
    for index, (pattern, guard) in enumerate(cases):
        names = [f"n{i}" for i in range(20)]
        ours_text = render(pattern, iter(names), pep=False)
        pep_text = render(pattern, iter(names), pep=True)
        bound = [name for name in names if name in pep_text.replace("nope", "")]
        result = "(" + "".join(f"{name}, " for name in bound) + ")"
        condition = None
        if guard is not None:
            first = bound[0] if bound else "None"
            condition = f"seen({index}, {', '.join(bound + [''])}) and ({guard.replace('first', first)})"
        body = f"result = ({index}, {result})" if completing else f"return ({index}, {result})"
        ours.append(f"        if {ours_text}{f' and when({condition})' if condition else ''}:\n"
                    f"            {body}")
        theirs.append(f"        case {pep_text}{f' if {condition}' if condition else ''}:\n"
                      f"            {body}")
    last = "result = 'no case'" if completing else "return 'no case'"
    after = "    return result\n" if completing else ""
    source = (PRELUDE + "\ndef ours(s):\n    with match(s):\n" + "\n".join(ours)
              + f"\n        if _:\n            {last}\n" + after
              + "\ndef theirs(s):\n    match s:\n" + "\n".join(theirs)
              + f"\n        case _:\n            {last}\n" + after)
    try:
        compile(source, "<program>", "exec")
    except SyntaxError:
        return None
    return source


# -- changes to the classes between matches ----------------------------------------------------------------
CHANGES = {  # what the guard of loads by name (runtime.ArgsSite) must notice at the next match
    "Point's __match_args__ reordered": lambda ns: setattr(ns["Point"], "__match_args__", ("y", "x")),
    "Point's __match_args__ restored": lambda ns: setattr(ns["Point"], "__match_args__", ("x", "y")),
    "Point's __match_args__ a list": lambda ns: setattr(ns["Point"], "__match_args__", ["x", "y"]),
    "Box's __match_args__ shortened": lambda ns: setattr(ns["Box"], "__match_args__", ("b",)),
    "an attribute of a base set": lambda ns: setattr(ns["Point"], "touched", object()),
    "Point rebound to a class with a metaclass": lambda ns: ns.__setitem__("Point", ns["FlipPoint"]),
    "the metaclass's answer flipped": lambda ns: setattr(ns["Flipper"], "flipped", not ns["Flipper"].flipped),
}
class_changes = st.lists(st.none() | st.sampled_from(sorted(CHANGES)), min_size=1, max_size=5)


# -- subjects ---------------------------------------------------------------------------------------------
subject_recipes = st.recursive(
    st.sampled_from([0, 1, 2, -1, "a", "ab", None, True, False, 2.0, b"a"]).map(lambda v: ("v", v)),
    lambda children: st.one_of(
        st.lists(children, max_size=4).map(lambda items: ("list", items)),
        st.lists(children, max_size=4).map(lambda items: ("tuple", items)),
        st.lists(children, max_size=3).map(lambda items: ("deque", items)),
        st.dictionaries(st.sampled_from(["a", "b", "c", 1]), children, max_size=3).map(lambda d: ("dict", d)),
        st.tuples(st.sampled_from(["Point", "Box", "Ext"]), children, children).map(lambda t: ("new", *t)),
        st.tuples(st.just("Sub"), children, children, children).map(lambda t: ("new", *t)),
        st.tuples(st.just("Slot"), children, st.none() | children).map(lambda t: ("slot", t[1], t[2])),
        st.just(("new", "Lazy"))),
    max_leaves=8)


def matching_recipe(tree):
    """A strategy for subjects that match ``tree`` (wildcards and captures take any value)."""
    kind = tree[0]
    if kind == "lit":
        return st.just(("v", tree[1]))
    if kind in ("wild", "cap"):
        return subject_recipes
    if kind == "value":
        return st.just(("v", 2))
    if kind == "isinstance":
        return st.just({"int": ("v", 1), "str": ("v", "a"), "list": ("list", []),
                        "Point": ("new", "Point", ("v", 0), ("v", 0))}[tree[1]])
    if kind in ("tuple", "list"):
        items = [matching_recipe(t) for t in tree[1]]
        if tree[2] is not None:
            extra = st.lists(subject_recipes, max_size=2)
            items = st.tuples(st.tuples(*items), extra).map(
                lambda t, at=tree[2][0]: list(t[0][:at]) + t[1] + list(t[0][at:]))
        else:
            items = st.tuples(*items).map(list)
        return st.tuples(st.sampled_from(["list", "tuple", "deque"]), items)
    if kind == "map":
        keys = [key for key, _ in tree[1]]
        values = st.tuples(*[matching_recipe(t) for _, t in tree[1]])
        extra = st.dictionaries(st.sampled_from(["c", 2]), subject_recipes, max_size=1)
        return st.tuples(values, extra).map(lambda t: ("dict", {**t[1], **dict(zip(keys, t[0]))}))
    if kind == "or":
        return st.one_of([matching_recipe(t) for t in tree[1]])
    if kind == "as":
        return matching_recipe(tree[1])
    name, positional, keywords = tree[1], tree[2], dict(tree[3])
    attributes, match_args = CLASSES[name]
    wanted = dict(zip(match_args, positional))
    wanted.update({key: t for key, t in keywords.items() if key in attributes})
    values = st.tuples(*[matching_recipe(wanted[a]) if a in wanted else subject_recipes for a in attributes])
    if name == "Slot":
        return values.map(lambda v: ("slot", v[0], v[1]))
    if name == "Lazy":
        return st.just(("new", "Lazy"))
    return values.map(lambda v, name=name: ("new", name, *v))


@st.composite
def subjects_for(draw, program):
    """Subjects made to match one of the program's cases (so later, overlapping cases and guards get
    exercised), and arbitrary ones."""
    cases = program[0]
    recipes = []
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            recipes.append(draw(subject_recipes))
        else:
            recipes.append(draw(matching_recipe(draw(st.sampled_from(cases))[0])))
    return recipes


def build(recipe, namespace):
    kind = recipe[0]
    if kind == "v":
        return recipe[1]
    if kind == "list":
        return [build(item, namespace) for item in recipe[1]]
    if kind == "tuple":
        return tuple(build(item, namespace) for item in recipe[1])
    if kind == "deque":
        return collections.deque(build(item, namespace) for item in recipe[1])
    if kind == "dict":
        return {key: build(item, namespace) for key, item in recipe[1].items()}
    if kind == "slot":
        args = [build(recipe[1], namespace)] + ([] if recipe[2] is None else [build(recipe[2], namespace)])
        return namespace["Slot"](*args)
    return namespace[recipe[1]](*(build(item, namespace) for item in recipe[2:]))


def outcome(fn, subject, log):
    del log[:]
    try:
        result = fn(subject)
    except Exception as error:  # the comparison covers exceptions too
        result = ("raised", type(error).__name__, str(error))
    return result, list(log)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_generated_programs_agree_with_cpythons_match(data):
    program = data.draw(programs())
    recipes = data.draw(subjects_for(program))
    changes = data.draw(class_changes)
    source = source_of(program)
    if source is None:
        return
    namespace = run_extended(source, {"Ext": Ext}, active={"pattern-matching": {}}, filename="<program>")
    for index, recipe in enumerate(recipes):
        # twice (a guard admits a class at its second read), then once more after the change, if any
        for repeat in range(3):
            change = changes[index % len(changes)]
            if repeat == 2:
                if change is None:
                    break
                CHANGES[change](namespace)
            subject = build(recipe, namespace)
            ours = outcome(namespace["ours"], subject, namespace["log"])
            theirs = outcome(namespace["theirs"], subject, namespace["log"])
            assert ours == theirs, (source, subject, change if repeat == 2 else None)


def test_the_generator_covers_what_it_claims():
    seen: collections.Counter[str] = collections.Counter()
    count = itertools.count(1)
    total = 0

    @settings(max_examples=120, database=None, derandomize=True)
    @given(program=programs())
    def sample(program):
        nonlocal total
        total = next(count)
        seen.update(constructs(program))

    sample()
    shares = {claim: seen[claim] / total for claim in CLAIMED}
    assert {claim: share for claim, share in shares.items() if share < CLAIMED[claim]} == {}, shares


def test_the_class_changes_cover_what_they_claim():
    """Most runs change a class between matches (at least 60%), and every kind of change is drawn."""
    runs = []

    @settings(max_examples=120, database=None, derandomize=True)
    @given(changes=class_changes)
    def sample(changes):
        runs.append(changes)

    sample()
    assert sum(any(runs_changes) for runs_changes in runs) / len(runs) >= 0.6
    assert {change for changes in runs for change in changes} - {None} == set(CHANGES)


@pytest.mark.parametrize("pattern, names, subject, expected", [
    ("Sub(a, b, c)", "a b c", "Sub(1, 2, 3)", (1, 2, 3)),
    ("Box(first, second)", "first second", "Box(1, 2)", (2, 1)),
    ("Slot(u, v)", "u v", "Slot(1)", None),
    ("Lazy(w)", "w", "Lazy()", None),
    ("Point(a, b, c)", "a b c", "Point(1, 2)", ("raised", "TypeError",
                                               "Point() accepts 2 positional sub-patterns (3 given)")),
])
def test_static_classes_of_the_program(pattern, names, subject, expected):
    """Classes defined in the program: guarded attribute loads by name, and CPython's results and errors."""
    ours_text = pep_text = pattern
    result = "(" + "".join(f"{n}, " for n in names.split()) + ")"
    source = PRELUDE + f"""
def ours(s):
    with match(s):
        if {ours_text}:
            return {result}
        if _:
            return None

def theirs(s):
    match s:
        case {pep_text}:
            return {result}
        case _:
            return None
"""
    namespace = run_extended(source, {}, active={"pattern-matching": {}})
    value = eval(subject, namespace)
    ours, theirs = (outcome(namespace[f], value, namespace["log"])[0] for f in ("ours", "theirs"))
    assert ours == theirs == expected

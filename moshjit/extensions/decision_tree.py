"""Rows of steps → a decision tree: each test done at most once on a path, cases in PEP 634's order.

The tree always continues with the first case still possible (``rows[0]``) and performs its next step not
yet known on this path: so every test made is one CPython's ``match`` makes for that case, in the same
order, minus repeats (a result already known is reused, and cases it rules out are dropped). Guards run
in case order, once each. At a test, the cases that need it (a leading run ``G`` of the rows) go under it;
the others (``tail``) either follow after it (a *join*: when ``G`` fails, control falls through to the
tail, as in a hand-written ``if`` chain) or are copied into both branches (a *split*) — the split only
when the tail would repeat a test or fetch made under ``G``, and while the tree stays within a size budget
(a join never duplicates a case). See docs/extensions.md, "How a match is compiled".
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from moshjit.extensions import patterns as P


class Facts:
    """What is known on one path: values fetched, test outcomes, fetches that failed, lengths."""

    __slots__ = ("done", "tests", "missing", "lengths", "singletons")

    def __init__(self):
        self.done: set = set()
        self.tests: dict = {}
        self.missing: set = set()
        self.lengths: dict = {}  # occurrence -> (lowest, highest or None, excluded lengths)
        self.singletons: dict = {}  # occurrence -> None/True/False it is known to be

    def copy(self) -> "Facts":
        other = Facts.__new__(Facts)
        other.done, other.tests, other.missing = set(self.done), dict(self.tests), set(self.missing)
        other.lengths, other.singletons = dict(self.lengths), dict(self.singletons)
        return other

    # -- what a test's outcome is known to be ---------------------------------------------------------
    def known(self, step: P.Step) -> bool | None:
        if step.key in self.tests:
            return self.tests[step.key]
        if isinstance(step, P.LengthIs):
            return self._length_known(step)
        if isinstance(step, P.IsSingleton) and step.occ in self.singletons:
            return self.singletons[step.occ] is step.value
        if isinstance(step, P.Equals) and step.occ in self.singletons and isinstance(step.value, ast.Constant):
            # None/True/False compare with int/float/complex/str/bytes literals without calling user code
            return self.singletons[step.occ] == step.value.value
        if isinstance(step, (P.IsSequence, P.IsMapping, P.IsExactDict)) and step.occ in self.singletons:
            return False
        if isinstance(step, P.IsMapping) and self.tests.get(("dict", step.occ)):
            return True
        if isinstance(step, P.AnyOf):
            outcomes = [self._all_known(alternative) for alternative in step.alternatives]
            if any(outcome is True for outcome in outcomes):
                return True if all(o is not None for o in outcomes[:outcomes.index(True)]) else None
            return False if all(outcome is False for outcome in outcomes) else None
        return None

    def _all_known(self, tests: list[P.Step]) -> bool | None:
        for test in tests:
            outcome = self.known(test)
            if outcome is not True:
                return outcome
        return True

    def _length_known(self, step: P.LengthIs) -> bool | None:
        low, high, excluded = self.lengths.get(step.occ, (0, None, frozenset()))
        if step.at_least:
            if low >= step.count:
                return True
            return False if high is not None and high < step.count else None
        if step.count < low or (high is not None and step.count > high) or step.count in excluded:
            return False
        return True if low == high == step.count else None

    def with_outcome(self, step: P.Step, outcome: bool) -> "Facts":
        """These facts plus ``step``'s outcome (a test's truth, or whether a fetch found its value)."""
        facts = self.copy()
        if step.kind == "fetch":
            if outcome:
                facts.done.add(step.key)
                facts.done.update(step.provides)
            else:
                facts.missing.add(step.key)
            return facts
        if step.kind == "or":
            facts.tests[step.key] = outcome
            if outcome:
                facts.done.update(step.bound.values())
            return facts
        facts.tests[step.key] = outcome
        if isinstance(step, P.LengthIs):
            facts._learn_length(step, outcome)
        elif isinstance(step, P.IsSingleton) and outcome:
            facts.singletons[step.occ] = step.value
        return facts

    def _learn_length(self, step: P.LengthIs, outcome: bool) -> None:
        low, high, excluded = self.lengths.get(step.occ, (0, None, frozenset()))
        if step.at_least:
            if outcome:
                low = max(low, step.count)
            else:
                high = step.count - 1 if high is None else min(high, step.count - 1)
        elif outcome:
            low = high = step.count
        else:
            excluded = excluded | {step.count}
        while low in excluded:
            low += 1
        self.lengths[step.occ] = (low, high, excluded)

    def cheaper(self, action: P.Step) -> P.Step:
        """The action, or one to the same effect from values already read, when the sequence's length is
        known exactly and its items were unpacked already (an item counted from the end, a star unpacking)."""
        if isinstance(action, P.Item) and action.key[0] == "item_end" or isinstance(action, P.UnpackStar):
            occ = action.occ if isinstance(action, P.UnpackStar) else action.key[1]
            low, high, _ = self.lengths.get(occ, (0, None, frozenset()))
            if low == high:
                if isinstance(action, P.Item):
                    existing = ("item", occ, low - action.key[2])
                    if existing in self.done:
                        return P.Alias(action.key, existing)
                elif all(("iter", occ, i) in self.done for i in range(low)):
                    return P.StarFromItems(action, low)
        return action

    def after(self, action: P.Step) -> "Facts":
        facts = self.copy()
        facts.done.add(action.key)
        facts.done.update(action.provides)
        return facts


# -- the tree ---------------------------------------------------------------------------------------------
class Node:
    """A node of a decision tree: ``Fail``, ``Leaf``/``OrLeaf`` (a case body), ``Do`` (a step), ``If`` (a test and
    its two subtrees) or ``Join``."""


class Fail(Node):
    """No case of this region matched: continue after the enclosing join, or raise MatchError."""

    def __repr__(self):
        return "Fail"


FAIL = Fail()


@dataclass(eq=False)
class Leaf(Node):
    """Case ``row`` matched: bind ``binds`` (name → key of its value) and run the case's body."""

    row: P.Row
    binds: dict


@dataclass(eq=False)
class Do(Node):
    """Perform an action (a fetch that cannot mean "no match"), then continue."""

    step: P.Step
    next: Node


@dataclass(eq=False)
class If(Node):
    """A test, guard, fallible fetch or or-block, and where to continue on each outcome."""

    step: P.Step
    yes: Node
    no: Node
    renames: dict = field(default_factory=dict)  # guards: captured name → key of its value
    inner: Node | None = None  # or-blocks: the tree trying the alternatives


@dataclass(eq=False)
class Join(Node):
    """Run ``first``; if no case in it matched, run ``then``."""

    first: Node
    then: Node


@dataclass(eq=False)
class OrLeaf(Node):
    """An alternative of or-block ``block`` matched: store its bindings in the block's temporaries."""

    block: P.OrBlock
    binds: dict


class TooLarge(Exception):
    """The split tree outgrew its budget; the builder starts again with joins only."""


def build(rows: list[P.Row], facts: Facts, budget: int, exact: dict | None = None) -> Node:
    """The decision tree for ``rows``: splits where they save repeated tests, within ``budget`` nodes.
    ``exact`` (class key → guessed ``__match_args__``) names the classes whose guarded class patterns start
    with an ``ExactClass`` test (see ``_Builder.exact_class``); it is dropped if the tree outgrows the budget."""
    for classes in ([exact] if exact else []) + [None]:
        try:
            return _Builder(budget, split=True, exact=classes).build(rows, facts)
        except TooLarge:
            continue
    return _Builder(None, split=False).build(rows, facts)


class _Builder:
    def __init__(self, budget: int | None, split: bool, exact: dict | None = None):
        self.budget = budget
        self.split = split
        self.exact = exact or {}
        self.nodes = 0

    def count(self, node: Node) -> Node:
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise TooLarge
        return node

    def build(self, rows: list[P.Row], facts: Facts, cold: bool = False) -> Node:
        """The tree for ``rows``; a ``cold`` region (a rare outcome) is built with joins only, to stay small."""
        if cold and self.split:
            self.split = False
            try:
                return self.build(rows, facts)
            finally:
                self.split = True
        rows = [row for row in rows if possible(row.steps, facts)]
        if not rows:
            return FAIL
        first = rows[0]
        step = pending(first.steps, facts)
        if step is None:
            return self.count(self.leaf(first, facts))
        if step.kind == "action":
            return self.count(Do(facts.cheaper(step), self.build(rows, facts.after(step))))
        if self.split and isinstance(step, P.IsInstance) and step.cls in self.exact:
            guarded = self.exact_class(rows, step, facts)
            if guarded is not None:
                return guarded
        if not self.split and isinstance(step, P.ArgsGuard):  # in a cold region the general path will do
            return self.build(rows, facts.with_outcome(step, False))
        yes_facts, no_facts = facts.with_outcome(step, True), facts.with_outcome(step, False)
        inner = self.or_tree(step, bindings(first, facts, stop=step.key), facts) if step.kind == "or" else None
        renames = bindings(first, facts, stop=step.key) if step.kind == "guard" else {}
        needing = 1  # the leading cases that need this step (their other tests may depend on it)
        while needing < len(rows) and (step.key in all_keys(rows[needing])
                                       or not possible(rows[needing].steps, no_facts)):
            needing += 1
        group, tail = rows[:needing], rows[needing:]
        group_yes = [row for row in group if possible(row.steps, yes_facts)]
        group_no = [row for row in group if possible(row.steps, no_facts)]
        tail_yes = [row for row in tail if possible(row.steps, yes_facts)]
        tail_no = [row for row in tail if possible(row.steps, no_facts)]
        cold = _cold_when_false(step)
        if tail and self.split and not independent(group, tail, facts):  # split: the tail under both outcomes
            return self.count(If(step, self.build(group_yes + tail_yes, yes_facts),
                                 self.build(group_no + tail_no, no_facts, cold), renames, inner))
        under_yes, under_no = self.build(group_yes, yes_facts), self.build(group_no, no_facts, cold)
        if not tail or not (can_fail(under_yes) or can_fail(under_no)):
            return self.count(If(step, under_yes, under_no, renames, inner))
        if not can_fail(under_no):
            return self.count(If(step, self.build(group_yes + tail_yes, yes_facts), under_no, renames, inner))
        if not can_fail(under_yes):
            return self.count(If(step, under_yes, self.build(group_no + tail_no, no_facts, cold), renames, inner))
        # join: when the group fails (on either outcome), fall through to the tail
        return self.count(Join(self.count(If(step, under_yes, under_no, renames, inner)), self.build(tail, facts)))

    def exact_class(self, rows: list[P.Row], step: P.IsInstance, facts: Facts) -> Node | None:
        """``occ in guard`` before ``isinstance(occ, C)`` when the first case checks C's guard right after it:
        on success both outcomes are known (the tree below makes neither test), else the tests are made as
        usual. The guard's check reads nothing (``runtime.ClassGuard``), and it is made where the ``isinstance``
        would be, which runs no code for an exact type, with the guard's own test next."""
        test = P.ExactClass(step.occ, step.cls, self.exact[step.cls])
        if test.key in facts.tests or step.key not in guarded_instance_tests(rows[0]):
            return None
        yes = facts.with_outcome(test, True)
        yes.tests[step.key] = True
        yes.tests[P.ArgsGuard(step.cls, test.guess).key] = True
        return self.count(If(test, self.build(rows, yes), self.build(rows, facts.with_outcome(test, False))))

    def leaf(self, row: P.Row, facts: Facts) -> Node:
        if isinstance(row.node, P.OrBlock):
            return OrLeaf(row.node, bindings(row, facts, only_own=True))
        return Leaf(row, bindings(row, facts))

    def or_tree(self, block: P.OrBlock, outer: dict, facts: Facts) -> Node:
        rows = [P.Row(i, steps, block, outer=outer) for i, steps in enumerate(block.alternatives)]
        return self.build(rows, facts)


def _cold_when_false(step: P.Step) -> bool:
    """Outcomes that are rare by design: a wrong guess of ``__match_args__``, a missing attribute, a mapping
    that is not a dict."""
    return isinstance(step, (P.ArgsGuard, P.Attrs, P.IsExactDict))


def bindings(row: P.Row, facts: Facts, stop=None, only_own: bool = False) -> dict:
    """Name → key of its value, for the names ``row`` binds on this path (following the arm each of its
    branches took), up to the step keyed ``stop`` if given. Names bound before an or-block are included
    unless ``only_own``."""
    found = {} if only_own else dict(row.outer)
    _collect(row.steps, facts, stop, found)
    return found


def _collect(steps: list[P.Step], facts: Facts, stop, found: dict) -> bool:
    for step in steps:
        if stop is not None and step.key == stop:
            return True
        if step.kind == "bind":
            found[step.name] = step.occ
        elif step.kind == "branch":
            outcome = facts.known(step.test)
            return outcome is None or _collect(step.then if outcome else step.otherwise, facts, stop, found)
    return False


def guarded_instance_tests(row: P.Row) -> set:
    """The keys of the row's ``IsInstance`` tests followed at once by their class's ``ArgsGuard`` (cached)."""
    keys = getattr(row, "_guarded_instance_tests", None)
    if keys is None:
        keys = row._guarded_instance_tests = set()
        lists = [row.steps]
        while lists:
            steps = lists.pop()
            for step, following in zip(steps, steps[1:]):
                if isinstance(step, P.IsInstance) and isinstance(following, P.Branch) and isinstance(
                        following.test, P.ArgsGuard) and following.test.cls == step.cls:
                    keys.add(step.key)
            for step in steps:
                if isinstance(step, P.Branch):
                    lists += [step.then, step.otherwise]
                elif isinstance(step, P.OrBlock):
                    lists += step.alternatives
    return keys


def all_keys(row: P.Row) -> set:
    """The keys of every test and fallible fetch of a row, whatever the path (cached on the row)."""
    keys = getattr(row, "_all_keys", None)
    if keys is None:
        keys = row._all_keys = _keys(row.steps, Facts())
    return keys


def pending(steps: list[P.Step], facts: Facts) -> P.Step | None:
    """The first step of a row not yet done or known on this path (None: the row has matched)."""
    for step in steps:
        if step.kind == "bind":
            continue
        if step.kind == "branch":
            outcome = facts.known(step.test)
            if outcome is None:
                return step.test
            return pending(step.then if outcome else step.otherwise, facts)
        if step.kind in ("action", "fetch"):
            if step.key not in facts.done and not (step.provides and all(p in facts.done for p in step.provides)):
                return step
        elif step.kind in ("test", "or"):
            if facts.known(step) is None:
                return step
        elif facts.known(step) is None:  # a guard: known only once made on this path
            return step
    return None


def possible(steps: list[P.Step], facts: Facts) -> bool:
    """False when a test of the row is known to fail or one of its fetches is known to find nothing.
    Looks past steps not yet made, but not past a guard or an or-block: those run in order, as written."""
    for step in steps:
        if step.kind == "branch":
            outcome = facts.known(step.test)
            if outcome is None:
                return True
            return possible(step.then if outcome else step.otherwise, facts)
        if step.kind == "fetch" and step.key in facts.missing:
            return False
        if step.kind in ("test", "or", "guard") and facts.known(step) is False:
            return False
        if step.kind in ("guard", "or") and facts.known(step) is not True:
            return True
    return True


def can_fail(node: Node) -> bool:
    """Whether control can leave ``node`` without any case matched."""
    if isinstance(node, Fail):
        return True
    if isinstance(node, (Leaf, OrLeaf)):
        return False
    if isinstance(node, Do):
        return can_fail(node.next)
    if isinstance(node, If):
        return can_fail(node.yes) or can_fail(node.no)
    return can_fail(node.then)


def independent(group: list[P.Row], tail: list[P.Row], facts: Facts) -> bool:
    """True when no case of ``tail`` makes a test or fallible fetch of the subject's values that a case of
    ``group`` may make and then still fail (counting tests of one length as shared): joining them then
    repeats nothing that matters. Actions (``type``, ``len``, items), what is
    read from the classes (``__match_args__`` and its guard) and a case's trailing fetches (after which only
    a missing value can fail it) do not count: on the rare path that falls from the group into the tail
    they are simply done again."""
    made = set()
    for row in group:
        made |= _keys(row.steps, facts) - _trailing_fetches(row.steps, facts)
    return not any(made & _keys(row.steps, facts) for row in tail)


def _trailing_fetches(steps: list[P.Step], facts: Facts) -> set:
    trailing = set()
    for step in reversed(steps):
        if step.kind == "fetch" and isinstance(step, (P.Attrs, P.KeyGet)) or isinstance(step, P.HasKey):
            trailing.add(step.key)
        elif step.kind == "branch":
            outcome = facts.known(step.test)
            if outcome is None:
                trailing |= _trailing_fetches(step.then, facts) & _trailing_fetches(step.otherwise, facts)
            else:
                trailing |= _trailing_fetches(step.then if outcome else step.otherwise, facts)
            break
        elif step.kind not in ("bind", "action"):
            break
    return trailing


_CLASS_LEVEL = (P.ArgsGuard, P.KindIsClass)


def _keys(steps: list[P.Step], facts: Facts) -> set:
    keys = set()
    for step in steps:
        if step.kind == "branch":
            outcome = facts.known(step.test)
            if outcome is None:
                keys |= _keys([step.test], facts) | _keys(step.then, facts) | _keys(step.otherwise, facts)
            else:
                keys |= _keys(step.then if outcome else step.otherwise, facts)
        elif step.kind == "or":
            for alternative in step.alternatives:
                keys |= _keys(alternative, facts)
        elif isinstance(step, (P.Unpack, P.UnpackStar)) and step.key not in facts.done:
            keys.add(("items", step.occ))  # reading a sequence's items again is worth a split
        elif step.kind in ("guard", "action", "bind") or isinstance(step, _CLASS_LEVEL):
            continue
        elif step.key not in facts.done and step.key not in facts.tests and not (
                step.provides and all(p in facts.done for p in step.provides)):
            keys.update(step.provides if isinstance(step, P.Attrs) else (step.key,))
            if isinstance(step, P.LengthIs):
                keys.add(("length", step.occ))  # other length tests of it may be decided by this one
    return keys

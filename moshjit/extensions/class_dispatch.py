"""The class tests at the top of a match, answered by one lookup of the subject's type (``runtime.ClassDispatch``).

A match whose cases test the subject against several classes the rewrite knows from source (``if Num(v):``,
``if Add(l, r):``, ...) starts with ``k = dispatch[s]``: ``k`` is ``i`` when ``type(s)`` is exactly the
``i``-th class, no other class's ``isinstance`` can be true or run user code, and that class's
``__match_args__`` guard would pass without a read (see ``moshjit/runtime/moshjit_match.pyx``). For each ``i``
the decision tree is built again knowing those outcomes, so the ``i``-th tree makes no ``isinstance`` call and
no guard; ``k == 0`` runs the tree that makes every test. Nested guarded class patterns (and the subject's,
in a match without a dispatch) start with ``v in guard`` instead (``guarded``: the classes the tree builder
may test with ``runtime.ClassGuard``). See docs/extensions.md, "Fast paths".
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

from moshjit.extensions import decision_tree
from moshjit.extensions import patterns as P

MAX_CLASSES = 8             # what one runtime.ClassDispatch takes
_MAX_BODY_NODES = 2000      # each case body is emitted twice (its class's tree and the general one)


@dataclass
class DispatchedClass:
    key: tuple              # the class key of the rows' IsInstance steps
    name: str               # the module global the class is read from
    guess: tuple | None     # the guessed __match_args__ of its guarded patterns, if any


def plan(rows: list[P.Row], class_exprs: dict, dynamic: set, is_global) -> list[DispatchedClass] | None:
    """The classes to dispatch on, or None when a dispatch would not pay or could be observed. ``is_global(name)``
    says whether the name is read from the module's globals where the match runs. Matches with guards are left
    alone: a guard runs user code between cases, which CPython's later class tests would see."""
    found: dict[tuple, DispatchedClass] = {}
    guesses: dict[tuple, set] = {}
    for step in _all_steps(rows):
        if isinstance(step, P.Guard):
            return None
        if isinstance(step, P.IsInstance) and step.occ == P.SUBJECT and step.cls not in found:
            callee = class_exprs.get(step.cls)
            if step.cls in dynamic or not isinstance(callee, ast.Name) or not is_global(callee.id):
                continue
            found[step.cls] = DispatchedClass(step.cls, callee.id, None)
        elif isinstance(step, P.ArgsGuard):
            guesses.setdefault(step.cls, set()).add(step.guess)
    for key, guessed in guesses.items():
        if key in found:
            if len(guessed) > 1:
                del found[key]
            else:
                found[key].guess = next(iter(guessed))
    classes = list(found.values())[:MAX_CLASSES]
    if not classes or (len(classes) < 2 and classes[0].guess is None):
        return None  # one unguarded class: isinstance alone is as cheap as the lookup
    if sum(len(list(ast.walk(stmt))) for row in rows for stmt in row.body) > _MAX_BODY_NODES:
        return None
    return classes


def guarded(rows: list[P.Row], class_exprs: dict, dynamic: set, is_global) -> dict:
    """Class key → guessed ``__match_args__`` for the classes whose guarded patterns may start with one
    ``v in guard`` (``runtime.ClassGuard``, the tree's ``ExactClass``): module globals by plain name, one guess
    each; none when the case bodies are too large to be emitted once more under each such test."""
    guesses: dict[tuple, set] = {}
    for step in _all_steps(rows):
        if isinstance(step, P.ArgsGuard):
            guesses.setdefault(step.cls, set()).add(step.guess)
    found = {}
    for key, guessed in guesses.items():
        callee = class_exprs.get(key)
        if len(guessed) == 1 and key not in dynamic and isinstance(callee, ast.Name) and is_global(callee.id):
            found[key] = next(iter(guessed))
    if found and sum(len(list(ast.walk(stmt))) for row in rows for stmt in row.body) > _MAX_BODY_NODES:
        return {}
    return found


def facts_for(classes: list[DispatchedClass], index: int) -> decision_tree.Facts:
    """What ``dispatch[s] == index + 1`` tells: ``s`` is an instance of that class only, and its guard holds."""
    facts = decision_tree.Facts()
    for position, cls in enumerate(classes):
        facts.tests[P.IsInstance(P.SUBJECT, cls.key).key] = position == index
    chosen = classes[index]
    if chosen.guess is not None:
        facts.tests[P.ArgsGuard(chosen.key, chosen.guess).key] = True
    return facts


def _all_steps(rows: list[P.Row]):
    """Every step of the rows, arms and alternatives included, in case order."""
    for row in rows:
        yield from _steps(row.steps)


def _steps(steps: list[P.Step]):
    for step in steps:
        yield step
        if isinstance(step, P.Branch):
            yield step.test
            yield from _steps(step.then)
            yield from _steps(step.otherwise)
        elif isinstance(step, P.OrBlock):
            for alternative in step.alternatives:
                yield from _steps(alternative)


def bound_in(function: ast.AST, name: str) -> bool:
    """Whether ``name`` is bound anywhere in ``function`` (parameters, assignments, imports, nested defs,
    ``global``/``nonlocal``): then it may not be the module global, and the match is not dispatched."""
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, ast.arg) and node.arg == name:
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name \
                and node is not function:
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                (alias.asname or alias.name.partition(".")[0]) == name for alias in node.names):
            return True
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return True
        if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name == name:
            return True
        if isinstance(node, ast.MatchMapping) and node.rest == name:
            return True
        if isinstance(node, ast.ExceptHandler) and node.name == name:
            return True
    return False

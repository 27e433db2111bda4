"""Dominators, dominance frontiers, the loop forest and the loop-contiguous order, on hand-drawn graphs and on
random graphs checked against naive definitions."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from moshjit.analysis.dominators import DominatorTree, reverse_postorder
from moshjit.analysis.loops import LoopForest
from moshjit.analysis.reachable import reachable_from


def graph(edges: dict) -> callable:
    return lambda node: edges.get(node, [])


DIAMOND = {"entry": ["left", "right"], "left": ["join"], "right": ["join"], "join": []}
# entry → h1 → h2 ⇄ b2, h2 → l1 → h1 (nested loops), h1 → exit
NESTED = {"entry": ["h1"], "h1": ["h2", "exit"], "h2": ["b2", "l1"], "b2": ["h2"], "l1": ["h1"], "exit": []}
# a → b, a → c, b ⇄ c: a cycle with two entries (irreducible)
IRREDUCIBLE = {"a": ["b", "c"], "b": ["c", "d"], "c": ["b"], "d": []}


def test_reverse_postorder_visits_successors_in_order():
    assert reverse_postorder("entry", graph(DIAMOND)) == ["entry", "right", "left", "join"]
    assert reverse_postorder("x", graph({"x": ["x"]})) == ["x"]


def test_reachable_from_several_starts_through_cycles():
    assert reachable_from(["h2"], graph(NESTED)) == {"h2", "b2", "l1", "h1", "exit"}
    assert reachable_from(["left", "right"], graph(DIAMOND)) == {"left", "right", "join"}
    assert reachable_from([], graph(DIAMOND)) == set()


def test_dominators_of_a_diamond():
    tree = DominatorTree("entry", graph(DIAMOND))
    assert {n: tree.immediate_dominator(n) for n in DIAMOND} == {
        "entry": None, "left": "entry", "right": "entry", "join": "entry"}
    assert tree.dominates("entry", "join") and not tree.dominates("left", "join")
    assert tree.dominates("left", "left")
    assert tree.frontiers() == {"entry": set(), "left": {"join"}, "right": {"join"}, "join": set()}
    assert tree.preorder()[0] == "entry" and set(tree.preorder()) == set(DIAMOND)


def test_frontiers_of_nested_loops_include_their_headers():
    tree = DominatorTree("entry", graph(NESTED))
    frontiers = tree.frontiers()
    assert frontiers["b2"] == {"h2"} and frontiers["l1"] == {"h1"}
    assert frontiers["h2"] == {"h2", "h1"} and frontiers["h1"] == {"h1"}


def test_loop_forest_of_nested_loops():
    forest = LoopForest("entry", graph(NESTED))
    assert forest.reducible
    outer, inner = forest.loop_of("l1"), forest.loop_of("b2")
    assert outer.header == "h1" and outer.body == {"h1", "h2", "b2", "l1"} and outer.latches == ["l1"]
    assert inner.header == "h2" and inner.body == {"h2", "b2"} and inner.parent is outer
    assert outer.children == [inner] and forest.roots == [outer]
    assert inner.depth == 1 and outer.depth == 0
    assert forest.loop_of("exit") is None and forest.loop_of("h2") is inner
    assert outer.exits(graph(NESTED)) == ["exit"]
    order = forest.loop_contiguous_order()
    assert order[0] == "entry" and order.index("exit") > max(order.index(n) for n in outer.body)


def test_irreducible_cycle_is_reported_and_still_ordered():
    forest = LoopForest("a", graph(IRREDUCIBLE))
    assert not forest.reducible
    assert forest.irreducible_edges in ([("c", "b")], [("b", "c")])
    assert forest.loops == []
    assert sorted(forest.loop_contiguous_order()) == ["a", "b", "c", "d"]


def test_self_loop_and_two_latches():
    edges = {"e": ["h"], "h": ["h", "x", "y"], "x": ["h"], "y": []}
    forest = LoopForest("e", graph(edges))
    (loop,) = forest.loops
    assert loop.header == "h" and sorted(loop.latches) == ["h", "x"] and loop.body == {"h", "x"}


# ---- random graphs against naive definitions ----------------------------------------------------------------
@st.composite
def random_graphs(draw):
    n = draw(st.integers(1, 9))
    edges = {i: draw(st.lists(st.integers(0, n - 1), max_size=3, unique=True)) for i in range(n)}
    return edges


def naive_dominators(edges: dict, reachable: list) -> dict:
    dom = {n: set(reachable) for n in reachable}
    dom[0] = {0}
    preds = {n: [p for p in reachable if n in edges[p]] for n in reachable}
    changed = True
    while changed:
        changed = False
        for n in reachable[1:]:
            new = {n} | set.intersection(*(dom[p] for p in preds[n])) if preds[n] else {n}
            if new != dom[n]:
                dom[n], changed = new, True
    return dom


@settings(max_examples=200, deadline=None)
@given(random_graphs())
def test_dominators_and_frontiers_match_the_definitions(edges):
    succ = graph(edges)
    tree = DominatorTree(0, succ)
    reachable = tree.order
    dom = naive_dominators(edges, reachable)
    for a in reachable:
        for b in reachable:
            assert tree.dominates(a, b) == (a in dom[b])
    for n in reachable[1:]:
        strict = dom[n] - {n}
        assert tree.immediate_dominator(n) == max(strict, key=lambda d: len(dom[d]))
    frontiers = tree.frontiers()
    for n in reachable:
        expected = {y for y in reachable for p in reachable
                    if y in edges[p] and n in dom[p] and not (n in dom[y] and n != y)}
        assert frontiers[n] == expected


@settings(max_examples=200, deadline=None)
@given(random_graphs())
def test_loop_forest_and_order_match_the_definitions(edges):
    succ = graph(edges)
    forest = LoopForest(0, succ)
    tree = forest.domtree
    reachable = tree.order
    back_edges = [(n, s) for n in reachable for s in edges[n] if tree.dominates(s, n)]
    assert {lp.header for lp in forest.loops} == {s for _, s in back_edges}
    for loop in forest.loops:
        latches = [n for n, s in back_edges if s == loop.header]
        assert sorted(loop.latches) == sorted(latches)
        # natural loop: the header plus every node reaching a latch without passing the header
        body, work = {loop.header}, list(latches)
        while work:
            node = work.pop()
            if node not in body:
                body.add(node)
                work.extend(p for p in reachable if node in edges[p])
        assert loop.body == body
        if loop.parent is not None:
            assert loop.body < loop.parent.body
    for a in forest.loops:                    # natural loops are nested or disjoint
        for b in forest.loops:
            assert a is b or a.body <= b.body or b.body <= a.body or not (a.body & b.body)
    order = forest.loop_contiguous_order()
    assert sorted(order) == sorted(reachable) and order[0] == 0
    position = {n: i for i, n in enumerate(order)}
    for loop in forest.loops:
        places = sorted(position[n] for n in loop.body)
        assert places == list(range(places[0], places[0] + len(places)))
        assert position[loop.header] == places[0]
    if forest.reducible:
        for n in reachable:
            for s in edges[n]:
                if (n, s) not in back_edges:
                    assert position[n] < position[s]

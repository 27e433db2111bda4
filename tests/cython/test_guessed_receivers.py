"""Methods inlined on receivers whose class is guessed (an attribute made in ``__init__``, a constructor's result)
and subscripts inlined as ``__getitem__``/``__setitem__`` (``passes/inline.py``): differential against CPython,
compiled by Cython, also when the guess is wrong, when the class's method is replaced and when an instance
attribute named like the method exists (which the subscript's type slot ignores)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moshjit import jit
from moshjit.functions import dispatcher_behind

SOURCE = '''
class Cells:
    def __init__(self, n):
        self.items = [0] * n

    def __getitem__(self, i):
        return self.items[i]

    def __setitem__(self, i, v):
        self.items[i] = v

    def size(self):
        return len(self.items)


class Board:
    def __init__(self, n):
        self.cells = Cells(n)

    def add(self, i, v):
        cells = self.cells
        cells[i] = cells[i] + v
        return cells[i]

    def total(self, moves):
        t = 0
        for i, v in moves:
            t += self.add(i, v) * self.cells.size()
        return t


def fresh(n, moves):
    board = Board(n)
    return board.total(moves), board.cells.items
'''


def program(jitted: bool) -> dict:
    """The classes above as a module of their own (the guess reads the classes its globals name)."""
    namespace: dict = {"__name__": "guessed_receivers_program"}
    exec(compile(SOURCE, "<guessed receivers>", "exec"), namespace)
    if jitted:
        for name in ("Cells", "Board", "fresh"):
            namespace[name] = jit(namespace[name])
    return namespace


def outcome(function, *args):
    try:
        return "ok", function(*args)
    except Exception as exc:                      # noqa: BLE001 - the exception is the result compared
        return type(exc).__name__, str(exc)


MOVES = st.lists(st.tuples(st.integers(-6, 6), st.integers(-3, 3)), max_size=8)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), MOVES)
def test_guessed_receivers_and_subscripts_give_cpythons_results(n, moves):
    plain, jitted = program(False), program(True)
    assert outcome(jitted["fresh"], n, moves) == outcome(plain["fresh"], n, moves)


def test_the_compiled_code_inlines_them():
    jitted = program(True)
    jitted["fresh"](3, [(1, 2)])
    total = dispatcher_behind(vars(jitted["Board"])["total"])     # (its loop keeps it out of ``fresh``)
    text = total.inspect_types(total.signatures[0])
    assert "method_is['size'" in text and "method_is['__getitem__'" in text and "method_is['__setitem__'" in text


@pytest.mark.parametrize("change", ["other class", "instance attribute", "class method"])
def test_a_wrong_guess_or_a_changed_class_takes_the_operation_itself(change):
    results = []
    for jitted in (False, True):
        ns = program(jitted)
        board = ns["Board"](4)
        board.total([(0, 1)])                     # compiled (jitted) with the guesses of the classes as defined
        if change == "other class":
            class Twice(list):
                def size(self):
                    return 2 * len(self)
            board.cells = Twice([5, 6, 7, 8])
        elif change == "instance attribute":
            board.cells.__getitem__ = lambda i: 1000      # the type slot ignores it
            board.cells.size = lambda: 10                 # the method call does not
        else:
            ns["Cells"].__getitem__ = lambda self, i: -self.items[i]
        results.append((outcome(board.total, [(1, 2), (2, 3), (-1, 1)]), list(board.cells.items)
                        if hasattr(board.cells, "items") else list(board.cells)))
    assert results[1] == results[0]


def test_scimarks_sor_kernel_inlines_the_grids_item_methods_and_gives_cpythons_grid():
    """A real program (pyperformance's scimark, as benchmarks/general runs it): ``bench_SOR`` is handed the grid's
    class; its kernel's ``G[x, y]`` become the inlined ``Array2D.__getitem__``/``__setitem__``."""
    from benchmarks.general import run, workloads
    run.ensure_pyperf()
    workload = next(w for w in workloads.WORKLOADS if w.name == "scimark_sor")
    plain = run.load(workload.source, "test_plain")
    jitted, _ = run.moshjit_engine(workload.source)
    grids = []
    for module in (plain, jitted):
        module.bench_SOR(1, 12, 2, module.Array2D)
        grid = module.Array2D(12, 12)
        grid.data[5] = 1.0
        module.SOR_execute(1.25, grid, 3, module.Array2D)
        grids.append(list(grid.data))
    assert grids[1] == grids[0]
    bench = jitted.bench_SOR
    text = bench.inspect_types(bench.signatures[0])
    assert text.count("method_is['__getitem__'") == 5 and text.count("method_is['__setitem__'") == 1


HANDED = SOURCE + '''

class Box:
    def __init__(self, cells):
        self.cells = cells                     # from an argument: only the first call's sample names its class

    def total(self, moves):
        t = 0
        for i, v in moves:
            self.cells[i] = v
            t += self.cells[i] * self.cells.size()
        return t
'''


def test_the_first_calls_sample_reaches_a_background_compile():
    """Tiered: the sample is taken at the signature's first (interpreted) call and used when the signature is
    compiled on the compile thread after it got hot; results stay CPython's all along."""
    from moshjit import background
    namespaces = []
    for jitted in (False, True):
        namespace: dict = {"__name__": "guessed_receivers_tiered"}
        exec(compile(HANDED, "<guessed receivers, tiered>", "exec"), namespace)
        if jitted:
            for name in ("Cells", "Box"):
                namespace[name] = jit(namespace[name], tier="tiered", hot_calls=5)
        namespaces.append(namespace)
    boxes = [ns["Box"](ns["Cells"](4)) for ns in namespaces]
    for step in range(30):
        moves = [(step % 4, step), (-1, 2)]
        assert boxes[1].total(moves) == boxes[0].total(moves)
        if step == 10:
            assert background.wait(120)
    assert background.wait(120)
    total = dispatcher_behind(vars(namespaces[1]["Box"])["total"])
    text = total.inspect_types(total.signatures[0])
    assert "method_is['size'" in text and "method_is['__setitem__'" in text
    assert boxes[1].cells.items == boxes[0].cells.items

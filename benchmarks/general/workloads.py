"""What the harness runs of each program in ``programs/``: the call pyperformance's runner makes, on a size that
takes CPython ~0.1–0.5 s, returning something to compare across engines.

Each workload takes the program's module (loaded once per engine, so module-level state such as n-body's bodies
or richards' task table is private to the engine) and returns the observable result of one run: what the
program returns, the image or text it produces, or the state it leaves. Standard output is captured by the
harness and compared too.
"""
from __future__ import annotations

import io
import os
import tempfile
import types
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Workload:
    name: str                               # the row; program file programs/bm_<name>.py unless ``program``
    run: Callable[[types.ModuleType], object]
    setup: Callable[[types.ModuleType], None] | None = None   # once per loaded module, as the runner does
    program: str | None = None              # programs/bm_<program>.py when several rows share one program

    @property
    def source(self) -> str:
        return self.program or self.name


class _Runner:
    """Stands in for ``pyperf.Runner`` where a program's own ``main`` builds the call: records it."""

    def __init__(self):
        self.metadata = {}
        self.call = None

    def bench_func(self, name, function, *args):
        self.call = (function, args)


def richards(m):
    result = m.Richards().run(3)
    return result, m.taskWorkArea.holdCount, m.taskWorkArea.qpktCount


def raytrace(m):
    # bench_raytrace's loop body (its timing lines are the runner's glue), one loop, at 40×40
    canvas = m.Canvas(40, 40)
    s = m.Scene()
    s.addLight(m.Point(30, 30, 10))
    s.addLight(m.Point(-10, 100, 30))
    s.lookAt(m.Point(0, 3, 0))
    s.addObject(m.Sphere(m.Point(1, 3, -10), 2), m.SimpleSurface(baseColour=(1, 1, 0)))
    for y in range(6):
        s.addObject(m.Sphere(m.Point(-3 - y * 0.4, 2.3, -5), 0.4),
                    m.SimpleSurface(baseColour=(y / 6.0, 1 - y / 6.0, 0.5)))
    s.addObject(m.Halfspace(m.Point(0, 0, 0), m.Vector.UP), m.CheckerboardSurface())
    s.render(canvas)
    return bytes(canvas.bytes)


def deltablue(m):
    m.delta_blue(1000)
    return None                                  # the program checks itself and prints on failure


def go(m):
    return m.versus_cpu()


def hexiom(m):
    board, _ = m.LEVELS[25]
    outputs = []
    for _ in range(8):                           # pyperformance's loops
        stream = io.StringIO()
        m.solve_file(board.strip(), m.Done.FIRST_STRATEGY, m.DESCENDING, stream)
        outputs.append(stream.getvalue())
    return outputs


def nbody_setup(m):
    m.offset_momentum(m.BODIES[m.DEFAULT_REFERENCE])


def nbody(m):
    before = m.report_energy()
    m.advance(0.01, 20000)
    return before, m.report_energy()


def float_points(m):
    return repr(m.benchmark(20000))


def chaos(m):
    runner = _Runner()
    m.main(runner, types.SimpleNamespace(thickness=m.DEFAULT_THICKNESS, width=m.DEFAULT_WIDTH,
                                         height=m.DEFAULT_HEIGHT, iterations=1000, rng_seed=m.DEFAULT_RNG_SEED,
                                         filename=None))
    function, (w, h, iterations, _, seed) = runner.call
    fd, path = tempfile.mkstemp(suffix=".ppm")
    os.close(fd)
    try:
        function(w, h, iterations, path, seed)
        with open(path, "rb") as f:
            return f.read()
    finally:
        os.unlink(path)


def fannkuch(m):
    return m.fannkuch(8)


def spectral_norm(m):
    # bench_spectral_norm's loop body, one loop, returning what it computes
    u = [1] * m.DEFAULT_N
    for dummy in range(10):
        v = m.eval_AtA_times_u(u)
        u = m.eval_AtA_times_u(v)
    vBv = vv = 0
    for ue, ve in zip(u, v):
        vBv += ue * ve
        vv += ve * ve
    return vBv, vv


def nqueens(m):
    return list(m.n_queens(8))


def scimark_sor(m):
    # bench_SOR's loop body at its default size (pyperformance: n=100, cycles=10), one loop, returning the grid
    grid = m.Array2D(100, 100)
    m.SOR_execute(1.25, grid, 10, m.Array2D)
    return list(grid.data)


def scimark_lu(m):
    # bench_LU's set-up and loop body (N=100), one cycle, returning the factors and the pivots
    a = m.Random(7).RandomMatrix(m.ArrayList(100, 100))
    lu = m.ArrayList(100, 100)
    pivot = m.array('i', [0]) * 100
    m.LU(lu, a, pivot)
    return [list(row) for row in lu.data], list(pivot)


def scimark_monte_carlo(m):
    return m.MonteCarlo(100 * 1000)


def scimark_fft(m):
    # bench_FFT's loop body (N=1024, cycles=50), one loop, returning the vector
    x = m.copy_vector(m.Random(7).RandomVector(2 * 1024))
    for _ in range(50):
        m.FFT_transform(2 * 1024, x)
        m.FFT_inverse(2 * 1024, x)
    return list(x)


def richards_super(m):
    result = m.Richards().run(3)
    return result, m.taskWorkArea.holdCount, m.taskWorkArea.qpktCount


def meteor_contest(m):
    # main()'s set-up and bench_meteor_contest's loop body, one loop, returning the solutions found
    board, cti, pieces = m.get_puzzle(m.WIDTH, m.HEIGHT)
    fps = m.get_footprints(board, cti, pieces)
    se_nh = m.get_senh(board, cti)
    free = frozenset(range(len(board)))
    solutions = []
    m.solve(m.SOLVE_ARG, 0, free, [-1] * len(board), list(range(len(pieces))), solutions, fps, se_nh)
    return solutions


def generators(m):
    # bench_generators's loop body, one loop (its tree of 100,000 values), returning what the loop saw
    return sum(m.tree(range(100000)))


def coroutines(m):
    # bench_coroutines's loop body, one loop
    coro = m.fibonacci(25)
    try:
        while True:
            coro.send(None)
    except StopIteration as done:
        return done.value


def unpack_sequence(m):
    # both of its benchmarks, 2,000 loops each (each loop unpacks 400 times); they return only their timing
    m.bench_tuple_unpacking(2000)
    m.bench_list_unpacking(2000)
    return None


WORKLOADS = [
    Workload("richards", richards),
    Workload("raytrace", raytrace),
    Workload("deltablue", deltablue),
    Workload("go", go),
    Workload("hexiom", hexiom),
    Workload("nbody", nbody, setup=nbody_setup),
    Workload("float", float_points),
    Workload("chaos", chaos),
    Workload("fannkuch", fannkuch),
    Workload("spectral_norm", spectral_norm),
    Workload("nqueens", nqueens),
    # added in stop 32, from the programs of pyperformance the set above had not taken (a first look at them,
    # benchmarks.md §9.18, found some at 1.0x or below)
    Workload("scimark_sor", scimark_sor, program="scimark"),
    Workload("scimark_lu", scimark_lu, program="scimark"),
    Workload("scimark_mc", scimark_monte_carlo, program="scimark"),
    Workload("scimark_fft", scimark_fft, program="scimark"),
    Workload("richards_super", richards_super),
    Workload("meteor_contest", meteor_contest),
    Workload("generators", generators),
    Workload("coroutines", coroutines),
    Workload("unpack_sequence", unpack_sequence),
]

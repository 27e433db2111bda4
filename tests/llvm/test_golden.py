"""Golden tests of the LLVM IR the backend emits (before optimisation) for a few small functions. The IR is
normalised (source path, target lines) so it does not depend on the machine. To accept an intended change:
MOSHJIT_UPDATE_GOLDEN=1 pytest tests/llvm/test_golden.py, on each CPython (``tests/version_golden.py``: golden/<name>.ll
is what 3.11 emits, golden/py312/<name>.ll what 3.12 emits where its bytecode makes the IR differ)."""
import os
import re
from pathlib import Path

import pytest

from moshjit.compiler import DriverContext, typed_ssa
from moshjit.typeof import type_of_key
from moshjit.ir.types import FLOAT, INT64, ListType
from tests import version_golden
from tests.llvm import samples

GOLDEN = Path(__file__).parent / "golden"


def clamp(x, lo, hi):
    return lo if x < lo else hi if x > hi else x


def mean(xs):
    total = 0.0
    for x in xs:
        total += x
    return total / len(xs)


CASES = [
    ("add", samples.i_add, [INT64, INT64]),
    ("clamp", clamp, [INT64, INT64, INT64]),
    ("mean", mean, [ListType(FLOAT)]),
    ("pad", samples.pad, [ListType(INT64), INT64, INT64]),
    ("fib", samples.fib, [INT64]),
]


def emitted_ir(fn, arg_types) -> str:
    from moshjit.backends.llvm.module import build_module
    from moshjit.backends.llvm.native_types import CallGraph
    ctx = DriverContext(fn)
    graph = CallGraph(ctx)
    root = graph.infer(fn, arg_types, ir=typed_ssa(fn, arg_types, ctx), ctx=ctx)
    text = build_module(graph, root, "x86_64-unknown-linux-gnu", "")[0]
    return normalise(text, fn.__code__.co_filename)


def normalise(text: str, filename: str) -> str:
    text = re.sub(r'c"([^"]*)"', lambda m: 'c"' + m.group(1).replace(filename, "<file>") + '"', text)
    text = re.sub(r"\[\d+ x i8\]", "[N x i8]", text)
    return "\n".join(line for line in text.splitlines() if not line.startswith(("target ", "; ModuleID"))) + "\n"


@pytest.mark.parametrize("name,fn,arg_types", CASES, ids=[c[0] for c in CASES])
def test_emitted_ir(name, fn, arg_types):
    path = GOLDEN / f"{name}.ll"
    got = emitted_ir(fn, arg_types)
    if os.environ.get("MOSHJIT_UPDATE_GOLDEN"):
        version_golden.update(path, got)
    assert got == version_golden.expected(path)


def test_key_types_are_what_the_cases_assume():
    assert type_of_key("int64") == INT64 and type_of_key(float) == FLOAT

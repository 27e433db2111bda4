"""An annotated HTML view of a function (like ``cython -a``): each source line coloured by how much Python-object
work it still does after compilation, with its typed SSA one click away.

Used by ``python -m moshjit annotate file.py:function`` and ``%%moshjit -a``. The colouring comes from the typed
SSA: an operation is "native" when its result and operands are machine values (proven ints, floats, bools, chars),
"object" otherwise (it goes through the Python C API).
"""
from __future__ import annotations

import html
import inspect

from moshjit.functions import python_function
from moshjit.ir import ops
from moshjit.ir.ops import Constant, Phi
from moshjit.ir.printer import Namer, format_instruction
from moshjit.ir.types import (CHAR, INT64, NONE, STR, IteratorType, ListType, MType, RangeType, TupleType,
                              is_native_scalar)
from moshjit.typeof import annotation_type, type_of_key

def argument_types(py_func, signature=None) -> list[MType]:
    """Types to annotate with: a compiled signature if given, else the parameters' annotations, else object."""
    if signature is not None:
        return [type_of_key(k) for k in signature]
    params = inspect.signature(py_func).parameters.values()
    return [annotation_type(p.annotation, py_func.__globals__) for p in params]


def _native(value) -> bool:
    if value is None or isinstance(value, Constant):
        return True
    t = getattr(value, "type", None)
    return t is None or t == NONE or t == CHAR or is_native_scalar(t)


def _index_loop(iterator) -> bool:
    """Iteration the backends compile to an index loop, with no iterator object: over a str, list, tuple or
    range."""
    t = getattr(iterator, "type", None)
    return isinstance(t, IteratorType) and (t.source in (STR, CHAR)
                                             or isinstance(t.source, (ListType, TupleType, RangeType)))


def object_work(inst, loop_ranges=frozenset()) -> int:
    """1 when the instruction does Python-object work in compiled code, else 0. ``loop_ranges`` are the
    ``range(...)`` calls that index loops consume directly (no range object is made)."""
    if isinstance(inst, (ops.Jump, ops.Return)) or inst in loop_ranges:
        return 0
    if isinstance(inst, ops.GetIter) and _index_loop(inst):
        return 0
    if isinstance(inst, ops.ForIter) and _index_loop(inst.iterator):
        return 0 if _native(inst) else 1      # the item: a char or an int64 is native, a list item an object
    operands_native = all(_native(v) for v in inst.operands())
    if isinstance(inst, ops.Branch):
        return 0 if operands_native else 1
    if isinstance(inst, (Phi, ops.ExtractItem, ops.CheckBound)):
        return 0                          # moves of values already computed
    return 0 if operands_native and _native(inst) else 1


def _colour(score: int, worst: int) -> str:
    if score == 0:
        return "#ffffff"
    level = min(1.0, score / max(worst, 1))
    blue = int(255 - 180 * level)
    return f"#ffff{blue:02x}"


def annotate_html(py_func, signature=None) -> str:
    """The whole HTML page for ``py_func`` (a plain function or a ``@jit`` dispatcher)."""
    title = html.escape(python_function(py_func).__qualname__)
    return (f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>moshjit: {title}</title>\n'
            f"<style>body {{ font-family: sans-serif; }}</style></head><body>\n"
            f"{annotate_fragment(py_func, signature)}</body></html>\n")


def annotate_fragment(py_func, signature=None) -> str:
    """The annotation as one ``<div>`` whose styles apply only inside it, for embedding (``%%moshjit -a``
    shows it in a notebook, where a page-wide stylesheet would restyle the notebook itself)."""
    from moshjit.compiler import typed_ssa
    if signature is None and getattr(py_func, "signatures", None):
        signature = next(iter(py_func._artifacts))           # the first compiled signature
    fn = python_function(py_func)
    ir = typed_ssa(fn, argument_types(fn, signature))
    namer = Namer(ir)
    instructions = [inst for block in ir.blocks for inst in [*block.phis, *block.instructions()]]
    loop_ranges = {inst.obj for inst in instructions
                   if isinstance(inst, ops.GetIter) and _index_loop(inst) and isinstance(inst.type.source, RangeType)}
    by_line: dict[int, list] = {}
    for inst in instructions:
        line = getattr(inst, "line", None)
        if line is not None:
            by_line.setdefault(line, []).append(inst)
    try:
        source_lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        source_lines, first = [], fn.__code__.co_firstlineno
    scores = {line: sum(object_work(i, loop_ranges) for i in insts) for line, insts in by_line.items()}
    worst = max(scores.values(), default=0)
    rows = []
    for offset, text in enumerate(source_lines):
        lineno = first + offset
        insts = by_line.get(lineno, [])
        score = scores.get(lineno, 0)
        shown = html.escape(text.rstrip("\n")) or "&nbsp;"
        if insts:
            detail = "\n".join(html.escape(_describe(i, namer, loop_ranges)) for i in insts)
            rows.append(f'<details style="background:{_colour(score, worst)}"><summary><code>{lineno:4d} '
                        f'{shown}</code> <small>({score} object op{"s" if score != 1 else ""})</small></summary>'
                        f'<pre class="ssa">{detail}</pre></details>')
        else:
            rows.append(f'<div><code>{lineno:4d} {shown}</code></div>')
    total = sum(scores.values())
    types = ", ".join(f"{a.name}: {'int64' if a.type == INT64 else a.type}" for a in ir.args)
    return "\n".join([
        '<div class="moshjit-annotate">',
        _FRAGMENT_STYLE,
        f"<h2>moshjit annotation: {html.escape(fn.__qualname__)}</h2>",
        f"<p>Arguments: <code>{html.escape(types)}</code>. Yellow lines still do Python-object work after "
        f"compilation ({total} object operations in all); click a line for its typed SSA.</p>",
        *rows,
        f'<details><summary><b>Whole typed SSA</b></summary><pre class="ssa">{html.escape(str(ir))}</pre></details>',
        "</div>",
    ]) + "\n"


_FRAGMENT_STYLE = """<style>
  .moshjit-annotate code, .moshjit-annotate pre { font-family: monospace; white-space: pre; }
  .moshjit-annotate details summary { cursor: pointer; list-style: none; }
  .moshjit-annotate pre.ssa { background: #f4f4f4; margin: 0 2em; }
</style>"""


def _describe(inst, namer: Namer, loop_ranges) -> str:
    text = format_instruction(inst, namer)
    t = getattr(inst, "type", None)
    mark = "object" if object_work(inst, loop_ranges) else "native"
    return f"[{mark}] {text}" + (f"  :: {t}" if t is not None else "")

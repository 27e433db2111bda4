"""An annotated HTML view of a compiled function (like ``cython -a``): the backend chosen and the argument types it
was compiled for; each source line coloured by how much Python-object work it still does, with its typed SSA and
the code generated for it one click away.

Used by ``moshjit annotate file.py:function`` and ``%%moshjit -a``. The function is really compiled (through the
cache), so the view shows what runs. The colouring comes from the typed SSA: an operation is "native" when its
result and operands are machine values (proven ints, floats, bools, chars), "object" otherwise (it goes through the
Python C API). The LLVM backend compiles only functions whose every value is native.
"""
from __future__ import annotations

import html
import inspect

from moshjit.functions import own_signature, python_function
from moshjit.ir import ops
from moshjit.ir.ops import Constant, Phi
from moshjit.ir.printer import Namer, format_instruction
from moshjit.ir.types import (CHAR, INT64, NONE, STR, DictType, IteratorType, ListType, MType, RangeType, SetType,
                              TupleType, is_native_scalar)
from moshjit.typeof import (_split_top_level, annotation_type, key_of_kinds, parse_kind, static_key,
                            type_of_key)


def argument_types(py_func, signature=None) -> list[MType]:
    """Types to annotate with: a compiled signature if given, else the parameters' annotations, else object."""
    if signature is not None:
        return [type_of_key(k) for k in signature]
    params = own_signature(py_func).parameters.values()
    return [annotation_type(p.annotation, py_func.__globals__) for p in params]


def parse_argument_types(parts: list[str]) -> tuple[tuple, list[MType]]:
    """(dispatch key, inference types) of argument kinds written as text: a container's item types
    (``list[float]``) refine its inference type, which is what the LLVM backend compiles such a call for."""
    key = key_of_kinds(parts)
    return key, [_written_type(part, kind) for part, kind in zip(parts, key)]


def _written_type(text: str, kind) -> MType:
    name, _, rest = text.strip().partition("[")
    items = [_written_type(part, parse_kind(part)) for part in _split_top_level(rest[:-1])] if rest else []
    if name == "list" and len(items) == 1:
        return ListType(items[0])
    if name == "set" and len(items) == 1:
        return SetType(items[0])
    if name == "dict" and len(items) == 2:
        return DictType(items[0], items[1])
    return type_of_key(kind)


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


def _compiled(py_func, key: tuple):
    """(artifact, None) of ``py_func`` compiled for ``key`` through its dispatcher (a new one for a plain
    function), or (None, the reason it cannot be compiled)."""
    from moshjit.dispatcher import DispatcherBase, jit
    dispatcher = py_func if isinstance(py_func, DispatcherBase) else jit(python_function(py_func))
    try:
        dispatcher.compiled_entry(key)
    except Exception as exc:              # UnsupportedError, or no C compiler: the page says so
        return None, exc
    return dispatcher._artifacts.get(key), dispatcher._failed.get(key)


def _tier_note(py_func, key: tuple) -> str:
    """Where a tiered dispatcher's signature runs and how it got there ("" for eager or plain functions)."""
    from moshjit.typeof import describe_signature
    stats = getattr(py_func, "stats", {}).get(describe_signature(key), {})
    if "tier" not in stats:
        return ""
    parts = [f"{stats['tier']}, {stats['interpreted_calls']} interpreted calls"]
    for name, label in (("promoted_after_s", "promoted"), ("native_after_s", "native")):
        if name in stats:
            parts.append(f"{label} {stats[name]:.3f} s after its first call")
    if "compile_s" in stats:
        parts.append(f"compiled in the background in {stats['compile_s']:.3f} s")
    return "; ".join(parts)


def annotate_fragment(py_func, signature=None) -> str:
    """The annotation as one ``<div>`` whose styles apply only inside it, for embedding (``%%moshjit -a``
    shows it in a notebook, where a page-wide stylesheet would restyle the notebook itself). ``signature``: a
    dispatch key, or (key, inference types) from ``parse_argument_types``; default: the first compiled
    signature, else the parameters' annotations."""
    from moshjit.compiler import typed_ssa
    fn = python_function(py_func)
    written = None
    if isinstance(signature, tuple) and len(signature) == 2 and isinstance(signature[1], list):
        signature, written = signature
    if signature is None and getattr(py_func, "signatures", None):
        signature = next(iter(py_func._artifacts))           # the first compiled signature
    types = written or argument_types(fn, signature)
    key = tuple(signature) if signature is not None else tuple(static_key(t) or object for t in types)
    artifact, problem = _compiled(py_func, key)
    backend = artifact.backend if artifact is not None else "none (runs as plain Python)"
    if artifact is not None and artifact.arg_types and written is None:
        types = artifact.arg_types            # what the backend compiled for (LLVM: the list items it chose)
    ir = typed_ssa(fn, types)
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
    native = artifact is not None and artifact.backend == "llvm"      # every value has a machine form
    scores = {line: 0 if native else sum(object_work(i, loop_ranges) for i in insts)
              for line, insts in by_line.items()}
    generated = generated_lines(artifact)
    worst = max(scores.values(), default=0)
    rows = []
    for offset, text in enumerate(source_lines):
        lineno = first + offset
        insts = by_line.get(lineno, [])
        score = scores.get(lineno, 0)
        shown = html.escape(text.rstrip("\n")) or "&nbsp;"
        if insts or lineno in generated:
            detail = "\n".join(html.escape(_describe(i, namer, loop_ranges, native)) for i in insts)
            code = generated.get(lineno)
            code_block = (f'<pre class="generated">{html.escape(chr(10).join(code))}</pre>' if code else "")
            rows.append(f'<details style="background:{_colour(score, worst)}"><summary><code>{lineno:4d} '
                        f'{shown}</code> <small>({score} object op{"s" if score != 1 else ""})</small></summary>'
                        f'<pre class="ssa">{detail}</pre>{code_block}</details>')
        else:
            rows.append(f'<div><code>{lineno:4d} {shown}</code></div>')
    total = sum(scores.values())
    arguments = ", ".join(f"{a.name}: {_type_name(a.type)}" for a in ir.args)
    language = {"cython": "Cython", "llvm": "LLVM IR"}.get(backend, "")
    notes = [f"<p>Backend: <b>{html.escape(backend)}</b>. Arguments: <code>{html.escape(arguments)}</code>.</p>"]
    tier = _tier_note(py_func, key)
    if tier:
        notes.append(f"<p>Tier: {html.escape(tier)}.</p>")
    if problem is not None:
        notes.append(f'<pre class="problem">{html.escape(str(problem))}</pre>')
    notes.append(f"<p>Yellow lines still do Python-object work after compilation ({total} object operations in "
                 f"all); click a line for its typed SSA{' and the ' + language + ' generated for it' if generated else ''}.</p>")
    return "\n".join([
        '<div class="moshjit-annotate">',
        _FRAGMENT_STYLE,
        f"<h2>moshjit annotation: {html.escape(fn.__qualname__)}</h2>",
        *notes,
        *rows,
        f'<details><summary><b>Whole typed SSA</b></summary><pre class="ssa">{html.escape(str(ir))}</pre></details>',
        *([f'<details><summary><b>Whole generated {language}</b></summary><pre class="generated">'
           f"{html.escape(artifact.code_text)}</pre></details>"] if artifact is not None else []),
        "</div>",
    ]) + "\n"


def _type_name(t: MType) -> str:
    return "int64" if t == INT64 else str(t).replace(str(INT64), "int64")


def generated_lines(artifact) -> dict[int, list[str]]:
    """Per source line, the generated lines written for it (Cython modules say so in their source map)."""
    if artifact is None or artifact.backend != "cython":
        return {}
    from moshjit.backends.cython.emit import split_source_map
    _, source = split_source_map(artifact.code_text)
    if source is None:
        return {}
    pyx = artifact.code_text.split("\n")
    out: dict[int, list[str]] = {}
    for pyx_line, line in sorted(source.lines.items()):
        if 0 < pyx_line <= len(pyx) and pyx[pyx_line - 1].strip():
            out.setdefault(line, []).append(pyx[pyx_line - 1])
    return out


_FRAGMENT_STYLE = """<style>
  .moshjit-annotate code, .moshjit-annotate pre { font-family: monospace; white-space: pre; }
  .moshjit-annotate details summary { cursor: pointer; list-style: none; }
  .moshjit-annotate pre.ssa { background: #f4f4f4; margin: 0 2em; }
  .moshjit-annotate pre.generated { background: #eef4ff; margin: 0 2em; }
  .moshjit-annotate pre.problem { background: #fff0f0; }
</style>"""


def _describe(inst, namer: Namer, loop_ranges, native: bool = False) -> str:
    text = format_instruction(inst, namer)
    t = getattr(inst, "type", None)
    mark = "native" if native or not object_work(inst, loop_ranges) else "object"
    return f"[{mark}] {text}" + (f"  :: {_type_name(t)}" if t is not None else "")

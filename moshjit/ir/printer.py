"""Deterministic text form of the SSA IR, used by golden tests, the CLI and ``inspect_ssa``."""
from __future__ import annotations

import types
from typing import TYPE_CHECKING

from moshjit.ir.block import Block
from moshjit.ir.ops import UNDEFINED, Constant, ForIter, Op, Phi, Terminator, Value
from moshjit.ir.types import MType

if TYPE_CHECKING:
    from moshjit.ir.function import Function


def format_constant(value) -> str:
    """A stable spelling of a constant (no memory addresses)."""
    if isinstance(value, types.CodeType):
        return f"<code {value.co_qualname}>"
    if isinstance(value, type):
        return f"<class {value.__qualname__}>"
    if isinstance(value, (types.BuiltinFunctionType, types.FunctionType)):
        return f"<function {value.__qualname__}>"
    if isinstance(value, tuple):
        inner = ", ".join(format_constant(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, MType):                 # an op's type attribute (await_self's result)
        return f"<type {value}>"
    if isinstance(value, frozenset):
        return "frozenset({" + ", ".join(sorted(format_constant(v) for v in value)) + "})"
    if isinstance(value, dict):                 # a module's namespace (``globals()``): its repr may run user code
        return f"<globals of {value['__name__']}>" if "__name__" in value else f"<dict of {len(value)} items>"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Namer:
    """Numbers values %0, %1, … in order of definition (arguments keep their names)."""

    def __init__(self, fn: Function):
        self.names: dict[Value, str] = {arg: f"%{arg.name}" for arg in fn.args}
        counter = 0
        for block in fn.blocks:
            for value in [*block.phis, *block.instructions()]:
                if isinstance(value, (Phi, ForIter)) or (isinstance(value, Op) and not isinstance(value, Terminator)):
                    self.names[value] = f"%{counter}"
                    counter += 1

    def __call__(self, value) -> str:
        if value is None:
            return "None"
        if isinstance(value, Block):
            return f"B{value.label}"
        if isinstance(value, list):
            return "[" + ", ".join(self(v) for v in value) + "]"
        if isinstance(value, Constant):
            return format_constant(value.value)
        if value is UNDEFINED:
            return "undef"
        return self.names.get(value, "%?")


def format_instruction(inst, name: Namer) -> str:
    """``%3 = binary_op['+'] %a, %b`` style: attributes in brackets (None, False and () left out), then
    operands, then successor blocks."""
    if isinstance(inst, Phi):
        incoming = ", ".join(f"B{b.label}: {name(v)}" for b, v in sorted(inst.incoming.items(),
                                                                         key=lambda kv: kv[0].label))
        note = f"  ; {inst.var}" if inst.var else ""
        return f"{name(inst)} = phi [{incoming}]{note}"
    attrs = [format_constant(a) for a in inst.attrs() if not _is_default_attr(a)]
    text = inst.NAME + (f"[{', '.join(attrs)}]" if attrs else "")
    parts = [name(getattr(inst, field)) for field in inst.OPERANDS]
    if isinstance(inst, Terminator):
        parts += [name(t) for t in inst.successors()]
    if parts:
        text += " " + ", ".join(parts)
    if isinstance(inst, ForIter) or not isinstance(inst, Terminator):
        text = f"{name(inst)} = {text}"
    return text


def _is_default_attr(value) -> bool:
    """Attributes left out of the text: None, False and () (but 0 and '' are shown)."""
    return value is None or value is False or (type(value) is tuple and not value)


def format_function(fn: Function, types_: bool = True, lines: bool = False) -> str:
    """The whole function; with ``types_`` each value shows its inferred type when one is set."""
    name = Namer(fn)
    preds = fn.predecessors()
    args = ", ".join(a.name for a in fn.args)
    kind = ("  ; async generator" if fn.generator and fn.coroutine else "  ; generator" if fn.generator
            else "  ; coroutine" if fn.coroutine else "")
    out = [f"def {fn.qualname}({args}):" + kind]
    for block in fn.blocks:
        header = f"B{block.label}:"
        if preds[block]:
            header += "  ; preds " + ", ".join(f"B{p.label}" for p in preds[block])
        if block.handler is not None:
            header += f"  ; except -> B{block.handler.label}"
        out.append(header)
        for inst in [*block.phis, *block.instructions()]:
            text = format_instruction(inst, name)
            notes = []
            if types_ and getattr(inst, "type", None) is not None:
                notes.append(str(inst.type))
            if lines and getattr(inst, "line", None) is not None:
                notes.append(f"line {inst.line}")
            if notes:
                text += "  :: " + ", ".join(notes)
            out.append("    " + text)
    return "\n".join(out) + "\n"

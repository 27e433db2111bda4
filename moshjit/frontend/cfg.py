"""Basic blocks of neutral bytecode, with normal and exceptional edges, restricted to what is reachable."""
from __future__ import annotations

from moshjit.analysis.loops import LoopForest
from moshjit.frontend.decode import Handler, Instr

_ENDS_BLOCK = {"JUMP", "RETURN_VALUE", "RAISE_VARARGS", "RERAISE"}
_CONDITIONAL = {"JUMP_IF", "JUMP_IF_NONE", "JUMP_IF_OR_POP", "FOR_ITER"}


class BytecodeBlock:
    """Instructions [start, end) sharing one exception handler (or none)."""

    __slots__ = ("start", "instrs", "handler", "normal", "exceptional")

    def __init__(self, start: int, instrs: list[Instr], handler: Handler | None):
        self.start = start
        self.instrs = instrs
        self.handler = handler
        self.normal: list[BytecodeBlock] = []      # fall-through first, then the jump target
        self.exceptional: BytecodeBlock | None = None

    def successors(self) -> list["BytecodeBlock"]:
        """Each successor once: a conditional jump whose target is also its fallthrough (the code between was a
        folded-away ``if 0:``) has one successor, which counts it once as a predecessor."""
        return list(dict.fromkeys(self.normal + ([self.exceptional] if self.exceptional is not None else [])))

    def __repr__(self):
        return f"<bytecode block @{self.start}>"


class BytecodeCFG:
    """The reachable blocks of one code object, a loop forest over them, and a loop-contiguous order."""

    def __init__(self, instrs: list[Instr], handlers: list[Handler]):
        leaders = {0}
        for ins in instrs:
            if ins.target is not None:
                leaders.add(ins.target)
            if ins.op in _ENDS_BLOCK or ins.op in _CONDITIONAL:
                leaders.add(ins.index + 1)
        for h in handlers:
            leaders.update((h.start, h.end, h.target))
        bounds = sorted(i for i in leaders if i < len(instrs)) + [len(instrs)]
        by_start: dict[int, BytecodeBlock] = {}
        for start, end in zip(bounds, bounds[1:]):
            handler = next((h for h in handlers if h.start <= start < h.end), None)
            by_start[start] = BytecodeBlock(start, instrs[start:end], handler)
        for block in by_start.values():
            last = block.instrs[-1]
            fallthrough = last.index + 1
            if last.op == "JUMP":
                block.normal = [by_start[last.target]]
            elif last.op in _CONDITIONAL:
                block.normal = [by_start[fallthrough], by_start[last.target]]
            elif last.op not in _ENDS_BLOCK:
                block.normal = [by_start[fallthrough]]
            if block.handler is not None:
                block.exceptional = by_start[block.handler.target]
        self.entry = by_start[0]
        self.forest = LoopForest(self.entry, BytecodeBlock.successors)
        self.order = self.forest.loop_contiguous_order()
        reachable = set(self.order)
        self.blocks = [b for b in by_start.values() if b in reachable]
        self.predecessors: dict[BytecodeBlock, list[BytecodeBlock]] = {b: [] for b in self.blocks}
        for block in self.blocks:
            for succ in block.successors():
                if block not in self.predecessors[succ]:
                    self.predecessors[succ].append(block)

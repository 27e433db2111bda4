"""On-the-fly SSA construction (Braun et al. 2013): variables are read and written per block, φs are placed
lazily, incomplete φs wait for their block to be sealed, and trivial φs are removed as they appear."""
from __future__ import annotations

from typing import Hashable

from moshjit.ir.function import Block, Function
from moshjit.ir.ops import UNDEFINED, Phi, Value, same_value


class SSABuilder:
    """Tracks the current definition of every variable in every block of ``fn``.

    Variables are any hashable keys (the translator uses locals per scope and stack slots). Values may be IR
    values or frontend markers (NULL, method references, …); markers flow through φs and must cancel out.
    """

    def __init__(self, fn: Function):
        self.fn = fn
        self.current_def: dict[Block, dict[Hashable, object]] = {}
        self.preds: dict[Block, list[Block]] = {}
        self.sealed: set[Block] = set()
        self.incomplete: dict[Block, dict[Hashable, Phi]] = {}
        self.replaced: dict[Phi, object] = {}      # removed trivial φ -> its replacement
        self.phi_users: dict[object, list[Phi]] = {}  # value -> φs using it (keys are identity-hashed)

    # ---- blocks and edges -----------------------------------------------------------------------------------
    def new_block(self) -> Block:
        block = self.fn.new_block()
        self.current_def[block] = {}
        self.preds[block] = []
        return block

    def add_edge(self, pred: Block, succ: Block) -> None:
        if pred not in self.preds[succ]:
            if succ in self.sealed:
                raise AssertionError(f"edge into sealed block B{succ.label}")
            self.preds[succ].append(pred)

    def seal(self, block: Block) -> None:
        """All predecessors of ``block`` are known: complete its pending φs."""
        if block in self.sealed:
            return
        self.sealed.add(block)
        for var, phi in self.incomplete.pop(block, {}).items():
            self._add_operands(var, phi)

    # ---- variables -----------------------------------------------------------------------------------------
    def write(self, var: Hashable, block: Block, value) -> None:
        self.current_def[block][var] = value

    def read(self, var: Hashable, block: Block):
        defs = self.current_def[block]
        if var in defs:
            return self.resolve(defs[var])
        return self._read_recursive(var, block)

    def resolve(self, value):
        """Follow the chain of removed trivial φs to the value that replaced them."""
        while value in self.replaced:
            value = self.replaced[value]
        return value

    def _read_recursive(self, var, block: Block):
        if block not in self.sealed:
            phi = self._new_phi(block, var)
            self.incomplete.setdefault(block, {})[var] = phi
            value = phi
        elif not self.preds[block]:
            value = UNDEFINED
        elif len(self.preds[block]) == 1:
            value = self.read(var, self.preds[block][0])
        else:
            phi = self._new_phi(block, var)
            self.write(var, block, phi)
            value = self._add_operands(var, phi)
        self.write(var, block, value)
        return value

    def _new_phi(self, block: Block, var) -> Phi:
        phi = Phi(block, var=_describe_var(var))
        block.phis.append(phi)
        if isinstance(var, tuple) and var and var[0] == "local":
            self.fn.hold(phi, local_holder(var))
        return phi

    def _add_operands(self, var, phi: Phi):
        for pred in self.preds[phi.block]:
            value = self.read(var, pred)
            phi.incoming[pred] = value
            self.phi_users.setdefault(value, []).append(phi)
        return self._try_remove_trivial(phi)

    def _try_remove_trivial(self, phi: Phi):
        same = None
        for value in phi.incoming.values():
            value = self.resolve(value)
            if value is phi or (same is not None and same_value(value, same)):
                continue
            if same is not None:
                return phi
            same = value
        if same is None:
            same = UNDEFINED
        self.replaced[phi] = same
        if phi in phi.block.phis:
            phi.block.phis.remove(phi)
        for user in self.phi_users.pop(phi, []):
            if user is not phi and user not in self.replaced:
                for pred, value in user.incoming.items():
                    if value is phi:
                        user.incoming[pred] = same
                self.phi_users.setdefault(same, []).append(user)
                self._try_remove_trivial(user)
        return same

    def finish(self) -> None:
        """Rewrite every operand through the replacement chains, once all blocks are sealed."""
        unsealed = [b for b in self.fn.blocks if b not in self.sealed]
        if unsealed:
            raise AssertionError(f"unsealed blocks: {unsealed}")
        for block in self.fn.blocks:
            for inst in [*block.phis, *block.instructions()]:
                for operand in list(inst.operands()):
                    target = self.resolve(operand)
                    if target is not operand:
                        inst.replace_operand(operand, target)


def local_holder(var) -> str:
    """The name ``Function.holders`` records for a local variable (scopes of inlined comprehensions apart)."""
    return f"{var[2]}@{var[1]}"


def _describe_var(var) -> str | None:
    """A readable name for a φ's variable: locals keep their name, stack slots become ``stack[i]``."""
    if isinstance(var, tuple) and var and var[0] == "local":
        return var[2]
    if isinstance(var, tuple) and var and var[0] == "stack":
        return f"stack[{var[2]}]"
    return None


def is_value(x) -> bool:
    return isinstance(x, Value)

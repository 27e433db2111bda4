"""What compiling one specialisation produces. A module of its own so that loading cached native code (which
returns one) does not import the compiler pipeline."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Artifact:
    """A compiled specialisation."""
    entry: object                     # callable taking the bound arguments positionally
    backend: str
    code_text: str                    # the generated Cython / LLVM IR text
    ir_text: str                      # the typed SSA it was generated from
    stats: dict = field(default_factory=dict)
    # For entries that check their own argument types (LLVM): the same native entry with another fallback for
    # calls whose types do not match, so the dispatcher can make it its call path.
    rebind: Callable | None = None

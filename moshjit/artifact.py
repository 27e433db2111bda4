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
    # The argument types the code was compiled for, when the backend refined the key's (LLVM's list items).
    arg_types: list | None = None
    # The names bound when compiling (``moshjit.bindings``): the very tuple the entry checks and hands to the
    # dispatcher's rebound handler, so the dispatcher tells a current specialisation from a stale one.
    bindings: tuple = ()


class Listing(str):
    """What ``inspect_types()``/``inspect_code()`` return: the text per compiled signature, a ``str`` (so it
    prints, compares and searches as one) that shows as itself in a REPL, not as an escaped one-line literal, and
    as one collapsible section per signature in Jupyter. Before any compilation it says how to get one."""

    def __new__(cls, sections: list[tuple[str, str]], empty_message: str):
        text = "\n".join(f"# {heading}\n{body}" for heading, body in sections) if sections else empty_message
        listing = super().__new__(cls, text)
        listing.sections = sections
        return listing

    def __repr__(self) -> str:
        return str.__str__(self)

    def __reduce__(self):
        return str, (str.__str__(self),)        # pickles as the plain text

    def _repr_html_(self) -> str:
        import html
        if not self.sections:
            return f"<p><i>{html.escape(str.__str__(self))}</i></p>"
        return "\n".join(f"<details open><summary><b>{html.escape(heading)}</b></summary>"
                         f"<pre>{html.escape(body)}</pre></details>" for heading, body in self.sections)

"""``%load_ext moshjit``: the syntax extensions in IPython/Jupyter cells (``cells.py``) and the compilation
magics ``%%moshjit``, ``%moshjit_ssa`` and ``%moshjit_info`` (``magics.py``).

After loading, pragma lines in a cell (``# +pattern-matching``, ``# +pipeline``, ``# +quick-lambda``,
``# -name``) switch extensions on or off from that line, for that cell and the cells after it; a notebook
needs no ``# moshmosh?`` header.
"""
from __future__ import annotations

from moshjit.notebook.cells import CellSyntax

_shells: dict[int, CellSyntax] = {}


def load_ipython_extension(shell) -> None:
    """``%load_ext moshjit``: start rewriting cells of ``shell`` and add the magics (loading again changes
    nothing)."""
    from moshjit.notebook.magics import register_magics
    syntax = _shells.get(id(shell))
    if syntax is None:
        syntax = _shells[id(shell)] = CellSyntax(shell)
    syntax.register()
    register_magics(shell)


def unload_ipython_extension(shell) -> None:
    """``%unload_ext moshjit``: stop rewriting cells and remove the magics; the on/off state is forgotten."""
    from moshjit.notebook.magics import unregister_magics
    syntax = _shells.pop(id(shell), None)
    if syntax is not None:
        syntax.unregister()
    unregister_magics(shell)

"""Errors in notebook cells name the cell as IPython does (``Cell In[n], line k``), not a temporary file."""
from __future__ import annotations

import moshjit
from tests.ipython.helpers import run


def test_unsupported_construct_in_a_cell_names_the_cell(shell):
    result = run(shell, "import moshjit\n\n@moshjit.jit\ndef numbers(n):\n    return super()\n")
    assert result.success
    count = shell.execution_count - 1
    result = run(shell, "numbers(3)")
    error = result.error_in_exec
    assert isinstance(error, moshjit.UnsupportedError)
    first, shown, caret, _ = str(error).split("\n")
    assert first == f"Cell In[{count}], line 5: unsupported: super() without arguments outside a method (in numbers)"
    assert shown == " 5 |     return super()" and caret == "   |            ^^^^^^^"

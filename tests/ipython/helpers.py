"""IPython's in-process test shell, shared by the in-process tests."""
from IPython.testing import globalipapp


def ipython_test_shell():
    """IPython's global test shell (start_ipython returns it only on its first call)."""
    globalipapp.start_ipython()
    return globalipapp.get_ipython()


def run(ip, cell: str):
    """Run ``cell`` as a numbered notebook cell would be."""
    return ip.run_cell(cell, store_history=True)

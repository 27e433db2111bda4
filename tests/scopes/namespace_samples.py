"""Functions that read and write their module's globals through ``globals()``, for ``test_globals.py``: such a
function has none of its globals bound when compiling (it may rebind any name itself)."""
# ruff: noqa

COUNTER = 0
LIMIT = 3


def helper(x):
    return x * 2


_ORIGINAL_HELPER = helper


def reset():
    globals().update(COUNTER=0, LIMIT=3, helper=_ORIGINAL_HELPER)


def through_the_namespace(name):
    """``globals()`` (json_dumps's ``globals()[case]``): the module's own dict, read and written through; the
    function then reads and calls what it wrote there."""
    space = globals()
    space["COUNTER"] = space[name] + 1 if name in space else -1
    space["helper"] = len                  # a function rebound through the dict, called right after
    return COUNTER, helper("abc"), space is globals(), "through_the_namespace" in space


def rebind_then_call(x):
    """``helper`` rebound through the dict, then called: CPython calls the new one."""
    before = helper(x)
    globals()["helper"] = len
    return before, helper(x)

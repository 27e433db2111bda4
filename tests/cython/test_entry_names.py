"""A jitted function may be named like anything the generated module's own code uses (a builtin it calls, a type
Cython declares variables with, a C keyword, a runtime helper): its entry is renamed, and it compiles and gives
CPython's results (tomli's ``Flags.set`` failed to build: ``cdef set v11`` named the method)."""
import pytest

import moshjit

BODY = """
class Holder:
    def {name}(self, xs, k):
        s = set(xs)
        d = {{}}
        d[k] = list(xs)
        return [len(s), isinstance(k, int), sorted(s)], d, float(k) * 2.0, str(k), tuple(xs)
"""


def holder(name):
    """A class whose method has that name (a method does not shadow the module's globals, as tomli's does not)."""
    namespace = {"__name__": "entry_names"}
    exec(BODY.format(name=name), namespace)
    return namespace["Holder"]


@pytest.mark.parametrize("name", ["set", "list", "len", "isinstance", "str", "float", "tuple", "object", "double",
                                  "char", "bint", "sizeof", "NULL", "mj_split_next", "CharBuffer", "PyList_New"])
def test_a_function_named_like_what_generated_code_uses(name):
    plain, jitted = holder(name), moshjit.jit(holder(name), backend="cython", strict=True)
    for args in (([3, 1, 3], 2), ([], -1)):
        assert getattr(jitted(), name)(*args) == getattr(plain(), name)(*args)
    assert vars(jitted)[name].signatures == [("Holder", "list", "int64")]

"""Constants as the object of an operation (``x = True; x[k]``, ``x = 7; x.bit_length()``, a literal argument of an
inlined helper reaching ``implicit[0]`` on a branch that does not run): Cython types bool, int and float literals
as C values, so the generated code must hand them over as objects — or it does not compile (PyYAML's resolver did
not), or a negative literal's method call negates the call's result. Each runs plain and jitted, same outcome."""
from __future__ import annotations

import pytest

from tests.cython.agree import same


def index_bool(k):
    x = True
    return x[k]


def index_int(k):
    x = 5
    return x[k]


def store_into_float(k):
    x = 1.5
    x[k] = 1


def delete_from_int(k):
    x = 3
    del x[k]


def index_none(k):
    x = None
    return x[k]


def call_int(k):
    x = 5
    return x(k)


def attribute_of_bool(k):
    x = True
    return x.foo


def store_attribute_of_none(k):
    x = None
    x.y = k


def int_method(k):
    x = 7
    return x.bit_length() + k


def negative_int_methods(k):
    x = -3
    return x.__abs__(), x.__neg__(), x.real, x.bit_length() * k


def negative_float_method(k):
    x = -2.5
    return x.__abs__() + k, x.is_integer()


def bool_method(k):
    x = True
    return x.foo(k)


def bool_int_methods(k):
    x = False
    return x.__index__(), x.conjugate(), k


class Scalar:
    pass


class Sequence:
    pass


def resolve(kind, implicit):
    """PyYAML's ``Resolver.resolve`` shape: ``implicit`` is a pair for scalars and a bool otherwise."""
    if kind is Scalar and implicit[0]:
        return "scalar"
    return "other"


def resolves(k):
    return resolve(Sequence, True), resolve(Scalar, (k, False)), resolve(Scalar, (not k, True))


@pytest.mark.parametrize("fn", [index_bool, index_int, store_into_float, delete_from_int, index_none, call_int,
                                attribute_of_bool, store_attribute_of_none, int_method, negative_int_methods,
                                negative_float_method, bool_method, bool_int_methods, resolves],
                         ids=lambda fn: fn.__name__)
@pytest.mark.parametrize("k", [0, 1])
def test_constant_operand_as_cpython(fn, k):
    same(fn, k)


def test_the_outcomes_are_cpython_errors_where_cpython_raises():
    """The differential test above compares with CPython; this pins what CPython gives, so the pair cannot both be
    a compile error."""
    assert same(index_bool, 0) == ("raise", TypeError, "'bool' object is not subscriptable")
    assert same(int_method, 1) == ("ok", 4)
    assert same(negative_int_methods, 2) == ("ok", (3, 3, -3, 4))
    assert same(resolves, 1) == ("ok", ("other", "scalar", "other"))

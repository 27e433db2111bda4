"""What ``raise Cls(...)`` runs before a handler sees it, and which ``except`` clause takes it: the facts behind
turning a raise that a handler of the same function swallows into a jump (``passes/local_raises.py``)."""
from __future__ import annotations

# Built-in exception classes whose instances CPython makes with BaseException's own ``tp_new`` and ``tp_init``
# (``SimpleExtendsException`` in Objects/exceptions.c, and KeyError, which adds only ``__str__``).
PLAIN_BUILTIN_EXCEPTIONS = frozenset({BaseException, Exception, ArithmeticError, AssertionError, LookupError,
                                      IndexError, KeyError, RuntimeError, TypeError, ValueError})
_CONSTRUCTION = ("__new__", "__init__", "__del__")
_HEAPTYPE = 1 << 9                      # Py_TPFLAGS_HEAPTYPE: a class made by a class statement


def constructs_plainly(cls) -> bool:
    """Whether ``cls(*args)`` makes a plain exception without running Python code and dropping it runs none: an
    exception class called through ``type.__call__`` whose own classes define no ``__new__``, ``__init__`` or
    ``__del__`` and whose first built-in base is made with BaseException's construction."""
    if type(cls) is not type or not issubclass(cls, BaseException):
        return False
    for klass in cls.__mro__:
        if klass in PLAIN_BUILTIN_EXCEPTIONS:
            return True
        if not klass.__flags__ & _HEAPTYPE or any(name in vars(klass) for name in _CONSTRUCTION):
            return False
    return False


def clause_catches(cls: type, clause) -> bool | None:
    """Whether ``except clause:`` takes an exception of class ``cls`` (a class or a tuple of them), as CPython's
    ``PyErr_GivenExceptionMatches`` decides: by ``cls``'s MRO, never a metaclass's ``__subclasscheck__`` (an ABC's
    registered classes are not caught); None when the clause is not one CPython accepts (it raises TypeError)."""
    if isinstance(clause, tuple):
        answers = [clause_catches(cls, item) for item in clause]
        return None if None in answers else any(answers)
    if isinstance(clause, type) and BaseException in clause.__mro__:
        return clause in cls.__mro__
    return None


def raise_is_caught(raised, passed: tuple, caught) -> bool:
    """``ops.RaiseIsCaught``: whether ``raise raised(...)`` constructs plainly, passes every clause of ``passed``
    and is taken by ``caught``."""
    return (constructs_plainly(raised) and clause_catches(raised, caught) is True
            and not any(clause_catches(raised, clause) is not False for clause in passed))

"""Re-raising keeps an exception's ``__context__``: the Cython backend once compiled RERAISE (the end of a handler
that did not match, or of a ``finally`` on the exceptional path) to Cython's ``raise exc``, which re-chains
``__context__`` to the exception handled at that point and lost a link in nested handlers (CPython: 'check 5' ←
'check 0' ← 'check -180'; compiled: 'check 5' ← 'check -180'). Found on 2026-12-01 by
``test_random_program_compiled_by_cython`` in a 90-line program (compiling it took minutes under load); these are
its shapes (the first two failed before the fix; the third guards the finally path)."""
import pytest

import moshjit


def fail(message):
    raise ValueError(message)


def nested_handlers(kind):
    """Each inner exception raised while handling the outer one; the innermost handler does not match (re-raise)."""
    try:
        fail("outer")
    except ValueError:
        try:
            fail("middle")
        except ValueError:
            try:
                fail("inner")
            except KeyError:
                pass
    return kind


def handler_in_finally(kind):
    try:
        fail("outer")
    finally:
        try:
            fail("middle")
        except ValueError:
            fail("inner")
    return kind


def reraise_in_finally_of_handler(kind):
    try:
        fail("outer")
    except ValueError:
        try:
            fail("middle")
        finally:
            kind += 1
    return kind


def chain(exc):
    """The messages along the ``__context__`` chain, newest first."""
    messages = []
    while exc is not None:
        messages.append(str(exc))
        exc = exc.__context__
    return messages


@pytest.mark.parametrize("fn", [nested_handlers, handler_in_finally, reraise_in_finally_of_handler])
def test_reraise_keeps_the_context_chain(fn):
    jitted = moshjit.jit(fn, backend="cython", tier="eager", strict=True)
    with pytest.raises(ValueError) as expected:
        fn(0)
    with pytest.raises(ValueError) as got:
        jitted(0)
    assert chain(got.value) == chain(expected.value)
    assert len(chain(expected.value)) >= 2

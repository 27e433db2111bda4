"""Re-raising keeps an exception's ``__context__``: the Cython backend once compiled RERAISE (the end of a handler
that did not match, or of a ``finally`` on the exceptional path) to Cython's ``raise exc``, which re-chains
``__context__`` to the exception handled at that point and lost a link in nested handlers (CPython: 'check 5' ←
'check 0' ← 'check -180'; compiled: 'check 5' ← 'check -180'). Found on 2026-12-01 by
``test_random_program_compiled_by_cython``; the long program is that example, unshrunk."""
import pytest

import moshjit
from tests.frontend.sample_support import outcome
from tests.frontend.test_random_programs import program_function

SOURCE = 'def program(a, b, c):\n    log = []\n    try:\n        a = sum([v * sum(check(v) for v in range(check((sum([v * -3 for v in range(3)]) * (4 * 5))) % 4)) for v in range(3)])\n    finally:\n        try:\n            a += check(sum([v * check(-1) for v in range(3)]))\n            try:\n                if sum([v * check(max((b for v in range(check(((0 if a else 0) % check(-1))) % 3)), default=-1)) for v in range(3)]):\n                    del a\n                log.append(check(7))\n                if (sum([v * (-2 if b else b) for v in range(3)]) != sum([v * max((0 for v in range(sum([v * (5 if b else b) for v in range(3)]) % 3)), default=-1) for v in range(3)])):\n                    del c\n            finally:\n                if sum([v * check(c) for v in range(3)]):\n                    raise ValueError(sum([v * sum([(a := v + check(-3)) for v in range(2)]) for v in range(3)]))\n            for a in range(3):\n                log.append(check(((6 if c else c) == a)))\n                log.append(sum([v * sum([v * (c // 7) for v in range(3)]) for v in range(3)]))\n                if check(check(check(5))):\n                    del b\n        except (KeyError, ValueError) as exc:\n            log.append(str(exc))\n            if check(max((b for v in range((c * 6) % 3)), default=-1)):\n                if sum([v * check(sum([v * -1 for v in range(3)])) for v in range(3)]):\n                    raise KeyError(check(sum([v * sum(check(v) for v in range(sum(check(v) for v in range(sum(check(v) for v in range(-3 % 4)) % 4)) % 4)) for v in range(3)])))\n                if check(sum([v * c for v in range(3)])):\n                    del a\n            else:\n                c = check(check(sum([v * b for v in range(3)])))\n                if 4:\n                    raise KeyError(check(5))\n                if check(check((7 == b))):\n                    c = (sum(check(v) for v in range(sum([v * check(check(b)) for v in range(3)]) % 4)) != -1)\n                    if max((check((c if 4 else a)) for v in range(sum([v * (c < 3) for v in range(3)]) % 3)), default=-1):\n                        raise ValueError(sum([v * sum([v * c for v in range(3)]) for v in range(3)]))\n        else:\n            w1 = 0\n            while w1 < 0:\n                w1 += 1\n                c = sum([v * sum([(b := v + a) for v in range(2)]) for v in range(3)])\n        w2 = 0\n        while w2 < 1:\n            w2 += 1\n            if sum([v * sum([v * (2 < 3) for v in range(3)]) for v in range(3)]):\n                break\n    with Manager(log, True) as a:\n        try:\n            w3 = 0\n            while w3 < 1:\n                w3 += 1\n                if check(b):\n                    if sum([v * max((sum([v * a for v in range(3)]) for v in range(sum(check(v) for v in range(a % 4)) % 3)), default=-1) for v in range(3)]):\n                        if sum([v * c for v in range(3)]):\n                            return sum([v * check(sum([v * b for v in range(3)])) for v in range(3)]), log\n                        if sum([v * (b < 3) for v in range(3)]):\n                            return sum([v * (5 if 1 else b) for v in range(3)]), log\n                    else:\n                        if sum([(a := v + c) for v in range(2)]):\n                            raise KeyError(check(sum(check(v) for v in range((-2 < c) % 4))))\n                if sum([v * max((check(5) for v in range((1 if check(7) else (7 % a)) % 3)), default=-1) for v in range(3)]):\n                    raise ValueError(check((b == c)))\n        finally:\n            a -= sum([v * 0 for v in range(3)])\n        b = sum([v * max((3 for v in range(check((c < -3)) % 3)), default=-1) for v in range(3)])\n    w4 = 0\n    while w4 < 3:\n        w4 += 1\n        try:\n            if check((0 if -2 else 4)):\n                break\n            if check(c):\n                log.append((a // -3))\n                if sum([v * sum([v * sum(check(v) for v in range(sum(check(v) for v in range(sum([v * (3 + -3) for v in range(3)]) % 4)) % 4)) for v in range(3)]) for v in range(3)]):\n                    break\n        finally:\n            if sum([v * sum([v * (2 if 0 else c) for v in range(3)]) for v in range(3)]):\n                continue\n        with Manager(log, True) as b:\n            if sum([v * check(check(b)) for v in range(3)]):\n                del b\n            if sum([v * check(check(7)) for v in range(3)]):\n                if sum([v * max((c for v in range(sum(check(v) for v in range(sum([v * (0 == b) for v in range(3)]) % 4)) % 3)), default=-1) for v in range(3)]):\n                    break\n    return a, b, c, log\n'


def test_exception_context_chain_in_nested_finally():
    fn = program_function(SOURCE)
    jitted = moshjit.jit(fn, backend="cython", tier="eager")
    assert outcome(jitted, (0, -3, -2), {}) == outcome(fn, (0, -3, -2), {})


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

"""Functions that call themselves, for ``test_self_calls.py``, which loads this file twice: once as it is (CPython),
once with ``decorate`` jitting every function (Cython backend), so that each global names its dispatcher as it
would under ``@jit``."""
decorate = globals().get("decorate", lambda fn: fn)
note = None                                     # set by the test: called at every level of ``walk``


@decorate
def palindrome(s):
    if len(s) < 2:
        return True
    return s[0] == s[-1] and palindrome(s[1:-1])


@decorate
def joined(words, i):
    if i >= len(words):
        return ""
    return words[i] + " " + joined(words, i + 1)


@decorate
def ways(n, memo):                              # a dict argument, results beyond 64 bits
    if n <= 1:
        return 1
    if n in memo:
        return memo[n]
    memo[n] = result = ways(n - 1, memo) + ways(n - 2, memo)
    return result


@decorate
def char_at_depth(s, depth):                    # IndexError deep down
    if depth == 0:
        return s[len(s)]
    return char_at_depth(s + "x", depth - 1)


@decorate
def walk(n):
    note(n)
    if n <= 0:
        return "bottom"
    return walk(n - 1)


@decorate
def count_down(n):                               # RecursionError past the limit
    if n <= 0:
        return 0
    return 1 + count_down(n - 1)


@decorate
def count_down_any(n):                           # n - 1 may leave 64 bits (n == -2**63): through the dispatcher
    if n == 0:
        return 0
    return 1 + count_down_any(n - 1)


@decorate
def nodes(t):                                    # the argument's kind is known only at run time: no call in place
    if type(t) is not tuple:
        return 1
    return 1 + nodes(t[0]) + nodes(t[1])


@decorate
def countdown_items(n):                          # a generator: its call makes a generator, not a call in place
    if n > 0:
        yield n
        yield from countdown_items(n - 1)

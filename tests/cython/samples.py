"""Sample functions covering the constructs the Cython backend compiles, with explicit argument tuples."""
import unicodedata, types
G = 5
def t_chain(a, b, c): return a < b < c
def t_and_or(a, b): return (a and b) or (not a and 7)
def t_while(n):
    i = 0; s = 0
    while i < n:
        i += 1
        if i == 3: continue
        if i > 8: break
        s += i
    else:
        s = -s
    return s
def t_unbound(c):
    if c: x = 1
    return x
def t_del(c):
    x = 1
    if c: del x
    return x
def t_unpack(t):
    a, *b, c = t
    x, y = a, c
    return x, y, b
def t_dict(d, k):
    e = {**d, 'z': 1, k: 2}
    return {k2: v for k2, v in e.items() if v}, {x for x in d}, [*d, *e]
def t_slice(s, i, j): return s[i:j], s[::-1], s[i:]
def t_call(f, *a, **kw): return f(*a, **kw), f(1, *a), max(a, default=0, key=abs) if a else 0
def t_glob(): return G + len([1,2])
def t_nested(xs): return [[x*y for y in xs] for x in xs]
def t_try(x):
    try:
        return 1 / x
    except ZeroDivisionError:
        return "zero"
    except TypeError as e:
        return str(e)
    else:
        return "else"
    finally:
        x = 0
def t_bare_raise(x):
    try:
        1/x
    except ZeroDivisionError:
        raise
def t_assert(x):
    assert x > 0, "neg"
    return x
def t_lambda(xs): return sorted(xs, key=lambda t: -t)
def t_all(xs): return all(x > 0 for x in xs), min(x for x in xs)
def t_attr(o):
    o.a = 1
    del o.a
    return hasattr(o, 'a')
def t_subscr(l):
    l[0] = 5; l[1] += 2; del l[2]
    return l
def t_import():
    import math
    from os import path
    return math.floor(2.5), path.sep
def t_fstring(x, y): return f"{x}-{y!r}-{x:>4}"
def t_is(x): return x is None, x is not None
def t_in(x, s): return x in s, x not in s
def t_closure_comp(xs, k): return [x + k for x in xs]
def t_nested_loops(n):
    t = 0
    for i in range(n):
        for j in range(i):
            if (i + j) % 3 == 0: break
            t += i * j
        else:
            t += 1
    return t
def t_wordpiece(word, vocab):
    start = 0; out = []
    while start < len(word):
        end = len(word); cur = None
        while start < end:
            sub = word[start:end]
            if start > 0: sub = "##" + sub
            if sub in vocab: cur = sub; break
            end -= 1
        if cur is None: return ["[UNK]"]
        out.append(cur); start = end
    return out
def t_with_suppress(x):
    import contextlib
    with contextlib.suppress(ZeroDivisionError):
        return 1 / x
    return "suppressed"
def t_multi_exc(x):
    try:
        try:
            return [][x]
        finally:
            x = x + 1
    except IndexError as e:
        return ("idx", x)
def t_chars(s):
    n = 0; out = []
    for ch in s:
        if ch.isalpha(): n += 1
        elif ch.isspace(): out.append(" ")
        else: out.append(ch.upper())
    return n, "".join(out), ord(s[0]) if s else -1
def t_punct(text):
    out = []; word = []
    for ch in text:
        cp = ord(ch)
        if (33 <= cp <= 47) or (58 <= cp <= 64) or unicodedata.category(ch).startswith("P"):
            if word: out.append("".join(word)); word = []
            out.append(ch)
        elif ch == " ":
            if word: out.append("".join(word)); word = []
        else:
            word.append(ch)
    if word: out.append("".join(word))
    return out
def t_range_steps(a, b, c):
    return [i for i in range(a, b, c)], sum(range(a, b)), list(range(b))
def t_floats(x, y):
    return x / y, x // y, x % y, -x, abs(x), x ** 2
def t_ints(x, y):
    return x // y, x % y, x * y, x - y, x << 3, x ** 2, x / y, -x, ~x
def t_float_loop(n):
    s = 0.0
    for i in range(1, n):
        s += 1.0 / i
    return s
def t_enum(xs):
    return [(i, x) for i, x in enumerate(xs)], list(zip(xs, xs[1:]))
def t_dict_count(words):
    d = {}
    for w in words:
        d[w] = d.get(w, 0) + 1
    return sorted(d.items())
def t_swap(a, b):
    a, b = b, a
    return a, b
def t_early(xs, t):
    for i, x in enumerate(xs):
        if x == t:
            return i
    return -1
def t_with_loop(n):
    import contextlib
    r = []
    for i in range(n):
        with contextlib.suppress(ZeroDivisionError):
            r.append(10 // (i - 2))
    return r
def t_break_finally(n):
    out = []
    for i in range(n):
        try:
            if i == 3: break
            if i == 1: continue
            out.append(i)
        finally:
            out.append(-i)
    return out
def t_kwcall(d): return dict(a=1, **d)
def t_str_ops(s):
    return s.lower(), s.split(), s.strip(), s.replace("a", "b"), s.startswith("x"), s.find("l"), s * 2
def t_star_call(*args): return len(args), args[-1] if args else None
cases = [(t_chain,(1,2,3)),(t_chain,(3,2,1)),(t_and_or,(0,5)),(t_and_or,(2,0)),(t_while,(5,)),(t_while,(20,)),
 (t_unbound,(1,)),(t_unbound,(0,)),(t_del,(0,)),(t_del,(1,)),(t_unpack,((1,2,3,4),)),(t_unpack,((1,),)),
 (t_dict,({'a':1,'b':0},'q')),(t_slice,("hello",1,3)),(t_call,(max,3,4)),(t_call,(print,)), (t_glob,()),(t_nested,([1,2],)),
 (t_try,(0,)),(t_try,("a",)),(t_try,(2,)),(t_bare_raise,(0,)),(t_assert,(1,)),(t_assert,(-1,)),(t_lambda,([3,1,2],)),
 (t_all,([1,2],)),(t_all,([],)),(t_attr,(types.SimpleNamespace(),)),(t_subscr,([1,2,3,4],)),(t_import,()),(t_fstring,(3,'a')),
 (t_is,(None,)),(t_in,(1,[1])),(t_closure_comp,([1,2],3)),(t_nested_loops,(7,)),(t_wordpiece,("unaffable",{"un":1,"##aff":1,"##able":1})),
 (t_wordpiece,("xyz",{"x":1})),(t_with_suppress,(0,)),(t_with_suppress,(2,)),(t_multi_exc,(3,)),
 (t_chars,("Hello, World!",)),(t_chars,("",)),(t_punct,("Hello, world! ¿Qué tal?",)),(t_range_steps,(10,-5,-3)),(t_range_steps,(0,5,0)),
 (t_floats,(7.5,2.0)),(t_floats,(7.5,0.0)),(t_floats,(-7.5,2.0)),(t_ints,(7,2)),(t_ints,(-7,2)),(t_ints,(7,0)),(t_ints,(2**62,3)),
 (t_float_loop,(100,)),(t_enum,([1,2,3],)),(t_dict_count,(["a","b","a"],)),(t_swap,(1,2)),(t_early,([1,2,3],2)),(t_early,([1],5)),
 (t_with_loop,(5,)),(t_break_finally,(6,)),(t_kwcall,({"b":2},)),(t_kwcall,({"a":2},)),(t_str_ops,("  hello a x ",)),(t_star_call,(1,2,3)),(t_star_call,())]

"""What a positional class pattern's ``__match_args__`` guard costs: the compiled ``ArgsSite`` the rewrite uses,
against the ways of checking it that plain Python offers. Each variant is ``isinstance`` plus one attribute
load, as in ``if Num(v): return v``, with only the guard differing; the first is the floor (no guard, not
exact: a reassigned ``__match_args__`` would go unnoticed). Times are CPU ns per call, best of interleaved
passes.

    python -m benchmarks.matching.guards [--calls N] [--repeats N]
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
from dataclasses import dataclass

from moshjit.extensions.runtime import NO_MATCH_ARGS, ArgsSite, ClassDispatch


@dataclass
class Num:
    value: int


MISSING = object()
ACCEPTED = Num.__match_args__            # what the generated code's per-site global holds after the first match
CLASS_DICT = gc.get_referents(Num.__dict__)[0]  # the dict behind the class's mappingproxy


def no_guard(node):
    if isinstance(node, Num):
        return node.value


SITE = ArgsSite(("value",), NO_MATCH_ARGS)
SITE.read(Num)
SITE.read(Num)  # admitted at its second read (the first gives the class a version tag)


def site_guard(node):
    """What the rewrite emits: the class's ``ArgsSite`` (its class and version tag), read only when that fails."""
    if isinstance(node, Num):
        if Num in SITE or SITE.read(Num) is True:
            return node.value


DISPATCH = ClassDispatch(globals(), ("Num",), (SITE,))


def dispatch_guard(node):
    """A match's class dispatch (``runtime.ClassDispatch``): one lookup answers ``isinstance`` and the guard."""
    if DISPATCH[node] == 1:
        return node.value


def read_and_identity(node):
    """What the rewrite emitted before the ``ArgsSite``: the class attribute read, then identity."""
    if isinstance(node, Num):
        try:
            match_args = Num.__match_args__
        except AttributeError:
            match_args = MISSING
        if match_args is ACCEPTED:
            return node.value


def getattr_guard(node):
    if isinstance(node, Num):
        if getattr(Num, "__match_args__", MISSING) is ACCEPTED:
            return node.value


def class_dict_guard(node):
    """The class's own dict, subscripted (BINARY_SUBSCR_DICT): exact only while the class itself holds the
    attribute and its metaclass is ``type``."""
    if isinstance(node, Num):
        if CLASS_DICT["__match_args__"] is ACCEPTED:
            return node.value


def instance_guard(node):
    """Through the instance: not exact (an instance attribute would shadow it), shown for its cost."""
    if isinstance(node, Num):
        if node.__match_args__ is ACCEPTED:
            return node.value


def global_identity_only(node):
    """A module-global identity test and nothing else: what any guard costs at least."""
    if isinstance(node, Num):
        if ACCEPTED is not MISSING:
            return node.value


VARIANTS = [no_guard, site_guard, dispatch_guard, read_and_identity, getattr_guard, class_dict_guard, instance_guard,
            global_identity_only]


def measure(calls: int, repeats: int) -> dict[str, float]:
    subjects = [Num(i) for i in range(calls)]
    best = {fn.__name__: float("inf") for fn in VARIANTS}
    for _ in range(repeats):
        for fn in VARIANTS:
            start = time.thread_time_ns()
            for subject in subjects:
                fn(subject)
            best[fn.__name__] = min(best[fn.__name__], (time.thread_time_ns() - start) / calls)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=60)
    args = parser.parse_args()
    best = measure(args.calls, args.repeats)
    floor = best["no_guard"]
    print(f"CPython {sys.version.split()[0]}: ns per call (and over no guard)")
    for name, ns in best.items():
        print(f"  {name:22} {ns:6.1f}  (+{ns - floor:.1f})")


if __name__ == "__main__":
    main()

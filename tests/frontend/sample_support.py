"""Registry and comparison helpers for the differential samples: ``to_ssa(f).run(*args)`` against ``f(*args)``."""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field

from hypothesis import strategies as st


@dataclass
class Sample:
    """A function to translate, a strategy for its positional arguments, and inputs always tried."""
    fn: object
    args: st.SearchStrategy
    examples: list = field(default_factory=list)
    kwargs: st.SearchStrategy = field(default_factory=lambda: st.just({}))

    @property
    def id(self) -> str:
        return getattr(self.fn, "__qualname__", repr(self.fn)).replace("<locals>.", "")


SAMPLES: list[Sample] = []


def sample_ids() -> list[str]:
    """Unique test ids: the qualified name, numbered when two samples share one (lambdas)."""
    seen: dict[str, int] = {}
    ids = []
    for s in SAMPLES:
        seen[s.id] = seen.get(s.id, 0) + 1
        ids.append(s.id if seen[s.id] == 1 else f"{s.id}_{seen[s.id]}")
    return ids


def sample(*arg_strategies, examples=(), kwargs=None):
    """Register the decorated function with one strategy per positional parameter and explicit example inputs
    (each a tuple of arguments, or a ``(args, kwargs)`` pair built with ``call``)."""
    def register(fn):
        SAMPLES.append(Sample(fn, st.tuples(*arg_strategies), list(examples),
                              st.fixed_dictionaries(kwargs) if kwargs else st.just({})))
        return fn
    return register


class call:
    """An explicit example with keyword arguments: ``call(1, 2, key=3)``."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


def example_arguments(example) -> tuple[tuple, dict]:
    if isinstance(example, call):
        return example.args, example.kwargs
    return tuple(example), {}


# ---- outcomes -----------------------------------------------------------------------------------------------------
def describe_exception(exc: BaseException | None, depth: int = 0):
    """Type, message and (a few levels of) the cause/context chain: what must match CPython exactly."""
    if exc is None or depth > 3:
        return None
    return (type(exc).__name__, str(exc), exc.__suppress_context__,
            describe_exception(exc.__cause__, depth + 1), describe_exception(exc.__context__, depth + 1))


def normalize(value):
    """A comparable form of a result: NaNs compare equal, containers keep their types and order."""
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [normalize(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(normalize(k), normalize(v)) for k, v in value.items()])
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, sorted(map(repr, value)))
    if hasattr(value, "__dict__") and not isinstance(value, type) and not callable(value):
        return (type(value).__name__, normalize(vars(value)))    # instances: compare their attributes
    return (type(value).__name__, repr(value))


def outcome(fn, args: tuple, kwargs: dict):
    """('return', result, arguments afterwards) or ('raise', exception description, arguments afterwards)."""
    args, kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
    try:
        result = fn(*args, **kwargs)
    except Exception as exc:              # every user-visible exception; BaseExceptions are not sampled
        return ("raise", describe_exception(exc), normalize(args), normalize(kwargs))
    return ("return", normalize(result), normalize(args), normalize(kwargs))

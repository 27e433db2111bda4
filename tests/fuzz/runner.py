"""Run a batch of generated programs through CPython (the oracle), the SSA interpreter, the Cython backend, the
LLVM backend and ``auto``, and classify every difference.

A difference is an *outcome* that is not CPython's: the returned value (float bits, exact types), the exception
(type, message and its ``__cause__``/``__context__`` chain), or the list argument after the call (mutation). Every difference fails, except a NaN whose
sign alone differs after an operation on two NaNs (``only_nan_signs_differ``). An ``OverflowError`` from LLVM or
``auto`` where CPython makes a big int is a failure like any other: the LLVM backend deoptimises there.
"""
from __future__ import annotations

import copy
import math
import signal
import struct
import threading
import warnings
from collections import Counter
from dataclasses import dataclass, field

import moshjit
from tests.fuzz.generator import batch_source, program_source

NAN_SIGN_BUCKET = "nan_sign_of_nan_nan_operation"      # see ``only_nan_signs_differ``
ORACLE_SECONDS = 5.0        # a generated program running longer in CPython (ints growing without bound) is skipped
BACKENDS = ("interpreter", "cython", "llvm", "auto")


def canonical(value):
    """A comparable form of a result: float bits (-0.0, a NaN's sign), exact types, containers item by item."""
    if isinstance(value, float):
        return ("float", struct.pack("<d", value).hex() if value == value else ("nan", math.copysign(1, value)))
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, tuple(canonical(v) for v in value))
    if type(value) is int:             # hex: repr of an int over 4,300 digits raises (sys.set_int_max_str_digits)
        return ("int", hex(value))
    return (type(value).__name__, repr(value))


def exception_chain(exc: BaseException | None, depth: int = 0):
    """Type, message, ``__suppress_context__`` and (a few levels of) the cause and context chain of an exception."""
    if exc is None or depth > 3:
        return None
    return (type(exc).__name__, str(exc), exc.__suppress_context__,
            exception_chain(exc.__cause__, depth + 1), exception_chain(exc.__context__, depth + 1))


def outcome(fn, args):
    """(what the call gave, the list argument afterwards), on copies of the arguments."""
    args = copy.deepcopy(args)
    try:
        result = ("ok", canonical(fn(*args)))
    except Exception as exc:             # the oracle's exceptions are results too
        result = ("raise", exception_chain(exc))
    return result, canonical(args[-1])


class _OracleTimeout(BaseException):
    """Raised into CPython's run of a program by ``oracle_outcome``'s alarm (a BaseException: the generated
    programs catch only Exception subclasses)."""


def oracle_outcome(fn, args, seconds: float = ORACLE_SECONDS):
    """``outcome(fn, args)`` of CPython's run, or None when it ran longer than ``seconds``: a generated loop that
    doubles a big int each step runs for hours, and one such program stalled a whole hunt. Off the main thread
    (where no alarm can be delivered) the run is not limited."""
    if threading.current_thread() is not threading.main_thread():
        return outcome(fn, args)

    def stop(signum, frame):
        raise _OracleTimeout

    previous = signal.signal(signal.SIGALRM, stop)
    try:
        try:
            signal.setitimer(signal.ITIMER_REAL, seconds)
            return outcome(fn, args)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _OracleTimeout:
        return None
    finally:
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Report:
    """Per backend: programs run natively, calls compared, and differences by bucket (with examples)."""
    calls: Counter = field(default_factory=Counter)
    native_programs: Counter = field(default_factory=Counter)
    buckets: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)
    skipped: int = 0                    # calls not compared: CPython's run took over ORACLE_SECONDS

    def merge(self, other: "Report") -> None:
        self.calls.update(other.calls)
        self.native_programs.update(other.native_programs)
        self.buckets.update(other.buckets)
        self.failures += other.failures
        self.skipped += other.skipped


def compile_batch(source: str, flavour: str):
    """The plain batch function and its jitted forms, one per backend (the interpreter's is its SSA's ``run``),
    compiled at their first call: tiered dispatch would run the plain function until it is hot, comparing CPython
    with itself."""
    namespace: dict = {}
    exec(compile("import math\n" + source, f"<fuzz {flavour} batch>", "exec"), namespace)
    plain = namespace["batch"]
    return plain, {"interpreter": moshjit.to_ssa(plain).run,
                   "cython": moshjit.jit(plain, backend="cython", tier="eager"),
                   "llvm": moshjit.jit(plain, backend="llvm", tier="eager") if flavour == "native" else None,
                   "auto": moshjit.jit(plain, tier="eager")}


def run_batch(programs: list[list[str]], flavour: str, argument_sets: list[tuple]) -> Report:
    """Every program of the batch on every argument set, every backend against CPython."""
    report = Report()
    source = batch_source(programs, flavour)
    plain, runners = compile_batch(source, flavour)
    if runners["llvm"] is not None and not _compiles_natively(runners["llvm"], (0,) + tuple(argument_sets[0])):
        report.buckets["native batch refused by llvm"] += 1       # counted; the other backends still run it
        runners["llvm"] = None
    for which, body in enumerate(programs):
        native_here = set()
        for args in argument_sets:
            call_args = (which,) + tuple(args)
            expected = oracle_outcome(plain, call_args)
            if expected is None:
                report.skipped += 1
                continue
            for backend, runner in runners.items():
                if runner is None:
                    continue
                with warnings.catch_warnings():
                    warnings.simplefilter("error", moshjit.MoshjitWarning)     # no silent fallback
                    got = outcome(runner, call_args)
                report.calls[backend] += 1
                if backend in ("llvm", "auto") and _ran_natively(runner):
                    native_here.add(backend)
                if got == expected:
                    continue
                record = (backend, program_source(body, flavour), args, got, expected)
                if only_nan_signs_differ(got, expected):
                    report.buckets[NAN_SIGN_BUCKET] += 1
                else:
                    report.buckets[f"{backend} mismatch"] += 1
                    report.failures.append(record)
        report.native_programs.update(native_here)
    return report


def _without_nan_signs(value):
    if isinstance(value, tuple):
        if len(value) == 2 and value[0] == "float" and isinstance(value[1], tuple):
            return ("float", "nan")
        return tuple(_without_nan_signs(v) for v in value)
    return value


def only_nan_signs_differ(got, expected) -> bool:
    """The sign of a NaN made from two NaNs of different signs is not a property of CPython: its specialising
    interpreter computes ``-nan * nan`` in ``float_mul`` for an instruction's first 8 runs and in other machine
    code afterwards, with the other sign (``tests/fuzz/test_differential_fuzz.py`` shows it). Such differences are
    counted in their own bucket, reported and not failed; NaN signs CPython does fix (``math.copysign``, ``-x``,
    ``abs``) have regression tests of their own (``tests/cython/test_exact_numbers.py``)."""
    return got != expected and _without_nan_signs(got) == _without_nan_signs(expected)


def _compiles_natively(dispatcher, args) -> bool:
    try:
        dispatcher(*copy.deepcopy(args))
    except moshjit.UnsupportedError:
        return False
    except Exception:                   # the program raised: it compiled
        pass
    return True


def _ran_natively(dispatcher) -> bool:
    return any(stats.get("backend") == "llvm" for stats in dispatcher.stats.values())


def describe(record) -> str:
    backend, source, args, got, expected = record
    return f"--- {backend} on {args}\n{source}    got:      {got}\n    expected: {expected}"

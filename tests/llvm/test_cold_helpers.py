"""Cold out-of-line helpers (deoptimisation, taking a result back, cold releases) are ``optnone`` so the
optimiser spends no compile time on them; hot code is not. Their paths stay exact: each is run here."""
import moshjit
from moshjit.backends.llvm.runtime import RUNTIME_IR

SCALE = 3


def scaled_square(n):
    return n * SCALE * n


def defines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("define")]


def test_cold_helpers_are_optnone_and_hot_code_is_not():
    native = moshjit.jit(scaled_square, backend="llvm")
    assert native(5) == 75
    text = str(native.inspect_code())
    lines = defines(text) + defines(RUNTIME_IR)
    cold = [line for line in lines if " cold" in line]
    for name in ("@mj_deopt(", "mj_take_back_", "@mj_decref_cold("):
        assert any(name in line for line in cold), name
    assert all("optnone" in line and "noinline" in line for line in cold), cold
    assert not [line for line in lines if "optnone" in line and " cold" not in line]


def test_the_cold_paths_stay_exact():
    global SCALE
    native = moshjit.jit(scaled_square, backend="llvm")
    try:
        assert native(2 ** 31) == scaled_square(2 ** 31) == 3 * 2 ** 62           # beyond 64 bits: deoptimises
        assert sum(stats.get("deopts", 0) for stats in native.stats.values()) >= 1
        SCALE = 5                                                                # the binding moved: looked up again
        assert native(7) == scaled_square(7) == 245
        del globals()["SCALE"]
        try:
            scaled_square(7)
        except NameError as expected:
            try:
                native(7)
            except NameError as got:
                assert str(got) == str(expected)
            else:
                raise AssertionError("no NameError")
    finally:
        SCALE = 3

"""The smoke suite run against a built wheel in a fresh virtual environment (``make wheel-smoke``): what a new
user does first — a str function through Cython, a numeric one through LLVM, a pattern-matching module through
the import hook, the command line — with an empty cache, the first ``@jit`` timed including imports.

Run as a script from outside the repository (so ``import moshjit`` can only find the installed wheel); it prints
'N passed, M failed' and exits non-zero on any failure. Not collected by pytest (it needs the wheel's venv).
"""
import os
import subprocess
import sys
import tempfile
import textwrap
import time

START = time.perf_counter()
import unicodedata  # noqa: E402

import moshjit  # noqa: E402

RESULTS = []


def check(name, condition, detail=""):
    RESULTS.append(bool(condition))
    print(f"{'ok  ' if condition else 'FAIL'} {name}{'' if condition else ': ' + str(detail)}")


# Eager: the first call compiles, as the first-@jit timing needs (the default tiers would run it as plain Python
# until it is hot; tests/test_tiers.py covers them).
@moshjit.jit(tier="eager")
def strip_accents(text):
    output = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.category(ch) != "Mn":
            output.append(ch)
    return "".join(output)


check("str function through Cython", strip_accents("Crème brûlée") == "Creme brulee")
FIRST_JIT_S = time.perf_counter() - START
stats = strip_accents.stats[("str",)]
check("  compiled by the Cython backend", stats["backend"] == "cython", stats)


@moshjit.jit(tier="eager")
def mean(xs):
    total = 0.0
    for x in xs:
        total += x
    return total / len(xs)


check("numeric function through LLVM", mean([1.0, 2.0, 4.5]) == 2.5)
check("  compiled by the LLVM backend", mean.stats[("list",)]["backend"] == "llvm", mean.stats)

from moshjit.runtime import support  # noqa: E402

check("runtime shipped compiled in the wheel", support.prebuilt_fingerprint() is not None and all(
    sys.modules[name].__file__.startswith(support.RUNTIME_DIR) for name in support.SUPPORT_MODULES))
check("installed from the wheel, not the repository", "site-packages" in moshjit.__file__, moshjit.__file__)

with tempfile.TemporaryDirectory() as directory:
    with open(os.path.join(directory, "shapes_smoke.py"), "w", encoding="utf-8") as f:
        f.write(textwrap.dedent("""\
            # moshmosh?
            # +pattern-matching
            def describe(value):
                with match(value):
                    if (x, y):
                        return f"pair {x} {y}"
                    if [first, *rest]:
                        return f"list from {first} and {len(rest)} more"
                    if _:
                        return "something else"
        """))
    sys.path.insert(0, directory)
    import moshjit.extensions
    moshjit.extensions.install()
    import shapes_smoke
    check("pattern matching through the import hook",
          [shapes_smoke.describe(v) for v in [(1, 2), [1, 2, 3], 5]]
          == ["pair 1 2", "list from 1 and 2 more", "something else"])

script = os.path.join(os.path.dirname(sys.executable), "moshjit")
version = subprocess.run([script, "--version"], capture_output=True, text=True)
check("moshjit --version", version.stdout == f"moshjit {moshjit.__version__}\n", version)

print(f"first @jit with an empty cache, imports included: {FIRST_JIT_S:.2f} s")
print(f"wheel smoke: {sum(RESULTS)} of {len(RESULTS)} checks passed")
sys.exit(0 if all(RESULTS) else 1)

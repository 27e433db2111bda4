"""The suite tests compiled code: eager tiering by default (tests of the tiers themselves ask for them).

``MOSHJIT_TEST_SHARD`` (``i/n``) runs the tests of version-specific bytecode, AST or positions that compile
little (``EVERY_VERSION``) and the i-th of n parts of the rest: `make test` gives each CPython of the machine one
part, so every test runs, the version-specific ones on every version (docs/architecture.md, "Every version runs
its share"). ``MOSHJIT_TEST_EXAMPLES`` (a share, default 1) scales the number of examples each hypothesis test
draws."""
import hashlib
import os

os.environ.setdefault("MOSHJIT_TIER", "eager")


def example_share() -> float:
    value = os.environ.get("MOSHJIT_TEST_EXAMPLES", "1")
    try:
        share = float(value)
    except ValueError:
        raise ValueError(f"MOSHJIT_TEST_EXAMPLES must be a number in (0, 1], not {value!r}") from None
    if not 0 < share <= 1:
        raise ValueError(f"MOSHJIT_TEST_EXAMPLES must be a number in (0, 1], not {value!r}")
    return share


# What differs between versions and costs little to test: the bytecode the frontend decodes, the SSA, passes and
# golden IR built from it (each frontend sample's SSA is run by the reference interpreter), the AST the source
# rewrites see, the positions errors point at. Compiled code (one C build per function and signature, most of a
# cold run) is tested once, on one version each test.
EVERY_VERSION = ("tests/frontend/", "tests/golden/", "tests/ir/", "tests/analysis/", "tests/passes/",
                 "tests/test_layering.py", "tests/usability/test_tracebacks.py",
                 *(f"tests/extensions/test_{name}.py" for name in (
                     "hook", "pragma", "pattern_matching", "pattern_differential", "pipeline_quick_lambda",
                     "runner_cli", "pickling", "match_trees", "match_programs", "match_nested_guards")))


def shard() -> tuple[int, int] | None:
    """``MOSHJIT_TEST_SHARD`` as (i, n), or None: every test."""
    value = os.environ.get("MOSHJIT_TEST_SHARD", "")
    if not value:
        return None
    index, _, count = value.partition("/")
    if not (index.isdigit() and count.isdigit() and 1 <= int(index) <= int(count)):
        raise ValueError(f"MOSHJIT_TEST_SHARD must be i/n with 1 <= i <= n, not {value!r}")
    return int(index), int(count)


# Tests next to each other in a file mostly compile the same functions (a test's parameters, its backends), which
# the compile cache builds once: a file's tests go to the parts in runs of this many, keeping neighbours together
# (spreading single tests built ~40% more modules per part) while a large file still spreads over the parts.
RUN_OF_TESTS = 40


def shard_key(nodeid: str, position: int) -> str:
    """What places a test: its file and which run of ``RUN_OF_TESTS`` it is in (``position``: its index among the
    file's tests as collected)."""
    return f"{nodeid.partition('::')[0]}#{position // RUN_OF_TESTS}"


def in_shard(nodeid: str, position: int, index: int, count: int) -> bool:
    """Whether a test runs in part ``index`` of ``count``: always for ``EVERY_VERSION``, else by a stable hash of
    its ``shard_key``."""
    if nodeid.startswith(EVERY_VERSION):
        return True
    return int(hashlib.sha256(shard_key(nodeid, position).encode()).hexdigest(), 16) % count == index - 1


def positions_in_files(nodeids: list[str]) -> list[int]:
    """Each test's index among its file's tests, in collection order."""
    seen: dict[str, int] = {}
    positions = []
    for nodeid in nodeids:
        path = nodeid.partition("::")[0]
        positions.append(seen.get(path, 0))
        seen[path] = positions[-1] + 1
    return positions


def pytest_collection_modifyitems(config, items):
    """Keep this shard's tests; scale each hypothesis test's ``max_examples`` (once per test function, however many
    parameters it has)."""
    part = shard()
    if part is not None:
        positions = positions_in_files([item.nodeid for item in items])
        kept = [item for item, position in zip(items, positions) if in_shard(item.nodeid, position, *part)]
        kept_ids = {id(item) for item in kept}
        config.hook.pytest_deselected(items=[item for item in items if id(item) not in kept_ids])
        items[:] = kept
    share = example_share()
    if share == 1:
        return
    from hypothesis import settings
    scaled = set()
    for item in items:
        test = getattr(item, "obj", None)
        if getattr(test, "hypothesis", None) is None or id(test) in scaled:
            continue
        scaled.add(id(test))
        current = test._hypothesis_internal_use_settings
        test._hypothesis_internal_use_settings = settings(
            current, max_examples=max(1, round(current.max_examples * share)))

"""The suite tests compiled code: eager tiering by default (tests of the tiers themselves ask for them).

``MOSHJIT_TEST_EXAMPLES`` (a share, default 1) scales the number of examples every hypothesis test draws: `make
test` runs the whole suite at full depth on the first CPython and every test again, with a share of the random
examples, on each further version (see docs/architecture.md, "Every version runs everything")."""
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


def pytest_collection_modifyitems(config, items):
    """Scale each hypothesis test's ``max_examples`` (once per test function, however many parameters it has)."""
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

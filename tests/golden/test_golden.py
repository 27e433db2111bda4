"""One generic driver over every ``tests/golden/*.test`` case (see ``driver.py`` for the format and updating)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests import version_golden
from tests.golden import driver

FILES = sorted(Path(__file__).parent.glob("*.test"))
if driver.updating():
    for path in FILES:
        driver.update(path)
CASES = [case for path in FILES for case in driver.parse(path)]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.path.stem}:{c.name}" for c in CASES])
def test_printed_ssa_matches(case):
    diff = driver.check(case)
    if diff:
        pytest.fail(f"printed SSA differs (set {driver.UPDATE_VARIABLE}=1 to accept):\n{diff}", pytrace=False)


def test_enough_golden_functions():
    assert len(CASES) >= 25
    assert len({c.name for c in CASES}) == len(CASES)


def test_round_trip_of_the_file_format(tmp_path):
    path = tmp_path / "one.test"
    path.write_text("[case f]\ndef f(x):\n    return x + 1\n\n[frontend]\nstale\n\n[optimized]\nstale\n")
    driver.update(path)
    (case,) = driver.parse(path)
    assert driver.check(case) is None
    assert case.wanted()["optimized"].startswith("def f(x):\nB0:\n")
    assert driver.render(driver.parse(path)) == path.read_text()


def test_each_version_checks_its_own_expectations_where_it_has_them(tmp_path, monkeypatch):
    """Updating on a non-reference version writes only the differing cases to its own file; the reference file
    stays as it was, and a version whose output agrees with the reference has no file."""
    path = tmp_path / "one.test"
    stale = "[case f]\ndef f(x):\n    return x + 1\n[frontend]\nstale\n[optimized]\nstale\n"
    path.write_text(stale)
    monkeypatch.setattr(version_golden, "REFERENCE_PYTHON", (2, 7))
    driver.update(path)
    own = driver.version_path(path)
    assert path.read_text() == stale and own.exists()
    (case,) = driver.parse(path)
    assert case.expected["frontend"] == "stale\n" and driver.check(case) is None
    path.write_text(own.read_text())
    driver.update(path)
    assert not own.exists()


def test_version_files_hold_only_known_cases():
    for own in Path(__file__).parent.glob("py3*/*.test"):
        reference = {case.name: case.source for case in driver._parse_file(own.parent.parent / own.name)}
        for case in driver._parse_file(own):
            assert reference.get(case.name) == case.source, f"{own}: {case.name}"

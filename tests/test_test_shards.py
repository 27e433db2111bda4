"""`make test` shares the suite out among the CPythons (tests/conftest.py): every test runs in exactly one part, the
version-specific ones in every part."""
import os

import pytest

from tests.conftest import EVERY_VERSION, RUN_OF_TESTS, in_shard, positions_in_files, shard

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

IDS = [f"tests/cython/test_{name}.py::test_case[{i}]" for name in "abcdefghij" for i in range(3 * RUN_OF_TESTS)]
POSITIONS = positions_in_files(IDS)


def parts_of(count):
    return [[nodeid for nodeid, position in zip(IDS, POSITIONS) if in_shard(nodeid, position, index, count)]
            for index in range(1, count + 1)]


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_every_test_runs_in_exactly_one_part(count):
    parts = parts_of(count)
    assert sorted(sum(parts, [])) == sorted(IDS)
    assert min(len(part) for part in parts) > len(IDS) / count / 2          # spread, not all in one part


def test_neighbours_in_a_file_run_in_the_same_part():
    assert POSITIONS[:3] == [0, 1, 2] and POSITIONS[3 * RUN_OF_TESTS] == 0         # counted per file
    for part in parts_of(3):
        for nodeid in part:
            position = POSITIONS[IDS.index(nodeid)]
            start = IDS.index(nodeid) - position % RUN_OF_TESTS
            assert set(IDS[start:start + RUN_OF_TESTS]) <= set(part)


def test_version_specific_tests_run_in_every_part():
    for prefix in EVERY_VERSION:
        nodeid = prefix + ("test_x.py::test_y" if prefix.endswith("/") else "::test_y")
        assert all(in_shard(nodeid, 7, index, 3) for index in (1, 2, 3))


def test_every_version_names_what_is_there():
    for prefix in EVERY_VERSION:
        assert os.path.exists(os.path.join(ROOT, prefix)), prefix


def test_the_part_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv("MOSHJIT_TEST_SHARD", raising=False)
    assert shard() is None
    monkeypatch.setenv("MOSHJIT_TEST_SHARD", "2/3")
    assert shard() == (2, 3)
    for bad in ("0/3", "4/3", "2", "a/b", "2/-3"):
        monkeypatch.setenv("MOSHJIT_TEST_SHARD", bad)
        with pytest.raises(ValueError, match="MOSHJIT_TEST_SHARD"):
            shard()

"""Data-driven golden tests of the printed SSA, in the style of mypyc's ``.test`` files.

A ``.test`` file is a sequence of cases::

    [case function_name]
    <Python source defining function_name (and anything it needs)>
    [frontend]
    <the exact IR the frontend prints>
    [optimized]
    <the exact IR after the pass pipeline>
    [resolved]             (optional)
    <the exact IR after resolving globals, then the pass pipeline: what the driver's passes see>

Run ``MOSHJIT_UPDATE_GOLDEN=1 pytest tests/golden`` to rewrite every expected section with the current output
after an intended change (then review the diff in git).

**Per CPython version** (``tests/version_golden.py``). The files here hold what CPython 3.11 gives. Where
another version's bytecode gives different SSA (3.12 inlines comprehensions and turns loops around, 3.13 calls
``bool()`` where a truth test crosses a block, …), ``py312/<file>.test`` holds that version's expected output
for just those cases, in the same format. The driver checks each case against its running version's file when
the case is there, else against the reference. Updating on a version writes its own file (only the cases that
differ from the reference), so run the update once on each version.
"""
from __future__ import annotations

import difflib
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from moshjit.frontend import build_ssa
from moshjit.ir.printer import format_function
from moshjit.ir.verifier import verify
from moshjit.passes.pipeline import run_passes
from moshjit.passes.resolve_globals import resolve_globals
from tests.version_golden import own_path

UPDATE_VARIABLE = "MOSHJIT_UPDATE_GOLDEN"
SECTIONS = ("frontend", "optimized")
OPTIONAL_SECTIONS = ("resolved",)           # checked and rewritten only in the cases that have them
_HEADER = re.compile(r"^\[(case) (\S+)\]$|^\[(frontend|optimized|resolved)\]$")


@dataclass
class Case:
    name: str
    path: Path
    line: int                      # of the [case] header, for error messages
    source: str
    expected: dict                  # the reference version's sections
    version_expected: dict | None = field(default=None)   # the running version's own sections, if it has them

    def wanted(self) -> dict:
        """What the running CPython must print: its own sections where it has them, else the reference's."""
        return self.version_expected if self.version_expected is not None else self.expected

    def actual(self) -> dict:
        """Translate the case's function and print it before and after the passes."""
        namespace: dict = {"__name__": f"golden_{self.name}"}
        exec(compile(self.source, f"{self.path.name}[{self.name}]", "exec"), namespace)
        ir = build_ssa(namespace[self.name], optimize=False)
        verify(ir)
        frontend = format_function(ir)
        run_passes(ir, verify_each=True)
        actual = {"frontend": frontend, "optimized": format_function(ir)}
        if "resolved" in self.expected:
            ir = build_ssa(namespace[self.name], optimize=False)
            resolve_globals(ir)
            run_passes(ir, verify_each=True)
            actual["resolved"] = format_function(ir)
        return actual

    def sections(self) -> tuple:
        return SECTIONS + tuple(s for s in OPTIONAL_SECTIONS if s in self.expected)


def version_path(path: Path, version: tuple[int, int] | None = None) -> Path | None:
    """Where the running (or the given) CPython keeps its own expectations for ``path``; None for the reference."""
    return own_path(path, version)


def parse(path: Path) -> list[Case]:
    """The cases of a reference file, each with the running version's own sections when it has them."""
    cases = _parse_file(path)
    own = version_path(path)
    if own is not None and own.exists():
        by_name = {case.name: case for case in cases}
        for case in _parse_file(own):
            if case.name not in by_name or by_name[case.name].source != case.source:
                raise ValueError(f"{own}:{case.line}: case {case.name} is not in {path.name} with the same source")
            by_name[case.name].version_expected = case.expected
    return cases


def _parse_file(path: Path) -> list[Case]:
    cases: list[Case] = []
    section, lines = None, []

    def close():
        if section is None:
            return
        text = "\n".join(lines).strip("\n") + "\n"
        if section == "source":
            cases[-1].source = text
        else:
            cases[-1].expected[section] = text

    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        header = _HEADER.match(line)
        if header is None:
            if section is None and line.strip():
                raise ValueError(f"{path}:{number}: text outside a case")
            lines.append(line)
            continue
        close()
        lines = []
        if header.group(1):
            cases.append(Case(header.group(2), path, number, "", {}))
            section = "source"
        else:
            section = header.group(3)
    close()
    return cases


def render(cases: list[Case], sections: str = "expected") -> str:
    out = []
    for case in cases:
        out.append(f"[case {case.name}]\n{case.source}")
        for section in case.sections():
            out.append(f"[{section}]\n{getattr(case, sections).get(section, '')}")
    return "\n".join(out)


def check(case: Case) -> str | None:
    """None if the case matches, else a readable unified diff (expected → actual) of every differing section."""
    actual = case.actual()
    wanted = case.wanted()
    label = f"py{sys.version_info[0]}{sys.version_info[1]}/{case.path.name}" \
        if case.version_expected is not None else f"{case.path.name}:{case.line}"
    diffs = []
    for section in case.sections():
        expected = wanted.get(section, "")
        if actual[section] != expected:
            diffs.append("".join(difflib.unified_diff(
                expected.splitlines(keepends=True), actual[section].splitlines(keepends=True),
                fromfile=f"{label} [{case.name}] expected {section}",
                tofile=f"actual {section}")))
    return "\n".join(diffs) or None


def update(path: Path) -> None:
    """Rewrite the running version's expectations for ``path`` with the current output of every case: the file
    itself on the reference version, else the version's own file (only the cases that differ; none: no file)."""
    cases = parse(path)
    own = version_path(path)
    if own is None:
        for case in cases:
            case.expected = case.actual()
        path.write_text(render(cases), encoding="utf-8")
        return
    differing = []
    for case in cases:
        case.version_expected = case.actual()
        if case.version_expected != case.expected:
            differing.append(case)
    if differing:
        own.parent.mkdir(exist_ok=True)
        own.write_text(render(differing, "version_expected"), encoding="utf-8")
    elif own.exists():
        own.unlink()


def updating() -> bool:
    return os.environ.get(UPDATE_VARIABLE, "") not in ("", "0")

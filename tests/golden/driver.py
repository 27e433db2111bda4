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
"""
from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from moshjit.frontend import build_ssa
from moshjit.ir.printer import format_function
from moshjit.ir.verifier import verify
from moshjit.passes.pipeline import run_passes
from moshjit.passes.resolve_globals import resolve_globals

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
    expected: dict

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


def parse(path: Path) -> list[Case]:
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


def render(cases: list[Case]) -> str:
    out = []
    for case in cases:
        out.append(f"[case {case.name}]\n{case.source}")
        for section in case.sections():
            out.append(f"[{section}]\n{case.expected.get(section, '')}")
    return "\n".join(out)


def check(case: Case) -> str | None:
    """None if the case matches, else a readable unified diff (expected → actual) of every differing section."""
    actual = case.actual()
    diffs = []
    for section in case.sections():
        expected = case.expected.get(section, "")
        if actual[section] != expected:
            diffs.append("".join(difflib.unified_diff(
                expected.splitlines(keepends=True), actual[section].splitlines(keepends=True),
                fromfile=f"{case.path.name}:{case.line} [{case.name}] expected {section}",
                tofile=f"actual {section}")))
    return "\n".join(diffs) or None


def update(path: Path) -> None:
    """Rewrite ``path`` with the current output of every case."""
    cases = parse(path)
    for case in cases:
        case.expected = case.actual()
    path.write_text(render(cases), encoding="utf-8")


def updating() -> bool:
    return os.environ.get(UPDATE_VARIABLE, "") not in ("", "0")

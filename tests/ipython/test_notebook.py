"""The example notebook ``docs/moshjit-demo.ipynb``, executed headless in real kernels with nbclient.

The notebook runs twice, each time in a new kernel, with cells appended that compile functions no earlier run
can have cached (their names carry a fresh nonce): the first run compiles them, the second must find them in
the on-disk cache although cell code has no source file and each kernel names its cells differently.
"""
from __future__ import annotations

import json
import os
import re
import uuid
from pathlib import Path

import nbformat
import pytest
from ipykernel.kernelspec import write_kernel_spec
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "moshjit-demo.ipynb"
KERNEL = "moshjit-tests"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def kernel_specs(tmp_path_factory) -> KernelSpecManager:
    """A kernel spec for this interpreter in a private directory, so no installed Jupyter setup is needed."""
    directory = tmp_path_factory.mktemp("kernels")
    write_kernel_spec(directory / KERNEL, overrides={"display_name": "moshjit tests"})
    return KernelSpecManager(kernel_dirs=[str(directory)])


def probe_cells(nonce: str) -> list:
    """Two functions new to the cache (one per backend), a cell that reports what the cache did, and a
    ``%%moshjit`` cell with a syntax error."""
    broken = nbformat.v4.new_code_cell("%%moshjit\ndef broken(x):\n    return x +\n",
                                       metadata={"tags": ["raises-exception"]})
    return [broken] + [nbformat.v4.new_code_cell(source) for source in (
        f"%%moshjit --backend cython\ndef probe_{nonce}(text):\n    return len(text) * 2\n",
        f"%%moshjit --backend llvm\ndef add_{nonce}(a, b):\n    return a * 31 // b\n",
        "import json\n"
        f"calls = {{'demo': (split_on_punctuation, 'a, b'), 'cython': (probe_{nonce}, 'abc'),\n"
        f"         'llvm': (add_{nonce}, 2, 3)}}\n"
        "print(json.dumps({name: {'result': fn(*args), 'filename': fn.py_func.__code__.co_filename,\n"
        "                         'caches': [info['cache'] for info in fn.stats.values()]}\n"
        "                  for name, (fn, *args) in calls.items()}))",
    )]


def execute(specs: KernelSpecManager, cwd: Path, nonce: str):
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    notebook.cells.extend(probe_cells(nonce))
    manager = KernelManager(kernel_name=KERNEL, kernel_spec_manager=specs)
    NotebookClient(notebook, km=manager, timeout=180, startup_timeout=60,
                   resources={"metadata": {"path": str(cwd)}}).execute()
    return notebook


def outputs_of(notebook, marker: str) -> list:
    """The outputs of the one code cell whose source contains ``marker``."""
    found = [cell for cell in notebook.cells if cell.cell_type == "code" and marker in cell.source]
    assert len(found) == 1, marker
    return found[0].outputs


def stdout_of(notebook, marker: str) -> str:
    return "".join(o.text for o in outputs_of(notebook, marker) if o.output_type == "stream" and o.name == "stdout")


def result_of(notebook, marker: str) -> str:
    results = [o.data["text/plain"] for o in outputs_of(notebook, marker) if o.output_type == "execute_result"]
    assert len(results) == 1, marker
    return results[0]


def test_demo_notebook_in_two_kernels(kernel_specs, tmp_path):
    nonce = uuid.uuid4().hex[:12]
    first = execute(kernel_specs, tmp_path, nonce)

    errors = [(cell, o) for cell in first.cells if cell.cell_type == "code" for o in cell.outputs
              if o.output_type == "error"]
    assert len(errors) == 2, errors                          # only the deliberate ones
    for (cell, error), message, line in zip(errors, ["multiple assignments to name 'a' in pattern",
                                                      "invalid syntax"],
                                            [r"if \(a, a, \*_\):", r"return x \+"]):
        assert "raises-exception" in cell.metadata.tags
        assert error.ename == "SyntaxError" and message in error.evalue
        shown = _ANSI.sub("", "".join(error.traceback))
        assert re.search(rf"Cell In\[\d+\], line 3\n\s+{line}", shown), shown

    assert stdout_of(first, "def describe(token)") == "special [CLS]\ncharacter 'a'\nun and 2 more\nsomething else\n"
    assert result_of(first, "| str.strip | str.lower | str.split") == "['hello,', 'world']"
    assert stdout_of(first, "# +quick-lambda") == ("[('##aff', 1), ('##able', 2), ('un', 3)]\n['un', 'aff', 'able']\n"
                                                  "['HELLO', 'WORLD']\n")
    assert outputs_of(first, "def split_on_punctuation") == []
    jitted = [c.outputs for c in first.cells if c.cell_type == "code" and c.source == "split_on_punctuation"]
    assert [o.data["text/plain"] for o in jitted[0]] == ["<moshjit.jit __main__.split_on_punctuation>"]
    assert [result_of(first, s) for s in ("count_word_characters(text)", "first_pair([")] == ["30", "'##s'"]
    tokens = ("['Hello', ',', 'world', '!', 'Don', \"'\", 't', 'panic', ':', 'naïve', 'café', '—', 'ok', '?']\n"
              "same as plain Python: True\n")
    assert stdout_of(first, "tokens = split_on_punctuation(text)") == tokens
    assert re.fullmatch(r"\{\('str',\): \('cython', '(hit|miss)'\)\}", result_of(first, "split_on_punctuation.stats"))
    ssa = stdout_of(first, "%moshjit_ssa is_control")
    assert ssa.startswith("def is_control(ch):\n") and "call_method['category']" in ssa
    info = stdout_of(first, "%moshjit_info")
    assert info.startswith("moshjit ") and f"cache directory {os.environ['MOSHJIT_CACHE_DIR']}" in info
    pages = [o.data["text/html"] for o in outputs_of(first, "%%moshjit -a") if o.output_type == "display_data"]
    assert len(pages) == 1 and "moshjit annotation: count_word_characters" in pages[0]
    assert "for ch in text:" in pages[0] and "Whole typed SSA" in pages[0]

    second = execute(kernel_specs, tmp_path, nonce)
    reports = [json.loads(stdout_of(run, "print(json.dumps(")) for run in (first, second)]
    assert [r["demo"]["result"] for r in reports] == [["a", ",", "b"]] * 2
    assert [r["cython"]["result"] for r in reports] == [6, 6] and [r["llvm"]["result"] for r in reports] == [20, 20]
    for name in ("demo", "cython", "llvm"):
        assert reports[0][name]["filename"] != reports[1][name]["filename"]      # each kernel names cells anew
    for name in ("demo", "cython"):           # Cython modules are keyed by their text, which names no file
        assert reports[1][name]["caches"] == ["hit"], (name, reports)
    assert reports[0]["cython"]["caches"] == reports[0]["llvm"]["caches"] == ["miss"]
    # LLVM machine code that can raise names file:line in its traceback entries, so it is keyed by the cell's file
    # name too (code that names no location, like a*31+b, is rightly shared between kernels)
    assert reports[1]["llvm"]["caches"] == ["miss"], reports

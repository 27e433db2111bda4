"""The command line as a user meets it, through real subprocesses: one clear line and exit status 1 or 2 for
every user error, never a traceback from moshjit's internals."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import moshjit
from moshjit.passes.pipeline import PIPELINE

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = textwrap.dedent("""\
    import sys

    def mean(xs: list[float]) -> float:
        total = 0.0
        for x in xs:
            total += x
        return total / len(xs)

    def tokens(text, vocab):
        return [vocab.get(word, 0) for word in text.split()]

    def numbers(n):
        return super()

    if __name__ == "__main__":
        print("MAIN BLOCK RAN")
    sys.exit(2)
""")


def moshjit_cli(*args, cwd, module=True):
    """Run the CLI as ``python -m moshjit`` (or the console script); (status, stdout, stderr)."""
    env = {**os.environ, "PYTHONPATH": REPO}
    command = [sys.executable, "-m", "moshjit"] if module else [os.path.join(os.path.dirname(sys.executable),
                                                                               "moshjit")]
    proc = subprocess.run(command + list(args), capture_output=True, text=True, cwd=cwd, env=env, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def workdir(tmp_path):
    (tmp_path / "script.py").write_text(SCRIPT)
    (tmp_path / "broken.py").write_text("# moshmosh?\n# +pattern-matching\nwith match(1):\n    if a, b:\n"
                                        "        pass\n")
    return tmp_path


def no_traceback(stderr: str) -> bool:
    return "Traceback" not in stderr and "moshjit/" not in stderr


@pytest.mark.parametrize("args, status, message", [
    (["ssa", "script.py:numbers"], 1, "script.py:13: unsupported: super() without arguments outside a method"),
    (["ssa", "no_such_module:f"], 1, "moshjit: error: cannot import 'no_such_module'"),
    (["ssa", "script.py"], 2, "expected FILE.py:FUNCTION or MODULE:FUNCTION"),
    (["ssa", "script.py:missing"], 1, "has no attribute 'missing' (loading it stopped early: SystemExit(2)"),
    (["ssa", "nofile.py:f"], 2, "no such file: nofile.py"),
    (["rewrite", "nofile.py"], 2, "cannot read nofile.py: No such file or directory"),
    (["rewrite", "broken.py"], 1, "SyntaxError: invalid syntax"),
    (["annotate", "script.py:mean", "--args", "str, str"], 2, "mean(xs) takes 1 argument(s); --args gives 2"),
    (["annotate", "script.py:mean", "--args", "floats"], 2, "unknown argument kind 'floats'"),
    (["annotate", "script.py:sys"], 1, "is a module, not a function"),
])
def test_user_errors_are_one_clear_message(workdir, args, status, message):
    code, out, err = moshjit_cli(*args, cwd=workdir)
    assert code == status and message in err and no_traceback(err), err


def test_syntax_errors_in_extended_files_show_only_the_error(workdir):
    _, _, err = moshjit_cli("rewrite", "broken.py", cwd=workdir)
    assert err == '  File "broken.py", line 4\n    if a, b:\n        ^\nSyntaxError: invalid syntax\n'


def test_version_help_and_name(workdir):
    code, out, _ = moshjit_cli("--version", cwd=workdir)
    assert code == 0 and out == f"moshjit {moshjit.__version__}\n"
    code, out, _ = moshjit_cli("--help", cwd=workdir)
    assert code == 0 and out.startswith("usage: python -m moshjit [-h] [--version] COMMAND")
    for command in ("ssa", "annotate", "rewrite", "run", "info"):
        assert f"\n    {command} " in out
    assert "examples:" in out and "Argument kinds for --args" in out
    script = os.path.join(os.path.dirname(sys.executable), "moshjit")
    if os.path.exists(script):                  # the console script names itself
        code, out, _ = moshjit_cli("--help", cwd=workdir, module=False)
        assert code == 0 and out.startswith("usage: moshjit [-h]")


def test_ssa_loads_the_target_without_running_it_as_a_script(workdir):
    code, out, err = moshjit_cli("ssa", "script.py:mean", cwd=workdir)
    assert code == 0 and out.startswith("def mean(xs):") and "MAIN BLOCK RAN" not in out, err


def test_ssa_passes_prints_each_pass_once(workdir):
    code, out, _ = moshjit_cli("ssa", "script.py:tokens", "--passes", cwd=workdir)
    headers = [line for line in out.splitlines() if line.startswith("== ")]
    assert code == 0 and headers[0] == "== after frontend =="
    names = [header.split()[2].rstrip(":") for header in headers[1:] if "(again)" not in header]
    assert names == [name for name, _ in PIPELINE]


def test_broken_pipe_is_quiet(workdir):
    env = {**os.environ, "PYTHONPATH": REPO}
    proc = subprocess.run(f"{sys.executable} -m moshjit ssa script.py:tokens --passes | head -1", shell=True,
                          capture_output=True, text=True, cwd=workdir, env=env, timeout=300)
    assert proc.stdout == "== after frontend ==\n" and proc.stderr == ""


def test_annotate_writes_function_html_by_default_and_takes_item_types(workdir):
    code, out, err = moshjit_cli("annotate", "script.py:mean", "--args", "list[float]", cwd=workdir)
    assert code == 0 and out == "wrote mean.html\n", err
    page = (workdir / "mean.html").read_text()
    assert "Backend: <b>llvm</b>. Arguments: <code>xs: list[float]</code>" in page
    assert "object operations" in page and "(0 object operations in all)" in page
    code, out, _ = moshjit_cli("annotate", "script.py:tokens", "--args", "str, dict", "-o", "-", cwd=workdir)
    assert code == 0 and out.startswith("<!DOCTYPE html>") and "Backend: <b>cython</b>" in out
    assert 'class="generated"' in out and "text: str, vocab: dict[object, object]" in out

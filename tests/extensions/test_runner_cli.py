"""``python -m moshjit run`` and ``python -m moshjit rewrite``, through real subprocesses."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from moshjit.extensions.runner import run_script

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _moshjit(*args, cwd):
    env = {**os.environ, "PYTHONPATH": REPO}
    return subprocess.run([sys.executable, "-m", "moshjit", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=120)


def _script(tmp_path, body, name="script.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body).lstrip("\n"), encoding="utf-8")
    return path


def test_run_executes_a_script_that_uses_the_extensions(tmp_path):
    _script(tmp_path, "helper.py", name="unused.py")
    _script(tmp_path, """
        # moshmosh?
        # +pipeline
        x = 1 | (lambda v: v + 1)
    """, name="helper_ext.py")
    _script(tmp_path, """
        #!/usr/bin/env python
        # moshmosh?
        # +pattern-matching
        # +pipeline
        import sys
        import helper_ext
        with match(sys.argv[1:]):
            if [first, *rest]:
                print(first, rest | len, helper_ext.x, __name__)
    """)
    result = _moshjit("run", "script.py", "a", "b", "--flag", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "a 2 2 __main__\n"


def test_run_returns_the_exit_code_and_prints_tracebacks_with_original_lines(tmp_path):
    _script(tmp_path, """
        # moshmosh?
        # +pipeline
        import sys
        if sys.argv[1] == "exit":
            raise SystemExit(7)
        0 | (lambda v: 1 / v)
    """)
    assert _moshjit("run", "script.py", "exit", cwd=tmp_path).returncode == 7
    failed = _moshjit("run", "script.py", "crash", cwd=tmp_path)
    assert failed.returncode == 1
    assert 'script.py", line 6, in <module>' in failed.stderr
    assert "0 | (lambda v: 1 / v)" in failed.stderr and "ZeroDivisionError" in failed.stderr
    assert "runner.py" not in failed.stderr


def test_run_reports_extended_syntax_errors(tmp_path):
    _script(tmp_path, """
        # moshmosh?
        # +pattern-matching
        with match(1):
            if a, b:
                pass
    """)
    plain_syntax = _moshjit("run", "script.py", cwd=tmp_path)
    assert plain_syntax.returncode == 1 and "SyntaxError" in plain_syntax.stderr
    _script(tmp_path, """
        # moshmosh?
        # +pattern-matching
        with match(1):
            if (a, a):
                pass
    """)
    extended = _moshjit("run", "script.py", cwd=tmp_path)
    assert extended.returncode == 1
    assert "line 4" in extended.stderr and "multiple assignments to name 'a' in pattern" in extended.stderr


def test_run_script_in_process_restores_the_interpreter_state(tmp_path, capsys):
    path = _script(tmp_path, """
        # moshmosh?
        # +pipeline
        import sys
        print(sys.argv | len, __file__ == __spec__.origin)
    """)
    from moshjit.extensions import hook
    argv, main, installed = sys.argv, sys.modules["__main__"], hook.is_installed()
    assert run_script(str(path), ["x"]) == 0
    assert capsys.readouterr().out == "2 True\n"
    assert sys.argv is argv and sys.modules["__main__"] is main and hook.is_installed() == installed


def test_rewrite_prints_the_rewritten_source(tmp_path):
    _script(tmp_path, """
        # moshmosh?
        # +pipeline
        # +quick-lambda
        y = [1] | map(_ + 1, _) | list
    """)
    result = _moshjit("rewrite", "script.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "y = list(map(lambda _mj_arg0: _mj_arg0 + 1, [1]))\n"


@pytest.mark.parametrize("command", ["run", "rewrite"])
def test_missing_file(tmp_path, command):
    result = _moshjit(command, "missing.py", cwd=tmp_path)
    assert result.returncode != 0 and "missing.py" in result.stderr


def test_ssa_loads_files_that_use_the_extensions(tmp_path):
    _script(tmp_path, """
        # moshmosh?
        # +pipeline
        def f(x):
            return x | abs
    """)
    result = _moshjit("ssa", "script.py:f", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "abs" in result.stdout and "call" in result.stdout  # f(x) is abs(x), not x | abs

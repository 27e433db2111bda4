"""Functions and classes of rewritten modules run with rewritten semantics in "spawn" workers that never
installed the hook (the parent's pickle names them by an alias module that imports them rewritten)."""
from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import textwrap

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MODULE = """
    # moshmosh?
    # +pattern-matching
    # +pipeline
    from dataclasses import dataclass

    @dataclass
    class Box:
        value: int

        def doubled(self):
            return self.value | (lambda v: v * 2)

    def classify(x):
        with match(x):
            if (a, *rest):
                return ["seq", a, rest]
            if Box(value=v):
                return ["box", v]
            if _:
                return x | str
"""

DRIVER = """
    import json, multiprocessing, sys
    from concurrent.futures import ProcessPoolExecutor
    import moshjit.extensions

    def worker_state():
        from moshjit.extensions import hook
        return hook.is_installed()

    if __name__ == "__main__":
        moshjit.extensions.install()
        import rewritten_mod
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            hook_before = pool.submit(worker_state).result()
            results = [pool.submit(rewritten_mod.classify, (1, 2, 3)).result(),
                       pool.submit(rewritten_mod.classify, 7).result(),
                       pool.submit(rewritten_mod.classify, rewritten_mod.Box(3)).result(),
                       pool.submit(rewritten_mod.Box.doubled, rewritten_mod.Box(4)).result()]
        print(json.dumps({"hook_before": hook_before, "results": results}))
"""


def test_spawn_workers_run_the_rewritten_semantics(tmp_path):
    (tmp_path / "rewritten_mod.py").write_text(textwrap.dedent(MODULE).lstrip(), encoding="utf-8")
    (tmp_path / "driver.py").write_text(textwrap.dedent(DRIVER), encoding="utf-8")
    result = subprocess.run([sys.executable, "driver.py"], capture_output=True, text=True, cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": REPO}, timeout=180)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["hook_before"] is False  # the worker starts without the hook
    assert report["results"] == [["seq", 1, [2, 3]], "7", ["box", 3], 8]


def test_pickles_name_the_alias_module(tmp_path, monkeypatch):
    import moshjit.extensions as extensions
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "alias_mod.py").write_text(textwrap.dedent(MODULE).lstrip(), encoding="utf-8")
    extensions.install()
    try:
        import alias_mod
        assert alias_mod.classify.__module__ == "moshjit.extensions.rewritten.alias_mod"
        assert b"moshjit.extensions.rewritten.alias_mod" in pickle.dumps(alias_mod.classify)
        assert pickle.loads(pickle.dumps(alias_mod.Box(2))) == alias_mod.Box(2)
    finally:
        extensions.uninstall()
        for name in ("alias_mod", "moshjit.extensions.rewritten.alias_mod"):
            sys.modules.pop(name, None)


def test_scripts_run_by_the_runner_spawn_workers_with_rewritten_main(tmp_path):
    (tmp_path / "pool_script.py").write_text(textwrap.dedent("""
        # moshmosh?
        # +pipeline
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        TOP_LEVEL = [3, 1, 2] | sorted   # runs again in each spawn worker, rewritten

        def work(x):
            return x | str | len

        if __name__ == "__main__":
            with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
                print(list(pool.map(work, [1, 22, 333])), TOP_LEVEL)
    """).lstrip(), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "moshjit", "run", "pool_script.py"], capture_output=True,
                            text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": REPO}, timeout=180)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "[1, 2, 3] [1, 2, 3]\n"

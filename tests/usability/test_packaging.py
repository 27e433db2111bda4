"""The installed runtime: the support modules ship compiled and are used when their recorded fingerprint is the
current one; otherwise (sources edited after installing, another Cython) they are built into the cache, so
generated code always compiles against the runtime that is loaded."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from moshjit.runtime import support
from moshjit.runtime.toolchain import runtime_fingerprint

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_installed_runtime_is_used_without_building():
    from moshjit.dispatcher import _cache
    modules = support.support_for(_cache())
    modules.ensure()
    assert support.prebuilt_fingerprint() == runtime_fingerprint()      # `make` built it in place
    assert modules.origin in ("prebuilt", "loaded")
    assert all(sys.modules[name].__file__.startswith(support.RUNTIME_DIR) for name in support.SUPPORT_MODULES)


def test_a_stale_runtime_is_rebuilt_into_the_cache():
    code = textwrap.dedent("""
        import json, sys
        from moshjit.runtime import support
        support.prebuilt_fingerprint = lambda: "built from other sources"
        from moshjit.dispatcher import _cache, jit
        def twice(text):
            return text + text
        result = jit(twice, backend="cython")("ab")
        modules = support.support_for(_cache())
        print(json.dumps([result, modules.origin, [sys.modules[n].__file__ for n in support.SUPPORT_MODULES]]))
    """)
    env = {**os.environ, "PYTHONPATH": REPO}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    result, origin, files = json.loads(proc.stdout)
    assert result == "abab" and origin == "cache"
    assert not any(path.startswith(support.RUNTIME_DIR) for path in files)


def test_info_says_which_runtime_is_in_use():
    from moshjit.info import describe
    assert f"runtime compiled, installed in {support.RUNTIME_DIR}" in describe().splitlines()


def test_the_cython_version_is_read_without_importing_cython():
    """The runtime fingerprint is checked at the first ``@jit`` call; importing Cython there would leave its
    modules in the program's heap (every full garbage collection traverses them) for nothing."""
    code = ("import json, sys\nfrom moshjit.runtime.toolchain import cython_version\nversion = cython_version()\n"
            "imported = 'Cython' in sys.modules\nimport Cython\n"
            "print(json.dumps([version, imported, Cython.__version__]))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": REPO})
    assert proc.returncode == 0, proc.stderr
    version, imported, actual = json.loads(proc.stdout)
    assert version == actual and not imported

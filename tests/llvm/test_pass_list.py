"""The LLVM backend's quick pass list never aborts the process: a generated program of the differential fuzzer
(seed 4839, found by a hunt on 3.13 and on 3.11 alike) made NewGVN fail an assertion of the LLVM build llvmlite
ships — SIGABRT, the user's program gone. The quick list has no NewGVN since (``engine.QUICK_PASSES``)."""
import os
import subprocess
import sys

from moshjit.backends.llvm.engine import QUICK_PASSES

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_quick_pass_list_has_no_new_gvn():
    assert "new_gvn" not in QUICK_PASSES


def test_the_fuzz_program_that_aborted_llvm_compiles_and_agrees_with_cpython():
    script = ("from tests.fuzz.hunt import run_seed\n"
              "report = run_seed(4839, 'native', 8)[0]\n"
              "assert not report.failures, report.failures\n"
              "assert report.native_programs, dict(report.native_programs)\n"
              "print('compared', dict(report.calls))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "compared" in done.stdout

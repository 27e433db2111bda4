"""Print ``version=interpreter`` for every CPython of ``SUPPORTED_PYTHONS`` (moshjit/_version.py) that this machine
has besides the one running this script: pyenv's installs first, then ``pythonX.Y`` on PATH. ``make test`` gives
each its own venv (``.venv-X.Y``) and runs the suite there too; a missing version is named on stderr."""
import glob
import os
import runpy
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def runs_as(interpreter: str, version: tuple) -> bool:
    try:
        found = subprocess.run([interpreter, "-c", "import sys; print(*sys.version_info[:2])"], capture_output=True,
                               text=True, timeout=30).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        return False
    return found == [str(part) for part in version]


def candidates(major: int, minor: int) -> list:
    name = f"python{major}.{minor}"
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    if shutil.which("pyenv"):
        root = subprocess.run(["pyenv", "root"], capture_output=True, text=True).stdout.strip() or root
    installs = glob.glob(os.path.join(root, "versions", f"{major}.{minor}.*", "bin", name))
    installs.sort(key=lambda path: [int(p) if p.isdigit() else -1 for p in path.split(os.sep)[-3].split(".")],
                  reverse=True)
    return installs + [shutil.which(name)]


def main() -> None:
    supported = runpy.run_path(os.path.join(HERE, "..", "moshjit", "_version.py"))["SUPPORTED_PYTHONS"]
    found = []
    for major, minor in supported:
        if (major, minor) == sys.version_info[:2]:
            continue
        interpreter = next((c for c in candidates(major, minor) if c and runs_as(c, (major, minor))), None)
        if interpreter is None:
            print(f"CPython {major}.{minor} not found: its tests are skipped", file=sys.stderr)
        else:
            found.append(f"{major}.{minor}={interpreter}")
    print(" ".join(found))


if __name__ == "__main__":
    main()

"""``python -m moshjit run script.py [args]``: run a script whose own source uses the syntax extensions.

Python never imports the script it is given through an import hook, so the runner compiles it itself
(rewritten if it has the ``# moshmosh?`` header) and runs it as ``__main__`` the way ``python script.py``
would: ``sys.argv``, ``sys.path[0]``, ``__file__``, exit codes, tracebacks that show the original lines.
The hook is installed while the script runs, for the modules it imports. ``__main__.__spec__`` names the script by
path alias, so multiprocessing's "spawn" workers re-run the *rewritten* script as ``__mp_main__``.
"""
from __future__ import annotations

import builtins
import importlib.util
import os
import sys
import types


def run_script(path: str, argv: list[str]) -> int:
    """Run ``path`` as ``__main__`` with ``sys.argv == [path, *argv]``; return the process exit code."""
    from moshjit.extensions import aliases, hook

    absolute = os.path.abspath(path)
    if not os.path.isfile(absolute):
        print(f"moshjit run: can't open file {path!r}: no such file", file=sys.stderr)
        return 2
    hook_was_installed = hook.is_installed()
    hook.install()
    alias = aliases.path_alias(absolute)
    loader = hook.file_loader(alias, absolute)
    spec = importlib.util.spec_from_file_location(alias, absolute, loader=loader)
    module = types.ModuleType("__main__")
    module.__dict__.update(__file__=absolute, __cached__=None, __builtins__=builtins, __loader__=loader,
                           __spec__=spec, __package__=None)
    saved = sys.modules.get("__main__"), sys.argv, sys.path[0] if sys.path else None
    sys.modules["__main__"] = module
    sys.argv = [path, *argv]
    if sys.path:
        sys.path[0] = os.path.dirname(absolute)
    else:
        sys.path.append(os.path.dirname(absolute))
    try:
        code = loader.get_code(alias)
        exec(code, module.__dict__)
    except SystemExit as exit_:
        return _exit_code(exit_)
    except BaseException as error:  # report like the interpreter does for an uncaught exception
        error = error.with_traceback(error.__traceback__.tb_next or error.__traceback__)  # drop this frame
        sys.excepthook(type(error), error, error.__traceback__)
        return 130 if isinstance(error, KeyboardInterrupt) else 1
    finally:
        main, sys.argv, path0 = saved
        sys.modules["__main__"] = main
        if not hook_was_installed:
            hook.uninstall()
        if path0 is not None:
            sys.path[0] = path0
    return 0


def _exit_code(exit_: SystemExit) -> int:
    code = exit_.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1

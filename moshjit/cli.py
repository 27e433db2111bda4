"""moshjit's command line: look at what the compiler makes of a function, and run code that uses the syntax
extensions.

Every subcommand takes a target ``FILE.py:FUNCTION`` or ``MODULE:FUNCTION`` (``Class.method`` works too). The
target's module is loaded as an import would, not as a script: its ``if __name__ == "__main__":`` block does not
run, and a ``sys.exit()`` at its top level stops only the loading.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
import traceback

from moshjit._version import __version__
from moshjit.functions import jitted_function

EPILOG = """examples:
  moshjit ssa tokenizer.py:clean_text               the SSA moshjit builds from the bytecode
  moshjit ssa tokenizer.py:clean_text --passes      ... and how each pass changes it
  moshjit annotate tokenizer.py:clean_text --args str
                                                    an HTML view, like cython -a (writes clean_text.html)
  moshjit rewrite shapes.py                         a file after its syntax-extension rewrites
  moshjit run script.py ARG...                      run a script whose own source uses the extensions
  moshjit info                                      versions and the cache directory

Argument kinds for --args: str, char, int, int64, float, bool, bytes, list, dict, set, tuple, None, object,
tuple[int64, char], list[float] (a list's item type is checked when called), ndarray[float64,1].
Set MOSHJIT_DEBUG=1 to see moshjit's own traceback for an error."""


class UserError(Exception):
    """A mistake in the command line or in the target: reported in one line, exit status ``status``."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


# ---- loading targets ------------------------------------------------------------------------------------------
def load_target(target: str):
    """Resolve ``path/to/file.py:qualname`` or ``package.module:qualname`` to the Python object."""
    module_part, sep, qualname = target.rpartition(":")
    if not sep or not module_part or not qualname:
        raise UserError(f"expected FILE.py:FUNCTION or MODULE:FUNCTION, got {target!r}", 2)
    if module_part.endswith(".py") or os.sep in module_part:
        if not os.path.isfile(module_part):
            raise UserError(f"no such file: {module_part}", 2)
        module = load_file_module(module_part)
    else:
        try:
            module = importlib.import_module(module_part)
        except ModuleNotFoundError as exc:
            raise UserError(f"cannot import {module_part!r}: {exc}") from None
        except SyntaxError:
            raise
        except Exception as exc:               # the module's own top-level code failed
            raise UserError(f"importing {module_part} failed: {_where(exc)}{type(exc).__name__}: {exc}") from None
    obj = module
    for part in qualname.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            stopped = getattr(module, "__moshjit_stopped__", None)
            raise UserError(f"{module_part} has no attribute {qualname!r}"
                            + (f" (loading it stopped early: {stopped})" if stopped else "")) from None
    return jitted_function(obj) or obj


def load_file_module(path: str):
    """Import a file as a module — through the syntax-extension loader, so pragma'd files work too — without
    running its ``__main__`` block; a ``SystemExit`` at its top level ends the loading, keeping what it defined
    so far. The module is registered under the same name as ``load_source_module`` gives it (it pickles)."""
    from moshjit.extensions import aliases
    from moshjit.extensions.hook import file_loader
    path = os.path.abspath(path)
    name = aliases.path_alias(path)
    if name in sys.modules:
        return sys.modules[name]
    loader = file_loader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    directory = os.path.dirname(path)
    sys.path.insert(0, directory)                  # the file's own imports, as `python file.py` would find them
    try:
        loader.exec_module(module)
    except SystemExit as exc:
        module.__moshjit_stopped__ = f"SystemExit({exc.code!r}) at its top level"
    except SyntaxError:
        sys.modules.pop(name, None)
        raise
    except Exception as exc:
        sys.modules.pop(name, None)
        raise UserError(f"loading {path} failed: {_where(exc)}{type(exc).__name__}: {exc}") from None
    finally:
        sys.path.remove(directory)
    return module


def _where(exc: BaseException) -> str:
    """'file:line: ' of the innermost frame of the user's code in ``exc``'s traceback."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if not f.filename.startswith(os.path.dirname(os.path.abspath(__file__))) and "<frozen" not in f.filename]
    return f"{frames[-1].filename}:{frames[-1].lineno}: " if frames else ""


def function_target(target: str):
    """The plain function ``target`` names; a class, a module or other object is a user error."""
    import types
    fn = load_target(target)
    if not isinstance(fn, types.FunctionType):
        raise UserError(f"{target} is a {type(fn).__name__}, not a function")
    return fn


# ---- subcommands ----------------------------------------------------------------------------------------------
def _cmd_ssa(args) -> int:
    from moshjit.frontend import build_ssa
    from moshjit.passes.pipeline import run_passes
    ir = build_ssa(function_target(args.target), optimize=False)
    if not args.passes:
        print(run_passes(ir))
        return 0
    shown = str(ir)
    print(f"== after frontend ==\n{shown}")
    seen = set()
    for name, after in run_passes(ir, trace=True):      # rounds to a fixed point: later rounds only if they change
        text = str(after)
        if name not in seen:
            print(f"== after {name} ==\n{text}" if text != shown else f"== after {name}: no change ==")
            seen.add(name)
        elif text != shown:
            print(f"== after {name} (again) ==\n{text}")
        shown = text
    return 0


def _cmd_rewrite(args) -> int:
    from moshjit.extensions import rewrite
    try:
        with open(args.file, encoding="utf-8") as f:
            source = f.read()
    except OSError as exc:
        raise UserError(f"cannot read {args.file}: {exc.strerror}", 2) from None
    sys.stdout.write(rewrite(source, args.file))
    return 0


def _cmd_run(args) -> int:
    from moshjit.extensions.runner import run_script
    return run_script(args.script, args.args)


def _cmd_annotate(args) -> int:
    from moshjit.annotate import annotate_html
    fn = function_target(args.target)
    html = annotate_html(fn, signature_for(fn, args.args))
    output = args.output or f"{fn.__name__}.html"
    if output == "-":
        sys.stdout.write(html)
        return 0
    with open(output, "w", encoding="utf-8") as f:
        f.write(html)
    print(f"wrote {output}")
    return 0


def signature_for(fn, text: str | None):
    """The argument kinds ``--args`` names for ``fn`` (checked against its parameters), or None."""
    from moshjit.functions import own_signature
    from moshjit.typeof import _split_top_level
    if not text:
        return None
    parts = [part.strip() for part in _split_top_level(text)]
    parameters = [p for p in own_signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in parameters if p.default is p.empty]
    if not len(required) <= len(parts) <= len(parameters):
        names = ", ".join(p.name for p in parameters)
        count = f"{len(required)}" if len(required) == len(parameters) else f"{len(required)} to {len(parameters)}"
        raise UserError(f"{fn.__name__}({names}) takes {count} argument(s); --args gives {len(parts)}: {text!r}", 2)
    try:
        from moshjit.annotate import parse_argument_types
        return parse_argument_types(parts)
    except ValueError as exc:
        raise UserError(str(exc), 2) from None


def _cmd_info(args) -> int:
    from moshjit.info import describe
    print(describe())
    return 0


def build_parser(prog: str = "moshjit") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0].replace("\n", " "),
                                     epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"moshjit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    target_help = "FILE.py:FUNCTION or MODULE:FUNCTION"
    p = sub.add_parser("ssa", help="print the SSA moshjit builds from a function's bytecode",
                       description="Print the SSA of a function, after the standard passes.")
    p.add_argument("target", help=target_help)
    p.add_argument("--passes", action="store_true", help="show the IR after the frontend and after each pass")
    p.set_defaults(handler=_cmd_ssa)
    p = sub.add_parser("annotate", help="write an HTML view of a compiled function, like cython -a",
                       description="Compile a function and write an HTML page: the backend chosen, the types "
                                   "inferred, and per source line the Python-object work left and the code "
                                   "generated for it.")
    p.add_argument("target", help=target_help)
    p.add_argument("-o", "--output", help="where to write the page ('-' for standard output; default: "
                                          "FUNCTION.html in the current directory)")
    p.add_argument("--args", help="argument kinds to compile for, e.g. 'str, dict' or 'list[float]' (default: "
                                  "the parameters' annotations, else object)")
    p.set_defaults(handler=_cmd_annotate)
    p = sub.add_parser("rewrite", help="print a file after its syntax-extension rewrites",
                       description="Print a file as the import hook compiles it (unchanged without the "
                                   "'# moshmosh?' header).")
    p.add_argument("file")
    p.set_defaults(handler=_cmd_rewrite)
    p = sub.add_parser("run", help="run a script whose own source uses syntax extensions",
                       description="Run a script as `python script.py` would, rewriting it (and the modules it "
                                   "imports) when it carries the '# moshmosh?' header.")
    p.add_argument("script")
    p.add_argument("args", nargs=argparse.REMAINDER, help="the script's own arguments")
    p.set_defaults(handler=_cmd_run)
    p = sub.add_parser("info", help="print versions and the cache location",
                       description="Print the versions of moshjit and what it depends on, and the cache "
                                   "directory.")
    p.set_defaults(handler=_cmd_info)
    return parser


def _prog() -> str:
    """How the user invoked us: the console script, or ``python -m moshjit``."""
    return "python -m moshjit" if os.path.basename(sys.argv[0]) == "__main__.py" else "moshjit"


def main(argv=None) -> int:
    from moshjit.errors import UnsupportedError, debugging
    parser = build_parser(_prog())
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except BrokenPipeError:                    # `moshjit ssa ... | head`: the reader left; say nothing more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except UserError as exc:
        if debugging():
            raise
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return exc.status
    except (SyntaxError, UnsupportedError) as exc:     # in the target: the message is the whole story
        if debugging():
            raise
        sys.stderr.write("".join(traceback.format_exception_only(exc)))
        return 1

"""Argument parsing for ``python -m moshjit``; each subcommand lives with the concern it exposes."""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys


def load_target(target: str):
    """Resolve ``path/to/file.py:qualname`` or ``package.module:qualname`` to the Python object."""
    module_part, sep, qualname = target.rpartition(":")
    if not sep or not module_part or not qualname:
        raise SystemExit(f"moshjit: expected FILE.py:FUNCTION or MODULE:FUNCTION, got {target!r}")
    if module_part.endswith(".py") or os.sep in module_part:
        if not os.path.isfile(module_part):
            raise SystemExit(f"moshjit: no such file: {module_part}")
        module = _load_file_module(module_part)
    else:
        module = importlib.import_module(module_part)
    obj = module
    for part in qualname.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise SystemExit(f"moshjit: {module_part} has no attribute {qualname!r}") from None
    return getattr(obj, "py_func", obj)


def _load_file_module(path: str):
    """Import a file as a module, through the syntax-extension loader so pragma'd files work too."""
    from moshjit.extensions.hook import load_source_module
    return load_source_module(path)


def _cmd_ssa(args) -> int:
    from moshjit.frontend import build_ssa
    from moshjit.passes.pipeline import run_passes
    fn = load_target(args.target)
    ir = build_ssa(fn, optimize=False)
    if args.passes:
        print(f"== after frontend ==\n{ir}")
        for name, after in run_passes(ir, trace=True):
            print(f"== after {name} ==\n{after}")
    else:
        print(run_passes(ir))
    return 0


def _cmd_rewrite(args) -> int:
    from moshjit.extensions import rewrite
    with open(args.file, encoding="utf-8") as f:
        source = f.read()
    sys.stdout.write(rewrite(source, args.file))
    return 0


def _cmd_run(args) -> int:
    from moshjit.extensions.runner import run_script
    return run_script(args.script, args.args)


_KIND_NAMES = {"str": str, "char": "char", "int": int, "int64": "int64", "float": float, "bool": bool,
               "list": list, "dict": dict, "set": set, "tuple": tuple, "None": type(None)}


def parse_signature(text: str | None):
    """``"str,dict"`` → dispatch kinds, for annotating a function as if called with such arguments."""
    if not text:
        return None
    try:
        return tuple(_KIND_NAMES[part.strip()] for part in text.split(","))
    except KeyError as exc:
        raise SystemExit(f"moshjit: unknown argument kind {exc.args[0]!r}; use {', '.join(_KIND_NAMES)}") from None


def _cmd_annotate(args) -> int:
    from moshjit.annotate import annotate_html
    fn = load_target(args.target)
    html = annotate_html(fn, parse_signature(args.args))
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(html)
    print(f"wrote {args.output}")
    return 0


def _cmd_info(args) -> int:
    from moshjit.info import describe
    print(describe())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m moshjit", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("ssa", help="print the bytecode-derived SSA of a function")
    p.add_argument("target", help="FILE.py:FUNCTION or MODULE:FUNCTION")
    p.add_argument("--passes", action="store_true", help="show the IR after each pass")
    p.set_defaults(handler=_cmd_ssa)
    p = sub.add_parser("rewrite", help="print a file after its syntax-extension rewrites")
    p.add_argument("file")
    p.set_defaults(handler=_cmd_rewrite)
    p = sub.add_parser("run", help="run a script whose own source uses syntax extensions")
    p.add_argument("script")
    p.add_argument("args", nargs=argparse.REMAINDER)
    p.set_defaults(handler=_cmd_run)
    p = sub.add_parser("annotate", help="write an HTML view of how much Python-object work each line keeps")
    p.add_argument("target", help="FILE.py:FUNCTION or MODULE:FUNCTION")
    p.add_argument("-o", "--output", default="moshjit-annotate.html")
    p.add_argument("--args", help="argument kinds to annotate for, e.g. str,dict (default: annotations or object)")
    p.set_defaults(handler=_cmd_annotate)
    p = sub.add_parser("info", help="print versions and the cache location")
    p.set_defaults(handler=_cmd_info)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    return args.handler(args)

"""The compilation magics ``%load_ext moshjit`` adds: ``%%moshjit``, ``%moshjit_ssa`` and ``%moshjit_info``.

``%%moshjit`` runs its cell the way IPython runs any cell (input transformers, so the syntax extensions and
their pragmas apply, then AST transformers), under a name IPython shows as ``Cell In[n]`` with the cell's own
line numbers, and then rebinds every function the cell defined to its ``jit`` version (compiled lazily, at the
first call).
"""
from __future__ import annotations

import ast
import sys
import types

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from moshjit.notebook.cells import cell_number

_MAGICS = {"cell": ("moshjit",), "line": ("moshjit_ssa", "moshjit_info")}
_MISSING = object()


@magics_class
class MoshjitMagics(Magics):
    """``%%moshjit``, ``%moshjit_ssa`` and ``%moshjit_info``."""

    @magic_arguments()
    @argument("--backend", choices=("auto", "cython", "llvm"), default="auto",
              help="code generator: LLVM when every value is native and Cython otherwise (auto), or one of them")
    @argument("--strict", dest="fallback", action="store_false", default=False,
              help="a function that cannot be compiled raises UnsupportedError at its first call (default)")
    @argument("--fallback", dest="fallback", action="store_true", default=False,
              help="a function that cannot be compiled runs as plain Python, with one MoshjitWarning")
    @argument("-a", "--annotate", action="store_true",
              help="show each function's source coloured by the Python-object work left after compilation")
    @cell_magic
    def moshjit(self, line: str, cell: str):
        """Run the cell, then replace every function it defined with its ``moshjit.jit`` version.

        Calls made inside the cell itself still run the plain functions; the jitted ones are compiled per
        argument signature at their first call from a later cell. The value of a last expression is shown.
        """
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        args = parse_argstring(self.moshjit, line)
        namespace = self.shell.user_ns
        before = dict(namespace)
        try:
            filename, value = run_as_cell(self.shell, f"#%%moshjit {line}".rstrip(), cell)
        except SyntaxError as error:
            running = self.shell.displayhook.exec_result
            if running is None:                    # called from code, not from a cell: the caller handles it
                raise
            # Shown as IPython shows one in a plain cell, without the frames of the parser, rewriter and magic
            # machinery; the cell still counts as failed.
            self.shell.showsyntaxerror()
            running.error_in_exec = error
            return None
        defined = [name for name, obj in namespace.items()
                   if before.get(name, _MISSING) is not obj and isinstance(obj, types.FunctionType)
                   and obj.__code__.co_filename == filename]
        from moshjit.dispatcher import jit
        for name in defined:
            namespace[name] = jit(namespace[name], backend=args.backend, strict=not args.fallback,
                                  fallback=args.fallback)
        if args.annotate:
            self._show_annotations([namespace[name] for name in defined])
        return value

    @staticmethod
    def _show_annotations(functions: list) -> None:
        from IPython.display import HTML, display

        from moshjit.annotate import annotate_fragment
        from moshjit.errors import UnsupportedError
        for function in functions:
            try:
                display(HTML(annotate_fragment(function)))
            except UnsupportedError as exc:
                print(f"moshjit: no annotation for {function.__qualname__}: {exc}", file=sys.stderr)

    @line_magic
    def moshjit_ssa(self, line: str):
        """``%moshjit_ssa f``: print the SSA moshjit builds for ``f`` (a plain or jitted function, any expression)."""
        from moshjit.errors import UnsupportedError
        from moshjit.frontend import build_ssa, python_function
        expression = line.strip()
        if not expression:
            raise UsageError("%moshjit_ssa needs a function, e.g. %moshjit_ssa tokenize")
        try:
            function = self.shell.ev(expression)
        except Exception as exc:
            raise UsageError(f"%moshjit_ssa: cannot evaluate {expression!r}: {type(exc).__name__}: {exc}") from None
        try:
            print(build_ssa(python_function(function)))
        except UnsupportedError as exc:
            raise UsageError(f"%moshjit_ssa: {exc}") from None

    @line_magic
    def moshjit_info(self, line: str):
        """``%moshjit_info``: versions of moshjit and its compilers, and the cache directory."""
        from moshjit.info import describe
        print(describe())


def run_as_cell(shell, header: str, body: str) -> tuple[str, object]:
    """Run ``body`` through IPython's transformers in the user namespace; return the file name its code was
    compiled under and the value of a final expression statement (None if there is none).

    ``header`` (a comment) takes the place of the ``%%`` line, so line numbers in errors and tracebacks are
    those of the notebook cell. Exceptions, including ``SyntaxError``s, propagate to the cell.
    """
    __tracebackhide__ = True
    source = shell.transform_cell(f"{header}\n{body}")
    filename = shell.compile.cache(source, cell_number(shell), raw_code=source)
    tree = shell.transform_ast(shell.compile.ast_parse(source, filename=filename))
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(shell.compile(tree, filename, "exec"), shell.user_global_ns, shell.user_ns)
    if last is None:
        return filename, None
    return filename, eval(shell.compile(last, filename, "eval"), shell.user_global_ns, shell.user_ns)


def register_magics(shell) -> None:
    shell.register_magics(MoshjitMagics)


def unregister_magics(shell) -> None:
    """IPython has no public way to remove magics: drop ours from its table."""
    table = shell.magics_manager.magics
    for kind, names in _MAGICS.items():
        for name in names:
            table[kind].pop(name, None)

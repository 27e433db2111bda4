"""The public error types — what cannot be compiled, and what we fell back on — and how errors point at the
user's code: ``file:line`` (``Cell In[n], line k`` in a notebook), the source line with a caret under the
construct, and the next step; raised from a frame that shows the user's line instead of moshjit's internals.
"""
from __future__ import annotations

import linecache
import os
import sys
import types

DEBUG_ENV = "MOSHJIT_DEBUG"          # set to 1 to see moshjit's own frames and the chained cause of its errors

# The next step for a refused construct, by a word of its description (first match wins).
NEXT_STEPS = (
    ("generator-based coroutine", "write it as an async def (types.coroutine's generators stay plain)"),
    ("asynchronous comprehension", "write it as an async for loop"),
    ("generator", "build and return a list instead of yielding (or a list comprehension instead of a generator "
                  "expression)"),
    ("closure", "move the inner function to module level and pass what it captures as arguments"),
    ("class definition", "define the class at module level"),
    ("no native form", "use backend='auto' (or 'cython'), which compiles Python objects"),
    ("LLVM backend", "use backend='auto' (or 'cython')"),
)
FALLBACK_STEP = "or use @jit(fallback=True) to run it as plain Python"


def debugging() -> bool:
    return os.environ.get(DEBUG_ENV, "") not in ("", "0")


def location(filename: str | None, lineno: int | None) -> str:
    """``file:line``, or IPython's ``Cell In[n], line k`` for code typed into a notebook cell."""
    if filename is None:
        return f"<unknown>:{lineno if lineno is not None else '?'}"
    cell = _notebook_cell(filename)
    if cell is not None:
        return f"Cell In[{cell}], line {lineno}"
    return f"{filename}:{lineno if lineno is not None else '?'}"


def _notebook_cell(filename: str) -> int | None:
    """The execution count of the cell compiled under ``filename`` (IPython names cells' code by temporary
    paths), or None when this is not IPython cell code."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    cells = getattr(getattr(shell, "compile", None), "_filename_map", None)
    return cells.get(filename) if isinstance(cells, dict) else None


def excerpt(filename: str | None, lineno: int | None, columns: tuple[int, int] | None = None) -> str:
    """The source line with a caret line under ``columns`` (the whole statement when unknown), or ''."""
    text = linecache.getline(filename, lineno).rstrip() if filename and lineno else ""
    if not text.strip():
        return ""
    start = len(text) - len(text.lstrip())
    end = _code_end(text)
    if columns is not None and 0 <= columns[0] < columns[1] <= len(text):
        start, end = columns
    gutter = str(lineno)
    return (f" {gutter} | {text}\n"
            f" {' ' * len(gutter)} | {' ' * start}{'^' * (end - start)}")


def _code_end(text: str) -> int:
    """Where the code of a source line ends: before its trailing comment, if it has one."""
    import io
    import tokenize
    try:
        for token in tokenize.generate_tokens(io.StringIO(text.strip() + "\n").readline):
            if token.type == tokenize.COMMENT:
                return len(text) - len(text.lstrip()) + len(text.strip()[:token.start[1]].rstrip())
    except (tokenize.TokenError, SyntaxError):      # a line that is not complete on its own
        pass
    return len(text)


def code_columns(code: types.CodeType, offset: int | None, line: int | None = None) -> tuple[int, int] | None:
    """The columns of the instruction at byte ``offset`` of ``code`` when it lies on one line (``line``, if
    given), else None."""
    if offset is None or offset < 0:
        return None
    for index, (start, end, col, end_col) in enumerate(code.co_positions()):
        if index == offset // 2:
            if start is not None and start == end and (line is None or start == line) and col is not None \
                    and end_col is not None:
                return col, end_col
            return None
    return None


def definition_line(filename: str, firstlineno: int) -> int:
    """The ``def`` line of a function whose code starts at ``firstlineno`` (its first decorator, if any)."""
    for lineno in range(firstlineno, firstlineno + 50):
        text = linecache.getline(filename, lineno).lstrip()
        if text.startswith(("def ", "async def ")):
            return lineno
        if not text:
            break
    return firstlineno


def parameter_location(filename: str, firstlineno: int, name: str) -> tuple[int, tuple[int, int] | None]:
    """(line, columns) of parameter ``name`` in the definition of a function starting at ``firstlineno``."""
    import re
    lineno = definition_line(filename, firstlineno)
    found = re.search(rf"[(,*\s]({re.escape(name)})\b", linecache.getline(filename, lineno))
    return lineno, found.span(1) if found else None


class UnsupportedError(Exception):
    """A construct moshjit cannot compile, located at file:line of the user's source."""

    def __init__(self, construct: str, filename: str | None = None, lineno: int | None = None,
                 hint: str | None = None, columns: tuple[int, int] | None = None, function: str | None = None):
        self.construct = construct
        self.filename = filename
        self.lineno = lineno
        self.hint = hint
        self.columns = columns
        self.function = function
        super().__init__(construct)

    def next_step(self) -> str:
        """What to do instead: the specific hint, or the rewrite for this kind of construct, then fallback."""
        step = self.hint or next((step for word, step in NEXT_STEPS if word in self.construct), None)
        return f"{step}; {FALLBACK_STEP}" if step else FALLBACK_STEP[3:]

    def __str__(self) -> str:
        if self.filename is None and self.lineno is None:
            return f"unsupported: {self.construct}"
        where = location(self.filename, self.lineno)
        head = f"{where}: unsupported: {self.construct}"
        if self.function:
            head += f" (in {self.function})"
        shown = excerpt(self.filename, self.lineno, self.columns)
        return "\n".join([head] + ([shown] if shown else []) + [f"  next: {self.next_step()}"])

    def __reduce__(self):
        return (_rebuild_unsupported, (self.construct, self.filename, self.lineno, self.hint, self.columns,
                                       self.function))


def _rebuild_unsupported(*fields):
    return UnsupportedError(*fields)


class BuildError(RuntimeError):
    """Cython or the C compiler rejected generated code (a moshjit bug: the message has the details), or there
    is no C compiler to run."""


class BuildCancelled(BuildError):
    """A build that was under way when moshjit's build worker was stopped at interpreter exit: nothing failed."""


class MoshjitWarning(UserWarning):
    """Emitted when a jitted function falls back to the plain Python function."""


UnsupportedError.__module__ = MoshjitWarning.__module__ = "moshjit"      # as users name them


def user_frame_raiser(exc: BaseException, filename: str, lineno: int, name: str):
    """A function that raises ``exc`` from a frame shown as line ``lineno`` of ``filename`` in function ``name``,
    as CPython would show the user's own code, instead of the compiler's frames that found the problem.

    The frame's code is compiled from padding so that its ``raise`` sits on ``lineno`` at the user's indentation;
    the statement spans two lines, which tells the traceback printers not to draw carets under the user's line
    (the message has the excerpt, with the caret where it belongs)."""
    exc.__traceback__ = None
    text = linecache.getline(filename, lineno)
    indent = text[:len(text) - len(text.lstrip())] or " "     # the raise starts where the user's line does
    if lineno >= 2:
        source = ("\n" * (lineno - 2) + f"def _mj_raise(*args, **kwargs):\n{indent}raise (\n"
                  f"{indent} _mj_exception)\n")
    else:
        source = "def _mj_raise(*args, **kwargs): raise (\n  _mj_exception)\n"
    module = compile(source, filename, "exec")
    code = next(c for c in module.co_consts if isinstance(c, types.CodeType))
    code = code.replace(co_name=name.rpartition(".")[2], co_qualname=name)
    raiser = types.FunctionType(code, {"_mj_exception": exc, "__builtins__": {}}, name)
    raiser.moshjit_error = exc                 # what calling it raises, for callers that want to know first
    return raiser


_HAND_OFF_CODES: set = set()


def hands_off(function):
    """Mark ``function`` as a hand-off: moshjit code that only passes a user's call on (a fallback a native entry
    calls, a variant switch), whose frame CPython's traceback of the call would not have. It strips itself from
    exceptions leaving it with ``drop_hand_off_frames``."""
    _HAND_OFF_CODES.add(function.__code__)
    return function


def drop_hand_off_frames(exc: BaseException) -> None:
    """Take the leading traceback entries of hand-off frames off ``exc`` (kept under MOSHJIT_DEBUG). A hand-off
    catches what leaves it, calls this and re-raises with a bare ``raise``, which adds no entry for its frame (a
    zero-cost ``try`` where a ``with`` would cost every call); inner hand-offs have dropped theirs, so only the
    leading entries can be hand-offs'."""
    if debugging():
        return
    traceback = exc.__traceback__
    while traceback is not None and traceback.tb_frame.f_code in _HAND_OFF_CODES:
        traceback = traceback.tb_next
    exc.__traceback__ = traceback

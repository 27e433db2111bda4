"""Pragma comments: the ``# moshmosh?`` header and ``# +name``, ``# +name(params)``, ``# -name`` switches.

A file opts in with ``# moshmosh?`` as its first line (after an optional shebang and/or PEP 263 encoding
line); that comment anywhere else is a SyntaxError rather than silently ignored. Switch comments turn an
extension on from their line and off again, and may end with a comment of their own (``# +pipeline  # on``);
the result is, per extension, a list of line ranges with the parameters in force there. A comment that
names a known extension but is not a well-formed switch is a SyntaxError at its line.
"""
from __future__ import annotations

import ast
import io
import math
import re
import tokenize
from dataclasses import dataclass, field

_HEADER_RE = re.compile(r"^[ \t\f]*#[ \t]*moshmosh\?[ \t]*$")
_ENCODING_RE = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+")
_SWITCH_RE = re.compile(r"^#\s*(?P<action>[+-])(?P<space>\s*)(?P<name>[A-Za-z][\w-]*)")
_SWITCH_FORMS = "'# +name', '# +name(params)' or '# -name', optionally followed by a '# comment'"


def has_header(source: str) -> bool:
    """True if ``source`` opts in to syntax extensions with a ``# moshmosh?`` header line."""
    lines = source.lstrip("\ufeff").splitlines()[:3]
    index = 0
    if index < len(lines) and lines[index].startswith("#!"):
        index += 1
    if index < len(lines) and index < 2 and _ENCODING_RE.match(lines[index]) and not _HEADER_RE.match(lines[index]):
        index += 1
    return index < len(lines) and bool(_HEADER_RE.match(lines[index]))


def check_header(source: str, filename: str) -> bool:
    """True if ``source`` has the ``# moshmosh?`` header; a header comment elsewhere (after a docstring, after
    code) raises a SyntaxError at its line instead of leaving the file silently unrewritten."""
    if has_header(source):
        return True
    if "moshmosh?" not in source:
        return False
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source.lstrip("\ufeff")).readline):
            if tok.type == tokenize.COMMENT and not tok.line[:tok.start[1]].strip() and _HEADER_RE.match(tok.string):
                line = tok.line.rstrip("\r\n")
                raise _syntax_error("'# moshmosh?' must be the file's first line (after an optional shebang and "
                                    "encoding line); here it would be ignored", filename, tok.start[0],
                                    tok.start[1], line)
    except (tokenize.TokenError, IndentationError):
        pass  # Python's own compile reports those
    return False


@dataclass
class Activation:
    """Where one extension is switched on: half-open line ranges ``[start, end)`` with their parameters."""

    ranges: list[tuple[int, float, dict]] = field(default_factory=list)

    def params_at(self, lineno: int) -> dict | None:
        for start, end, params in self.ranges:
            if start <= lineno < end:
                return params
        return None

    def __bool__(self) -> bool:
        return bool(self.ranges)


@dataclass
class PragmaScan:
    """The activations of every extension named in a source, and which are on at its end."""

    activations: dict[str, Activation]
    active_at_end: dict[str, dict]

    def activation(self, name: str) -> Activation:
        return self.activations.get(name, Activation())


def _syntax_error(message: str, filename: str, lineno: int, col: int, line: str) -> SyntaxError:
    return SyntaxError(message, (filename, lineno, col + 1, line, lineno, len(line) + 1))


def _parse_params(text: str, ext, filename: str, lineno: int, col: int, line: str) -> dict:
    """Bind ``a, b=1`` (literals, or bare names meaning strings) to the extension's declared parameters."""
    def error(message):
        return _syntax_error(f"# +{ext.name}(...): {message}", filename, lineno, col, line)

    try:
        call = ast.parse(f"_({text})", mode="eval").body
    except SyntaxError:
        raise error(f"cannot parse parameters {text!r}") from None

    def value(node):
        if isinstance(node, ast.Name):
            return node.id
        try:
            return ast.literal_eval(node)
        except ValueError:
            raise error(f"parameter {ast.unparse(node)!r} must be a literal or a bare name") from None

    declared = list(ext.parameters)
    params = dict(ext.parameters)
    if len(call.args) > len(declared) or any(isinstance(a, ast.Starred) for a in call.args):
        raise error(f"takes at most {len(declared)} parameter(s): {', '.join(declared) or 'none'}")
    for name, node in zip(declared, call.args):
        params[name] = value(node)
    for keyword in call.keywords:
        if keyword.arg not in params:
            raise error(f"unknown parameter {keyword.arg!r}; known: {', '.join(declared) or 'none'}")
        params[keyword.arg] = value(keyword.value)
    return params


def _parse_switch(comment: str, filename: str, lineno: int, col: int, line: str):
    """(action, name, parameter text or None) of a switch comment; None for an ordinary comment.

    ``# +name`` / ``# +name(params)`` / ``# -name`` may be followed by ``# comment``. A comment that starts
    like a switch of a registered extension but is not one of these forms is a SyntaxError; one naming an
    unknown extension is a switch (and an error) only if it has the form of one."""
    from moshjit.extensions import registry

    found = _SWITCH_RE.match(comment)
    if found is None:
        return None
    rest = comment[found.end():].lstrip()
    params = None
    well_formed = not found["space"]
    if rest.startswith("("):
        params, rest = _split_params(rest)
        well_formed = well_formed and params is not None
    well_formed = well_formed and (not rest.strip() or rest.lstrip().startswith("#"))
    if well_formed:
        return found["action"], found["name"], params
    if registry.get(found["name"]) is not None:
        raise _syntax_error(f"malformed pragma {comment.strip()!r}: write {_SWITCH_FORMS}", filename, lineno, col,
                            line)
    return None


def _split_params(text: str) -> tuple[str | None, str]:
    """Split ``(params) rest`` at the parenthesis that closes a valid parameter list."""
    for end in range(1, len(text)):
        if text[end] == ")":
            try:
                ast.parse(f"_{text[:end + 1]}", mode="eval")
            except SyntaxError:
                continue
            return text[1:end], text[end + 1:]
    return None, text


def scan(source: str, filename: str, initially_active: dict[str, dict] | None = None) -> PragmaScan:
    """Find the switch comments of ``source`` (full-line comments only) and turn them into activations."""
    from moshjit.extensions import registry

    open_ranges: dict[str, tuple[int, dict]] = {}
    for name, params in (initially_active or {}).items():
        ext = registry.get(name)
        if ext is None:
            raise ValueError(f"unknown syntax extension {name!r}; known: {', '.join(registry.names())}")
        open_ranges[name] = (1, {**ext.parameters, **(params or {})})
    closed: dict[str, list[tuple[int, float, dict]]] = {}

    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        lineno, col = tok.start
        line = tok.line.rstrip("\r\n")
        if line[:col].strip():
            continue
        switch = _parse_switch(tok.string, filename, lineno, col, line)
        if switch is None:
            continue
        action, name, params_text = switch
        ext = registry.get(name)
        if ext is None:
            raise _syntax_error(f"unknown syntax extension {name!r} (known: {', '.join(registry.names())})",
                                filename, lineno, col, line)
        if action == "-":
            if params_text is not None:
                raise _syntax_error(f"# -{name} takes no parameters", filename, lineno, col, line)
            if name in open_ranges:
                start, params = open_ranges.pop(name)
                closed.setdefault(name, []).append((start, lineno, params))
            continue
        params = (_parse_params(params_text, ext, filename, lineno, col, line)
                  if params_text is not None else dict(ext.parameters))
        if name in open_ranges:
            start, current = open_ranges[name]
            if current == params:
                continue
            closed.setdefault(name, []).append((start, lineno, current))
        open_ranges[name] = (lineno, params)
    for name, (start, params) in open_ranges.items():
        closed.setdefault(name, []).append((start, math.inf, params))
    activations = {name: Activation(sorted(ranges, key=lambda r: r[0])) for name, ranges in closed.items()}
    return PragmaScan(activations, {name: params for name, (_, params) in open_ranges.items()})

"""Emit a typed Cython module from the structured, typed, out-of-SSA IR of one specialisation.

Every SSA value that is used gets a ``cdef`` variable typed from inference (``Py_ssize_t`` for proven int64
ints, ``Py_UCS4`` for chars, ``double``, ``bint``, ``str``/``list``/``dict``/…, else ``object``); values whose
live ranges never overlap share one, and φs are written by the edge copies. Those choices, index loops and
character buffers are decided beforehand in ``plan.py``; this module writes each op and statement as decided.
Everything is ordinary Python syntax over typed variables, which Cython turns into direct C-API calls. Nothing
here reads the user's source: it all comes from the IR.
"""
from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass

from moshjit import async_reference
from moshjit.backends.cython import binding_guard, enumerate_loops, known_hashes, list_builds
from moshjit.backends.cython.attribute_cache import ATTRIBUTE_CACHE_C, ATTRIBUTE_CACHE_DECLARATIONS
from moshjit.backends.cython import constructor_sites, in_place_calls, method_sites, nested_functions, operator_sites
from moshjit.backends.cython.raise_sites import RAISE_SITES_C, RAISE_SITES_DECLARATIONS
from moshjit.backends.cython.float_chains import FLOAT_CHAINS_C, FLOAT_CHAINS_DECLARATIONS, FloatChains
from moshjit.backends.cython.int_chains import INT_CHAINS_C, INT_CHAINS_DECLARATIONS, IntChains
from moshjit.backends.cython.global_cache import GLOBAL_CACHE_C, GLOBAL_CACHE_DECLARATIONS
from moshjit.backends.cython import structure as st
from moshjit.backends.cython import text
from moshjit.backends.cython.out_of_ssa import CopyPlan, Temp, sequentialize
from moshjit.backends.cython.plan import EmissionPlan
from moshjit.backends.cython.prelude import MAX_JOINED_PARTS, PRELUDE
from moshjit.cpython import zero_division_message
from moshjit.ir import ops
from moshjit.ir.conformance import checked_result
from moshjit.ir.function import Function
from moshjit.ir.ops import UNDEFINED, Argument, Constant, Phi
from moshjit.ir.types import BOOL, FLOAT, STR, IntType
from moshjit.passes.loop_ticks import TICK_EVERY
from moshjit.primitives.summation import Summation
from moshjit.primitives.unicode_categories import category_code

try:
    from moshjit.runtime.moshjit_match import ClassDispatch
except ImportError:  # the runtime's compiled modules are not built: a dispatch is subscripted as any object
    ClassDispatch = None

_LITERAL_TYPES = (int, float, str, bytes, bool, type(None))

_SAFE_DIVISION = 1 << 53                  # int / int in C doubles is exact only below this


def _summation(value) -> bool:
    """A ``Summation(start)`` call (an inlined ``sum(generator)`` on 3.12+): native_call makes it moshjit_rt's."""
    return isinstance(value, ops.Call) and isinstance(value.func, Constant) and value.func.value is Summation \
        and len(value.args) == 1 and not value.kwnames


def literal(value) -> str | None:
    """Cython source for a constant, or None when it must be passed in as an object."""
    kind = type(value)
    if kind is float:
        return repr(value) if math.isfinite(value) else None
    if kind in _LITERAL_TYPES:
        return repr(value)
    if kind is tuple:
        items = [literal(v) for v in value]
        if any(i is None for i in items):
            return None
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    return None


_NATIVE_NUMBER = ("Py_ssize_t", "double", "bint")
# str methods Cython computes on a Py_UCS4 with the same Py_UNICODE_IS* tests str uses for one character.
_CYTHON_CHAR_METHODS = {"isalnum", "isalpha", "isdecimal", "isdigit", "islower", "isnumeric", "isprintable",
                        "isspace", "istitle", "isupper"}
# Builtins whose Cython fast paths behave exactly like CPython (divmod, pow and round do not: other messages).
_EXACT_CYTHON_BUILTINS = (len, isinstance, ord, chr, str, repr, bool, int, float, list, dict, set, frozenset, tuple,
                          sorted, reversed, enumerate, zip, range, hasattr, getattr, iter, next, type, hash, id,
                          print, any, all, min, max, sum, abs)
_PY_OPERATORS = {"neg": "-", "pos": "+", "invert": "~", "not": "not "}
# Python-object arithmetic goes through the C API, as CPython's BINARY_OP does: Cython's own fast paths differ
# (``0 + -0.0`` gives -0.0, ``2.0 % inf`` NaN, float literals compare with ints through double) and its constant
# folding of literal expressions computes ``1e300 ** 3`` as inf and ``2 ** 62 ** 4`` for minutes.
_NUMBER_API = {"+": "Add", "-": "Subtract", "*": "Multiply", "/": "TrueDivide", "//": "FloorDivide",
               "%": "Remainder", "**": "Power", "@": "MatrixMultiply", "<<": "Lshift", ">>": "Rshift",
               "&": "And", "|": "Or", "^": "Xor"}
_COMPARE_API = {"<": 0, "<=": 1, "==": 2, "!=": 3, ">": 4, ">=": 5}        # Py_LT … Py_GE


def python_number_op(operator: str, inplace: bool, left: str, right: str) -> str:
    """``left <operator> right`` on Python objects through ``PyNumber_*`` (``mj_number_*``, see the prelude)."""
    name = f"mj_number_{'inplace_' if inplace else ''}{_NUMBER_API[operator].lower()}"
    return f"{name}({left}, {right}, None)" if operator == "**" else f"{name}({left}, {right})"


class Emitter:
    """Writes the module's lines, op by op and statement by statement, as the ``EmissionPlan`` decided."""

    def __init__(self, fn: Function, plan: CopyPlan, decided: EmissionPlan, body: list, entry_name: str,
                 global_assumptions: dict, fallback=None):
        self.fn = fn
        self.global_assumptions = global_assumptions
        self.fallback = fallback
        self.plan = plan
        self.body = body
        self.entry_name = entry_name
        self.names: dict = {}
        self.decls: dict[str, str] = dict(decided.index_decls)
        self.constants: list = []
        self.constant_names: dict[int, str] = {}
        self.lines: list[str] = []
        self.source_lines: list = []        # per line of ``lines``: the user's line it was written for, or None
        self.source_line = None
        self.own_lines = None               # lines of the user's function (others come from inlined helpers)
        self.inlined_at: dict = {}          # op of an inlined helper → the line of the call that inlined it
        self.users = decided.users
        self.undefined = decided.undefined
        self.inline_slices = decided.inline_slices
        self.iteration = decided.iteration
        self.folded = decided.folded
        self.joined_loops = decided.joined_loops
        self.extracted_with_source: set = set()  # ExtractItems an inline star unpacking emitted itself
        self.char_buffers = decided.char_buffers
        self.split_texts = decided.split_texts
        self.reused_buffers = decided.reused_buffers
        self.reused_buffer_names: set = set()   # their variables: None at entry (Cython's flow analysis)
        self.views = decided.views
        self.list_builds = decided.list_builds
        self.tuple_compares = decided.tuple_compares
        self.caller_objects = decided.caller_objects
        self.known_hashes = decided.known_hashes
        self.boxed_once = decided.boxed_once
        self.kept_unused = decided.kept_unused
        self.released_at = decided.released_at
        self.generic_loops = decided.generic_loops
        self.released_on_exit = decided.released_on_exit
        self.consumed_by_loop = decided.consumed_by_loop
        self.emptied_by_release = decided.emptied_by_release
        self.box_names: dict = {}           # computed float -> the variable holding its one box (``boxed_once``)
        self.box_reads: dict = {}           # op or terminator -> the computed floats it reads boxed
        self.phi_objects = decided.phi_objects
        for value, readers in [*self.boxed_once.items(), *self.phi_objects.items()]:
            for reader in readers:
                self.box_reads.setdefault(reader, []).append(value)
        self.hash_holders: set = set()      # per key variable: the object whose hash it holds (``known_hashes``)
        self.current = None                 # the op or terminator being written (``at``)
        self.loop_indexes: dict = {}        # get_iter op -> index variable of its generic loop (``loop_index``)
        self.list_build_names: list = []
        self.representative = decided.representative
        self.decl_type = decided.decl_type
        self.held_as_object = decided.held_as_object
        self.ctype = decided.ctype
        emitted_elsewhere = (self.folded | self.inline_slices | set(self.list_builds.roots)
                             | set(self.list_builds.fused))
        self.int_chains = IntChains(fn, self.users, self.ctype, emitted_elsewhere)
        self.float_chains = FloatChains(fn, self.users, self.ctype, emitted_elsewhere | self.int_chains.taken(fn))
        self.constructs: list = []          # enclosing Python loops: [kind, label block, exit label, passing ids]
        self.jump_ids: dict = {}
        self.uses_jump = False
        self.uses_state = False
        self.uses_index_slot = False        # an object subscript's fast path needs its local (``text.expression``)
        self.unpacked_items = False         # whether an item of an unpacking is read with ``mj_unpacked_item``
        self.async_for = False              # whether ``mj_aiter``/``mj_anext`` are used (``ASYNC_FOR_C``)
        self.state_ids: dict = {}
        self.cond_names: dict = {}
        self.attribute_caches = 0           # inline caches of attribute sites: _mj_ac0, _mj_ac1, …
        self.direct_methods: dict = {}      # call_method op → (class, jitted method, compiled entry)
        self.direct_entries = frozenset()   # ids of the compiled entries calls were bound to (``direct_calls``)
        self.entry_calls = 0                # calls of those entries through ``mj_entry_call``
        self.method_guards = 0              # guards of direct method calls: _mj_mg0, …
        self.method_assumptions: dict = {}  # direct method calls whose result type came from the method found
        self.method_sites = 0               # inline caches of method calls on any receiver: _mj_ms0, …
        self.constructor_sites = 0          # ... and of constructor calls of jitted classes: _mj_ns0, …
        self.operator_sites = 0             # ... and of binary operators on objects (method sites too): _mj_os0, …
        self.global_caches = 0              # inline caches of module-global reads: _mj_gc0, …
        self.raise_sites = 0                # guards of raises turned into jumps: _mj_rs0, …
        self.nested_codes: dict = {}        # make_function/make_closure op → what compiles its code (``nested``)
        self.nested_sites = 0               # the call paths installed on the functions they make
        self.closure_per_call = False       # the entry takes the function first and reads its closure from it
        self.class_dispatches = False       # whether ``dispatch[s]`` calls ClassDispatch.index (cimported)
        self.bindings: tuple = ()           # names bound when compiling, checked on entry (``binding_guard``)
        self.on_rebound = None              # what the entry calls when one of them no longer holds
        self.bindings_constant = None       # the constant holding them, once the check is emitted

    # ---- names and references ----------------------------------------------------------------------------------
    def var(self, value) -> str:
        name = self.names.get(value)
        if name is None:
            shared = self.representative.get(value, value)
            if shared is not value:
                name = self.names[value] = self.var(shared)
                return name
            if isinstance(value, Argument):
                name = f"a_{value.name}" if value.name.isidentifier() else f"a{value.index}"
            elif isinstance(value, Phi):
                name = f"p{len(self.names)}"
            elif isinstance(value, Temp):
                name = f"t{len(self.names)}"
            else:
                name = f"v{len(self.names)}"
            self.names[value] = name
            if not isinstance(value, Argument):
                self.decls[name] = self.decl_type(value)
        return name

    def ref(self, value) -> str:
        if isinstance(value, Constant):
            text = literal(value.value)
            return text if text is not None else self.constant(value.value)
        if value is UNDEFINED:
            return "_MJ_UNBOUND"
        if value in self.views:                  # where a view escapes, the str is built
            return f"mj_view_str({self.var(value)})"
        if self.current in self.caller_objects.get(value, ()):
            return self.caller_object(value)
        if self.current in self.boxed_once.get(value, ()) or self.current in self.phi_objects.get(value, ()):
            return self.box_name(value)
        return self.var(value)

    def box_name(self, value) -> str:
        if value not in self.box_names:
            self.box_names[value] = name = f"_mj_fb{len(self.box_names)}"
            self.decls[name] = "object"
        return self.box_names[value]

    def box_operands(self, inst, depth: int) -> None:
        """Before ``inst`` reads computed floats as objects: box each one unless this definition's box exists."""
        for value in self.box_reads.get(inst, ()):
            self.emit(f"if {self.box_name(value)} is None:", depth)
            self.emit(f"{self.box_name(value)} = {self.var(value)}", depth + 1)

    def passed_arguments(self) -> str:
        """The entry's arguments as a fallback or a rebinding handler gets them (the function first, when the
        closure comes with each call)."""
        passed = [self.caller_object(a) for a in self.fn.args]
        return ", ".join([nested_functions.FUNCTION_PARAMETER] + passed if self.closure_per_call else passed)

    def caller_object(self, argument) -> str:
        """The parameter holding the object the caller passed for a number argument unboxed into ``var``."""
        return "o" + self.var(argument)[1:] if argument in self.caller_objects else self.var(argument)

    def obj(self, value) -> str:
        """Reference as a Python object (so arithmetic and attribute access follow Python rules)."""
        text = self.ref(value)
        if isinstance(value, Constant):
            # Cython types a bool, int or float literal as a C value: ``True[0]`` and ``7.bit_length()`` would not
            # compile, and ``-1 .__abs__()`` would negate the call's result
            typed_by_cython = type(value.value) in (bool, int, float) and literal(value.value) is not None
            return f"(<object>({text}))" if typed_by_cython else text
        return f"(<object>{text})" if self.decl_type(value) != "object" else text

    def constant(self, value) -> str:
        key = id(value)
        if key not in self.constant_names:
            self.constant_names[key] = f"_k{len(self.constants)}"
            self.constants.append(value)
        return self.constant_names[key]

    def emit(self, line: str, depth: int) -> None:
        self.lines.append("    " * depth + line)
        self.source_lines.append(self.source_line)

    def at(self, inst) -> None:
        """Attribute the lines emitted from now on to ``inst``'s source line (an inlined helper's ops count as
        the line of the call that brought them in: that is where the user's function was)."""
        self.current = inst
        line = getattr(inst, "line", None)
        if self.own_lines is not None and line not in self.own_lines:
            line = self.inlined_at.get(inst)
        if line is not None and (self.own_lines is None or line in self.own_lines):
            self.source_line = line

    def key(self, value) -> str:
        if value in self.inline_slices:
            parts = ["" if isinstance(p, Constant) and p.value is None else self.ref(p)
                     for p in (value.start, value.stop, value.step)]
            return f"{parts[0]}:{parts[1]}" + (f":{parts[2]}" if parts[2] else "")
        if self.ctype(value) == "bint":         # Cython indexes with a C bint as with an int: d[True] saw 1
            return self.obj(value)
        return self.ref(value)

    # ---- ops ---------------------------------------------------------------------------------------------------
    def assign(self, op, expr: str, depth: int) -> None:
        if self.users.get(op) or op in self.kept_unused:
            self.emit(f"{self.var(op)} = {expr}", depth)
        else:
            self.emit(expr, depth)

    def op_code(self, op, depth: int) -> None:
        if op in self.folded or op in self.inline_slices or op in self.extracted_with_source:
            return
        self.at(op)
        self.box_operands(op, depth)
        self.op_body(op, depth)
        if op in self.boxed_once:                  # a new value: its box is made by the first use that needs it
            self.emit(f"{self.box_name(op)} = None", depth)

    def op_body(self, op, depth: int) -> None:
        if op in self.list_builds.roots:
            list_builds.emit_build(self, op, depth)
            return
        if self.int_chains.takes(op):
            if op in self.int_chains.item_reads:
                self.int_chains.emit_item_read(self, op, depth, lambda at: self.plain_body(op, at))
            elif isinstance(op, ops.GetItem):
                self.int_chains.emit_subscript(self, op, depth, lambda at: self.plain_body(op, at))
            else:
                self.int_chains.emit(self, op, depth, lambda left, right: self.generic_binary(op, left, right))
            return
        if self.float_chains.takes(op):
            self.float_chains.emit(self, op, depth, lambda left, right: self.generic_binary(op, left, right))
            return
        if op in self.known_hashes:
            known_hashes.emit(self, op, self.known_hashes[op], depth)
            return
        self.plain_body(op, depth)

    def plain_body(self, op, depth: int) -> None:
        """What ``op`` emits without the chains: a str view or native dict lookup, else its own ``op_`` method."""
        native = text.expression(self, op)       # str views and native dict lookups
        if native is not None:
            self.assign(op, native, depth)
            return
        handler = getattr(self, "op_" + type(op).__name__)
        handler(op, depth)

    def op_BinaryOp(self, op, depth):
        result_native = self.decl_type(op) in _NATIVE_NUMBER and self.decl_type(op) != "bint"
        operands_native = all(self.ctype(v) in _NATIVE_NUMBER for v in (op.left, op.right))
        if op.op == "/" and any(self.ctype(v) == "Py_ssize_t" for v in (op.left, op.right)):
            result_native = result_native and all(_small_for_division(v) for v in (op.left, op.right))
        if result_native and operands_native and op.op != "**":
            left, right = self.ref(op.left), self.ref(op.right)
            self.zero_division_check(op, right, depth)
            if op.op in ("//", "%") and self.decl_type(op) == "double":
                helper = "mj_float_floordiv" if op.op == "//" else "mj_float_mod"
                self.assign(op, f"{helper}({left}, {right})", depth)
            else:
                self.assign(op, f"{left} {op.op} {right}", depth)
        elif self.decl_type(op) == "str" and op.op == "+" and not op.inplace \
                and all(self.ctype(v) == "str" for v in (op.left, op.right)):
            self.assign(op, f"{self.ref(op.left)} + {self.ref(op.right)}", depth)     # Cython's str concatenation
        elif op.op == "+" and op.inplace and self.ctype(op.left) == "str":
            self.emit(f"{self.var(op)} = {self.ref(op.left)}", depth)      # Cython appends in place when it can
            self.emit(f"{self.var(op)} += {self.obj(op.right)}", depth)
            if not self.users.get(op):
                self.emit(f"{self.var(op)} = None", depth)
        else:
            self.assign(op, self.generic_binary(op, self.obj(op.left), self.obj(op.right)), depth)

    def generic_binary(self, op, left: str, right: str) -> str:
        """``left <op> right`` on two object expressions: an operator site (``operator_sites.py``) where the left
        operand may be an instance with a jitted dunder, the number fast paths otherwise."""
        if operator_sites.takes_site(op, self.ctype(op.left)):
            site = f"_mj_os{self.operator_sites}"
            self.operator_sites += 1
            return f"{operator_sites.FUNCTION_NAMES[op.op]}(&{site}, {left}, {right})"
        return python_number_op(op.op, op.inplace, left, right)

    def zero_division_check(self, op, right: str, depth: int) -> None:
        """Native division raises with CPython's wording (Cython's own messages differ)."""
        if op.op not in ("/", "//", "%") or isinstance(op.right, Constant) and op.right.value != 0:
            return
        kind = "float" if "double" in (self.ctype(op.left), self.ctype(op.right)) else "int"
        message = zero_division_message(kind, op.op)
        self.emit(f"if {right} == 0:", depth)
        # a call, not a ``raise``: with a constant zero divisor Cython would see an unconditional raise, take the
        # code after it for dead, and refuse variables assigned only there ("referenced before assignment")
        self.emit(f"mj_zero_division(b{message!r})", depth + 1)

    def op_UnaryOp(self, op, depth):
        native = self.decl_type(op) in _NATIVE_NUMBER and self.ctype(op.operand) in _NATIVE_NUMBER
        operand = self.ref(op.operand) if native or op.op == "not" else self.obj(op.operand)
        if op.op == "invert" and not native and isinstance(op.operand, Constant) and type(op.operand.value) is bool:
            operand = self.constant(op.operand.value)   # Cython would fold ~True, without CPython 3.12's warning
        elif op.op == "invert" and not native:          # an int past a long long still inverted in C
            self.int_chains.used = True
            self.assign(op, f"mj_wide_invert({operand})", depth)
            return
        self.assign(op, f"{_PY_OPERATORS[op.op]}{operand}", depth)

    def op_Compare(self, op, depth):
        if op in self.tuple_compares:
            display, other, left = self.tuple_compares[op]
            items = [self.ref(v) for v in display.items] + ["None"] * (3 - len(display.items))
            self.assign(op, f"_mj_display_compare({', '.join(items)}, {len(display.items)}, {self.obj(other)}, "
                            f"{2 if op.op == '==' else 3}, {int(left)})", depth)       # 2, 3: Py_EQ, Py_NE
            return
        if op.op in ("is", "is not") and op.left is op.right:
            # one SSA value is one object; boxing a native value twice would make two
            self.assign(op, "True" if op.op == "is" else "False", depth)
            return
        if op.op in ("in", "not in") and self._in_str_literals(op):
            tests = " or ".join(f"mj_str_cmp({literal(item)}, {self.ref(op.left)}, 2) != 0"
                                for item in op.right.value)
            self.assign(op, f"({tests})" if op.op == "in" else f"not ({tests})", depth)
            return
        if op.op in ("is", "is not", "in", "not in"):
            left, right = self.obj(op.left), self.obj(op.right)
            if op.op in ("in", "not in"):
                left, right = self.ref(op.left), self.container(op.right)
        elif op.op in ("==", "!=") and self.decl_type(op) == "bint" and self._str_operand(op.left) \
                and self._str_operand(op.right):
            self.assign(op, f"mj_str_cmp({self.ref(op.left)}, {self.ref(op.right)}, {2 if op.op == '==' else 3})",
                        depth)                    # 2, 3: Py_EQ, Py_NE
            return
        elif self.decl_type(op) == "bint" and self._compares_natively(op):
            left, right = self.ref(op.left), self.ref(op.right)
            kinds = (self.ctype(op.left), self.ctype(op.right))
            if kinds in (("Py_ssize_t", "double"), ("double", "Py_ssize_t")):      # exact, not through double
                helper = "mj_cmp_int_float" if kinds[0] == "Py_ssize_t" else "mj_cmp_float_int"
                self.assign(op, f"{helper}({left}, {right}, {_COMPARE_API[op.op]})", depth)
                return
        else:
            call = f"mj_richcompare({self.obj(op.left)}, {self.obj(op.right)}, {_COMPARE_API[op.op]})"
            self.assign(op, call if self.decl_type(op) != "bint" else f"mj_truth({call})", depth)
            return
        self.assign(op, f"{left} {op.op} {right}", depth)

    def _compares_natively(self, op) -> bool:
        """Whether Cython compares these operands exactly as CPython does: typed values of one family (numbers,
        characters and str literals, strs and containers), never a Python object (Cython's fast paths compare
        an int literal with a float through double) and never a character with a number."""
        kinds = {self.ctype(v) for v in (op.left, op.right)}
        if "object" in kinds:
            return all(isinstance(v, Constant) and type(v.value) is str and len(v.value) == 1 or
                       self.ctype(v) == "Py_UCS4" for v in (op.left, op.right))
        return not ("Py_UCS4" in kinds and kinds & set(_NATIVE_NUMBER))

    def _in_str_literals(self, op) -> bool:
        """``s in ("a", "b")`` with a str ``s``: CPython's tuple containment compares item == s in order, which
        ``mj_str_cmp`` does with identity and length tests first (Cython would call ``PyUnicode_Compare``, a full
        ordering comparison, per item)."""
        items = op.right.value if isinstance(op.right, Constant) else None
        return (type(items) is tuple and 0 < len(items) <= 16 and all(type(item) is str for item in items)
                and self.decl_type(op) == "bint" and self._str_operand(op.left)
                and not isinstance(op.left, Constant))

    def _str_operand(self, value) -> bool:
        """A str-typed value or a str constant (not a char: those compare as C integers)."""
        if isinstance(value, Constant):
            return type(value.value) is str
        return self.ctype(value) == "str"

    def op_LoadGlobal(self, op, depth):
        cache = f"_mj_gc{self.global_caches}"
        self.global_caches += 1
        self.assign(op, f"mj_global_load(_g, _b, {op.name!r}, &{cache})", depth)

    def op_StoreGlobal(self, op, depth):
        self.emit(f"_g[{op.name!r}] = {self.obj(op.value)}", depth)

    def op_DeleteGlobal(self, op, depth):
        self.emit(f"if {op.name!r} not in _g:", depth)
        self.emit(f"raise NameError({'name ' + repr(op.name) + ' is not defined'!r}, name={op.name!r})", depth + 1)
        self.emit(f"del _g[{op.name!r}]", depth)

    def op_LoadDeref(self, op, depth):
        self.assign(op, f"_mj_load_deref(_cl, {op.index}, {op.name!r})", depth)

    def op_MakeCell(self, op, depth):
        initial = "_mj_cell_empty()" if op.initial is UNDEFINED else f"_mj_cell_new({self.obj(op.initial)})"
        self.assign(op, initial, depth)

    def op_LoadCell(self, op, depth):
        self.assign(op, f"_cl[{op.index}]", depth)

    def op_CellGet(self, op, depth):
        self.assign(op, f"_mj_cell_get({self.ref(op.cell)}, {op.name!r}, {op.kind == 'free'})", depth)

    def op_CellSet(self, op, depth):
        self.emit(f"_mj_cell_set({self.ref(op.cell)}, {self.obj(op.value)})", depth)

    def op_CellDelete(self, op, depth):
        self.emit(f"_mj_cell_delete({self.ref(op.cell)}, {op.name!r}, {op.kind == 'free'})", depth)

    def op_CheckBound(self, op, depth):
        raiser = "_mj_unbound_local" if op.kind == "local" else "_mj_unbound_free"
        value = self.ref(op.value)
        self.emit(f"if {value} is _MJ_UNBOUND:", depth)
        self.emit(f"{raiser}({op.name!r})", depth + 1)
        if self.users.get(op):
            self.emit(f"{self.var(op)} = {value}", depth)

    def op_ImportName(self, op, depth):
        self.assign(op, f"__import__({op.name!r}, _g, None, {self.ref(op.fromlist)}, {self.ref(op.level)})",
                    depth)

    def op_ImportFrom(self, op, depth):
        self.assign(op, f"_mj_import_from({self.ref(op.module)}, {op.name!r})", depth)

    def attribute_cache(self) -> str:
        """A new inline cache for one attribute site (``attribute_cache.py``), as a pointer argument."""
        name = f"_mj_ac{self.attribute_caches}"
        self.attribute_caches += 1
        return f"&{name}"

    def op_LoadAttr(self, op, depth):
        if isinstance(op.obj, Constant) and type(op.obj.value) is not type:  # a module: Cython's own lookup
            self.assign(op, f"{self.obj(op.obj)}.{op.name}", depth)
            return
        self.assign(op, f"mj_attr_load({self.obj(op.obj)}, {op.name!r}, {self.attribute_cache()})", depth)

    def op_StoreAttr(self, op, depth):
        if isinstance(op.obj, Constant):
            self.emit(f"{self.obj(op.obj)}.{op.name} = {self.ref(op.value)}", depth)
            return
        self.emit(f"mj_attr_store({self.obj(op.obj)}, {op.name!r}, {self.obj(op.value)}, "
                  f"{self.attribute_cache()})", depth)

    def op_DelAttr(self, op, depth):
        self.emit(f"del {self.obj(op.obj)}.{op.name}", depth)

    def container(self, value) -> str:
        """A value used as a container: chars become 1-character str objects (Cython treats Py_UCS4 as a
        number when subscripted), native numbers and number constants Python objects (so subscripting raises
        CPython's TypeError)."""
        native = self.ctype(value) in ("Py_UCS4",) + _NATIVE_NUMBER
        return self.obj(value) if native or isinstance(value, Constant) else self.ref(value)

    def op_GetItem(self, op, depth):
        if isinstance(op.obj, Constant) and ClassDispatch is not None and type(op.obj.value) is ClassDispatch:
            # a rewritten match's class dispatch: its C method gives the same int as the subscript, as a C integer
            self.class_dispatches = True
            self.assign(op, f"(<_MjClassDispatch>{self.obj(op.obj)}).index({self.obj(op.key)})", depth)
            return
        cast = "<CharBuffer>" if op in self.char_buffers else ""     # an item of a list of buffers
        self.assign(op, f"{cast}{self.container(op.obj)}[{self.key(op.key)}]", depth)

    def op_SetItem(self, op, depth):
        self.emit(f"{self.container(op.obj)}[{self.key(op.key)}] = {self.ref(op.value)}", depth)

    def op_DelItem(self, op, depth):
        self.emit(f"del {self.container(op.obj)}[{self.key(op.key)}]", depth)

    def op_BuildSlice(self, op, depth):
        self.assign(op, f"slice({self.ref(op.start)}, {self.ref(op.stop)}, {self.ref(op.step)})", depth)

    def _call_args(self, args, kwnames) -> str:
        split = len(args) - len(kwnames)
        parts = [self.ref(a) for a in args[:split]]
        parts += [f"{name}={self.ref(a)}" for name, a in zip(kwnames, args[split:])]
        return ", ".join(parts)

    def callee(self, func) -> str:
        if isinstance(func, Constant):
            value = func.value
            if any(value is b for b in _EXACT_CYTHON_BUILTINS):
                return value.__name__          # lets Cython use its optimised builtins (len, ord, isinstance, …)
            return self.constant(value)
        return self.obj(func)

    def op_Call(self, op, depth):
        native = self.native_call(op)
        if native is not None:
            self.assign(op, native, depth)
            return
        if isinstance(op.func, Constant) and (op.func.value is max or op.func.value is min) \
                and len({self.ctype(a) for a in op.args}) > 1:
            # Cython would pick among mixed C types in their common type (max(10, 1.5) == 10.0): compare objects
            parts = [self.constant(a.value) if isinstance(a, Constant) else self.obj(a)     # no literal fast paths
                     for a in op.args[:len(op.args) - len(op.kwnames)]]
            parts += [f"{n}={self.ref(a)}" for n, a in zip(op.kwnames, op.args[len(op.args) - len(op.kwnames):])]
            self.assign(op, f"{self.callee(op.func)}({', '.join(parts)})", depth)
        elif constructor_sites.takes_constructor_site(op):
            self.constructor_site_call(op, depth)
        elif (isinstance(op.func, Constant) and id(op.func.value) in self.direct_entries and not op.kwnames
              and 0 < len(op.args) <= method_sites.MAX_SITE_ARGS):
            # as the dispatcher calls it: one Python frame counted (3.12+ count no frame for a C function's call,
            # 3.11 counts it with another message), the entry's C function called directly
            self.entry_calls += 1
            self.assign(op, self.entry_call(op.func.value, [self.obj(a) for a in op.args]), depth)
        elif all(name.isidentifier() for name in op.kwnames):
            self.assign(op, f"{self.callee(op.func)}({self._call_args(op.args, op.kwnames)})", depth)
        else:
            split = len(op.args) - len(op.kwnames)
            positional = ", ".join(self.ref(a) for a in op.args[:split])
            keywords = ", ".join(f"{n!r}: {self.ref(a)}" for n, a in zip(op.kwnames, op.args[split:]))
            self.assign(op, f"{self.callee(op.func)}(*({positional},), **{{{keywords}}})", depth)

    def entry_call(self, entry, args: list[str]) -> str:
        """A compiled entry called with object expressions ``args`` (at most ``MAX_SITE_ARGS``), counting the
        Python frame it stands for (``method_sites.mj_entry_call``)."""
        return f"mj_entry_call{len(args)}({self.constant(entry)}, {', '.join(args)})"

    def constructor_site_call(self, op, depth):
        """``Cls(args)`` of a jitted class through the site's cache (``constructor_sites.py``): ``object.__new__``
        and the ``__init__`` compiled entry, with no argument tuple and no lookups."""
        site = f"_mj_ns{self.constructor_sites}"
        self.constructor_sites += 1
        cls, args = self.constant(op.func.value), "".join(f", {self.obj(a)}" for a in op.args)
        if op.kwnames:
            kwnames = self.constant(tuple(op.kwnames))
            self.assign(op, f"mj_new_callkw{len(op.args)}(&{site}, {cls}, {kwnames}{args})", depth)
        else:
            self.assign(op, f"mj_new_call{len(op.args)}(&{site}, {cls}{args})", depth)

    def native_call(self, op) -> str | None:
        """Calls with a native implementation in moshjit_rt (only for argument types where it is exact)."""
        if not (isinstance(op.func, Constant) and not op.kwnames):
            return None
        if op.func.value is Summation and len(op.args) == 1:
            return f"_MjSummation({self.obj(op.args[0])})"
        if op.func.value is len and len(op.args) == 1 and op.args[0] in self.char_buffers:
            return f"{self.ref(op.args[0])}.length"
        if op.func.value is unicodedata.category and len(op.args) == 1 and self.ctype(op.args[0]) == "Py_UCS4":
            return f"mj_category({self.ref(op.args[0])})"
        if op.func.value is category_code and len(op.args) == 1 and self.ctype(op.args[0]) == "Py_UCS4":
            return f"_mj_category_code({self.ref(op.args[0])})"
        return None

    def op_CallMethod(self, op, depth):
        if _summation(op.obj) and not op.kwnames and ((op.name, len(op.args)) == ("result", 0) or (
                (op.name, len(op.args)) == ("add", 1) and not self.users.get(op))):
            # the C loop of moshjit_rt.Summation, which the call made: a direct C method call per item
            args = ", ".join(self.obj(a) for a in op.args)
            self.assign(op, f"(<_MjSummation>{self.obj(op.obj)}).{op.name}({args})", depth)
            return
        if op in self.split_texts:                            # only looped over: the loop splits the str
            self.assign(op, self.ref(op.obj), depth)
            return
        if op.obj in self.char_buffers:                       # append (checked by the plan)
            self.emit(f"{self.ref(op.obj)}.append({self.char(op.args[0])})", depth)
            return
        if op.name == "join" and op.args and op.args[0] in self.char_buffers:
            self.assign(op, f"{self.ref(op.args[0])}.join()", depth)
            return
        if op in self.direct_methods:
            self.direct_method_call(op, depth)
            return
        if op.name == "bit_length" and not op.args and not op.kwnames and self.ctype(op.obj) in ("Py_ssize_t",
                                                                                                 "object"):
            self.bit_length_call(op, depth)
            return
        self.generic_method_call(op, depth)

    def bit_length_call(self, op, depth):
        """``x.bit_length()`` of a C integer in C, and of an exact int from its digit count (``_PyLong_NumBits``,
        which reads the top digit: what CPython's method computes); anything else calls the method."""
        self.int_chains.used = True
        if self.ctype(op.obj) == "Py_ssize_t":
            self.assign(op, f"mj_c_bit_length({self.ref(op.obj)})", depth)
            return
        self.emit(f"if type({self.obj(op.obj)}) is int:", depth)
        self.assign(op, f"mj_int_bit_length({self.obj(op.obj)})", depth + 1)
        self.emit("else:", depth)
        self.generic_method_call(op, depth + 1)

    def generic_method_call(self, op, depth):
        """``obj.name(args)`` through a method site, or as Cython calls it (a typed receiver's own C method)."""
        # a str literal's methods are str's own: called directly (Cython calls C for some, e.g. ``"".join``)
        literal_str = isinstance(op.obj, Constant) and type(op.obj.value) is str
        receiver_type = "str" if literal_str else self.ctype(op.obj)
        if method_sites.takes_site(op, receiver_type):
            self.method_site_call(op, depth)
            return
        typed = {"str": str, "list": list, "dict": dict, "set": set, "tuple": tuple}.get(receiver_type)
        if receiver_type == "Py_UCS4":
            receiver = self.ref(op.obj) if op.name in _CYTHON_CHAR_METHODS else self.obj(op.obj)
        else:
            receiver = self.ref(op.obj) if typed is not None and hasattr(typed, op.name) else self.obj(op.obj)
        self.assign(op, f"{receiver}.{op.name}({self._call_args(op.args, op.kwnames)})", depth)

    def direct_method_call(self, op, depth):
        """``obj.name(args)`` straight to the compiled entry of the jitted method, when ``mj_method_is`` confirms
        that the call would reach it (``method_calls.py``); else the generic method call."""
        cls, method, entry = self.direct_methods[op]
        guard = f"_mj_mg{self.method_guards}"
        self.method_guards += 1
        receiver, args = self.obj(op.obj), self._call_args(op.args, ())
        call_args = [receiver] + [self.obj(a) for a in op.args]
        if entry is None:                                      # the dispatcher's own call (it counts the frame)
            direct = f"{self.constant(method)}({', '.join(call_args)})"
        elif len(call_args) <= method_sites.MAX_SITE_ARGS:     # no Cython call machinery, one frame counted
            direct = self.entry_call(entry, call_args)
        else:
            direct = f"{self.constant(entry)}({receiver}{', ' if args else ''}{args})"
        generic = f"{receiver}.{op.name}({args})"
        if op in self.method_assumptions:    # changed during this call (the entry checked it): check the result
            assumed = self.method_assumptions[op][2]
            generic = (f"{self.constant(checked_result)}({generic}, {self.constant(assumed)}, "
                       f"{f'{cls.__qualname__}.{op.name}'!r})")
        self.assign(op, f"({direct} if mj_method_is({receiver}, {op.name!r}, &{guard}, {self.constant(cls)}, "
                        f"{self.constant(method)}) else {generic})", depth)

    def method_site_call(self, op, depth):
        """``obj.name(args)`` through the site's inline cache (``method_sites.py``): straight to a jitted method's
        compiled entry when the receiver's type and the arguments' kinds are the ones seen before."""
        site = f"_mj_ms{self.method_sites}"
        self.method_sites += 1
        args = [self.obj(op.obj)] + [self.obj(a) for a in op.args]
        if op.kwnames:
            kwnames = self.constant(tuple(op.kwnames))
            self.assign(op, f"mj_site_callkw{len(args)}({op.name!r}, &{site}, {kwnames}, {', '.join(args)})", depth)
        else:
            self.assign(op, f"mj_site_call{len(args)}({op.name!r}, &{site}, {', '.join(args)})", depth)

    def op_MethodIs(self, op, depth):
        guard = f"_mj_mg{self.method_guards}"
        self.method_guards += 1
        self.assign(op, f"mj_method_is({self.obj(op.obj)}, {op.name!r}, &{guard}, {self.constant(op.owner)}, "
                        f"{self.constant(op.method)})", depth)

    def op_RaiseIsCaught(self, op, depth):
        site = f"_mj_rs{self.raise_sites}"
        self.raise_sites += 1
        self.assign(op, f"mj_raise_caught(&{site}, {self.constant(op.raised)}, {self.constant(op.passed)}, "
                        f"{self.constant(op.caught)})", depth)

    def op_SuperCallMethod(self, op, depth):
        args = [self.obj(a) for a in op.args]
        packed = "(" + ", ".join(args) + ("," if len(args) == 1 else "") + ")"
        self.assign(op, f"_mj_super_call_method({self.obj(op.cls)}, {self.obj(op.obj)}, {op.name!r}, {packed}, "
                        f"{op.kwnames!r})", depth)

    def op_SuperIs(self, op, depth):
        guard = f"_mj_mg{self.method_guards}"
        self.method_guards += 1
        self.assign(op, f"mj_super_is({self.obj(op.obj)}, {self.constant(op.start)}, {op.name!r}, &{guard}, "
                        f"{self.constant(op.owner)}, {self.constant(op.method)})", depth)

    def op_CallEx(self, op, depth):
        self.assign(op, f"_mj_call_ex({self.obj(op.func)}, {self.ref(op.posargs)}, {self.ref(op.kwargs)})", depth)

    def op_MakeFunction(self, op, depth):
        self.assign(op, f"_mj_make_function({self.constant(op.code)}, _g, {self.ref(op.defaults)}, "
                        f"{self.ref(op.kwdefaults)})", depth)
        self.set_annotations(op, depth)
        self.install_nested_call(op, depth)

    def install_nested_call(self, op, depth) -> None:
        """Point the function just made at its site's call path (``nested_functions.py``), when its code has a
        ``NestedCode`` and something reads the function."""
        owner = self.nested_codes.get(op)
        if owner is None or not (self.users.get(op) or op in self.kept_unused):
            return
        self.emit(f"mj_nested_install({self.var(op)}, {self.nested_sites}, {self.constant(owner)})", depth)
        self.nested_sites += 1

    def set_annotations(self, op, depth) -> None:
        """A nested function's annotations: CPython keeps the tuple of names and values and makes the dict
        ``__annotations__`` gives from its pairs."""
        if isinstance(op.annotations, Constant) and op.annotations.value is None or not (
                self.users.get(op) or op in self.kept_unused):
            return                                # (a function nothing reads: its annotations are not seen)
        pairs = self.obj(op.annotations)
        self.emit(f"{self.var(op)}.__annotations__ = dict(zip({pairs}[::2], {pairs}[1::2]))", depth)

    def release_before_suspension(self, op, depth) -> None:
        """Empty the variables the plan found holding only dead temporaries at this yield or await."""
        for value in self.released_at.get(op, ()):
            self.emit(f"{self.var(value)} = None", depth)

    def op_Yield(self, op, depth):
        self.release_before_suspension(op, depth)
        self.assign(op, f"(yield {self.obj(op.value)})", depth)

    def op_YieldFrom(self, op, depth):
        self.release_before_suspension(op, depth)
        self.assign(op, f"(yield from _mj_yield_from_iterable({self.obj(op.value)}))", depth)

    def op_Await(self, op, depth):
        self.release_before_suspension(op, depth)
        if op.context is None:
            self.assign(op, f"(await _mj_awaited({self.obj(op.value)}))", depth)
        elif op.context == "__anext__":                # GetANext made it awaitable, with CPython's checks
            self.assign(op, f"(await {self.obj(op.value)})", depth)
        else:
            self.assign(op, f"(await _mj_awaited_in_with({self.obj(op.value)}, {literal(op.context)}))", depth)

    def op_AwaitSelf(self, op, depth):
        """The function's own body (a coroutine's: no check; a plain function's: after the entry's checks), called
        in place (``in_place_calls.py``), parameters as the entry takes them."""
        args = ", ".join(self.obj(a) if param in self.caller_objects else self.ref(a)
                         for param, a in zip(self.fn.args, op.args))
        self.assign(op, f"{in_place_calls.CALL}({args})", depth)

    op_CallSelf = op_AwaitSelf

    def op_GetAIter(self, op, depth):
        self.async_for = True
        self.assign(op, f"mj_aiter({self.obj(op.obj)}, {self.constant(async_reference.get_aiter)})", depth)

    def op_GetANext(self, op, depth):
        self.async_for = True
        self.assign(op, f"mj_anext({self.obj(op.aiter)}, {self.constant(async_reference.get_anext)}, "
                        f"{self.constant(async_reference.anext_awaitable)})", depth)

    def op_MakeClosure(self, op, depth):
        self.assign(op, f"_mj_make_closure({self.constant(op.code)}, _g, {self.ref(op.defaults)}, "
                        f"{self.ref(op.kwdefaults)}, {self.ref(op.closure)})", depth)
        self.set_annotations(op, depth)
        self.install_nested_call(op, depth)

    def op_BuildTuple(self, op, depth):
        items = [self.ref(v) for v in op.items]
        self.assign(op, "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")", depth)

    def op_BuildList(self, op, depth):
        if op in self.split_texts:                            # ``[]`` beside a split only looped over
            self.assign(op, "''", depth)
            return
        if op in self.reused_buffers and self.users.get(op):  # the last one made here is dead: emptied
            buffer = self.var(op)
            self.reused_buffer_names.add(buffer)
            self.emit(f"if {buffer} is None:", depth)
            self.emit(f"{buffer} = CharBuffer()", depth + 1)
            self.emit("else:", depth)
            self.emit(f"{buffer}.length = 0", depth + 1)
            self.emit(f"{buffer}.bits = 0", depth + 1)
            return
        if op in self.char_buffers:
            self.assign(op, "CharBuffer()", depth)
            for item in op.items:                 # ``[ch]`` as an item of a list of buffers
                self.emit(f"{self.ref(op)}.append({self.char(item)})", depth)
            return
        self.assign(op, "[" + ", ".join(self.ref(v) for v in op.items) + "]", depth)

    def op_BuildSet(self, op, depth):
        items = [self.ref(v) for v in op.items]
        self.assign(op, "{" + ", ".join(items) + "}" if items else "set()", depth)

    def op_BuildMap(self, op, depth):
        pairs = ", ".join(f"{self.ref(k)}: {self.ref(v)}" for k, v in zip(op.keys, op.values))
        self.assign(op, "{" + pairs + "}", depth)

    def op_BuildString(self, op, depth):
        parts = [self.ref(v) for v in op.parts]
        if 1 < len(parts) <= MAX_JOINED_PARTS:        # CPython's own BUILD_STRING join, without a list
            self.assign(op, f"mj_join_strs{len(parts)}(" + ", ".join(parts) + ")", depth)
            return
        self.assign(op, "''.join([" + ", ".join(parts) + "])", depth)

    def op_FormatValue(self, op, depth):
        no_spec = isinstance(op.spec, Constant) and op.spec.value is None
        if no_spec and not op.conversion and not isinstance(op.value, Constant) and \
                self.decl_type(op.value) == "Py_ssize_t":     # a machine int's digits, as int.__format__ gives them,
            self.assign(op, f'f"{{{self.ref(op.value)}}}"', depth)   # formatted by Cython without an int object
            return
        value = self.obj(op.value)
        value = {"s": f"str({value})", "r": f"repr({value})", "a": f"ascii({value})"}.get(op.conversion, value)
        spec = "''" if isinstance(op.spec, Constant) and op.spec.value is None else self.ref(op.spec)
        self.assign(op, f"format({value}, {spec})", depth)

    def char(self, value) -> str:
        """A character for a ``CharBuffer``: a ``Py_UCS4`` variable, or a one-character constant's code point."""
        return str(ord(value.value)) if isinstance(value, Constant) else self.ref(value)

    def op_ListAppend(self, op, depth):
        if op.target in self.char_buffers:
            self.emit(f"{self.ref(op.target)}.append({self.char(op.item)})", depth)
            return
        self.emit(f"{self.ref(op.target)}.append({self.ref(op.item)})", depth)

    def op_ListExtend(self, op, depth):
        self.emit(f"_mj_list_extend({self.ref(op.target)}, {self.ref(op.iterable)})", depth)

    def op_ListToTuple(self, op, depth):
        self.assign(op, f"tuple({self.ref(op.source)})", depth)

    def op_SetAdd(self, op, depth):
        self.emit(f"{self.ref(op.target)}.add({self.ref(op.item)})", depth)

    def op_SetUpdate(self, op, depth):
        self.emit(f"{self.ref(op.target)}.update({self.ref(op.iterable)})", depth)

    def op_MapAdd(self, op, depth):
        self.emit(f"{self.ref(op.target)}[{self.ref(op.key)}] = {self.ref(op.value)}", depth)

    def op_DictUpdate(self, op, depth):
        self.emit(f"_mj_merge({self.ref(op.target)}, {self.ref(op.other)}, None, False)", depth)

    def op_DictMerge(self, op, depth):
        self.emit(f"_mj_merge({self.ref(op.target)}, {self.ref(op.other)}, {self.ref(op.func)}, True)", depth)

    def op_UnpackSequence(self, op, depth):
        """An exact tuple or list of the right length is unpacked inline: the tuple itself, and the list itself
        when its items are read right after the unpacking (nothing can change it in between), else a tuple
        copy of it, as UNPACK_SEQUENCE reads it at once. Anything else (and a source that is not a variable,
        which would be evaluated more than once) goes through ``_mj_unpack``."""
        source, count = self.ref(op.source), op.count
        if not source.isidentifier():
            self.assign(op, f"_mj_unpack({source}, {count})", depth)
            return
        source = f"<object>{source}"
        tuple_ok = f"type({source}) is tuple and len(<tuple>{source}) == {count}"
        list_ok = f"type({source}) is list and len(<list>{source}) == {count}"
        if self._items_read_at_once(op):
            expr = f"({source} if ({tuple_ok}) or ({list_ok}) else _mj_unpack({source}, {count}))"
        else:
            expr = (f"({source} if {tuple_ok} else tuple(<list>{source}) if {list_ok} else "
                    f"_mj_unpack({source}, {count}))")
        self.assign(op, expr, depth)

    def _items_read_at_once(self, op) -> bool:
        """Whether every use of an unpacking is an ``ExtractItem`` emitted in place right after it."""
        users = self.users.get(op) or []
        block = op.block.ops
        following = block[block.index(op) + 1:block.index(op) + 1 + len(users)]
        return (all(isinstance(user, ops.ExtractItem) and user not in self.folded and user not in self.inline_slices
                    for user in users)
                and {id(user) for user in users} == {id(item) for item in following})

    def op_UnpackEx(self, op, depth):
        """``a, *rest, z = source``: when its items are read right after it, an exact list or tuple long enough
        has them read in place (its items in order, ``rest`` a new list, as UNPACK_EX's iteration gives them);
        anything else, a short one included (for the error), through ``_mj_unpack_ex``."""
        source, before, after = self.ref(op.source), op.before, op.after
        helper = f"_mj_unpack_ex({source}, {before}, {after})"
        if not source.isidentifier() or not self._items_read_at_once(op):
            self.assign(op, helper, depth)
            return
        block = op.block.ops
        items = block[block.index(op) + 1:block.index(op) + 1 + len(self.users[op])]
        obj, length = f"(<object>{source})", f"{self.var(op)}_n"
        self.decls[length] = "Py_ssize_t"
        self.emit(f"if (type({obj}) is list or type({obj}) is tuple) and len({obj}) >= {before + after}:", depth)
        self.emit(f"{length} = len({obj})", depth + 1)
        # the source is dead after the unpacking, so an item may have been given its variable: assign that one last
        for item in sorted(items, key=lambda item: self.var(item) == source):
            if item.index < before:
                expr = f"{obj}[{item.index}]"
            elif item.index == before:
                expr = (f"(<list>{obj})[{before}:{length} - {after}] if type({obj}) is list else "
                        f"list((<tuple>{obj})[{before}:{length} - {after}])")
            else:
                expr = f"{obj}[{length} - {after + before + 1 - item.index}]"
            self.assign(item, expr, depth + 1)
        self.emit("else:", depth)
        self.assign(op, helper, depth + 1)
        for item in items:
            self.assign(item, f"{self.var(op)}[{item.index}]", depth + 1)
        self.extracted_with_source.update(items)

    def op_ExtractItem(self, op, depth):
        if isinstance(op.source, ops.UnpackSequence):
            # the unpacking left an exact tuple or list of exactly its count: no checks left to make
            self.unpacked_items = True
            self.assign(op, f"mj_unpacked_item({self.ref(op.source)}, {op.index})", depth)
            return
        self.assign(op, f"{self.ref(op.source)}[{op.index}]", depth)

    def op_GetIter(self, op, depth):
        plan = self.iteration.get(op)
        if plan is None and self.loop_index(op) is not None:
            self.assign(op, f"mj_for_begin({self.container(op.obj)}, &{self.loop_index(op)})", depth)
            if op in self.consumed_by_loop:                  # only the loop holds it now, as in CPython
                self.emit(f"{self.var(op.obj)} = None", depth)
        elif plan is None:
            self.assign(op, f"iter({self.container(op.obj)})", depth)
        elif plan.kind == "range":
            args = [self.ref(a) for a in plan.extra["call"].args]
            start, stop, step = (["0", args[0], "1"] if len(args) == 1 else
                                 [args[0], args[1], "1"] if len(args) == 2 else args)
            names = [f"{plan.index}_start", f"{plan.index}_n", f"{plan.index}_step"]
            for name, ctype in zip(names, ("Py_ssize_t", "size_t", "Py_ssize_t")):
                self.decls[name] = ctype
            if len(args) == 3:
                self.emit(f"_mj_range_check({step})", depth)
            self.emit(f"{names[0]} = {start}", depth)
            self.emit(f"{names[2]} = {step}", depth)
            self.emit(f"{names[1]} = mj_range_len({start}, {stop}, {step})", depth)
            self.emit(f"{plan.index} = 0", depth)
        elif plan.kind == "enumerate":
            enumerate_loops.emit_start(self, plan, depth)
        else:
            self.emit(f"{plan.index} = 0", depth)

    def op_CaughtException(self, op, depth):
        self.assign(op, "_mj_caught", depth)

    def op_PushExcInfo(self, op, depth):
        self.assign(op, f"_mj_push_exc({self.ref(op.exc)})", depth)

    def op_Release(self, op, depth):
        for value in self.emptied_by_release.get(op, ()):
            self.emit(f"{self.var(value)} = None", depth)

    op_FrameEnd = op_Release

    def op_LoopTick(self, op, depth):
        self.decls["_mj_ticks"] = "int"          # a local: the countdown stays in a register
        self.emit("mj_loop_tick(&_mj_ticks, mj_loop_breaker)", depth)

    def op_PopExcept(self, op, depth):
        """Restore the handled exception and drop the one this handler caught, as CPython's ``POP_EXCEPT`` does
        (``_mj_caught`` is read only right after it is set, when a handler is entered)."""
        self.emit(f"mj_set_handled({self.ref(op.previous)})", depth)
        self.emit("_mj_caught = None", depth)
        self.op_Release(op, depth)

    def op_CheckExcMatch(self, op, depth):
        self.assign(op, f"_mj_exc_match({self.ref(op.exc)}, {self.ref(op.match)})", depth)

    def op_BeforeWith(self, op, depth):
        self.assign(op, f"_mj_before_with({self.ref(op.manager)}, {op.asynchronous})", depth)

    def op_WithExceptStart(self, op, depth):
        exc = self.ref(op.exc)
        self.assign(op, f"{self.obj(op.exit)}(type({exc}), {exc}, {exc}.__traceback__)", depth)

    def op_MatchSequence(self, op, depth):
        self.assign(op, f"_mj_match_sequence({self.obj(op.subject)})", depth)

    def op_MatchMapping(self, op, depth):
        self.assign(op, f"_mj_match_mapping({self.obj(op.subject)})", depth)

    def op_MatchClass(self, op, depth):
        self.assign(op, f"_mj_match_class({self.obj(op.subject)}, {self.ref(op.cls)}, {self.ref(op.names)}, "
                        f"{op.count})", depth)

    def op_MatchKeys(self, op, depth):
        self.assign(op, f"_mj_match_keys({self.obj(op.subject)}, {self.ref(op.keys)})", depth)

    # ---- terminators -----------------------------------------------------------------------------------------
    def terminator_prelude(self, term, depth: int) -> None:
        """The part of a terminator that can raise, run inside the block's ``try`` when it has one."""
        self.at(term)
        if isinstance(term, ops.Branch):
            if term.cond in self.char_buffers:
                self.decls[self.cond_name(term)] = "bint"
                self.emit(f"{self.cond_name(term)} = {self.ref(term.cond)}.length != 0", depth)
            elif term.cond in self.int_chains.truth_tested:       # its int64, or whether its wide value is 0
                name = self.var(term.cond)
                self.decls[self.cond_name(term)] = "bint"
                self.emit(f"if {name}_u:", depth)
                self.emit(f"{self.cond_name(term)} = {name}_i != 0", depth + 1)
                self.emit("else:", depth)
                self.emit(f"{self.cond_name(term)} = {name}", depth + 1)
            elif self.ctype(term.cond) != "bint":
                self.decls[self.cond_name(term)] = "bint"
                self.emit(f"{self.cond_name(term)} = {self.truth(term.cond)}", depth)
        elif isinstance(term, ops.ForIter):
            plan = self.iteration.get(term.iterator)
            name = self.cond_name(term)
            self.decls[name] = "bint"
            if plan is None and self.loop_index(term.iterator) is not None:
                iterator = self.ref(term.iterator)
                self.decls[name + "_next"] = "object"
                self.emit(f"{name}_next = mj_for_next({iterator}, &{self.loop_index(term.iterator)}, _MJ_STOP)",
                          depth)
                self.emit(f"{name} = {name}_next is not _MJ_STOP", depth)
            elif plan is None:
                self.decls[name + "_next"] = "object"
                self.emit(f"{name}_next = next({self.ref(term.iterator)}, _MJ_STOP)", depth)
                self.emit(f"{name} = {name}_next is not _MJ_STOP", depth)
            elif plan.kind == "range":
                self.emit(f"{name} = {plan.index} < {plan.index}_n", depth)
            elif plan.kind == "enumerate":
                enumerate_loops.emit_test(self, plan, name, depth)
            elif plan.kind == "split":              # the next word's start, the index moved to its end
                self.decls[f"{plan.index}_word"] = "Py_ssize_t"
                self.emit(f"{plan.index}_word = mj_split_next({self.ref(term.iterator.obj)}, &{plan.index})",
                          depth)
                self.emit(f"{name} = {plan.index}_word >= 0", depth)
            elif term.iterator in self.joined_loops:
                self.emit(f"{name} = {plan.index} < {self.ref(self.joined_loops[term.iterator])}.length", depth)
            else:
                self.emit(f"{name} = {plan.index} < len({self.ref(term.iterator.obj)})", depth)

    def release_loop_state(self, getiter, depth: int) -> None:
        """Empty the emitter's own variables of a loop being left (those it declared): the item taken last, an
        enumerate loop's iterator."""
        iteration = self.iteration.get(getiter)
        names = [f"{iteration.index}_it"] if iteration is not None else []
        names += [f"{self.cond_name(step)}_next" for step in self.users[getiter]]
        for name in names:
            if self.decls.get(name) == "object":          # index loops over a list have neither
                self.emit(f"{name} = None", depth)

    def loop_index(self, getiter) -> str | None:
        """The index variable of a generic for loop (``mj_for_begin``/``mj_for_next``: an exact list or tuple is
        read by index, without its iterator), or None when the iterator is used otherwise than by the loop."""
        if getiter not in self.generic_loops:
            return None
        if getiter not in self.loop_indexes:
            self.loop_indexes[getiter] = f"_mj_at{len(self.loop_indexes)}"
            self.decls[self.loop_indexes[getiter]] = "Py_ssize_t"
        return self.loop_indexes[getiter]

    def truth(self, value) -> str:
        """bool(value) as a C expression (Cython refuses to assign a double to a bint directly)."""
        ctype = self.ctype(value)
        if ctype in ("Py_ssize_t", "double"):
            return f"{self.ref(value)} != 0"
        if ctype == "Py_UCS4":
            return "True"                               # a one-character string is never empty
        return self.ref(value)

    def cond_name(self, term) -> str:
        """The bint a terminator's condition is computed into (named in emission order: deterministic text)."""
        if term not in self.cond_names:
            self.cond_names[term] = f"c{len(self.cond_names)}"
        return self.cond_names[term]

    def condition(self, term) -> str:
        if isinstance(term, ops.Branch) and self.ctype(term.cond) == "bint":
            return self.ref(term.cond)
        return self.cond_name(term)

    def fetch_item(self, term: ops.ForIter, depth: int) -> None:
        plan = self.iteration.get(term.iterator)
        item = self.var(term) if self.users.get(term) else None
        if plan is None:
            if item:
                self.emit(f"{item} = {self.cond_name(term)}_next", depth)
            return
        if plan.kind == "enumerate":
            enumerate_loops.emit_fetch(self, plan, self.cond_name(term), depth)
            return
        if plan.kind == "split":
            if item:
                self.emit(f"{item} = mj_split_word({self.ref(term.iterator.obj)}, {plan.index}_word, {plan.index})",
                          depth)
            return
        if plan.kind == "range":
            if item:
                self.emit(f"{item} = mj_range_item({plan.index}_start, {plan.index}, {plan.index}_step)", depth)
        elif item and term.iterator in self.joined_loops:                          # the index is below length
            self.emit(f"{item} = {self.ref(self.joined_loops[term.iterator])}.data[{plan.index}]", depth)
        elif item and plan.kind == "str" and self.decl_type(term) == "Py_UCS4":   # the index is below len()
            self.emit(f"{item} = mj_str_char({self.ref(term.iterator.obj)}, {plan.index})", depth)
        elif item:
            self.emit("with cython.boundscheck(False), cython.wraparound(False):", depth)
            cast = "<CharBuffer>" if term in self.char_buffers else ""     # an item of a list of buffers
            self.emit(f"{item} = {cast}{self.ref(term.iterator.obj)}[{plan.index}]", depth + 1)
        self.emit(f"{plan.index} += 1", depth)

    def leaf(self, term, depth: int) -> None:
        self.at(term)
        self.box_operands(term, depth)
        if isinstance(term, ops.Return):
            # an async generator's return has no value (Python's syntax, and Cython's, refuse one)
            self.emit("return" if self.fn.generator and self.fn.coroutine else f"return {self.ref(term.value)}",
                      depth)
        elif isinstance(term, ops.Raise):
            if term.exc is None:
                self.emit("_mj_reraise_handled()", depth)
            elif term.cause is None:
                self.emit(f"raise _mj_exception({self.ref(term.exc)}, False)", depth)
            else:
                exc, cause = f"_mj_exception({self.ref(term.exc)}, False)", f"_mj_exception({self.ref(term.cause)}, True)"
                self.emit(f"raise {exc} from {cause}", depth)
        elif isinstance(term, ops.Reraise):   # mj_reraised never returns; `raise` tells Cython the block ends
            self.emit(f"raise mj_reraised({self.ref(term.exc)})", depth)

    # ---- statements ------------------------------------------------------------------------------------------
    def statements(self, stmts: list, depth: int) -> None:
        start = len(self.lines)
        for stmt in stmts:
            self.statement(stmt, depth)
        if len(self.lines) == start:
            self.emit("pass", depth)

    def statement(self, stmt, depth: int) -> None:
        if isinstance(stmt, st.Code):
            for op in stmt.block.ops:
                self.op_code(op, depth)
            self.terminator_prelude(stmt.block.terminator, depth)
        elif isinstance(stmt, st.Guarded):
            self.guarded(stmt, depth)
        elif isinstance(stmt, st.Copies):
            self.copy_phi_objects(stmt.pred, stmt.succ, depth)
            for dst, src in self.plan.copies(stmt.pred, stmt.succ):
                direct = isinstance(src, Temp) or src in self.views and dst in self.views
                target, source = self.var(dst), self.var(src) if direct else self.ref(src)
                if dst in self.caller_objects.get(src, ()) and self.decl_type(dst) == "object":
                    source = self.caller_object(src)          # the argument's object, not a new one
                if target != source:              # a coalesced copy: source and destination share a variable
                    self.emit(f"{target} = {source}", depth)
            for getiter, emptied in self.released_on_exit.get((stmt.pred, stmt.succ), ()):    # a loop is left:
                for value in emptied:                                                 # its iterator, the item
                    self.emit(f"{self.var(value)} = None", depth)                     # taken last and what it
                self.release_loop_state(getiter, depth)                               # iterates are dropped
        elif isinstance(stmt, st.If):
            term = stmt.terminator
            self.emit(f"if {self.condition(term)}:", depth)
            if isinstance(term, ops.ForIter):
                self.fetch_item(term, depth + 1)
            self.statements(stmt.then, depth + 1)
            self.emit("else:", depth)
            self.statements(stmt.orelse, depth + 1)
        elif isinstance(stmt, st.Leaf):
            self.leaf(stmt.terminator, depth)
        elif isinstance(stmt, st.Loop):
            self.loop_construct("loop", stmt.header, None, stmt.body, depth)
        elif isinstance(stmt, st.Labeled):
            self.labeled(stmt, depth)
        elif isinstance(stmt, st.Br):
            self.branch(stmt, depth)
        elif isinstance(stmt, st.Dispatch):
            self.dispatch(stmt, depth)
        else:
            raise AssertionError(f"unknown statement {stmt!r}")

    def copy_phi_objects(self, pred, succ, depth: int) -> None:
        """The objects the edge's φs of C numbers hold (``phi_objects``), set before the φs' own copies, which may
        overwrite a value held as an object that a twin takes; twins that feed one another are copied as a
        parallel copy."""
        moves = [(phi, phi.incoming[pred]) for phi in succ.phis if phi in self.phi_objects and pred in phi.incoming]
        for dst, src in sequentialize(moves):
            target = self.temp_object(dst) if isinstance(dst, Temp) else self.box_name(dst)
            self.emit(f"{target} = {self.object_of(src)}", depth)

    def object_of(self, value) -> str:
        """The object a φ of C numbers takes from ``value``: the twin of another φ, the caller's object for an
        argument, ``value`` itself when held as an object, else None (a computed number: boxed when first read)."""
        if isinstance(value, Temp):
            return self.temp_object(value)
        if value in self.phi_objects:
            return self.box_name(value)
        if isinstance(value, Argument):
            return self.caller_object(value)
        if self.held_as_object(value):
            return self.var(value)
        return "None"

    def temp_object(self, temp: Temp) -> str:
        """The object variable breaking a cycle of twins (one per cycle temporary of an edge)."""
        name = f"_mj_ft{temp.index}"
        self.decls[name] = "object"
        return name

    def guarded(self, stmt: st.Guarded, depth: int) -> None:
        """A raising block under ``try``. Cython's try/except restores the handled-exception state of the
        try's entry when it catches, so ops that change that state (push_exc_info, pop_except) are placed between
        separate ``try`` statements: each try then starts in the state its raising ops see."""
        block = stmt.block
        leaf = next((s.terminator for s in stmt.body if isinstance(s, st.Leaf)), None)
        runs: list = [[]]
        for op in block.ops:
            if isinstance(op, (ops.PushExcInfo, ops.PopExcept)):
                runs.extend([op, []])
            else:
                runs[-1].append(op)
        for i, run in enumerate(runs):
            if not isinstance(run, list):
                self.op_code(run, depth)
                continue
            last = i == len(runs) - 1
            raises = any(op.can_raise() for op in run) or (last and block.terminator.can_raise())
            if not raises:
                for op in run:
                    self.op_code(op, depth)
                if last:
                    self.terminator_prelude(block.terminator, depth)
                continue
            self.emit("try:", depth)
            start = len(self.lines)
            for op in run:
                self.op_code(op, depth + 1)
            if last:
                self.terminator_prelude(block.terminator, depth + 1)
                if leaf is not None:
                    self.leaf(leaf, depth + 1)
            if len(self.lines) == start:
                self.emit("pass", depth + 1)
            self.emit("except BaseException as _mj_e:", depth)
            self.emit("_mj_caught = _mj_e", depth + 1)
            self.statements(stmt.on_raise, depth + 1)

    def labeled(self, stmt: st.Labeled, depth: int) -> None:
        counts = st.count_branches(stmt.body, {})
        if not counts.get(stmt.target):
            self.statements(stmt.body, depth)
            return
        last = stmt.body[-1] if stmt.body else None
        if isinstance(last, st.Loop) and not st.count_branches(stmt.body[:-1], {}).get(stmt.target):
            # Breaking out of that final loop lands exactly at this label: no construct of our own needed.
            self.statements(stmt.body[:-1], depth)
            self.loop_construct("loop", last.header, stmt.target, last.body, depth)
            return
        self.loop_construct("labeled", stmt.target, None, stmt.body, depth)

    def loop_construct(self, kind: str, label, exit_label, body: list, depth: int) -> None:
        frame = {"kind": kind, "label": label, "exit": exit_label, "passing": []}
        self.constructs.append(frame)
        self.emit("while True:", depth)
        self.statements(body, depth + 1)
        if kind == "labeled":
            self.emit("break", depth + 1)
        self.constructs.pop()
        for target_id, target in frame["passing"]:
            self.emit(f"if _mj_jump == {target_id}:", depth)
            self.jump(target, depth + 1, from_dispatch=True)

    def branch(self, stmt: st.Br, depth: int) -> None:
        if stmt.kind == "state":
            self.emit(f"_mj_state = {self.state_id(stmt.target)}", depth)
            self.emit("continue", depth)
            return
        self.jump(stmt.target, depth, from_dispatch=False, want_continue=stmt.kind == "continue")

    def jump(self, target, depth: int, from_dispatch: bool, want_continue: bool | None = None) -> None:
        """Leave enclosing constructs until ``target``: break/continue when it is the innermost construct,
        else record the jump in ``_mj_jump`` and break outward (each construct re-dispatches after itself)."""
        inner = self.constructs[-1]
        if from_dispatch:
            self.emit("_mj_jump = 0", depth) if self._matches(inner, target) else None
        if inner["label"] is target and inner["kind"] == "loop":
            self.emit("continue", depth)
            return
        if (inner["label"] is target and inner["kind"] == "labeled") or inner["exit"] is target:
            self.emit("break", depth)
            return
        jump_id = self.jump_ids.setdefault(target, len(self.jump_ids) + 1)
        self.uses_jump = True
        if not from_dispatch:
            self.emit(f"_mj_jump = {jump_id}", depth)
        self.emit("break", depth)
        inner["passing"].append((jump_id, target)) if (jump_id, target) not in inner["passing"] else None

    @staticmethod
    def _matches(frame, target) -> bool:
        return frame["label"] is target or frame["exit"] is target

    def state_id(self, block) -> int:
        return self.state_ids.setdefault(block, len(self.state_ids))

    def dispatch(self, stmt: st.Dispatch, depth: int) -> None:
        self.uses_state = True
        self.emit(f"_mj_state = {self.state_id(self.fn.entry)}", depth)
        self.constructs.append({"kind": "dispatch", "label": None, "exit": None, "passing": []})
        self.emit("while True:", depth)
        first = True
        for block, body in stmt.cases.items():
            self.emit(f"{'if' if first else 'elif'} _mj_state == {self.state_id(block)}:", depth + 1)
            self.statements(body, depth + 2)
            first = False
        self.constructs.pop()

    # ---- module ------------------------------------------------------------------------------------------------
    def assumption_guards(self) -> list[str]:
        """Entry checks of the global types inference assumed; a failed check hands the call to ``fallback``."""
        assumptions = self.global_assumptions
        if not assumptions:
            return []
        if self.fallback is None:
            raise AssertionError("global type assumptions need a fallback entry")
        checks = []
        for name, assumed in sorted(assumptions.items(), key=lambda kv: kv[0]):
            value = f"mj_global_peek(_g, {name!r}, &_mj_gc{self.global_caches})"       # _g.get(name), cached
            self.global_caches += 1
            if assumed == STR:
                checks.append(f"type({value}) is not str")
            elif assumed == BOOL:
                checks.append(f"type({value}) is not bool")
            elif assumed == FLOAT:
                checks.append(f"type({value}) is not float")
            else:
                checks.append(f"not _mj_is_int64({value})")
        args = self.passed_arguments()
        # run again only when the globals changed since they last passed: the tag read before the checks is the
        # one held (a write while they run leaves a tag that never comes back, so the next call checks again)
        return ["    global _mj_globals_held", "    cdef unsigned long long _mj_tag = mj_dict_tag(_g)",
                "    if _mj_tag == 0 or _mj_tag != _mj_globals_held:",
                f"        if {' or '.join(checks)}:", f"            return {self.constant(self.fallback)}({args})",
                "        _mj_globals_held = _mj_tag"]

    def method_guards_on_entry(self) -> list[str]:
        """Entry checks that each call whose result type came from the jitted method it finds would find it now
        (``mj_method_is``: the receiver's class unchanged, no instance attribute shadowing the name); one that
        would not hands the call to ``fallback``, the specialisation without assumptions."""
        checked = {(op.obj, op.name): found for op, found in self.method_assumptions.items()}
        if not checked:
            return []
        if self.fallback is None:
            raise AssertionError("method result assumptions need a fallback entry")
        checks = []
        for (receiver, name), (cls, method, _) in sorted(checked.items(), key=lambda kv: (kv[0][0].index,
                                                                                          kv[0][1])):
            guard = f"_mj_mg{self.method_guards}"
            self.method_guards += 1
            checks.append(f"not mj_method_is({self.var(receiver)}, {name!r}, &{guard}, {self.constant(cls)}, "
                          f"{self.constant(method)})")
        args = self.passed_arguments()
        return [f"    if {' or '.join(checks)}:", f"        return {self.constant(self.fallback)}({args})"]

    def binding_guards(self) -> list[str]:
        """The entry's check that the names bound when compiling still hold (none without a handler)."""
        if not self.bindings or self.on_rebound is None:
            return []
        args = self.passed_arguments()
        self.bindings_constant = self.constant(self.bindings)
        if self.fn.generator and self.fn.coroutine:
            return binding_guard.async_generator_entry_lines(self.bindings_constant, self.constant(self.on_rebound),
                                                             args)
        return binding_guard.entry_lines(self.bindings_constant, self.constant(self.on_rebound), args,
                                         "yield from" if self.fn.generator else "await" if self.fn.coroutine else None)

    def self_call_guards(self, binding_guards: list[str], args: str) -> list[str]:
        """A call in place whose names bound have moved calls what the function's global name holds now: this
        function (whose entry then sees what else moved) or what replaced it, as CPython's call would."""
        if not binding_guards:
            return []
        name = next(op.name for b in self.fn.blocks for op in b.ops if isinstance(op, ops.CallSelf))
        return [f"    if not mj_bindings_hold(&_mj_bindings, {self.bindings_constant}):",
                f"        return _mj_load_global(_g, _b, {name!r})({args})"]

    def module(self) -> str:
        self.source_line = self.fn.firstlineno
        binding_guards = self.binding_guards()
        other_guards = self.assumption_guards() + self.method_guards_on_entry()
        guards = binding_guards + other_guards
        self.statements(self.body, 1)
        in_place = any(isinstance(op, (ops.AwaitSelf, ops.CallSelf)) for b in self.fn.blocks for op in b.ops)
        if in_place:                     # the checks go to the entry and the calls in place, which call the body
            body_lines, sources = self.lines, self.source_lines
        else:
            body_lines = guards + self.lines
            sources = [self.fn.firstlineno] * len(guards) + self.source_lines
        params = ", ".join(f"object {self.caller_object(a)}" if a in self.caller_objects
                           else f"{self.decl_type(a)} {self.var(a)}" for a in self.fn.args)
        if self.closure_per_call:
            # ``moshjit.nested`` takes no generator or coroutine, and a call in place needs a dispatcher whose
            # function is the one compiled, which a nested code's function never has
            if in_place or self.fn.generator or self.fn.coroutine:
                raise AssertionError("a nested code compiled for every function made from it is a plain function's "
                                     "that does not call itself in place")
            params = ", ".join([f"object {nested_functions.FUNCTION_PARAMETER}"] + ([params] if params else []))
        unboxed = {self.var(a): (self.caller_object(a), self.decl_type(a)) for a in self.caller_objects}
        out = [PRELUDE]
        if self.class_dispatches:   # only then: moshjit_match is built only with the installed runtime
            out.append("from moshjit.runtime.moshjit_match cimport ClassDispatch as _MjClassDispatch")
        needs_dict_layout = self.bindings_constant is not None
        sites = (self.method_sites or self.constructor_sites or self.operator_sites or self.method_guards
                 or self.entry_calls)
        if self.attribute_caches or self.method_guards or sites or self.global_caches or needs_dict_layout:
            out.append(f"cdef extern from *:\n    \"\"\"{ATTRIBUTE_CACHE_C}    \"\"\"\n{ATTRIBUTE_CACHE_DECLARATIONS}")
            out.extend(f"cdef mj_attr_cache _mj_ac{i}" for i in range(self.attribute_caches))
            out.extend(f"cdef mj_method_guard _mj_mg{i}" for i in range(self.method_guards))
            out.append("mj_attr_use_versions(mj_dict_versions())")
        if self.global_caches:
            out.append(f"cdef extern from *:\n    \"\"\"{GLOBAL_CACHE_C}    \"\"\"\n{GLOBAL_CACHE_DECLARATIONS}")
            out.extend(f"cdef mj_global_cache _mj_gc{i}" for i in range(self.global_caches))
            if self.global_assumptions:     # the tag their entry check last passed on (``assumption_guards``)
                out.append("cdef unsigned long long _mj_globals_held = 0")
        if sites:
            out.append(f"cdef extern from *:\n    \"\"\"{method_sites.METHOD_SITES_C}{method_sites.site_call_macros()}"
                       f"    \"\"\"\n{method_sites.METHOD_SITES_DECLARATIONS}")
            out.extend(f"cdef mj_method_site _mj_ms{i}" for i in range(self.method_sites))
            out.append(method_sites.METHOD_SITES_INIT)
        if self.nested_sites:
            out.append(f"cdef extern from *:\n    \"\"\"{nested_functions.nested_functions_c(self.nested_sites)}"
                       f"    \"\"\"\n{nested_functions.DECLARATIONS}")
        if self.closure_per_call:
            out.append(f"cdef extern from *:\n    \"\"\"{nested_functions.CLOSURE_OF_C}    \"\"\"\n"
                       f"{nested_functions.CLOSURE_OF_DECLARATIONS}")
        if self.raise_sites:
            out.append(f"cdef extern from *:\n    \"\"\"{RAISE_SITES_C}    \"\"\"\n{RAISE_SITES_DECLARATIONS}")
            out.extend(f"cdef mj_raise_site _mj_rs{i}" for i in range(self.raise_sites))
        if self.operator_sites:
            out.append(f"cdef extern from *:\n    \"\"\"{operator_sites.OPERATOR_SITES_C}"
                       f"{operator_sites.operator_functions()}"
                       f"    \"\"\"\n{operator_sites.OPERATOR_SITES_DECLARATIONS}")
            out.extend(f"cdef mj_method_site _mj_os{i}" for i in range(self.operator_sites))
        if self.constructor_sites:
            out.append(f"cdef extern from *:\n    \"\"\"{constructor_sites.CONSTRUCTOR_SITES_C}"
                       f"{constructor_sites.constructor_call_macros()}"
                       f"    \"\"\"\n{constructor_sites.CONSTRUCTOR_SITES_DECLARATIONS}")
            out.extend(f"cdef mj_new_site _mj_ns{i}" for i in range(self.constructor_sites))
            out.append(constructor_sites.CONSTRUCTOR_SITES_INIT)
        if in_place:
            out.append(in_place_calls.DECLARATIONS)
        elif self.fn.coroutine:
            out.append(AWAIT_FAST_PATH)
        if self.unpacked_items:
            out.append(UNPACKED_ITEM)
        if self.async_for:
            out.append(ASYNC_FOR_C)
        if self.hash_holders:
            out.append(f"cdef extern from *:\n    \"\"\"{known_hashes.KNOWN_HASHES_C}    \"\"\"\n"
                       f"{known_hashes.KNOWN_HASHES_DECLARATIONS}")
        if self.float_chains.used:
            out.append(f"cdef extern from *:\n    \"\"\"{FLOAT_CHAINS_C}    \"\"\"\n{FLOAT_CHAINS_DECLARATIONS}")
        if self.int_chains.used:
            out.append(f"cdef extern from *:\n    \"\"\"{INT_CHAINS_C}    \"\"\"\n{INT_CHAINS_DECLARATIONS}")
        if self.bindings_constant is not None:
            out.extend(binding_guard.module_declarations())
        for name in (f"_k{i}" for i in range(len(self.constants))):
            out.append(f"cdef object {name}")
        out.append("\n\ncdef int _mj_set_constants(tuple constants) except -1:")
        out.append("    global " + ", ".join(["_g"] + [f"_k{i}" for i in range(len(self.constants))]))
        for i in range(len(self.constants)):
            out.append(f"    _k{i} = constants[{i}]")
        out.append("    return 0\n")
        if in_place:
            out.append(in_place_calls.body_header(params))
        else:
            out.append(f"{'async def' if self.fn.coroutine else 'def'} {self.entry_name}({params}):")
        decls = dict(self.decls)
        if self.uses_jump:
            decls["_mj_jump"] = "int"
        if self.uses_state:
            decls["_mj_state"] = "int"
        decls["_mj_caught"] = "object"
        if self.uses_index_slot:
            decls[text.INDEX_SLOT] = "Py_ssize_t"
        decls.update((name, ctype) for name, (_, ctype) in unboxed.items())
        if self.closure_per_call:
            decls["_cl"] = "tuple"             # (the module's own ``_cl`` is the closure of a function's code)
        for name, ctype in sorted(decls.items()):
            out.append(f"    cdef {ctype} {name}")
        if self.closure_per_call:
            out.append(f"    _cl = mj_closure_of({nested_functions.FUNCTION_PARAMETER})")
        out.extend(f"    {name} = {boxed}" for name, (boxed, _) in sorted(unboxed.items()))
        if self.uses_jump:
            out.append("    _mj_jump = 0")
        if "_mj_ticks" in decls:
            out.append(f"    _mj_ticks = {TICK_EVERY}")
        out.extend(f"    {name} = None" for name in sorted(self.float_chains.bound_at_entry))
        out.extend(f"    {name} = None" for name in sorted(self.int_chains.bound_at_entry))
        out.extend(f"    {name} = _MJ_UNBOUND" for name in sorted(self.hash_holders))   # no key is that object
        out.extend(f"    {name} = None" for name in sorted(self.box_names.values()))
        out.extend(f"    {name} = None" for name in sorted(self.reused_buffer_names))
        out.append("    mj_stack_check()")          # RecursionError before the C stack runs out, never a crash
        if any(isinstance(op, CALLING_OPS) for block in self.fn.blocks for op in block.ops):
            # a recursion through compiled calls meets no eval loop: its entries tick, as CPython's RESUME does
            out.append("    mj_loop_tick(&_mj_call_ticks, mj_loop_breaker)")
        first = "\n".join(out).count("\n") + 2   # the pyx line of body_lines[0]
        out.extend(body_lines)
        if self.fn.generator and not any(isinstance(op, (ops.Yield, ops.YieldFrom))
                                         for b in self.fn.blocks for op in b.ops):
            out += ["    if False:", "        yield None     # every yield was unreachable: still a generator"]
        if in_place:
            args = self.passed_arguments()
            if self.fn.coroutine:        # awaits in place run nothing that could change what the entry checked
                in_place_guards = []
            else:
                in_place_guards = self.self_call_guards(binding_guards, args) + other_guards
            out += in_place_calls.entry_lines(self.entry_name, params, args, guards, in_place_guards,
                                              self.fn.coroutine)
        return "\n".join(out + [source_map(self.fn, {first + i: line for i, line in enumerate(sources)})]) + "\n"


# Ops that may call compiled code directly (a bound entry, a method site), so that a call cycle needs no eval loop.
CALLING_OPS = (ops.Call, ops.CallMethod, ops.CallSelf, ops.CallEx, ops.SuperCallMethod)


UNPACKED_ITEM = '''
cdef extern from *:
    """
    static inline PyObject *mj_unpacked_item(PyObject *seq, Py_ssize_t i) {
        PyObject *item = PyTuple_CheckExact(seq) ? PyTuple_GET_ITEM(seq, i) : PyList_GET_ITEM(seq, i);
        Py_INCREF(item);
        return item;
    }
    """
    object mj_unpacked_item(object, Py_ssize_t)
'''
"""Item ``i`` of what ``op_UnpackSequence`` gave: an exact tuple, or an exact list read right away, of the unpacked
length (Cython's ``seq[i]`` on an object would test the type, the sign and the bounds again)."""


ASYNC_FOR_C = '''
cdef extern from *:
    """
    /* GET_AITER as ceval.c does it, through the type's slots; without __aiter__, the reference raises. */
    static PyObject *mj_aiter(PyObject *obj, PyObject *reference) {
        PyTypeObject *type = Py_TYPE(obj);
        unaryfunc getter = type->tp_as_async != NULL ? type->tp_as_async->am_aiter : NULL;
        if (getter == NULL)
            return PyObject_CallOneArg(reference, obj);
        PyObject *iterator = getter(obj);
        if (iterator == NULL)
            return NULL;
        PyTypeObject *it = Py_TYPE(iterator);
        if (it->tp_as_async == NULL || it->tp_as_async->am_anext == NULL) {
            PyErr_Format(PyExc_TypeError, "'async for' received an object from __aiter__ that does not implement "
                         "__anext__: %.100s", it->tp_name);
            Py_DECREF(iterator);
            return NULL;
        }
        return iterator;
    }

    /* GET_ANEXT: __anext__ through its slot; a coroutine, or an awaitable whose __await__ is the identity (an
       async generator's asend, CPython's or Cython's), is what the item's await takes as it is; anything else
       goes through the reference's checks (which call __await__ once and wrap its iterator). */
    static PyObject *mj_anext(PyObject *iterator, PyObject *reference, PyObject *rest) {
        PyTypeObject *type = Py_TYPE(iterator);
        unaryfunc anext = type->tp_as_async != NULL ? type->tp_as_async->am_anext : NULL;
        if (anext == NULL)
            return PyObject_CallOneArg(reference, iterator);
        PyObject *awaitable = anext(iterator);
        if (awaitable == NULL)
            return NULL;
        PyTypeObject *at = Py_TYPE(awaitable);
        if (PyCoro_CheckExact(awaitable) || (at->tp_as_async != NULL && at->tp_as_async->am_await == PyObject_SelfIter
                                             && at->tp_iternext != NULL))
            return awaitable;
        PyObject *checked = PyObject_CallOneArg(rest, awaitable);
        Py_DECREF(awaitable);
        return checked;
    }
    """
    object mj_aiter(object, object)
    object mj_anext(object, object, object)
'''
"""``async for``'s GET_AITER and GET_ANEXT in C for the common cases (``async_reference.py`` has the rest)."""


AWAIT_FAST_PATH = '''
cdef extern from *:
    """
    #define mj_is_cython_coroutine(o) __Pyx_Coroutine_Check(o)
    """
    bint mj_is_cython_coroutine(object)


cdef inline object _mj_awaited(object value):
    """What ``await value`` hands Cython's await: a coroutine of a jitted ``async def`` (Cython's type, of every
    generated module) as it is, without a call; anything else through ``_mj_awaitable`` (GET_AWAITABLE's checks)."""
    return value if mj_is_cython_coroutine(value) else _mj_awaitable(value)


cdef inline object _mj_awaited_in_with(object value, str method):
    """``_mj_awaited`` for what ``async with`` awaits from ``method`` (``__aenter__``/``__aexit__``)."""
    return value if mj_is_cython_coroutine(value) else _mj_awaitable_in_with(value, method)
'''
"""A coroutine module's ``await`` (``op_Await``): Cython's own coroutines, the common case, skip the runtime call."""


def source_map(fn: Function, lines: dict) -> str:
    """Comments ending the module that say where its code came from: the user's file, function and, per .pyx
    line, the user's line (``split_source_map`` takes them off before compiling; the loaded module is given them,
    for its traceback entries; the annotated view reads them)."""
    pairs = " ".join(f"{pyx}:{line}" for pyx, line in lines.items() if line is not None)
    return (f"\n# moshjit-source: {json.dumps(fn.filename)}\n# moshjit-function: {json.dumps(fn.name)} "
            f"{fn.firstlineno}\n# moshjit-lines: {pairs}")


@dataclass
class SourceMap:
    """What ``source_map`` wrote at the end of a module."""
    filename: str
    function: str
    firstlineno: int
    lines: dict                  # .pyx line → the user's line


    def setup_arguments(self) -> tuple[str, str, tuple]:
        """The source part of what the module's ``_mj_setup`` takes."""
        flat = [self.firstlineno]
        for pair in sorted(self.lines.items()):
            flat.extend(pair)
        return self.filename, self.function, tuple(flat)


SOURCE_MAP_START = "\n# moshjit-source: "


def split_source_map(text: str) -> tuple[str, SourceMap | None]:
    """(the module's code, the source map that ends it). The code alone is what is compiled and cached: where it
    came from is given to the loaded module (``_mj_setup``)."""
    code, found, _ = text.partition(SOURCE_MAP_START)
    if not found:
        return text, None
    fields = dict(re.findall(r"^# moshjit-(source|function|lines): (.*)$", text, re.MULTILINE))
    name, firstlineno = fields["function"].rsplit(" ", 1)
    lines = dict(tuple(map(int, pair.split(":"))) for pair in fields["lines"].split())
    return code + "\n", SourceMap(json.loads(fields["source"]), json.loads(name), int(firstlineno), lines)


def _small_for_division(value) -> bool:
    t = getattr(value, "type", None)
    if isinstance(value, Constant):
        return isinstance(value.value, float) or abs(value.value) < _SAFE_DIVISION
    if isinstance(t, IntType):
        return t.lo is not None and t.hi is not None and -_SAFE_DIVISION < t.lo and t.hi < _SAFE_DIVISION
    return t == FLOAT


def emit_module(fn: Function, plan: CopyPlan, body: list, entry_name: str, global_assumptions: dict,
                fallback=None, own_lines=None, inlined_at=None, direct_methods=None, bindings=(),
                on_rebound=None, method_assumptions=None, direct_entries=frozenset(), nested_codes=None,
                closure_per_call: bool = False) -> tuple[str, list]:
    """The .pyx text for ``fn`` and the constants its ``_mj_setup`` must receive. ``own_lines`` are the source
    lines of the function itself (lines of inlined helpers are attributed to the call that inlined them, from
    ``inlined_at``); ``bindings`` the names bound when compiling, checked on entry, and ``on_rebound`` what gets
    the call when one no longer holds; ``method_assumptions`` the method calls whose result type came from the
    method they find (checked on entry, ``fallback`` gets the call when one would not find it); ``direct_entries``
    the ids of the compiled entries calls were bound to, called as a call through their dispatcher counts;
    ``nested_codes`` what compiles the code of each function made (``nested_functions.py``); ``closure_per_call``:
    the entry takes the function of a nested code first and reads its closure from it."""
    emitter = Emitter(fn, plan, EmissionPlan(fn, plan), body, entry_name, global_assumptions, fallback)
    emitter.nested_codes = nested_codes or {}
    emitter.closure_per_call = closure_per_call
    emitter.own_lines = own_lines
    emitter.inlined_at = inlined_at or {}
    emitter.direct_methods = direct_methods or {}
    emitter.direct_entries = direct_entries
    live = {op for block in fn.blocks for op in block.ops}
    emitter.method_assumptions = {op: found for op, found in (method_assumptions or {}).items() if op in live}
    unchecked = [op.name for op in emitter.method_assumptions if op not in emitter.direct_methods]
    if unchecked:                   # its result would be typed without the guard that makes the type sound
        raise AssertionError(f"method calls typed from their method but not made direct: {unchecked}")
    emitter.bindings, emitter.on_rebound = bindings, on_rebound
    text = emitter.module()
    return text, emitter.constants

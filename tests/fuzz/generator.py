"""Random, type-stable Python programs for differential testing of the whole compiler against CPython.

A *program* is the body of one function of ``(a, b, x, xs)`` (``native`` flavour: ints, floats, bools, tuples and a
list of ints — everything the LLVM backend takes, so ``auto`` compiles it natively) or of ``(a, b, x, s, xs)``
(``general`` flavour: also strs, big ints, mixed int/float values, ``try``/``except``/``finally``). Every variable
keeps one type, so inference can type it; loops are bounded, so every program ends quickly.

Each program first plans the constructs it must contain (loops, ``break``, ``continue``, ``try``, ``finally``,
float edge values, big ints, mixed arithmetic, strs) with fixed probabilities, then writes random statements around
them. ``census`` reads the constructs back from the source text (``ast``), so the test asserts what programs really
contain, not what the plan meant.

Programs are batched: ``batch_source`` puts many programs into one function selected by its first argument, so a
compile (one Cython module, one LLVM module) covers many programs.
"""
from __future__ import annotations

import ast
import random
from dataclasses import dataclass, field

# Leaves are atoms: a sum is parenthesised, so ``{leaf} % 6`` means what it says (``2**100 + 1 % 6`` made an endless
# ``range``).
INT_EDGES = ["0", "1", "-1", "2", "3", "7", "-5", "255", "2**31", "(2**53 + 1)", "(2**53 - 1)", "2**62",
             "(2**63 - 1)", "-2**63"]
BIG_INTS = ["2**64", "-2**70", "10**20", "(2**100 + 1)", "3**41"]
FLOAT_EDGES = ["0.0", "-0.0", "0.5", "-1.5", "2.0**53", "9007199254740993.0", "1e308", "1e-310", "math.inf",
               "-math.inf", "math.nan", "float(2**53 + 1)", "0.1", "3.0"]
STRS = ["''", "'a'", "'ab'", "'Hello'", "'x y'", "'ß'", "'12'", "'-3'", "'  pad '", "'é'"]
# What each construct is, for the census (the names are what the test reports and asserts on)
CONSTRUCTS = ("loop", "break", "continue", "try", "finally", "float_edge", "big_int", "mixed", "str", "raise",
              "mutation", "nested_loop", "closure", "nonlocal", "generator", "genexpr", "global", "attribute", "match",
              "match_sequence", "match_mapping", "match_class", "star_unpack", "class_attribute", "str_in_literals",
              "char_list", "float_chain_end", "label_jump", "closure_call_shapes")
# Scope constructs (general flavour only: they need Python objects): a nested function or lambda capturing a
# variable, a nonlocal write, a nested generator function, a generator expression no consumer inlines, a global write,
# an instance of a class the program defines whose attributes it reads and writes (and, for a plain class attribute,
# the class itself), a match statement, a starred unpacking of a list and of a tuple.
SCOPE_CONSTRUCTS = ("closure", "generator", "genexpr", "global", "attribute", "match", "star_unpack", "char_list")
MATCH_PROBABILITY = 0.5
STAR_UNPACK_PROBABILITY = 0.35  # drawn from a stream of its own too (``ProgramWriter.unpack_rng``)
CHAR_LIST_PROBABILITY = 0.35    # a str copied into a list only read (``ProgramWriter.chars_rng``, a stream of its own)
# A planned try's body starts with ``if cond: raise Label('planned label')`` and its first clause is ``except Label:
# pass`` (an exception used as a goto, which ``passes/local_raises.py`` turns into a jump); its own stream too.
LABEL_JUMP_PROBABILITY = 0.4
# A planned closure may be followed by a nested function with a default, called exactly, leaving its default, by
# keyword, through ``*args`` and from ``map`` (the compiled call path of ``moshjit/nested.py`` takes exact calls and
# hands the rest to CPython's); its own stream too.
CALL_SHAPES_PROBABILITY = 0.4
LABELS = ["ValueError", "KeyError", "LookupError", "RuntimeError", "ArithmeticError"]
# A match statement (general flavour: the LLVM backend refuses the MATCH_* opcodes) over the list, a tuple of an int
# and a float, a dict or an int, its sequence, mapping and class patterns counted apart in the census. It draws from
# a random stream of its own (``ProgramWriter.match_rng``), so the programs of a seed stay what they were without it.
PLAN_PROBABILITY = {"native": {"loop": 0.85, "break": 0.45, "continue": 0.45, "float_edge": 0.6, "mixed": 0.6,
                               "raise": 0.3, "mutation": 0.5, "nested_loop": 0.35},
                    "general": {"loop": 0.8, "break": 0.4, "continue": 0.4, "try": 0.7, "finally": 0.4,
                                "float_edge": 0.6, "big_int": 0.6, "mixed": 0.6, "str": 0.7, "raise": 0.3,
                                "mutation": 0.5, "nested_loop": 0.3, "closure": 0.35, "generator": 0.3,
                                "genexpr": 0.3, "global": 0.3, "attribute": 0.35}}


@dataclass
class Scope:
    """The variables of one program by type, and what the statement being written is nested in."""
    prefix: str
    flavour: str
    rng: random.Random
    ints: list = field(default_factory=list)
    floats: list = field(default_factory=list)
    bools: list = field(default_factory=list)
    strs: list = field(default_factory=list)
    loop_depth: int = 0
    counters: int = 0


class ProgramWriter:
    """Writes one program body (a list of source lines) with the planned constructs."""

    def __init__(self, rng: random.Random, flavour: str, prefix: str):
        self.rng = rng
        self.flavour = flavour
        self.scope = Scope(prefix, flavour, rng)
        self.plan = {name for name, p in PLAN_PROBABILITY[flavour].items() if rng.random() < p}
        self.match_rng = random.Random(hash(rng.getstate()[1]))      # getstate() does not advance ``rng``
        if flavour == "general" and self.match_rng.random() < MATCH_PROBABILITY:
            self.plan.add("match")
        self.unpack_rng = random.Random(hash(rng.getstate()[1]) ^ 0x5EED)
        if flavour == "general" and self.unpack_rng.random() < STAR_UNPACK_PROBABILITY:
            self.plan.add("star_unpack")
        self.chars_rng = random.Random(hash(rng.getstate()[1]) ^ 0xC4A2)
        if flavour == "general" and self.chars_rng.random() < CHAR_LIST_PROBABILITY:
            self.plan.add("char_list")
        self.label_rng = random.Random(hash(rng.getstate()[1]) ^ 0x1ABE1)
        if flavour == "general" and "try" in self.plan and self.label_rng.random() < LABEL_JUMP_PROBABILITY:
            self.plan.add("label_jump")
        self.label_written = False
        self.shapes_written = False
        self.shapes_rng = random.Random(hash(rng.getstate()[1]) ^ 0xCA11)
        if "closure" in self.plan and self.shapes_rng.random() < CALL_SHAPES_PROBABILITY:
            self.plan.add("closure_call_shapes")
        self.lines: list[str] = []
        self.promised_loop = False

    # ---- expressions ---------------------------------------------------------------------------------------------
    def int_expr(self, depth: int = 2) -> str:
        r, s = self.rng, self.scope
        leaves = [lambda: r.choice(s.ints), lambda: r.choice(["a", "b"]), lambda: r.choice(INT_EDGES[:8]),
                  lambda: "len(xs)"]
        if "big_int" in self.plan:
            leaves.append(lambda: r.choice(BIG_INTS))
        if depth <= 0 or r.random() < 0.3:
            return r.choice(leaves)()
        left, right = self.int_expr(depth - 1), self.int_expr(depth - 1)
        forms = [lambda: f"({left} + {right})", lambda: f"({left} - {right})", lambda: f"({left} * {right})",
                 lambda: f"({left} // {right})", lambda: f"({left} % {right})", lambda: f"(-{left})",
                 lambda: f"abs({left})", lambda: f"min({left}, {right})", lambda: f"max({left}, {right})",
                 lambda: f"({left} ** {r.randint(0, 4)})", lambda: f"({left} << {r.randint(0, 66 if self.flavour == 'general' else 59)})",
                 lambda: f"({left} >> {r.randint(0, 3)})", lambda: f"({left} if {self.bool_expr(0)} else {right})",
                 lambda: f"xs[{left} % (len(xs) + 1)]", lambda: f"sum(xs)",
                 lambda: f"int({self.float_expr(depth - 1)})", lambda: f"round({self.float_expr(depth - 1)})",
                 lambda: f"({left} & {right})", lambda: f"({left} ^ {right})"]
        if self.flavour == "general":
            forms += [lambda: f"len({self.str_expr(depth - 1)})", lambda: f"int({r.choice(['12', '-3'])!r})",
                      lambda: f"divmod({left}, {right})[0]", lambda: f"pow({left}, {r.randint(0, 3)}, 7)"]
        return r.choice(forms)()

    def float_expr(self, depth: int = 2) -> str:
        r, s = self.rng, self.scope
        leaves = [lambda: r.choice(s.floats), lambda: "x", lambda: r.choice(["0.5", "2.0", "-1.5", "3.25"])]
        if "float_edge" in self.plan:
            leaves.append(lambda: r.choice(FLOAT_EDGES))
        if depth <= 0 or r.random() < 0.3:
            return r.choice(leaves)()
        left, right = self.float_expr(depth - 1), self.float_expr(depth - 1)
        forms = [lambda: f"({left} + {right})", lambda: f"({left} - {right})", lambda: f"({left} * {right})",
                 lambda: f"({left} / {right})", lambda: f"({left} // {right})", lambda: f"({left} % {right})",
                 lambda: f"(-{left})", lambda: f"abs({left})", lambda: f"math.sqrt({left})",
                 lambda: f"math.copysign({left}, {right})", lambda: f"({left} ** 2)", lambda: f"float({left})",
                 lambda: f"min({left}, {right})", lambda: f"max({left}, {right})", lambda: f"math.floor({left}) * 1.0"]
        if "mixed" in self.plan:
            i = self.int_expr(depth - 1)
            forms += [lambda: f"({i} + {left})", lambda: f"({left} * {i})", lambda: f"({i} / {right})",
                      lambda: f"({left} - {i})", lambda: f"float({i})", lambda: f"({i} % {left})"]
        return r.choice(forms)()

    def bool_expr(self, depth: int = 1) -> str:
        r = self.rng
        op = r.choice(["<", "<=", "==", "!=", ">", ">="])
        forms = [lambda: f"({self.int_expr(depth)} {op} {self.int_expr(depth)})",
                 lambda: f"({self.float_expr(depth)} {op} {self.float_expr(depth)})",
                 lambda: f"({self.int_expr(depth)} in xs)"]
        if self.scope.bools:
            forms.append(lambda: f"(not {r.choice(self.scope.bools)})")
        if "mixed" in self.plan:
            forms += [lambda: f"({self.int_expr(depth)} {op} {self.float_expr(depth)})",
                      lambda: f"({self.float_expr(depth)} {op} {self.int_expr(depth)})"]
        if self.flavour == "general" and "str" in self.plan:
            forms.append(lambda: f"({self.str_expr(depth)} {op} {self.str_expr(depth)})")
            forms.append(lambda: f"({self.str_expr(depth)} {r.choice(['in', 'not in'])} "
                                 f"({', '.join(r.sample(STRS, 3))}))")
        return r.choice(forms)()

    def str_expr(self, depth: int = 1) -> str:
        r, s = self.rng, self.scope
        leaves = [lambda: r.choice(s.strs) if s.strs else "s", lambda: "s", lambda: r.choice(STRS)]
        if depth <= 0 or r.random() < 0.35:
            return r.choice(leaves)()
        left, right = self.str_expr(depth - 1), self.str_expr(depth - 1)
        forms = [lambda: f"({left} + {right})", lambda: f"({left} * ({self.int_expr(0)} % 4))",
                 lambda: f"{left}[{self.int_expr(0)} % (len({left}) + 1):]", lambda: f"str({self.int_expr(1)})",
                 lambda: f"repr({self.float_expr(1)})", lambda: f"{left}.upper()", lambda: f"{left}.strip()",
                 lambda: f"'-'.join([{left}, {right}])", lambda: f"f'{{{self.int_expr(0)}}}:{{{self.float_expr(0)}}}'",
                 lambda: f"{left}[{self.int_expr(0)}]", lambda: f"{left}.replace('a', {right})"]
        return r.choice(forms)()

    # ---- statements ----------------------------------------------------------------------------------------------
    def emit(self, indent: int, line: str) -> None:
        self.lines.append("    " * indent + line)

    def new_var(self, kind: str, indent: int, value: str) -> str:
        names = getattr(self.scope, kind)
        name = f"{self.scope.prefix}{kind[0]}{len(names)}"
        self.emit(indent, f"{name} = {value}")
        names.append(name)
        return name

    def assign(self, indent: int) -> None:
        r, s = self.rng, self.scope
        kinds = ["ints", "floats", "bools"] + (["strs"] if self.flavour == "general" and "str" in self.plan else [])
        kind = r.choice(kinds)
        value = {"ints": self.int_expr, "floats": self.float_expr, "bools": self.bool_expr,
                 "strs": self.str_expr}[kind]()
        target = r.choice(getattr(s, kind))
        augmented = kind in ("ints", "floats") and r.random() < 0.4
        if s.loop_depth and kind in ("ints", "strs"):
            # bounded growth: squaring an int or doubling a str on each of ~100 iterations would exhaust memory
            operator = r.choice(["+", "-", "*"]) if augmented else None
            value = f"{target} {operator} {value}" if operator else value
            bound = "1000003" if self.flavour == "native" else "(2**80 + 7)"
            self.emit(indent, f"{target} = ({value}) % {bound}" if kind == "ints" else f"{target} = ({value})[:40]")
        elif augmented:
            self.emit(indent, f"{target} {r.choice(['+=', '-=', '*='])} {value}")
        else:
            self.emit(indent, f"{target} = {value}")

    def mutation(self, indent: int) -> None:
        r = self.rng
        self.emit(indent, r.choice([f"xs.append({self.int_expr(1)})", f"xs[{self.int_expr(0)} % (len(xs) + 1)] = "
                                    f"{self.int_expr(1)}", "xs.pop()" if r.random() < 0.3 else
                                    f"xs.append(len(xs))", f"xs.insert(0, {self.int_expr(0)})"]))

    def statement(self, indent: int, depth: int) -> None:
        r = self.rng
        choices = ["assign"] * 4 + ["if"]
        if depth > 0:
            choices += ["for", "while"] * (2 if "loop" in self.plan else 0)
            if self.flavour == "general" and "try" in self.plan:
                choices += ["try"] * 2
        if self.scope.loop_depth:
            choices += ["break"] * ("break" in self.plan) + ["continue"] * ("continue" in self.plan)
        if "raise" in self.plan:
            choices.append("raise")
        if "mutation" in self.plan:
            choices.append("mutation")
        choices.append("return")
        getattr(self, "st_" + r.choice(choices))(indent, depth)

    def block(self, indent: int, depth: int, count: int | None = None) -> None:
        for _ in range(count if count is not None else self.rng.randint(1, 3)):
            self.statement(indent, depth)

    def st_assign(self, indent, depth):
        self.assign(indent)

    def st_mutation(self, indent, depth):
        self.mutation(indent)

    def st_if(self, indent, depth):
        self.emit(indent, f"if {self.bool_expr()}:")
        self.block(indent + 1, depth - 1)
        if self.rng.random() < 0.4:
            self.emit(indent, "else:")
            self.block(indent + 1, depth - 1)

    def st_for(self, indent, depth):
        r, s = self.rng, self.scope
        loop_var = f"{s.prefix}k{s.counters}"
        s.counters += 1
        bound = r.choice([str(r.randint(0, 5)), f"({self.int_expr(0)}) % 6", "len(xs)"])
        self.emit(indent, f"for {loop_var} in range({bound}):")
        s.ints.append(loop_var)               # readable after the loop only if it ran: not kept beyond it
        s.loop_depth += 1
        self.block(indent + 1, depth - 1)
        self.planned_loop_body(indent + 1, depth)
        s.loop_depth -= 1
        s.ints.remove(loop_var)
        self.emit(indent, f"{loop_var} = 0")     # so later reads never see an unbound loop variable

    def st_while(self, indent, depth):
        r, s = self.rng, self.scope
        counter = f"{s.prefix}w{s.counters}"
        s.counters += 1
        self.emit(indent, f"{counter} = 0")
        self.emit(indent, f"while {counter} < {r.randint(1, 5)}:")
        self.emit(indent + 1, f"{counter} += 1")
        s.loop_depth += 1
        self.block(indent + 1, depth - 1)
        self.planned_loop_body(indent + 1, depth)
        s.loop_depth -= 1

    def planned_loop_body(self, indent, depth):
        """The first loop written carries the loop constructs the plan promises (later loops are random)."""
        if self.promised_loop:
            return
        self.promised_loop = True
        if "nested_loop" in self.plan and depth > 1:
            self.st_while(indent, depth - 1)
        for construct in ("break", "continue"):
            if construct in self.plan:
                getattr(self, "st_" + construct)(indent, 0)

    def st_break(self, indent, depth):
        self.emit(indent, f"if {self.bool_expr(0)}:")
        self.emit(indent + 1, "break")

    def st_continue(self, indent, depth):
        self.emit(indent, f"if {self.bool_expr(0)}:")
        self.emit(indent + 1, "continue")

    def st_raise(self, indent, depth):
        kind = self.rng.choice(["ValueError", "ZeroDivisionError", "IndexError", "OverflowError"])
        self.emit(indent, f"if {self.bool_expr(0)}:")
        self.emit(indent + 1, f"raise {kind}('planned {self.scope.prefix}')")

    def st_return(self, indent, depth):
        self.emit(indent, f"if {self.bool_expr(0)}:")
        self.emit(indent + 1, f"return {self.result()}")

    def st_try(self, indent, depth):
        r = self.rng
        self.emit(indent, "try:")
        label = self.label_raise(indent + 1)
        self.block(indent + 1, depth - 1)
        if label is not None:
            self.emit(indent, f"except {label}:")
            self.emit(indent + 1, "pass")
        handlers = r.sample(["ZeroDivisionError", "ValueError", "OverflowError", "(IndexError, TypeError)",
                             "ArithmeticError", "Exception"], r.randint(0 if "finally" in self.plan else 1, 2))
        for handler in handlers:
            self.emit(indent, f"except {handler} as exc:")
            if self.scope.strs and r.random() < 0.5:
                self.emit(indent + 1, f"{r.choice(self.scope.strs)} = str(exc)")
            self.block(indent + 1, depth - 1, 1)
        if handlers and r.random() < 0.3:
            self.emit(indent, "else:")
            self.block(indent + 1, depth - 1, 1)
        if not handlers or "finally" in self.plan and r.random() < 0.6:
            self.emit(indent, "finally:")
            self.block(indent + 1, depth - 1, 1)

    def label_raise(self, indent) -> str | None:
        """The planned label's raise, at the start of the first try written (its class), or None."""
        if "label_jump" not in self.plan or self.label_written:
            return None
        self.label_written = True
        u, s = self.label_rng, self.scope
        label = u.choice(LABELS)
        self.emit(indent, f"if {u.choice(s.ints)} {u.choice(['<', '>', '!='])} {u.choice(s.ints + ['a', 'b', '0'])}:")
        self.emit(indent + 1, f"raise {label}('planned label')")
        return label

    def scope_name(self, kind: str) -> str:
        self.scope.counters += 1
        return f"{self.scope.prefix}{kind}{self.scope.counters}"

    def st_closure(self, indent):
        """A nested function writing a variable of the program (nonlocal: it lives in a cell), or a lambda reading
        one (late binding: the variable is changed before the call)."""
        r, s = self.rng, self.scope
        captured, target = r.choice(s.ints), r.choice(s.ints)
        name = self.scope_name("c")
        if r.random() < 0.6:
            self.emit(indent, f"def {name}(d):")
            self.emit(indent + 1, f"nonlocal {captured}")
            self.emit(indent + 1, f"{captured} = ({captured} + d) % 1000003")
            self.emit(indent + 1, f"return {captured} * 2")
            self.emit(indent, f"{target} = ({name}({self.int_expr(1)}) + {name}(1)) % 1000003")
        else:
            self.emit(indent, f"{name} = lambda e: (e * {captured}) % 7")
            self.emit(indent, f"{captured} = ({captured} + {self.int_expr(0)}) % 1000003")
            self.emit(indent, f"{target} = sum(sorted(xs, key={name})[:2]) + {name}(3)")
        if "closure_call_shapes" in self.plan and not self.shapes_written:
            self.call_shapes(indent, captured, target, self.scope_name("c"))

    def call_shapes(self, indent, captured, target, name):
        """A nested function with a default (bound when it is made), called with every argument, leaving the
        default, by keyword, through ``*args`` and from C (``map``)."""
        self.shapes_written = True
        self.emit(indent, f"def {name}(d, k={captured}):")
        self.emit(indent + 1, f"return (d * k + {captured}) % 1000003")
        self.emit(indent, f"{captured} = ({captured} + {self.int_expr(0)}) % 1000003")
        self.emit(indent, f"{target} = ({name}({self.int_expr(1)}, 3) + {name}(2) + {name}(d=5, k=-1) "
                          f"+ {name}(*[7, {captured}]) + sum(map({name}, xs))) % 1000003")

    def st_generator(self, indent):
        """A nested generator function capturing a variable, consumed by the compiled code."""
        r, s = self.rng, self.scope
        captured, target = r.choice(s.ints), r.choice(s.ints)
        name = self.scope_name("g")
        self.emit(indent, f"def {name}(m):")
        self.emit(indent + 1, "t = 0")
        self.emit(indent + 1, "for e in range(m % 6):")
        self.emit(indent + 2, "t += e")
        self.emit(indent + 2, f"yield (e * {captured}) % 1000003")
        self.emit(indent + 1, "return t")
        self.emit(indent, f"{target} = sum({name}({self.int_expr(0)})) % 1000003")

    def st_genexpr(self, indent):
        """A generator expression no consumer inlines: stored (late binding of what it captures), or passed to
        enumerate or dict."""
        r, s = self.rng, self.scope
        captured, target = r.choice(s.ints), r.choice(s.ints)
        form = r.randrange(3)
        if form == 0:
            name = self.scope_name("q")
            self.emit(indent, f"{name} = (e + {captured} for e in xs)")
            self.emit(indent, f"{captured} = ({captured} * 3 + 1) % 1000003")
            self.emit(indent, f"{target} = sum({name}) % 1000003")
        elif form == 1:
            self.emit(indent, f"{target} = len(list(enumerate(e for e in xs if e > {captured})))")
        else:
            self.emit(indent, f"{target} = max(dict((e, e * {captured}) for e in xs).values(), default=0) % 1000003")

    def st_global(self, indent):
        """A global written (and sometimes deleted) by the program; its name is the program's own."""
        r, s = self.rng, self.scope
        name, target = self.scope_name("G"), r.choice(s.ints)
        self.emit(indent, f"global {name}")
        self.emit(indent, f"{name} = {self.int_expr(1)}")
        self.emit(indent, f"{target} = ({name} + {self.int_expr(0)}) % 1000003")
        if r.random() < 0.4:
            self.emit(indent, f"del {name}")

    def st_attribute(self, indent):
        """An instance of a class the program defines (plain with a class attribute its instance shadows, with
        ``__slots__``, or with a property), its int and float attributes updated in a loop: values read from
        attributes are objects to the compiler, and each site sees a type whose layout it can cache."""
        r, s = self.rng, self.scope
        cls, obj, i = self.scope_name("K"), self.scope_name("o"), self.scope_name("i")
        target_int, target_float = r.choice(s.ints), r.choice(s.floats)
        kind = r.randrange(3)
        self.emit(indent, f"class {cls}:")
        self.emit(indent + 1, ["n = 0", "__slots__ = ('n', 'w')", "twice = property(lambda self: self.n * 2)"][kind])
        self.emit(indent, f"{obj} = {cls}()")
        self.emit(indent, f"{obj}.n = {self.int_expr(1)}")
        self.emit(indent, f"{obj}.w = {self.float_expr(1)}")
        self.emit(indent, f"for {i} in range(3):")
        self.emit(indent + 1, f"{obj}.n = ({obj}.n + {i} * {target_int}) % 1000003")
        self.emit(indent + 1, f"{obj}.w = {obj}.w * 0.5 + {self.float_expr(0)}")
        # float chains that end in a comparison and math.sqrt, with unary minus and ** (OverflowError past 1e154)
        self.emit(indent + 1, f"{obj}.w = math.sqrt({obj}.w * {obj}.w + 1.0) if -{obj}.w < 2.0 "
                              f"else -({obj}.w ** 2) * 0.001")
        if kind == 0:                     # the class attribute read from the class, which changes in the loop
            self.emit(indent + 1, f"{cls}.n = {cls}.n + {i}")
        self.emit(indent, f"{target_int} = {obj}.n" + (f" + {obj}.twice" if kind == 2 else "")
                  + (f" + {cls}.n" if kind == 0 else ""))
        self.emit(indent, f"{target_float} = {obj}.w")

    def st_star_unpack(self, indent):
        """``first, *middle, last`` from a list (of at least two items) and ``*init, last`` from a tuple: items
        read in order, the star a new list (the compiled code reads exact lists and tuples in place)."""
        u, s = self.unpack_rng, self.scope
        first, middle, last = self.scope_name("u"), self.scope_name("u"), self.scope_name("u")
        init, end = self.scope_name("u"), self.scope_name("u")
        target = u.choice(s.ints)
        self.emit(indent, f"{first}, *{middle}, {last} = [{u.choice(INT_EDGES)}, *xs, {u.choice(s.ints)}]")
        self.emit(indent, f"*{init}, {end} = ({u.choice(s.ints)}, {first}, {u.choice(INT_EDGES)})")
        self.emit(indent, f"{middle}.append({end})")
        self.emit(indent, f"{target} = ({target} + {first} - {last} + len({middle}) + sum({init})) % 1000003")

    def st_char_list(self, indent):
        """A str copied into a list that is only read: items under a length test, its length, a joined slice
        (``passes/str_lists.py`` reads the str itself for each)."""
        c, s = self.chars_rng, self.scope
        chars, index = self.scope_name("c"), self.scope_name("c")
        target = c.choice(s.ints)
        self.emit(indent, f"{chars} = list({c.choice(['s', 's + s'] + STRS)})")
        self.emit(indent, f"{index} = 0")
        self.emit(indent, f"while {index} < len({chars}):")
        self.emit(indent + 1, f"{target} = ({target} + ord({chars}[{index}])) % 1000003")
        self.emit(indent + 1, f"{index} += 1")
        piece = f"''.join({chars}[{c.choice(s.ints)} % 5:{c.choice(INT_EDGES[:8])} % 9])"
        self.emit(indent, f"{target} = ({target} + len({piece}) * 7 + len({chars})) % 1000003")

    def st_match(self, indent):
        """A match statement whose cases capture into names of their own (read in that case only) and write a
        variable of the program; literal, or, as, star, guard, sequence, mapping and class patterns."""
        r, s = self.match_rng, self.scope
        name = self.scope_name("m")
        e, f, rest, y = (f"{name}_{part}" for part in ("e", "f", "r", "y"))
        target = r.choice(s.ints)
        lit = r.choice(["0", "1", "2", "-1", "7"])
        int_value = r.choice(s.ints + ["a", "b"])
        subjects = {
            "xs": ("xs", [f"[]", f"[{lit}, *_]", f"[{e}]", f"[{e}, {f}]", f"[{e}, *{rest}] if {e} > {lit}",
                          f"[*{rest}, {e}]", f"({lit} | 3) as {e}", f"[{e}, {f}, *_]"]),
            "pair": (f"({int_value}, {r.choice(s.floats)})",
                     [f"(0, _)", f"({e}, {y}) if {e} > {lit}", f"(int({e}), float({y}))", f"(1 | 2 | 3, {y})",
                      f"[{e}, *{rest}]", f"({e}, _)"]),
            "dict": (f"{{'k': {int_value}, 'n': len(xs), 'z': {lit}}}",
                     [f"{{'k': 0}}", f"{{'k': {e}, 'n': {f}}} if {e} > {f}", f"{{'k': {e}, **{rest}}}",
                      f"{{'q': {e}}}", f"{{'k': int({e}), 'z': {f}}}"]),
            "int": (int_value, [f"bool()", f"int({e}) if {e} > {lit}", f"0 | 1 | -1", f"{e} if {e} < {lit}",
                                f"float({y})", f"str()"]),
        }
        subject, patterns = subjects[r.choice(list(subjects))]
        uses = {e: e, f: f, rest: f"len({rest})", y: f"int({y} % 7.0)"}
        self.emit(indent, f"match {subject}:")
        for pattern in r.sample(patterns, r.randint(2, min(4, len(patterns)))) + (["_"] if r.random() < 0.6 else []):
            bound = [uses[n] for n in (e, f, rest, y) if n in pattern.split(" if ")[0]]
            value = " + ".join(bound + [r.choice(s.ints + INT_EDGES[:8])])
            self.emit(indent + 1, f"case {pattern}:")
            self.emit(indent + 2, f"{target} = ({value}) % 1000003")

    def result(self) -> str:
        """The same tuple at every return (its variables exist from the start): one native return type."""
        return "(" + ", ".join(self.results) + ",)"

    # ---- the program ---------------------------------------------------------------------------------------------
    def write(self) -> list[str]:
        r = self.rng
        self.new_var("ints", 1, r.choice(["a", "b", "a + b", "len(xs)"]))
        self.new_var("ints", 1, r.choice(["b", "0", "a - b", INT_EDGES[r.randrange(len(INT_EDGES))]]))
        self.new_var("floats", 1, r.choice(["x", "0.0", "x * 2.0"]))
        self.new_var("floats", 1, r.choice(FLOAT_EDGES if "float_edge" in self.plan else ["1.0", "x"]))
        self.new_var("bools", 1, self.bool_expr(0))
        if self.flavour == "general" and "str" in self.plan:
            self.new_var("strs", 1, r.choice(["s", "str(a)"] + STRS))
        if "big_int" in self.plan:
            self.new_var("ints", 1, f"{r.choice(BIG_INTS)} + a")
        self.results = self.scope.ints + self.scope.floats + self.scope.bools + self.scope.strs
        depth = 3 if self.flavour == "native" else 2       # Cython's time grows fast with try regions: keep them small
        for construct in ("loop", "try", "mutation", "raise"):        # what the plan promises, then random code
            if construct in self.plan:
                {"loop": lambda: (self.st_for if r.random() < 0.6 else self.st_while)(1, depth),
                 "try": lambda: self.st_try(1, 2), "mutation": lambda: self.mutation(1),
                 "raise": lambda: self.st_raise(1, 0)}[construct]()
        for construct in SCOPE_CONSTRUCTS:
            if construct in self.plan:
                getattr(self, "st_" + construct)(1)
        self.block(1, depth, r.randint(2, 4))
        self.emit(1, f"return {self.result()}")
        return self.lines


def generate(rng: random.Random, flavour: str, prefix: str) -> list[str]:
    """The body lines (indented once) of one program of ``flavour`` whose variables start with ``prefix``."""
    return ProgramWriter(rng, flavour, prefix).write()


def batch_source(programs: list[list[str]], flavour: str, name: str = "batch") -> str:
    """One function running program ``which`` of ``programs`` (each a body from ``generate``)."""
    params = "which, a, b, x, xs" if flavour == "native" else "which, a, b, x, s, xs"
    lines = [f"def {name}({params}):"]
    for index, body in enumerate(programs):
        lines.append(f"    if which == {index}:")
        lines += ["    " + line for line in body]
    lines.append("    raise IndexError('no such program')")          # one return type: the programs' tuple
    return "\n".join(lines) + "\n"


def program_source(body: list[str], flavour: str, name: str = "program") -> str:
    """One program on its own (for reports and bisecting a failing batch)."""
    params = "a, b, x, xs" if flavour == "native" else "a, b, x, s, xs"
    return "\n".join([f"def {name}({params}):"] + body) + "\n"


def _reads_object_attribute(node) -> bool:
    """An attribute read from an object, not a name of the ``math`` module (``math.inf``, ``math.floor``), which
    native programs use in their float expressions."""
    return isinstance(node, ast.Attribute) and not (isinstance(node.value, ast.Name) and node.value.id == "math")


# ---- census --------------------------------------------------------------------------------------------------------
def census(body: list[str], flavour: str) -> set:
    """The constructs one program's source really contains."""
    tree = ast.parse(program_source(body, flavour))
    found = set()
    loops = 0
    in_classes = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                  for inner in ast.walk(node) if inner is not node}
    classes = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    for node in ast.walk(tree):
        if id(node) in in_classes:
            continue
        if isinstance(node, ast.ClassDef):
            found.add("attribute")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in classes:
            found.add("class_attribute")
        elif isinstance(node, ast.Call) and ast.unparse(node.func) == "math.sqrt" and any(
                _reads_object_attribute(inner) for arg in node.args for inner in ast.walk(arg)):
            found.add("float_chain_end")                  # math.sqrt of arithmetic on attributes of an object
        elif isinstance(node, ast.Assign) and any(isinstance(target, ast.Tuple) and any(
                isinstance(item, ast.Starred) for item in target.elts) for target in node.targets):
            found.add("star_unpack")
        elif isinstance(node, (ast.For, ast.While)):
            found.add("loop")
            if any(isinstance(inner, (ast.For, ast.While)) for child in node.body for inner in ast.walk(child)):
                found.add("nested_loop")
            loops += 1
        elif isinstance(node, ast.Break):
            found.add("break")
        elif isinstance(node, ast.Continue):
            found.add("continue")
        elif isinstance(node, ast.Try):
            found.add("try")
            if node.finalbody:
                found.add("finally")
            if any(handler.name is None and [type(stmt) for stmt in handler.body] == [ast.Pass]
                   for handler in node.handlers) and any(isinstance(inner, ast.Raise)
                                                         for stmt in node.body for inner in ast.walk(stmt)):
                found.add("label_jump")
        elif isinstance(node, ast.Raise):
            found.add("raise")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and not isinstance(node.value, bool):
            if not node.value.startswith("planned"):
                found.add("str")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and node.func.value.id == "xs":
            found.add("mutation")
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Subscript) for t in node.targets):
            found.add("mutation")
        elif isinstance(node, ast.Lambda) or isinstance(node, ast.FunctionDef) and node.name != "program":
            generator = any(isinstance(inner, ast.Yield) for inner in ast.walk(node))
            found.add("generator" if generator else "closure")
            if isinstance(node, ast.FunctionDef) and node.args.defaults:
                found.add("closure_call_shapes")
        elif isinstance(node, ast.Nonlocal):
            found.add("nonlocal")
        elif isinstance(node, ast.Global):
            found.add("global")
        elif isinstance(node, (ast.Assign, ast.Call)) and _holds_generator_expression(node):
            found.add("genexpr")
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                isinstance(node.value.func, ast.Name) and node.value.func.id == "list" and \
                len(node.value.args) == 1 and not isinstance(node.value.args[0], ast.GeneratorExp):
            found.add("char_list")
        elif isinstance(node, ast.Match):
            found.add("match")
        elif isinstance(node, ast.MatchSequence):
            found.add("match_sequence")
        elif isinstance(node, ast.MatchMapping):
            found.add("match_mapping")
        elif isinstance(node, ast.MatchClass):
            found.add("match_class")
        elif isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.In, ast.NotIn)) and \
                isinstance(node.comparators[0], ast.Tuple) and node.comparators[0].elts and all(
                    isinstance(item, ast.Constant) and type(item.value) is str for item in node.comparators[0].elts):
            found.add("str_in_literals")
    text = "\n".join(body)
    if any(edge in text for edge in ("math.nan", "math.inf", "-0.0", "2.0**53", "9007199254740993.0",
                                     "float(2**53 + 1)", "1e308", "1e-310")):
        found.add("float_edge")
    if any(big in text for big in BIG_INTS):
        found.add("big_int")
    if _mixes_int_and_float(tree):
        found.add("mixed")
    if flavour == "general" and "s" in _names(tree):
        found.add("str")
    return found


_INLINED_CONSUMERS = {"sum", "any", "all", "min", "max", "list", "tuple", "sorted", "set", "frozenset"}


def _holds_generator_expression(node) -> bool:
    """A generator expression stored in a variable, or passed to a call that does not inline it."""
    if isinstance(node, ast.Assign):
        return isinstance(node.value, ast.GeneratorExp)
    name = node.func.id if isinstance(node.func, ast.Name) else None
    return name not in _INLINED_CONSUMERS and any(isinstance(arg, ast.GeneratorExp) for arg in node.args)


def _names(tree) -> set:
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}


def _mixes_int_and_float(tree) -> bool:
    """A binary operation or comparison with an int-looking operand and a float-looking one (a heuristic on
    names: ``x`` and ``*f<n>`` are floats, ``a``/``b`` and ``*i<n>`` ints)."""
    def kind(node):
        if isinstance(node, ast.Name):
            if node.id == "x" or node.id.split("_")[-1].startswith("f"):
                return "float"
            if node.id in ("a", "b") or node.id.split("_")[-1].startswith("i"):
                return "int"
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return type(node.value).__name__
        return None
    for node in ast.walk(tree):
        pairs = []
        if isinstance(node, ast.BinOp):
            pairs.append((node.left, node.right))
        elif isinstance(node, ast.Compare):
            pairs.append((node.left, node.comparators[0]))
        for left, right in pairs:
            if {kind(left), kind(right)} == {"int", "float"}:
                return True
    return False

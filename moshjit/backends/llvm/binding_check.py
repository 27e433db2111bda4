"""The LLVM entry's check that the names bound when compiling still hold, and how the index records them.

The entry's ``self`` tuple carries the bindings (``moshjit.bindings.Binding`` tuples) and the dispatcher's
``rebound`` handler. On every call each name is looked up where it was found (a dict: ``PyDict_GetItemWithError``,
then the builtins for a builtin; a closure cell: its content; a function: the field a call reads) and compared with
the object bound; a difference hands the call, bindings first, to the handler; where each name was last found (the
dict's keys object and entry index) is remembered, so the names are not looked up again while those entries still
hold them. Another process loads the code without IR, so the index records where each binding lives
(``describe``) and the loader finds it again (``rebuild``): the function's globals, builtins or closure cell, a
module's ``__dict__``, the function an earlier binding names (its fields, its ``__kwdefaults__`` dict); code whose
bindings cannot be described that way is not recorded. Loading needs no llvmlite: only the emitting functions import it.
"""
from __future__ import annotations

import sys
import types

from moshjit.bindings import MISSING, Binding
from moshjit.functions import jitted_function

# Where the items of a tuple ``self`` are (``engine.make_builtin`` builds it): the fallback, the globals dict, the
# bindings, the rebound handler, then the names of the globals read.
BINDINGS_AT, NAMES_AT = 2, 4


def kind_of(binding) -> tuple:
    """How the entry checks ``binding``: (the offset of the object's field holding the value — a closure cell's
    content, a function's code or defaults — or None for a name in a dict, whether a miss goes on to builtins)."""
    from moshjit.backends.llvm import layout
    if isinstance(binding.namespace, types.CellType):
        return layout.CELL_CONTENTS, False
    if isinstance(binding.namespace, types.FunctionType):
        return layout.FUNCTION_FIELD_OFFSETS[binding.name], False
    return None, binding.then is not None


def _plain_function(value):
    return value if isinstance(value, types.FunctionType) else jitted_function(value)


def _naming(earlier, py_function, wanted) -> int | None:
    """The index of the first of the ``earlier`` bindings whose value is a function (or a jitted function's) that
    ``wanted`` accepts; -1 for ``py_function`` itself; None for none."""
    if wanted(py_function):
        return -1
    for index, binding in enumerate(earlier):
        function = _plain_function(binding.value)
        if function is not None and wanted(function):
            return index
    return None


def describe(bindings, py_function, builtins_: dict) -> list | None:
    """JSON-able descriptions of ``bindings`` relative to ``py_function``, or None if one has no description. A
    function's field is described through an earlier binding naming the function (or its jitted form)."""
    closure = py_function.__closure__ or ()
    out = []
    for binding in bindings:
        then = binding.then is not None
        if then and binding.then is not builtins_:
            return None
        if isinstance(binding.namespace, types.FunctionType):
            named = _naming(bindings[:len(out)], py_function, lambda f: f is binding.namespace)
            if named is None:
                return None
            where = ["function", named]
        elif (named := _naming(bindings[:len(out)], py_function,
                               lambda f: f.__kwdefaults__ is binding.namespace)) is not None:
            where = ["kwdefaults", named]
        elif isinstance(binding.namespace, types.CellType):
            cells = [i for i, cell in enumerate(closure) if cell is binding.namespace]
            if not cells:
                return None
            where = ["cell", cells[0]]
        elif binding.namespace is py_function.__globals__:
            where = ["globals"]
        else:
            module = sys.modules.get(binding.namespace.get("__name__", None) or "")
            if module is None or module.__dict__ is not binding.namespace:
                return None
            where = ["module", module.__name__]
        out.append({"where": where, "name": binding.name, "then": then, "label": binding.label})
    return out


def rebuild(described: list, py_function, builtins_: dict) -> list | None:
    """The bindings ``describe`` wrote, found again with the objects they name now (None if one is gone)."""
    out = []
    for item in described:
        where = item["where"]
        if where[0] in ("function", "kwdefaults"):
            function = py_function if where[1] < 0 else _plain_function(out[where[1]].value)
            if function is None:
                return None
            if where[0] == "function":
                out.append(Binding(function, item["name"], getattr(function, item["name"]), None, item["label"]))
                continue
            namespace = function.__kwdefaults__
            if not isinstance(namespace, dict):
                return None
        elif where[0] == "cell":
            namespace = (py_function.__closure__ or ())[where[1]]
        elif where[0] == "globals":
            namespace = py_function.__globals__
        else:
            module = sys.modules.get(where[1])
            if module is None:
                return None
            namespace = module.__dict__
        # interned, as the names in code objects and the keys of module dicts are: the entry check compares the
        # very key object
        binding = Binding(namespace, sys.intern(item["name"]), None, builtins_ if item["then"] else None,
                          item["label"])
        value = binding.current()
        if value is MISSING:
            return None
        out.append(binding._replace(value=value))
    return out


def _helpers(runtime):
    """The module's internal helpers reading a dict's table as ``binding_guard``'s C does (layouts: ``layout``)."""
    import llvmlite.ir as ir

    from moshjit.backends.llvm import layout
    from moshjit.backends.llvm.reprs import I1, I8, I64, PTR

    def at(b, pointer, offset, kind):
        return b.load(b.gep(pointer, [ir.Constant(I64, offset)], source_etype=I8), typ=kind)

    def entries(b, keys):
        log2 = b.zext(at(b, keys, layout.KEYS_LOG2_INDEX_BYTES, I8), I64)
        start = b.add(ir.Constant(I64, layout.KEYS_INDICES), b.shl(ir.Constant(I64, 1), log2))
        return b.gep(keys, [start], source_etype=I8)

    def entry_at(b, keys, index):
        offset = b.mul(index, ir.Constant(I64, layout.UNICODE_ENTRY_SIZE))
        return b.gep(entries(b, keys), [offset], source_etype=I8)

    def combined_table(b, dict_):
        """(keys object, whether it is a unicode table read directly: no split values)."""
        keys = at(b, dict_, layout.DICT_KEYS, PTR)
        plain = b.icmp_unsigned("==", at(b, dict_, layout.DICT_VALUES, PTR), ir.Constant(PTR, None))
        return keys, plain

    def build_entry_is(b, dict_, keys, index, name, value):
        """dict's entry ``index`` in the keys object ``keys`` holds the very name with the very value."""
        no = b.function.append_basic_block("no")
        live = b.function.append_basic_block("live")
        read = b.function.append_basic_block("read")
        current, plain = combined_table(b, dict_)
        same = b.and_(b.icmp_unsigned("==", current, keys), b.icmp_unsigned("!=", keys, ir.Constant(PTR, None)))
        b.cbranch(b.and_(b.and_(same, plain), b.icmp_signed(">=", index, ir.Constant(I64, 0))), live, no)
        b.position_at_end(live)
        b.cbranch(b.icmp_signed("<", index, at(b, keys, layout.KEYS_NENTRIES, I64)), read, no)
        b.position_at_end(read)
        entry = entry_at(b, keys, index)
        found_key, found_value = at(b, entry, 0, PTR), at(b, entry, 8, PTR)
        b.ret(b.and_(b.icmp_unsigned("==", found_key, name), b.icmp_unsigned("==", found_value, value)))
        b.position_at_end(no)
        b.ret(ir.Constant(I1, 0))

    def build_still_absent(b, dict_, keys, nentries):
        """No key was added to dict since its keys object ``keys`` had ``nentries`` entries."""
        no = b.function.append_basic_block("no")
        live = b.function.append_basic_block("live")
        current, plain = combined_table(b, dict_)
        same = b.and_(b.icmp_unsigned("==", current, keys), b.icmp_unsigned("!=", keys, ir.Constant(PTR, None)))
        b.cbranch(b.and_(same, plain), live, no)
        b.position_at_end(live)
        b.ret(b.icmp_signed("==", at(b, keys, layout.KEYS_NENTRIES, I64), nentries))
        b.position_at_end(no)
        b.ret(ir.Constant(I1, 0))

    def build_locate(b, dict_, name, keys_out, index_out):
        """Store the keys object and the index of the entry holding the very object ``name`` (keys NULL if
        the table is not read directly or no entry holds it)."""
        done = b.function.append_basic_block("done")
        scan = b.function.append_basic_block("scan")
        step = b.function.append_basic_block("step")
        hit = b.function.append_basic_block("hit")
        b.store(ir.Constant(PTR, None), keys_out)
        keys, plain = combined_table(b, dict_)
        unicode = b.icmp_unsigned("==", at(b, keys, layout.KEYS_KIND, I8), ir.Constant(I8, layout.KEYS_UNICODE))
        count = at(b, keys, layout.KEYS_NENTRIES, I64)
        start = b.block
        b.cbranch(b.and_(plain, unicode), scan, done)
        b.position_at_end(scan)
        index = b.phi(I64)
        index.add_incoming(ir.Constant(I64, 0), start)
        b.cbranch(b.icmp_signed("<", index, count), step, done)
        b.position_at_end(step)
        following = b.add(index, ir.Constant(I64, 1))
        index.add_incoming(following, step)
        b.cbranch(b.icmp_unsigned("==", at(b, entry_at(b, keys, index), 0, PTR), name), hit, scan)
        b.position_at_end(hit)
        b.store(keys, keys_out)
        b.store(index, index_out)
        b.branch(done)
        b.position_at_end(done)
        b.ret_void()

    entry_is = runtime.helper("mj_binding_entry_is", ir.FunctionType(I1, (PTR, PTR, I64, PTR, PTR)), build_entry_is)
    still_absent = runtime.helper("mj_binding_still_absent", ir.FunctionType(I1, (PTR, PTR, I64)), build_still_absent)
    locate = runtime.helper("mj_binding_locate", ir.FunctionType(ir.VoidType(), (PTR, PTR, PTR, PTR)), build_locate)
    return entry_is, still_absent, locate, combined_table, at


def emit_check(b, runtime, self_, kinds, bindings_at: int, rebound) -> None:
    """Branch to ``rebound`` unless every binding still holds; ``kinds`` (``kind_of`` each) says per binding which
    field of its namespace object holds the value, if any, and whether a miss in its dict goes on to the builtins.
    Each dict binding remembers (module globals of its own) where it was last found — the keys object and entry
    index, as ``LOAD_GLOBAL``'s caches do; for a builtin also that the globals had no such key (keys object, entry
    count) — and is looked up again only when that moved; writes to other names (a module-level loop variable)
    move nothing."""
    import llvmlite.ir as ir

    from moshjit.backends.llvm import layout
    from moshjit.backends.llvm.reprs import I64, PTR

    entry_is, still_absent, locate, combined_table, at = _helpers(runtime)
    # Per binding, six module globals: the keys object and index where it was found; for a builtin, the globals'
    # keys object and entry count then, and the builtins' keys object and index.
    bindings = runtime.call(b, "mj_tuple_item", self_, ir.Constant(I64, bindings_at))

    def state_of(position):
        fields = []
        for i, kind in enumerate((PTR, I64, PTR, I64, PTR, I64)):
            slot = ir.GlobalVariable(b.module, kind, f"{b.function.name}_binding{position}_{i}")
            slot.initializer = ir.Constant(kind, None)         # keys NULL: the first call looks up
            slot.linkage = "internal"
            fields.append(slot)
        return fields

    none = runtime.data("_Py_NoneStruct")
    for position, (field, then) in enumerate(kinds):
        binding = runtime.call(b, "mj_tuple_item", bindings, ir.Constant(I64, position))
        namespace = runtime.call(b, "mj_tuple_item", binding, ir.Constant(I64, 0))
        expected = runtime.call(b, "mj_tuple_item", binding, ir.Constant(I64, 2))
        holds = b.function.append_basic_block("binding.holds")
        if field is not None:             # a cell's content, a function's code or defaults (NULL reads as None)
            value = at(b, namespace, field, PTR)
            value = b.select(b.icmp_unsigned("==", value, ir.Constant(PTR, None)), none, value)
            b.cbranch(b.icmp_unsigned("==", value, expected), holds, rebound)
            b.position_at_end(holds)
            continue
        name = runtime.call(b, "mj_tuple_item", binding, ir.Constant(I64, 1))
        builtins_ = runtime.call(b, "mj_tuple_item", binding, ir.Constant(I64, 3)) if then else None
        state = state_of(position)
        look_up = b.function.append_basic_block("binding.look_up")
        in_globals = b.call(entry_is, [namespace, b.load(state[0], typ=PTR), b.load(state[1], typ=I64),
                                       name, expected])
        if then:
            absent = b.function.append_basic_block("binding.absent")
            b.cbranch(in_globals, holds, absent)
            b.position_at_end(absent)
            still = b.call(still_absent, [namespace, b.load(state[2], typ=PTR),
                                          b.load(state[3], typ=I64)])
            in_builtins = b.call(entry_is, [builtins_, b.load(state[4], typ=PTR),
                                            b.load(state[5], typ=I64), name, expected])
            b.cbranch(b.and_(still, in_builtins), holds, look_up)
        else:
            b.cbranch(in_globals, holds, look_up)
        b.position_at_end(look_up)
        found = runtime.call(b, "PyDict_GetItemWithError", namespace, name)
        found_here = b.icmp_unsigned("!=", found, ir.Constant(PTR, None))
        record = b.function.append_basic_block("binding.record")
        if then:
            further = b.function.append_basic_block("binding.builtins")
            b.cbranch(b.and_(found_here, b.icmp_unsigned("==", found, expected)), record, further)
            b.position_at_end(further)
            in_builtins = runtime.call(b, "PyDict_GetItemWithError", builtins_, name)
            record_absent = b.function.append_basic_block("binding.record_absent")
            b.cbranch(b.and_(b.icmp_unsigned("==", found, ir.Constant(PTR, None)),
                             b.icmp_unsigned("==", in_builtins, expected)), record_absent, rebound)
            b.position_at_end(record_absent)
            keys, plain = combined_table(b, namespace)
            b.store(ir.Constant(PTR, None), state[0])
            b.store(b.select(plain, keys, ir.Constant(PTR, None)), state[2])
            b.store(at(b, keys, layout.KEYS_NENTRIES, I64), state[3])
            b.call(locate, [builtins_, name, state[4], state[5]])
            b.branch(holds)
        else:
            b.cbranch(b.icmp_unsigned("==", found, expected), record, rebound)
        b.position_at_end(record)
        b.call(locate, [namespace, name, state[0], state[1]])
        b.branch(holds)
        b.position_at_end(holds)


def emit_rebound(b, runtime, self_, bindings_at: int, handler_at: int, args, nargs: int) -> None:
    """At the ``rebound`` block: return handler(bindings, *args) (an exception raised there: NULL)."""
    import llvmlite.ir as ir

    from moshjit.backends.llvm.reprs import I64, PTR
    forwarded = b.alloca(PTR, size=nargs + 1)
    b.store(runtime.call(b, "mj_tuple_item", self_, ir.Constant(I64, bindings_at)), forwarded)
    for i in range(nargs):
        item = b.load(b.gep(args, [ir.Constant(I64, i)], source_etype=PTR), typ=PTR)
        b.store(item, b.gep(forwarded, [ir.Constant(I64, i + 1)], source_etype=PTR))
    handler = runtime.call(b, "mj_tuple_item", self_, ir.Constant(I64, handler_at))
    b.ret(runtime.call(b, "PyObject_Vectorcall", handler, forwarded, ir.Constant(I64, nargs + 1),
                       ir.Constant(PTR, None)))

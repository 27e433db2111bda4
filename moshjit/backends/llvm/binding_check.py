"""The LLVM entry's check that the names bound when compiling still hold, and how the index records them.

The entry's ``self`` tuple carries the bindings (``moshjit.bindings.Binding`` tuples) and the dispatcher's
``rebound`` handler. On every call each name is looked up where it was found (a dict: ``PyDict_GetItemWithError``,
then the builtins for a builtin; a closure cell: its content) and compared with the object bound; a difference hands
the call, bindings first, to the handler; while a dict's ``ma_version_tag`` has not moved since the last lookup,
nothing in it was rebound and its names are not looked up again. Another process loads the code without IR, so the index records where
each binding lives (``describe``) and the loader finds it again (``rebuild``): the function's globals, builtins or
closure cell, or a module's ``__dict__``; code whose bindings cannot be described that way is not recorded.
Loading needs no llvmlite: only the emitting functions import it.
"""
from __future__ import annotations

import sys
import types

from moshjit.bindings import MISSING, Binding

# Where the items of a tuple ``self`` are (``engine.make_builtin`` builds it): the fallback, the globals dict, the
# bindings, the rebound handler, then the names of the globals read.
BINDINGS_AT, NAMES_AT = 2, 4


def describe(bindings, py_function, builtins_: dict) -> list | None:
    """JSON-able descriptions of ``bindings`` relative to ``py_function``, or None if one has no description."""
    closure = py_function.__closure__ or ()
    out = []
    for binding in bindings:
        then = binding.then is not None
        if then and binding.then is not builtins_:
            return None
        if isinstance(binding.namespace, types.CellType):
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
        if where[0] == "cell":
            namespace = (py_function.__closure__ or ())[where[1]]
        elif where[0] == "globals":
            namespace = py_function.__globals__
        else:
            module = sys.modules.get(where[1])
            if module is None:
                return None
            namespace = module.__dict__
        binding = Binding(namespace, item["name"], None, builtins_ if item["then"] else None, item["label"])
        value = binding.current()
        if value is MISSING:
            return None
        out.append(binding._replace(value=value))
    return out


def emit_check(b, runtime, self_, kinds, bindings_at: int, rebound) -> None:
    """Branch to ``rebound`` unless every binding still holds; ``kinds`` says per binding whether it is a closure
    cell and whether a miss in its dict goes on to the builtins. A dict binding is looked up only when the dict's
    ``ma_version_tag`` (and the builtins') moved since the last lookup that found it holding: each binding keeps
    the tags read before that lookup in module globals of its own."""
    import llvmlite.ir as ir

    from moshjit.backends.llvm.layout import CELL_CONTENTS, DICT_VERSION_TAG
    from moshjit.backends.llvm.reprs import I64, PTR

    def word(pointer, offset, kind):
        return b.load(b.gep(pointer, [ir.Constant(I64, offset)], source_etype=ir.IntType(8)), typ=kind)

    def tag_slot(name):
        slot = ir.GlobalVariable(b.module, I64, f"{b.function.name}_{name}")
        slot.initializer = ir.Constant(I64, 0)          # no dict has version 0: the first call looks up
        slot.linkage = "internal"
        return slot

    bindings = runtime.call(b, "mj_tuple_item", self_, ir.Constant(I64, bindings_at))
    for position, (is_cell, then) in enumerate(kinds):
        binding = runtime.call(b, "mj_tuple_item", bindings, ir.Constant(I64, position))
        namespace = runtime.call(b, "mj_tuple_item", binding, ir.Constant(I64, 0))
        expected = runtime.call(b, "mj_tuple_item", binding, ir.Constant(I64, 2))
        holds = b.function.append_basic_block("binding.holds")
        if is_cell:
            b.cbranch(b.icmp_unsigned("==", word(namespace, CELL_CONTENTS, PTR), expected), holds, rebound)
            b.position_at_end(holds)
            continue
        builtins_ = runtime.call(b, "mj_tuple_item", binding, ir.Constant(I64, 3)) if then else None
        slots = [tag_slot(f"binding{position}_tag")] + ([tag_slot(f"binding{position}_builtins_tag")] if then else [])
        tags = [word(namespace, DICT_VERSION_TAG, I64)] + ([word(builtins_, DICT_VERSION_TAG, I64)] if then else [])
        unchanged = None
        for tag, slot in zip(tags, slots):
            same = b.icmp_unsigned("==", tag, b.load(slot, typ=I64))
            unchanged = same if unchanged is None else b.and_(unchanged, same)
        look_up = b.function.append_basic_block("binding.look_up")
        b.cbranch(unchanged, holds, look_up)
        b.position_at_end(look_up)
        name = runtime.call(b, "mj_tuple_item", binding, ir.Constant(I64, 1))
        found = runtime.call(b, "PyDict_GetItemWithError", namespace, name)
        if then:
            in_dict = b.block
            look_further = b.function.append_basic_block("binding.builtins")
            joined = b.function.append_basic_block("binding.found")
            b.cbranch(b.icmp_unsigned("==", found, ir.Constant(PTR, None)), look_further, joined)
            b.position_at_end(look_further)
            further = runtime.call(b, "PyDict_GetItemWithError", builtins_, name)
            b.branch(joined)
            b.position_at_end(joined)
            merged = b.phi(PTR)
            merged.add_incoming(found, in_dict)
            merged.add_incoming(further, look_further)
            found = merged
        record = b.function.append_basic_block("binding.record")
        b.cbranch(b.icmp_unsigned("==", found, expected), record, rebound)
        b.position_at_end(record)
        for tag, slot in zip(tags, slots):
            b.store(tag, slot)
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

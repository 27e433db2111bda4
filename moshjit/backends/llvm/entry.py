"""The Python-facing entry of a specialisation: a ``METH_FASTCALL | METH_KEYWORDS`` C function emitted in LLVM.

It checks every argument against the specialisation's types (exact int fitting int64, float, bool, None,
lists and tuples item by item, C-contiguous NumPy buffers of the right item format), unboxes them, calls the
native body and boxes the result. When a check fails (or keywords are passed) it calls the fallback the builtin
was created with, with the original arguments, so a type miss is never an error. The builtin's ``self`` is that
fallback — or, when the function reads module globals or bound names when compiling, ``(fallback, module globals
dict, bindings, rebound handler, name, ...)``: the bindings are checked first (``binding_check``: a name rebound
since hands the call to the handler), then each global is looked up, checked against the type assumed when
compiling (a miss again means the fallback) and passed to the native body.
A native body that deoptimised returns "failed" with its result in ``@mj_deopt_value``: the entry returns that.
When the module can deoptimise, the entry also reads its state flag first: a demoted specialisation (see
``resume``) sends every call to the fallback.
A ``PyMethodDef`` global describes the function; the loader turns it into a builtin with ``PyCMethod_New``.
"""
from __future__ import annotations

import llvmlite.ir as ir

from moshjit.backends.llvm import binding_check
from moshjit.backends.llvm.containers import box
from moshjit.backends.llvm.lower import NotNative, return_repr
from moshjit.backends.llvm.native_types import Signature
from moshjit.backends.llvm.reprs import (I1, I8, I32, I64, PTR, ArrayR, BoolR, BoxedTupleR, FloatR, IntR, ListR,
                                         Repr, TupleR, UnitR, number_positions, repr_of)
from moshjit.backends.llvm.layout import (METH_FASTCALL, METH_KEYWORDS, OB_SIZE, OB_TYPE, PY_BUFFER_BUF,
                                          PY_BUFFER_FORMAT, PY_BUFFER_ITEMSIZE, PY_BUFFER_NDIM, PY_BUFFER_SHAPE,
                                          PY_BUFFER_SIZE)
from moshjit.backends.llvm.runtime import Runtime
from moshjit.ir.types import ArrayType

PYBUF_WRITABLE, PYBUF_FORMAT, PYBUF_C_CONTIGUOUS = 0x0001, 0x0004, 0x0038
# NumPy's buffer format characters per dtype (native byte order; 'l' and 'q' are both 64-bit here)
ARRAY_FORMATS = {"int32": b"i", "int64": b"lq", "float32": b"f", "float64": b"d"}
ITEM_SIZES = {"int32": 4, "int64": 8, "float32": 4, "float64": 8}
BINDINGS_AT, NAMES_AT = binding_check.BINDINGS_AT, binding_check.NAMES_AT


class EntryContext:
    """What ``containers.box`` needs from a lowering, for code outside any native body: failing returns NULL."""

    def __init__(self, builder: ir.IRBuilder, runtime: Runtime, on_failure):
        self.b, self.rt = builder, runtime
        self.on_failure = on_failure            # () -> block that returns NULL after releasing buffers

    def guard_null(self, pointer, temporaries=()):
        fail = self.b.function.append_basic_block("box.failed")
        go_on = self.b.function.append_basic_block("box.ok")
        self.b.cbranch(self.b.icmp_unsigned("==", pointer, ir.Constant(PTR, None)), fail, go_on)
        self.b.position_at_end(fail)
        for value, _ in temporaries:
            self.rt.call(self.b, "mj_decref", value)
        self.b.branch(self.on_failure())
        self.b.position_at_end(go_on)
        return pointer

    def decref(self, value, representation) -> None:
        if representation is None or isinstance(representation, (ListR, BoxedTupleR)):
            self.rt.call(self.b, "mj_decref", value)
        elif isinstance(representation, TupleR):
            for i, item in enumerate(representation.items):
                if item.refcounted:
                    self.decref(self.b.extract_value(value, i), item)

    def not_native(self, what: str):
        raise NotNative(what, None)


def emit_entry(module: ir.Module, runtime: Runtime, sig: Signature, body: ir.Function, name: str,
               global_reads=(), can_deoptimize: bool = False, binding_kinds=()) -> str:
    """Emit the entry for ``sig`` and its PyMethodDef; returns the PyMethodDef's symbol. ``binding_kinds``: per
    name bound when compiling, (closure cell?, builtins behind its dict?)."""
    kind = ir.FunctionType(PTR, [PTR, PTR, I64, PTR])
    entry = ir.Function(module, kind, f"{sig.symbol}_entry")
    self_, args, nargs, kwnames = entry.args
    for arg, arg_name in zip(entry.args, ("self", "args", "nargs", "kwnames")):
        arg.name = arg_name
    b = ir.IRBuilder(entry.append_basic_block("entry"))
    fallback = entry.append_basic_block("fallback")
    buffers: list = []

    def release_buffers():
        for view in buffers:
            runtime.call(b, "PyBuffer_Release", view)

    def failed_block():
        block = entry.append_basic_block("failed")
        saved = b.block
        b.position_at_end(block)
        release_buffers()
        b.ret(ir.Constant(PTR, None))
        b.position_at_end(saved)
        return block

    def miss_block():
        """Release what was acquired so far, then take the fallback."""
        if not buffers:
            return fallback
        block = entry.append_basic_block("miss")
        saved = b.block
        b.position_at_end(block)
        release_buffers()
        b.branch(fallback)
        b.position_at_end(saved)
        return block

    def require(ok: ir.Value):
        go_on = entry.append_basic_block("checked")
        b.cbranch(ok, go_on, miss_block())
        b.position_at_end(go_on)

    call_shape = b.and_(b.icmp_unsigned("==", kwnames, ir.Constant(PTR, None)),
                        b.icmp_signed("==", nargs, ir.Constant(I64, len(sig.arg_types))))
    if can_deoptimize:
        native = b.icmp_unsigned("==", b.load(runtime.module_state(), typ=I8), ir.Constant(I8, 0))
        call_shape = b.and_(call_shape, native)
    require(call_shape)
    if binding_kinds:
        rebound = entry.append_basic_block("rebound")
        binding_check.emit_check(b, runtime, self_, binding_kinds, BINDINGS_AT, rebound)
        go_on = b.block
        b.position_at_end(rebound)
        binding_check.emit_rebound(b, runtime, self_, BINDINGS_AT, BINDINGS_AT + 1, args, len(sig.arg_types))
        b.position_at_end(go_on)
    unboxed, objects, numbers = [], [], number_positions(sig.arg_types)
    for position, arg_type in enumerate(sig.arg_types):
        obj = b.load(b.gep(args, [ir.Constant(I64, position)], source_etype=PTR), typ=PTR)
        if position in numbers:
            objects.append(obj)             # the body stores the caller's object, not a new one
        if isinstance(arg_type, ArrayType):
            view = _alloca_buffer(b)
            unboxed.append(_array_argument(b, runtime, obj, arg_type, view, require, miss_block,
                                           writes=_writes_array(sig, position)))
            buffers.append(view)
            continue
        representation = repr_of(arg_type)
        require(check_object(b, runtime, obj, representation))
        unboxed.append(unbox_checked(b, runtime, obj, representation))
    unboxed.extend(objects)
    if global_reads:
        namespace = runtime.call(b, "mj_tuple_item", self_, ir.Constant(I64, 1))
        for position, (_, kind) in enumerate(global_reads):
            key = runtime.call(b, "mj_tuple_item", self_, ir.Constant(I64, NAMES_AT + position))
            obj = runtime.call(b, "PyDict_GetItemWithError", namespace, key)
            require(b.icmp_unsigned("!=", obj, ir.Constant(PTR, None)))
            representation = repr_of(kind)
            require(check_object(b, runtime, obj, representation))
            unboxed.append(unbox_checked(b, runtime, obj, representation))
    if sig.recursive:           # the body counts its own level, which the caller of this entry counted already
        count = runtime.call(b, "mj_recursion_count")
        runtime.call(b, "mj_leave_recursion", count)
    pair = b.call(body, unboxed + ([count] if sig.recursive else []))
    if sig.recursive:
        runtime.call(b, "mj_retake_recursion", count)
    release_buffers_after = list(buffers)
    buffers.clear()
    for view in release_buffers_after:
        runtime.call(b, "PyBuffer_Release", view)
    failed = entry.append_basic_block("failed")
    succeeded = entry.append_basic_block("returned")
    b.cbranch(b.extract_value(pair, 1), failed, succeeded)
    b.position_at_end(failed)
    if can_deoptimize:                      # the continuation's result (a new reference), or NULL: raised
        slot = runtime.deopt_value()
        outcome = b.load(slot, typ=PTR)
        b.store(ir.Constant(PTR, None), slot)
        b.ret(outcome)
    else:
        b.ret(ir.Constant(PTR, None))
    b.position_at_end(succeeded)
    result_repr = return_repr(sig)
    result = b.extract_value(pair, 0)
    context = EntryContext(b, runtime, failed_block)
    if isinstance(result_repr, (ListR, BoxedTupleR)):
        b.ret(result)
    else:
        if isinstance(result_repr, (IntR, FloatR)):      # an argument returned: the object the caller passed
            origin = b.extract_value(pair, 2)
            handed_back, computed = entry.append_basic_block("argument"), entry.append_basic_block("computed")
            b.cbranch(b.icmp_signed(">=", origin, ir.Constant(I32, 0)), handed_back, computed)
            b.position_at_end(handed_back)
            passed = b.load(b.gep(args, [b.sext(origin, I64)], source_etype=PTR), typ=PTR)
            runtime.call(b, "mj_incref", passed)
            b.ret(passed)
            b.position_at_end(computed)
        boxed = box(context, result, result_repr)
        context.decref(result, result_repr)
        b.ret(boxed)
    b.position_at_end(fallback)
    if global_reads or binding_kinds:
        self_ = runtime.call(b, "mj_tuple_item", self_, ir.Constant(I64, 0))
    b.ret(runtime.call(b, "PyObject_Vectorcall", self_, args, nargs, kwnames))

    name_bytes = bytearray(name.encode("utf-8") + b"\0")
    name_constant = ir.GlobalVariable(module, ir.ArrayType(I8, len(name_bytes)), f"{sig.symbol}_name")
    name_constant.initializer = ir.Constant(ir.ArrayType(I8, len(name_bytes)), name_bytes)
    name_constant.global_constant = True
    name_constant.linkage = "private"
    def_type = ir.LiteralStructType([PTR, PTR, I32, PTR])
    method_def = ir.GlobalVariable(module, def_type, f"{sig.symbol}_def")
    method_def.initializer = ir.Constant(def_type, [name_constant, entry, ir.Constant(I32, METH_FASTCALL | METH_KEYWORDS),
                                                    ir.Constant(PTR, None)])
    return method_def.name


def _alloca_buffer(b: ir.IRBuilder) -> ir.Value:
    entry_block = b.function.entry_basic_block
    builder = ir.IRBuilder(entry_block)
    builder.position_at_start(entry_block)
    return builder.alloca(ir.ArrayType(I8, PY_BUFFER_SIZE), name="view")


def _writes_array(sig: Signature, position: int) -> bool:
    from moshjit.ir import ops
    argument = sig.ir.args[position]
    for block in sig.ir.blocks:
        for op in block.ops:
            if isinstance(op, ops.SetItem) and op.obj is argument:
                return True
            if isinstance(op, ops.GetItem) and op.obj is argument and isinstance(op.type, ArrayType):
                return True                         # a row view may be written through
            if isinstance(op, ops.Call) and argument in op.args:
                return True                         # a native callee may write it
    return False


def _array_argument(b, runtime, obj, arg_type: ArrayType, view, require, miss_block, writes: bool):
    """Acquire a C-contiguous buffer of the right format; a refusal (BufferError) is a type miss."""
    flags = PYBUF_C_CONTIGUOUS | PYBUF_FORMAT | (PYBUF_WRITABLE if writes else 0)
    status = runtime.call(b, "PyObject_GetBuffer", obj, view, ir.Constant(I32, flags))
    refused = b.icmp_signed("<", status, ir.Constant(I32, 0))
    cleared = b.function.append_basic_block("buffer.refused")
    acquired = b.function.append_basic_block("buffer.acquired")
    b.cbranch(refused, cleared, acquired)
    b.position_at_end(cleared)
    runtime.call(b, "PyErr_Clear")
    b.branch(miss_block())
    b.position_at_end(acquired)

    def field(offset, kind):
        return b.load(b.gep(view, [ir.Constant(I64, offset)], source_etype=I8), typ=kind)
    ok = b.and_(b.icmp_signed("==", field(PY_BUFFER_NDIM, I32), ir.Constant(I32, arg_type.ndim)),
                b.icmp_signed("==", field(PY_BUFFER_ITEMSIZE, I64), ir.Constant(I64, ITEM_SIZES[arg_type.dtype])))
    fmt = field(PY_BUFFER_FORMAT, PTR)
    first = b.load(fmt, typ=I8)
    prefixed = b.or_(b.icmp_unsigned("==", first, ir.Constant(I8, ord("<"))),
                     b.or_(b.icmp_unsigned("==", first, ir.Constant(I8, ord("="))),
                           b.icmp_unsigned("==", first, ir.Constant(I8, ord("@")))))
    code_at = b.select(prefixed, b.gep(fmt, [ir.Constant(I64, 1)], source_etype=I8), fmt)
    code = b.load(code_at, typ=I8)
    after = b.load(b.gep(code_at, [ir.Constant(I64, 1)], source_etype=I8), typ=I8)
    known = ir.Constant(I1, 0)
    for char in ARRAY_FORMATS[arg_type.dtype]:
        known = b.or_(known, b.icmp_unsigned("==", code, ir.Constant(I8, char)))
    ok = b.and_(ok, b.and_(known, b.icmp_unsigned("==", after, ir.Constant(I8, 0))))
    mismatch = b.function.append_basic_block("buffer.mismatch")
    good = b.function.append_basic_block("buffer.ok")
    b.cbranch(ok, good, mismatch)
    b.position_at_end(mismatch)
    runtime.call(b, "PyBuffer_Release", view)
    b.branch(miss_block())
    b.position_at_end(good)
    shape = field(PY_BUFFER_SHAPE, PTR)
    value = ir.Constant(ArrayR(arg_type.dtype, arg_type.ndim, arg_type.container).llvm, ir.Undefined)
    value = b.insert_value(value, field(PY_BUFFER_BUF, PTR), 0)
    value = b.insert_value(value, b.load(shape, typ=I64), 1)
    second = b.load(b.gep(shape, [ir.Constant(I64, 1)], source_etype=I64), typ=I64) if arg_type.ndim == 2 \
        else ir.Constant(I64, 0)
    return b.insert_value(b.insert_value(value, second, 2), obj, 3)


def _type_is(b, runtime, obj, type_name) -> ir.Value:
    kind = b.load(b.gep(obj, [ir.Constant(I64, OB_TYPE)], source_etype=I8), typ=PTR)
    return b.icmp_unsigned("==", kind, runtime.data(type_name))


def check_object(b, runtime, obj, representation: Repr) -> ir.Value:
    """Whether ``obj`` is exactly of ``representation``'s Python type (items checked for containers)."""
    if isinstance(representation, IntR):
        return runtime.call(b, "mj_is_int64", obj)
    if isinstance(representation, FloatR):
        return runtime.call(b, "mj_is_float", obj)
    if isinstance(representation, BoolR):
        return runtime.call(b, "mj_is_bool", obj)
    if isinstance(representation, UnitR):
        return b.icmp_unsigned("==", obj, runtime.data("_Py_NoneStruct"))
    if isinstance(representation, (ListR, BoxedTupleR, TupleR)):
        return b.call(_container_check(runtime, representation), [obj])
    raise NotNative(f"an argument of kind {representation.describe()}", None)


def _container_check(runtime: Runtime, representation: Repr) -> ir.Function:
    """An internal function checking a list/tuple and all its items (recursively), one per kind."""
    name = "mj_check_" + "".join(c if c.isalnum() else "_" for c in repr(representation))[:120]

    def build(b, obj):
        f = b.function
        type_name = "PyList_Type" if isinstance(representation, ListR) else "PyTuple_Type"
        right_type, yes, no = (f.append_basic_block(n) for n in ("type", "yes", "no"))
        b.cbranch(_type_is(b, runtime, obj, type_name), right_type, no)
        b.position_at_end(right_type)
        size = b.load(b.gep(obj, [ir.Constant(I64, OB_SIZE)], source_etype=I8), typ=I64)
        if isinstance(representation, TupleR):
            count = len(representation.items)
            checks = [b.icmp_signed("==", size, ir.Constant(I64, count))]
            sized = f.append_basic_block("sized")
            b.cbranch(checks[0], sized, no)
            b.position_at_end(sized)
            ok = ir.Constant(I1, 1)
            for i, item in enumerate(representation.items):
                element = runtime.call(b, "mj_tuple_item", obj, ir.Constant(I64, i))
                ok = b.and_(ok, check_object(b, runtime, element, item))
            b.cbranch(ok, yes, no)
        else:
            item_repr = representation.item
            loop, body = f.append_basic_block("loop"), f.append_basic_block("body")
            before = b.block
            b.branch(loop)
            b.position_at_end(loop)
            index = b.phi(I64)
            index.add_incoming(ir.Constant(I64, 0), before)
            b.cbranch(b.icmp_signed("<", index, size), body, yes)
            b.position_at_end(body)
            if item_repr is None:
                b.branch(no)
            else:
                getter = "mj_list_item" if isinstance(representation, ListR) else "mj_tuple_item"
                element = runtime.call(b, getter, obj, index)
                ok = check_object(b, runtime, element, item_repr)
                index.add_incoming(b.add(index, ir.Constant(I64, 1)), b.block)
                b.cbranch(ok, loop, no)
        b.position_at_end(yes)
        b.ret(ir.Constant(I1, 1))
        b.position_at_end(no)
        b.ret(ir.Constant(I1, 0))
    return runtime.helper(name, ir.FunctionType(I1, [PTR]), build)


def unbox_checked(b, runtime, obj, representation: Repr) -> ir.Value:
    """The native form of an argument that passed ``check_object`` (containers are passed borrowed)."""
    if isinstance(representation, IntR):
        return runtime.call(b, "mj_unbox_int", obj)
    if isinstance(representation, FloatR):
        return runtime.call(b, "mj_unbox_float", obj)
    if isinstance(representation, BoolR):
        return b.icmp_unsigned("==", obj, runtime.data("_Py_TrueStruct"))
    if isinstance(representation, UnitR):
        return ir.Constant(I8, 0)
    if isinstance(representation, (ListR, BoxedTupleR)):
        return obj
    if isinstance(representation, TupleR):
        value = ir.Constant(representation.llvm, ir.Undefined)
        for i, item in enumerate(representation.items):
            element = runtime.call(b, "mj_tuple_item", obj, ir.Constant(I64, i))
            value = b.insert_value(value, unbox_checked(b, runtime, element, item), i)
        return value
    raise NotNative(f"an argument of kind {representation.describe()}", None)

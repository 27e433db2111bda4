"""The few CPython C-API functions native code calls, and small helpers written in LLVM IR.

The helpers (reference counting, int/float unboxing, list item access, raising) are LLVM IR text parsed once
per process and linked into every module, where the optimiser inlines them. They rely on the object layout of
64-bit CPython release builds, which ``check_layout`` verifies before anything is compiled; the two things that
changed in 3.12 — reference counting (immortal objects) and the int header — come in two versions, picked by the
facts in ``moshjit.cpython``.
"""
from __future__ import annotations

import hashlib
import string

import llvmlite.ir as ir

from moshjit.backends.llvm.layout import (FLOAT_VALUE, LIST_ALLOCATED, LIST_ITEMS, LONG_DIGIT_COUNT_SHIFT, LONG_DIGITS,
                                          LONG_SIGN_MASK, OB_SIZE, OB_TYPE, TUPLE_ITEMS)
from moshjit.cpython import IMMORTAL_OBJECTS, TAGGED_INT_SIZE

from moshjit.backends.llvm.reprs import F64, I1, I32, I64, I8, PTR

# Reference counts until 3.11: a plain 64-bit count.
MORTAL_REFERENCE_COUNTS = r"""
define linkonce_odr void @mj_incref(ptr %o) alwaysinline {
  %rc = load i64, ptr %o
  %n = add i64 %rc, 1
  store i64 %n, ptr %o
  ret void
}

define linkonce_odr void @mj_decref(ptr %o) alwaysinline {
  %rc = load i64, ptr %o
  %n = sub i64 %rc, 1
  store i64 %n, ptr %o
  %dead = icmp eq i64 %n, 0
  br i1 %dead, label %free, label %done, !prof !0
free:
  call void @_Py_Dealloc(ptr %o)
  br label %done
done:
  ret void
}

; Add delta (possibly -1) references at once, freeing the object when none are left.
define linkonce_odr void @mj_add_references(ptr %o, i64 %delta) alwaysinline {
  %rc = load i64, ptr %o
  %n = add i64 %rc, %delta
  store i64 %n, ptr %o
  %dead = icmp eq i64 %n, 0
  br i1 %dead, label %free, label %done, !prof !0
free:
  call void @_Py_Dealloc(ptr %o)
  br label %done
done:
  ret void
}
"""

# Reference counts from 3.12 (PEP 683), as Py_INCREF/Py_DECREF do on 64-bit builds: an increment saturates in the
# low 32 bits (ob_refcnt_split[0] on these little-endian hosts), and an object whose low 32 bits read as a negative
# int32 is immortal, never decremented nor freed.
IMMORTAL_AWARE_REFERENCE_COUNTS = r"""
define linkonce_odr void @mj_incref(ptr %o) alwaysinline {
  %rc = load i32, ptr %o
  %n = add i32 %rc, 1
  %saturated = icmp eq i32 %n, 0
  br i1 %saturated, label %done, label %count
count:
  store i32 %n, ptr %o
  br label %done
done:
  ret void
}

define linkonce_odr void @mj_decref(ptr %o) alwaysinline {
  %rc = load i64, ptr %o
  %low = trunc i64 %rc to i32
  %immortal = icmp slt i32 %low, 0
  br i1 %immortal, label %done, label %count
count:
  %n = sub i64 %rc, 1
  store i64 %n, ptr %o
  %dead = icmp eq i64 %n, 0
  br i1 %dead, label %free, label %done, !prof !0
free:
  call void @_Py_Dealloc(ptr %o)
  br label %done
done:
  ret void
}

; Add delta (possibly -1) references at once to a mortal object, freeing it when none are left.
define linkonce_odr void @mj_add_references(ptr %o, i64 %delta) alwaysinline {
  %rc = load i64, ptr %o
  %low = trunc i64 %rc to i32
  %immortal = icmp slt i32 %low, 0
  br i1 %immortal, label %done, label %count
count:
  %n = add i64 %rc, %delta
  store i64 %n, ptr %o
  %dead = icmp eq i64 %n, 0
  br i1 %dead, label %free, label %done, !prof !0
free:
  call void @_Py_Dealloc(ptr %o)
  br label %done
done:
  ret void
}
"""

# An exact int known to fit in int64: one- and zero-digit ints inline, the rest through the C API. Until 3.11 the
# header is the signed digit count; from 3.12 it is lv_tag (digit count << 3 | sign: 0 positive, 1 zero, 2 negative).
UNBOX_INT_FROM_SIGNED_SIZE = r"""
define linkonce_odr i64 @mj_unbox_int(ptr %o) alwaysinline {
  %sp = getelementptr i8, ptr %o, i64 $OB_SIZE
  %size = load i64, ptr %sp
  %biased = add i64 %size, 1
  %small = icmp ule i64 %biased, 2
  br i1 %small, label %fast, label %slow, !prof !1
fast:
  %dp = getelementptr i8, ptr %o, i64 $LONG_DIGITS
  %digit = load i32, ptr %dp
  %wide = zext i32 %digit to i64
  %value = mul i64 %wide, %size
  ret i64 %value
slow:
  %big = call i64 @PyLong_AsLongLong(ptr %o)
  ret i64 %big
}
"""

UNBOX_INT_FROM_TAG = r"""
define linkonce_odr i64 @mj_unbox_int(ptr %o) alwaysinline {
  %tp = getelementptr i8, ptr %o, i64 $OB_SIZE
  %tag = load i64, ptr %tp
  %small = icmp ult i64 %tag, $TWO_DIGITS_TAG
  br i1 %small, label %fast, label %slow, !prof !1
fast:
  %dp = getelementptr i8, ptr %o, i64 $LONG_DIGITS
  %digit = load i32, ptr %dp
  %wide = zext i32 %digit to i64
  %signbits = and i64 %tag, $LONG_SIGN_MASK
  %sign = sub i64 1, %signbits
  %value = mul i64 %wide, %sign
  ret i64 %value
slow:
  %big = call i64 @PyLong_AsLongLong(ptr %o)
  ret i64 %big
}
"""

# Whether an int's header says it has at most two 30-bit digits (so it fits in int64): sets %short from %header.
AT_MOST_TWO_DIGITS_FROM_SIGNED_SIZE = r"""  %biased = add i64 %header, 2
  %short = icmp ule i64 %biased, 4"""
AT_MOST_TWO_DIGITS_FROM_TAG = r"""  %digits = lshr i64 %header, $LONG_DIGIT_COUNT_SHIFT
  %short = icmp ule i64 %digits, 2"""

RUNTIME_IR = string.Template(r"""
declare void @_Py_Dealloc(ptr)
declare i64 @PyLong_AsLongLong(ptr)
declare i64 @PyLong_AsLongLongAndOverflow(ptr, ptr)
declare ptr @PyLong_FromLongLong(i64)
declare i32 @PyList_Append(ptr, ptr)
declare void @PyErr_SetString(ptr, ptr)
@PyLong_Type = external global i8
@PyFloat_Type = external global i8
@_Py_TrueStruct = external global i8
@_Py_FalseStruct = external global i8

$REFERENCE_COUNTS
; Out-of-line releases, for failure paths (they need not be fast, only small).
define linkonce_odr void @mj_decref_cold(ptr %o) cold noinline {
  call void @mj_decref(ptr %o)
  ret void
}

$UNBOX_INT
define linkonce_odr ptr @mj_box_int(i64 %v) alwaysinline {
  %o = call ptr @PyLong_FromLongLong(i64 %v)
  ret ptr %o
}

define linkonce_odr double @mj_unbox_float(ptr %o) alwaysinline {
  %p = getelementptr i8, ptr %o, i64 $FLOAT_VALUE
  %v = load double, ptr %p
  ret double %v
}

define linkonce_odr ptr @mj_box_bool(i1 %b) alwaysinline {
  %o = select i1 %b, ptr @_Py_TrueStruct, ptr @_Py_FalseStruct
  call void @mj_incref(ptr %o)
  ret ptr %o
}

define linkonce_odr ptr @mj_list_item(ptr %list, i64 %i) alwaysinline {
  %ip = getelementptr i8, ptr %list, i64 $LIST_ITEMS
  %items = load ptr, ptr %ip
  %slot = getelementptr ptr, ptr %items, i64 %i
  %item = load ptr, ptr %slot
  ret ptr %item
}

; Store a new reference at a valid index, releasing the item it replaces.
define linkonce_odr void @mj_list_set_item(ptr %list, i64 %i, ptr %item) alwaysinline {
  %ip = getelementptr i8, ptr %list, i64 $LIST_ITEMS
  %items = load ptr, ptr %ip
  %slot = getelementptr ptr, ptr %items, i64 %i
  %old = load ptr, ptr %slot
  store ptr %item, ptr %slot
  call void @mj_decref(ptr %old)
  ret void
}

; Append a new reference (stolen); -1 with MemoryError set on failure.
define linkonce_odr i32 @mj_list_append(ptr %list, ptr %item) alwaysinline {
  %sp = getelementptr i8, ptr %list, i64 $OB_SIZE
  %size = load i64, ptr %sp
  %ap = getelementptr i8, ptr %list, i64 $LIST_ALLOCATED
  %allocated = load i64, ptr %ap
  %room = icmp slt i64 %size, %allocated
  br i1 %room, label %fast, label %slow, !prof !1
fast:
  %ip = getelementptr i8, ptr %list, i64 $LIST_ITEMS
  %items = load ptr, ptr %ip
  %slot = getelementptr ptr, ptr %items, i64 %size
  store ptr %item, ptr %slot
  %grown = add i64 %size, 1
  store i64 %grown, ptr %sp
  ret i32 0
slow:
  %status = call i32 @PyList_Append(ptr %list, ptr %item)
  call void @mj_decref(ptr %item)
  ret i32 %status
}

define linkonce_odr ptr @mj_tuple_item(ptr %tuple, i64 %i) alwaysinline {
  %items = getelementptr i8, ptr %tuple, i64 $TUPLE_ITEMS
  %p = getelementptr ptr, ptr %items, i64 %i
  %item = load ptr, ptr %p
  ret ptr %item
}

; Is this object an exact int that fits in int64?
define linkonce_odr i1 @mj_is_int64(ptr %o) alwaysinline {
  %flag = alloca i32
  %tp = getelementptr i8, ptr %o, i64 $OB_TYPE
  %type = load ptr, ptr %tp
  %isint = icmp eq ptr %type, @PyLong_Type
  br i1 %isint, label %size, label %no
size:
  %sp = getelementptr i8, ptr %o, i64 $OB_SIZE
  %header = load i64, ptr %sp
$AT_MOST_TWO_DIGITS
  br i1 %short, label %yes, label %long
long:
  store i32 0, ptr %flag
  %v = call i64 @PyLong_AsLongLongAndOverflow(ptr %o, ptr %flag)
  %overflow = load i32, ptr %flag
  %fits = icmp eq i32 %overflow, 0
  ret i1 %fits
yes:
  ret i1 1
no:
  ret i1 0
}

define linkonce_odr i1 @mj_is_float(ptr %o) alwaysinline {
  %tp = getelementptr i8, ptr %o, i64 $OB_TYPE
  %type = load ptr, ptr %tp
  %r = icmp eq ptr %type, @PyFloat_Type
  ret i1 %r
}

define linkonce_odr i1 @mj_is_bool(ptr %o) alwaysinline {
  %t = icmp eq ptr %o, @_Py_TrueStruct
  %f = icmp eq ptr %o, @_Py_FalseStruct
  %r = or i1 %t, %f
  ret i1 %r
}

; Native lists: {i64 references, i64 length, i64 capacity, ptr items} in PyMem memory, items unboxed.
declare ptr @PyMem_Malloc(i64)
declare ptr @PyMem_Realloc(ptr, i64)
declare void @PyMem_Free(ptr)
declare ptr @PyErr_NoMemory()

define linkonce_odr ptr @mj_nlist_new(i64 %length, i64 %itemsize) {
  %product = call {i64, i1} @llvm.umul.with.overflow.i64(i64 %length, i64 %itemsize)
  %bytes = extractvalue {i64, i1} %product, 0
  %huge = extractvalue {i64, i1} %product, 1
  %negative = icmp slt i64 %length, 0
  %bad = or i1 %huge, %negative
  br i1 %bad, label %nomem, label %header, !prof !0
header:
  %list = call ptr @PyMem_Malloc(i64 32)
  %nolist = icmp eq ptr %list, null
  br i1 %nolist, label %nomem, label %items, !prof !0
items:
  %some = icmp eq i64 %bytes, 0
  %size = select i1 %some, i64 8, i64 %bytes
  %data = call ptr @PyMem_Malloc(i64 %size)
  %nodata = icmp eq ptr %data, null
  br i1 %nodata, label %nodata.free, label %ok, !prof !0
nodata.free:
  call void @PyMem_Free(ptr %list)
  br label %nomem
ok:
  store i64 1, ptr %list
  %lp = getelementptr i8, ptr %list, i64 8
  store i64 %length, ptr %lp
  %cp = getelementptr i8, ptr %list, i64 16
  store i64 %length, ptr %cp
  %dp = getelementptr i8, ptr %list, i64 24
  store ptr %data, ptr %dp
  ret ptr %list
nomem:
  %e = call ptr @PyErr_NoMemory()
  ret ptr null
}

define linkonce_odr void @mj_nlist_decref_cold(ptr %list) cold noinline {
  call void @mj_nlist_decref(ptr %list)
  ret void
}

define linkonce_odr void @mj_nlist_decref(ptr %list) alwaysinline {
  %rc = load i64, ptr %list
  %n = sub i64 %rc, 1
  store i64 %n, ptr %list
  %dead = icmp eq i64 %n, 0
  br i1 %dead, label %free, label %done, !prof !0
free:
  %dp = getelementptr i8, ptr %list, i64 24
  %data = load ptr, ptr %dp
  call void @PyMem_Free(ptr %data)
  call void @PyMem_Free(ptr %list)
  br label %done
done:
  ret void
}

; Room for at least %needed items (growing geometrically); -1 with MemoryError set on failure.
define linkonce_odr i32 @mj_nlist_reserve(ptr %list, i64 %needed, i64 %itemsize) {
  %cp = getelementptr i8, ptr %list, i64 16
  %capacity = load i64, ptr %cp
  %enough = icmp sle i64 %needed, %capacity
  br i1 %enough, label %done, label %grow, !prof !1
grow:
  %doubled = shl i64 %capacity, 1
  %padded = add i64 %doubled, 4
  %bigger = icmp sgt i64 %needed, %padded
  %new = select i1 %bigger, i64 %needed, i64 %padded
  %product = call {i64, i1} @llvm.umul.with.overflow.i64(i64 %new, i64 %itemsize)
  %bytes = extractvalue {i64, i1} %product, 0
  %huge = extractvalue {i64, i1} %product, 1
  br i1 %huge, label %nomem, label %realloc, !prof !0
realloc:
  %dp = getelementptr i8, ptr %list, i64 24
  %data = load ptr, ptr %dp
  %moved = call ptr @PyMem_Realloc(ptr %data, i64 %bytes)
  %failed = icmp eq ptr %moved, null
  br i1 %failed, label %nomem, label %store, !prof !0
store:
  store ptr %moved, ptr %dp
  store i64 %new, ptr %cp
  br label %done
done:
  ret i32 0
nomem:
  %e = call ptr @PyErr_NoMemory()
  ret i32 -1
}

declare {i64, i1} @llvm.umul.with.overflow.i64(i64, i64)

; Depth of native calls on call cycles, checked against sys.getrecursionlimit() (read again only when the depth
; passes the last value seen): RecursionError instead of a C stack overflow. The GIL keeps one thread in here.
@mj_depth = linkonce_odr global i64 0
@mj_depth_limit = linkonce_odr global i64 0
@PyExc_RecursionError = external global ptr
@.recursion = linkonce_odr constant [33 x i8] c"maximum recursion depth exceeded\00"
declare i32 @Py_GetRecursionLimit()

define linkonce_odr i1 @mj_enter_recursion() alwaysinline {
  %depth = load i64, ptr @mj_depth
  %deeper = add i64 %depth, 1
  store i64 %deeper, ptr @mj_depth
  %limit = load i64, ptr @mj_depth_limit
  %past = icmp sgt i64 %deeper, %limit
  br i1 %past, label %check, label %ok, !prof !0
check:
  %failed = call i1 @mj_recursion_too_deep(i64 %deeper)
  ret i1 %failed
ok:
  ret i1 0
}

define linkonce_odr i1 @mj_recursion_too_deep(i64 %depth) cold noinline {
  %limit32 = call i32 @Py_GetRecursionLimit()
  %limit = sext i32 %limit32 to i64
  store i64 %limit, ptr @mj_depth_limit
  %past = icmp sgt i64 %depth, %limit
  br i1 %past, label %raise, label %ok
raise:
  %back = sub i64 %depth, 1
  store i64 %back, ptr @mj_depth
  %type = load ptr, ptr @PyExc_RecursionError
  call void @PyErr_SetString(ptr %type, ptr @.recursion)
  ret i1 1
ok:
  ret i1 0
}

define linkonce_odr void @mj_leave_recursion() alwaysinline {
  %depth = load i64, ptr @mj_depth
  %shallower = sub i64 %depth, 1
  store i64 %shallower, ptr @mj_depth
  ret void
}

define linkonce_odr void @mj_raise(ptr %type, ptr %message) cold noinline {
  call void @PyErr_SetString(ptr %type, ptr %message)
  ret void
}

!0 = !{!"branch_weights", i32 1, i32 1000}
!1 = !{!"branch_weights", i32 1000, i32 1}
""").safe_substitute(                  # first the pieces chosen by version, then the offsets they use too
    REFERENCE_COUNTS=IMMORTAL_AWARE_REFERENCE_COUNTS if IMMORTAL_OBJECTS else MORTAL_REFERENCE_COUNTS,
    UNBOX_INT=UNBOX_INT_FROM_TAG if TAGGED_INT_SIZE else UNBOX_INT_FROM_SIGNED_SIZE,
    AT_MOST_TWO_DIGITS=AT_MOST_TWO_DIGITS_FROM_TAG if TAGGED_INT_SIZE else AT_MOST_TWO_DIGITS_FROM_SIGNED_SIZE,
)
RUNTIME_IR = string.Template(RUNTIME_IR).substitute(
    OB_TYPE=OB_TYPE, OB_SIZE=OB_SIZE, LIST_ITEMS=LIST_ITEMS, LIST_ALLOCATED=LIST_ALLOCATED, TUPLE_ITEMS=TUPLE_ITEMS,
    FLOAT_VALUE=FLOAT_VALUE, LONG_DIGITS=LONG_DIGITS, LONG_SIGN_MASK=LONG_SIGN_MASK,
    LONG_DIGIT_COUNT_SHIFT=LONG_DIGIT_COUNT_SHIFT, TWO_DIGITS_TAG=2 << LONG_DIGIT_COUNT_SHIFT)
RUNTIME_FINGERPRINT = hashlib.sha256(RUNTIME_IR.encode()).hexdigest()[:16]

# name -> (return type, argument types[, variadic])
C_FUNCTIONS = {
    "PyLong_FromLongLong": (PTR, (I64,)),
    "PyFloat_FromDouble": (PTR, (F64,)),
    "PyList_New": (PTR, (I64,)),
    "PyList_GetSlice": (PTR, (PTR, I64, I64)),
    "PyList_Reverse": (I32, (PTR,)),
    "PySequence_Concat": (PTR, (PTR, PTR)),
    "PySequence_InPlaceConcat": (PTR, (PTR, PTR)),
    "PySequence_Repeat": (PTR, (PTR, I64)),
    "PySequence_InPlaceRepeat": (PTR, (PTR, I64)),
    "PyList_Insert": (I32, (PTR, I64, PTR)),
    "PyList_Sort": (I32, (PTR,)),
    "PyList_SetSlice": (I32, (PTR, I64, I64, PTR)),
    "PyObject_RichCompareBool": (I32, (PTR, PTR, I32)),
    "PyNumber_TrueDivide": (PTR, (PTR, PTR)),
    "PyTuple_New": (PTR, (I64,)),
    "PyErr_SetString": (ir.VoidType(), (PTR, PTR)),
    "PyErr_SetNone": (ir.VoidType(), (PTR,)),
    "PyErr_Format": (PTR, (PTR, PTR), True),
    "PyErr_SetFromErrno": (PTR, (PTR,)),
    "PyErr_Clear": (ir.VoidType(), ()),
    "PyErr_NoMemory": (PTR, ()),
    "_PyTraceback_Add": (ir.VoidType(), (PTR, PTR, I32)),
    "PyObject_Vectorcall": (PTR, (PTR, PTR, I64, PTR)),
    "PyDict_GetItemWithError": (PTR, (PTR, PTR)),
    "PyObject_GetBuffer": (I32, (PTR, PTR, I32)),
    "PyBuffer_Release": (ir.VoidType(), (PTR,)),
    "PyBuffer_IsContiguous": (I32, (PTR, I8)),
    "__errno_location": (PTR, ()),

}
HELPERS = {
    "mj_incref": (ir.VoidType(), (PTR,)),
    "mj_decref": (ir.VoidType(), (PTR,)),
    "mj_decref_cold": (ir.VoidType(), (PTR,)),
    "mj_nlist_decref_cold": (ir.VoidType(), (PTR,)),
    "mj_add_references": (ir.VoidType(), (PTR, I64)),
    "mj_unbox_int": (I64, (PTR,)),
    "mj_box_int": (PTR, (I64,)),
    "mj_unbox_float": (F64, (PTR,)),
    "mj_box_bool": (PTR, (I1,)),
    "mj_list_item": (PTR, (PTR, I64)),
    "mj_list_set_item": (ir.VoidType(), (PTR, I64, PTR)),
    "mj_list_append": (I32, (PTR, PTR)),
    "mj_tuple_item": (PTR, (PTR, I64)),
    "mj_is_int64": (I1, (PTR,)),
    "mj_is_float": (I1, (PTR,)),
    "mj_is_bool": (I1, (PTR,)),
    "mj_raise": (ir.VoidType(), (PTR, PTR)),
    "mj_enter_recursion": (I1, ()),
    "mj_leave_recursion": (ir.VoidType(), ()),
    "mj_nlist_new": (PTR, (I64, I64)),
    "mj_nlist_decref": (ir.VoidType(), (PTR,)),
    "mj_nlist_reserve": (I32, (PTR, I64, I64)),
}
BINARY_INTRINSICS = ("llvm.copysign", "llvm.minnum", "llvm.maxnum")


class Runtime:
    """Declarations needed by one LLVM module, created on first use so the module text stays small."""

    def __init__(self, module: ir.Module):
        self.module = module
        self._strings: dict[str, ir.GlobalVariable] = {}
        self._alias_tags: dict[str, ir.MDValue] = {}
        self._alias_root = None

    def alias_tag(self, what: str) -> ir.MDValue:
        """A TBAA access tag for locations of kind ``what``; kinds under one root never alias each other.
        Only memory that moshjit alone allocates gets tags (untagged accesses may alias anything)."""
        tag = self._alias_tags.get(what)
        if tag is None:
            if self._alias_root is None:
                self._alias_root = self.module.add_metadata([ir.MetaDataString(self.module, "moshjit native data")])
            node = self.module.add_metadata([ir.MetaDataString(self.module, what), self._alias_root,
                                             ir.Constant(I64, 0)])
            tag = self._alias_tags[what] = self.module.add_metadata([node, node, ir.Constant(I64, 0)])
        return tag

    def function(self, name: str) -> ir.Function:
        existing = self.module.globals.get(name)
        if existing is not None:
            return existing
        ret, args, *variadic = C_FUNCTIONS[name] if name in C_FUNCTIONS else HELPERS[name]
        return ir.Function(self.module, ir.FunctionType(ret, args, var_arg=bool(variadic)), name)

    def helper(self, name: str, kind: ir.FunctionType, build) -> ir.Function:
        """An internal function of this module, its body emitted once by ``build(builder, *arguments)``."""
        existing = self.module.globals.get(name)
        if existing is not None:
            return existing
        function = ir.Function(self.module, kind, name)
        function.linkage = "internal"
        build(ir.IRBuilder(function.append_basic_block("entry")), *function.args)
        return function

    def libm(self, name: str, arity: int = 1) -> ir.Function:
        """A C math library function, declared ``nobuiltin`` so LLVM keeps the call exactly as CPython makes it
        (it would otherwise rewrite e.g. pow(x, 2.0) as x*x, which can differ in the last bit)."""
        existing = self.module.globals.get(name)
        if existing is not None:
            return existing
        function = ir.Function(self.module, ir.FunctionType(F64, (F64,) * arity), name)
        function.attributes.add("nobuiltin")
        return function

    def intrinsic(self, name: str, types) -> ir.Function:
        if name in BINARY_INTRINSICS:
            full = f"{name}.f64"
            existing = self.module.globals.get(full)
            return existing if existing is not None else ir.Function(self.module, ir.FunctionType(F64, (F64, F64)), full)
        return self.module.declare_intrinsic(name, types)

    def data(self, name: str) -> ir.GlobalVariable:
        """The address of an exported CPython object or of a ``PyExc_*`` variable."""
        existing = self.module.globals.get(name)
        if existing is not None:
            return existing
        variable = ir.GlobalVariable(self.module, PTR if name.startswith("PyExc_") else I8, name)
        variable.linkage = "external"
        return variable

    def exception_type(self, builder: ir.IRBuilder, cls: type) -> ir.Value:
        return builder.load(self.data(f"PyExc_{cls.__name__}"), typ=PTR)

    def cstring(self, text: str) -> ir.GlobalVariable:
        """A private NUL-terminated UTF-8 constant (deduplicated per module)."""
        found = self._strings.get(text)
        if found is None:
            data = bytearray(text.encode("utf-8") + b"\0")
            kind = ir.ArrayType(I8, len(data))
            found = ir.GlobalVariable(self.module, kind, f".str.{len(self._strings)}")
            found.initializer = ir.Constant(kind, data)
            found.global_constant = True
            found.linkage = "private"
            found.unnamed_addr = True
            self._strings[text] = found
        return found

    def call(self, builder: ir.IRBuilder, name: str, *args) -> ir.Value:
        return builder.call(self.function(name), args)

"""The few CPython C-API functions native code calls, and small helpers written in LLVM IR.

The helpers (reference counting, int/float unboxing, list item access, raising) are LLVM IR text parsed once
per process and linked into every module, where the optimiser inlines them. They rely on the object layout of
64-bit CPython release builds, which ``check_layout`` verifies before anything is compiled; the two things that
changed in 3.12 — reference counting (immortal objects) and the int header — come in two versions, picked by the
facts in ``moshjit.cpython``. Out-of-line cold helpers (``cold noinline``) are also ``optnone``: the optimiser and
instruction selection spend no time on code that runs only on failure and deoptimisation paths.
"""
from __future__ import annotations

import hashlib
import string
import sys

import llvmlite.ir as ir

from moshjit.backends.llvm.layout import (FLOAT_VALUE, LIST_ALLOCATED, LIST_ITEMS, LONG_DIGIT_COUNT_SHIFT, LONG_DIGITS,
                                          LONG_SIGN_MASK, OB_SIZE, OB_TYPE, THREAD_RECURSION_REMAINING, TUPLE_ITEMS)
from moshjit.cpython import EVAL_BREAKER_FLAGS, IMMORTAL_OBJECTS, TAGGED_INT_SIZE
from moshjit.passes.loop_ticks import TICK_EVERY

from moshjit.backends.llvm.reprs import F64, I1, I32, I64, I8, PTR

# Stack kept free below the deepest native frame of a recursion: room for the levels between two stack checks and
# for the Python-level continuation of a frame that deoptimises there (see docs/llvm-backend.md for the measurements).
STACK_RESERVE = 512 * 1024
STACK_CHECK_EVERY = 16

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

# The recursion count at the limit (1: RecursionError set; 0: the level counted after all). 3.11: as the
# interpreter decides for its own frames (Py_EnterRecursiveCall also notices a limit raised meanwhile); 3.12+, where
# that call counts C recursion instead: the error, as compiled Cython code raises it.
RECURSION_LIMIT_CHECKED = r"""
@.no_where = linkonce_odr constant [1 x i8] zeroinitializer
declare i32 @Py_EnterRecursiveCall(ptr)
define linkonce_odr i32 @mj_recursion_limit() cold noinline optnone {
  %status = call i32 @Py_EnterRecursiveCall(ptr @.no_where)
  %failed = icmp ne i32 %status, 0
  %refused = zext i1 %failed to i32
  ret i32 %refused
}
"""
RECURSION_LIMIT_RAISED = r"""
define linkonce_odr i32 @mj_recursion_limit() cold noinline optnone {
  %type = load ptr, ptr @PyExc_RecursionError
  call void @PyErr_SetString(ptr %type, ptr @.recursion)
  ret i32 1
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

# Where each eval-loop flag's word is found: _PyRuntime's address, or the interpreter's or the thread's state.
_EVAL_FLAG_BASES = {"runtime": "  %base = getelementptr i8, ptr @_PyRuntime, i64 0",
                    "interpreter": "  %base = call ptr @PyInterpreterState_Get()",
                    "thread": "  %base = call ptr @PyThreadState_Get()"}
EVAL_FLAG_DECLARATIONS = "@_PyRuntime = external global i8\ndeclare ptr @PyInterpreterState_Get()"


def _eval_flag_reader(name: str) -> str:
    """The body of a function returning the bits of eval-loop flag ``name`` (``EVAL_BREAKER_FLAGS``; where the
    table has no entry, always set: signals checked and the GIL offered at every look)."""
    if EVAL_BREAKER_FLAGS is None:
        return "  ret i32 1"
    base, offset, mask = EVAL_BREAKER_FLAGS[name]
    return "\n".join([_EVAL_FLAG_BASES[base],
                      f"  %word = getelementptr i8, ptr %base, i64 {offset}",
                      "  %value = load volatile i32, ptr %word",
                      f"  %bits = and i32 %value, {mask}",
                      "  ret i32 %bits"])


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
define linkonce_odr void @mj_decref_cold(ptr %o) cold noinline optnone {
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

define linkonce_odr void @mj_nlist_decref_cold(ptr %list) cold noinline optnone {
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

; Native calls on call cycles count as Python frames: one level each of the thread's own recursion count
; (PyThreadState's, at $THREAD_RECURSION_REMAINING), which CPython's frames and compiled Cython code count in too, so
; that a recursion mixing them stops where CPython's would, also after sys.setrecursionlimit. Every
; STACK_CHECK_EVERY levels the stack pointer is checked against the bounds of the running thread's stack (found
; again when it is outside them: another thread, or the first check), so that a recursion allowed by a raised limit
; continues in the interpreter before the C stack runs out. The reserve left below covers the levels between two
; checks.
@mj_stack_base = linkonce_odr global i64 0       ; lowest address of the thread's stack
@mj_stack_low = linkonce_odr global i64 0        ; lowest address native recursion may reach (base + reserve)
@mj_stack_span = linkonce_odr global i64 0       ; bytes from there to the top of the stack
@PyExc_RecursionError = external global ptr
@.recursion = linkonce_odr constant [33 x i8] c"maximum recursion depth exceeded\00"
declare ptr @PyThreadState_Get()
declare ptr @llvm.stacksave.p0()
declare i64 @pthread_self()
declare i32 @pthread_getattr_np(i64, ptr)
declare i32 @pthread_attr_getstack(ptr, ptr, ptr)
declare i32 @pthread_attr_destroy(ptr)
declare i64 @llvm.umin.i64(i64, i64)

; The running thread's recursion count: found by an entry from Python (or a native caller off the cycle) and handed
; down the cycle's native calls as their last argument, for each level's check and exits.
define linkonce_odr ptr @mj_recursion_count() alwaysinline {
  %thread = call ptr @PyThreadState_Get()
  %count = getelementptr i8, ptr %thread, i64 $THREAD_RECURSION_REMAINING
  ret ptr %count
}

; 0: go on; 1: RecursionError set; 2: the C stack is nearly used up, the caller continues in the interpreter.
; (1 and 2 leave the count as it was.)
define linkonce_odr i32 @mj_enter_recursion(ptr %count) alwaysinline {
  %remaining = load i32, ptr %count
  %past = icmp sle i32 %remaining, 0
  br i1 %past, label %limit, label %level, !prof !0
level:
  %left = sub i32 %remaining, 1
  store i32 %left, ptr %count
  %phase = and i32 %left, $STACK_CHECK_MASK
  %due = icmp eq i32 %phase, 0
  br i1 %due, label %stack, label %ok, !prof !0
stack:
  %top = call ptr @llvm.stacksave.p0()
  %sp = ptrtoint ptr %top to i64
  %low = load i64, ptr @mj_stack_low
  %span = load i64, ptr @mj_stack_span
  %offset = sub i64 %sp, %low
  %outside = icmp ugt i64 %offset, %span           ; into the reserve, or another thread's stack
  br i1 %outside, label %check, label %ok, !prof !0
check:
  %status = call i32 @mj_stack_check(ptr %count)
  ret i32 %status
limit:
  %refused = call i32 @mj_recursion_limit()
  ret i32 %refused
ok:
  ret i32 0
}

$RECURSION_LIMIT

; 0, or 2 (the level given back) when the stack pointer is in the reserve.
define linkonce_odr i32 @mj_stack_check(ptr %count) cold noinline optnone {
  %top = call ptr @llvm.stacksave.p0()
  %sp = ptrtoint ptr %top to i64
  %base = load i64, ptr @mj_stack_base
  %low = load i64, ptr @mj_stack_low
  %span = load i64, ptr @mj_stack_span
  %high = add i64 %low, %span
  %under = icmp ult i64 %sp, %base
  %over = icmp ugt i64 %sp, %high
  %elsewhere = or i1 %under, %over
  br i1 %elsewhere, label %find, label %compare
find:
  call void @mj_find_stack()
  br label %compare
compare:
  %reserve = load i64, ptr @mj_stack_low
  %exhausted = icmp ult i64 %sp, %reserve
  br i1 %exhausted, label %deopt, label %fine
deopt:
  %left = load i32, ptr %count
  %back = add i32 %left, 1
  store i32 %back, ptr %count
  ret i32 2
fine:
  ret i32 0
}

; The running thread's stack bounds (pthread_getattr_np; for the main thread glibc derives them from the stack
; mapping and RLIMIT_STACK). A reserve of $STACK_RESERVE bytes (a quarter of smaller stacks) stays for the
; interpreter a deoptimised frame continues in. Unknown bounds disable the stack check.
define linkonce_odr void @mj_find_stack() cold noinline optnone {
  %attr = alloca [128 x i8], align 16
  %where = alloca ptr
  %size = alloca i64
  %self = call i64 @pthread_self()
  %rc = call i32 @pthread_getattr_np(i64 %self, ptr %attr)
  %failed = icmp ne i32 %rc, 0
  br i1 %failed, label %unknown, label %known
known:
  %got = call i32 @pthread_attr_getstack(ptr %attr, ptr %where, ptr %size)
  %gone = call i32 @pthread_attr_destroy(ptr %attr)
  %address = load ptr, ptr %where
  %base = ptrtoint ptr %address to i64
  %bytes = load i64, ptr %size
  %high = add i64 %base, %bytes
  %quarter = lshr i64 %bytes, 2
  %reserve = call i64 @llvm.umin.i64(i64 %quarter, i64 $STACK_RESERVE)
  %low = add i64 %base, %reserve
  %span = sub i64 %high, %low
  store i64 %base, ptr @mj_stack_base
  store i64 %low, ptr @mj_stack_low
  store i64 %span, ptr @mj_stack_span
  ret void
unknown:
  store i64 0, ptr @mj_stack_base
  store i64 0, ptr @mj_stack_low
  store i64 -1, ptr @mj_stack_span
  ret void
}

; Loops' back-edges (ops.LoopTick): every TICK_EVERY of them native code looks at the interpreter's own flags
; (moshjit.cpython.EVAL_BREAKER_FLAGS): mj_signals_flag (a signal waits) and mj_gil_flag (another thread asked
; for the GIL). mj_loop_breaker does what CPython's eval loop then does: runs the due signal handlers (-1: one
; raised, e.g. KeyboardInterrupt) and lets the GIL go, which hands it to the thread that asked.
$EVAL_FLAG_DECLARATIONS
declare i32 @PyErr_CheckSignals()
declare ptr @PyEval_SaveThread()
declare void @PyEval_RestoreThread(ptr)

@mj_call_ticks = linkonce_odr global i32 $TICK_EVERY   ; the entries of native call cycles count down here

define linkonce_odr i32 @mj_signals_flag() noinline {
$SIGNALS_FLAG
}

define linkonce_odr i32 @mj_gil_flag() noinline {
$GIL_FLAG
}

define linkonce_odr i32 @mj_loop_breaker() cold noinline optnone {
  %signals = call i32 @mj_signals_flag()
  %pending = icmp ne i32 %signals, 0
  br i1 %pending, label %handle, label %threads
handle:
  %status = call i32 @PyErr_CheckSignals()
  %raised = icmp slt i32 %status, 0
  br i1 %raised, label %failed, label %threads
threads:
  %gil = call i32 @mj_gil_flag()
  %asked = icmp ne i32 %gil, 0
  br i1 %asked, label %hand_over, label %done
hand_over:
  %thread = call ptr @PyEval_SaveThread()
  call void @PyEval_RestoreThread(ptr %thread)
  br label %done
done:
  ret i32 0
failed:
  ret i32 -1
}

; The level an entry gave back before calling its body (which counts its own) taken again: no check, it was held.
define linkonce_odr void @mj_retake_recursion(ptr %count) alwaysinline {
  %remaining = load i32, ptr %count
  %less = sub i32 %remaining, 1
  store i32 %less, ptr %count
  ret void
}

define linkonce_odr void @mj_leave_recursion(ptr %count) alwaysinline {
  %remaining = load i32, ptr %count
  %back = add i32 %remaining, 1
  store i32 %back, ptr %count
  ret void
}

; Deoptimisation. A native function that meets a value it cannot represent writes its live values as raw words
; into its module's @mj_deopt_words (described by the site's entry in the module's deoptimisation table) and
; calls mj_deopt, which copies them into a bytes object before any Python code can run and hands them to
; moshjit.backends.llvm.resume.resume, which continues the function in the SSA interpreter. That returns
; (result,) or (exception, line, function name, file name). mj_deopt leaves the result (a new reference) in
; @mj_deopt_value, or NULL with the exception set and a traceback entry for the native function at that line.
; The native function then returns "failed"; its native caller or its entry takes the result (and clears it).
; mj_deopt_call does the same for a call site whose callee deoptimised: its result, taken from @mj_deopt_value,
; is the last word. Both take few arguments and keep nothing, so the caller's fast path pays no registers for them.
@mj_deopt_value = linkonce_odr global ptr null
@mj_resume = linkonce_odr global ptr null
@.resume_module = linkonce_odr constant [29 x i8] c"moshjit.backends.llvm.resume\00"
@.resume_name = linkonce_odr constant [7 x i8] c"resume\00"
@.resume_format = linkonce_odr constant [6 x i8] c"(nnN)\00"
declare ptr @PyBytes_FromStringAndSize(ptr, i64)
declare ptr @PyImport_ImportModule(ptr)
declare ptr @PyObject_GetAttrString(ptr, ptr)
declare ptr @Py_BuildValue(ptr, ...)
declare ptr @PyObject_Call(ptr, ptr, ptr)
declare i64 @PyTuple_Size(ptr)
declare ptr @PyTuple_GetItem(ptr, i64)
declare ptr @PyObject_Type(ptr)
declare ptr @PyException_GetTraceback(ptr)
declare void @PyErr_Restore(ptr, ptr, ptr)
declare ptr @PyUnicode_AsUTF8(ptr)
declare void @_PyTraceback_Add(ptr, ptr, i32)

define linkonce_odr void @mj_deopt(ptr %tag, i64 %site, ptr %state, i64 %count) cold noinline optnone {
entry:
  %length = mul i64 %count, 8
  %words = call ptr @PyBytes_FromStringAndSize(ptr %state, i64 %length)
  %nowords = icmp eq ptr %words, null
  br i1 %nowords, label %failed, label %find
find:
  %cached = load ptr, ptr @mj_resume
  %known = icmp ne ptr %cached, null
  br i1 %known, label %call, label %import
import:
  %module = call ptr @PyImport_ImportModule(ptr @.resume_module)
  %nomodule = icmp eq ptr %module, null
  br i1 %nomodule, label %lost, label %lookup
lookup:
  %found = call ptr @PyObject_GetAttrString(ptr %module, ptr @.resume_name)
  call void @mj_decref(ptr %module)
  %nofunction = icmp eq ptr %found, null
  br i1 %nofunction, label %lost, label %keep
keep:
  store ptr %found, ptr @mj_resume
  br label %call
lost:
  call void @mj_decref(ptr %words)
  br label %failed
call:
  %resume = load ptr, ptr @mj_resume
  %address = ptrtoint ptr %tag to i64
  %args = call ptr (ptr, ...) @Py_BuildValue(ptr @.resume_format, i64 %address, i64 %site, ptr %words)
  %noargs = icmp eq ptr %args, null
  br i1 %noargs, label %failed, label %invoke
invoke:
  %outcome = call ptr @PyObject_Call(ptr %resume, ptr %args, ptr null)
  call void @mj_decref(ptr %args)
  %nooutcome = icmp eq ptr %outcome, null
  br i1 %nooutcome, label %failed, label %unpack
failed:
  store ptr null, ptr @mj_deopt_value
  ret void
unpack:
  %size = call i64 @PyTuple_Size(ptr %outcome)
  %first = call ptr @PyTuple_GetItem(ptr %outcome, i64 0)
  call void @mj_incref(ptr %first)
  %returned = icmp eq i64 %size, 1
  br i1 %returned, label %value, label %raised
value:
  call void @mj_decref(ptr %outcome)
  store ptr %first, ptr @mj_deopt_value
  ret void
raised:
  %where = call ptr @PyTuple_GetItem(ptr %outcome, i64 1)
  %line = call i64 @PyLong_AsLongLong(ptr %where)
  %name = call ptr @PyTuple_GetItem(ptr %outcome, i64 2)
  %file = call ptr @PyTuple_GetItem(ptr %outcome, i64 3)
  %type = call ptr @PyObject_Type(ptr %first)
  %traceback = call ptr @PyException_GetTraceback(ptr %first)
  call void @PyErr_Restore(ptr %type, ptr %first, ptr %traceback)
  %name8 = call ptr @PyUnicode_AsUTF8(ptr %name)
  %file8 = call ptr @PyUnicode_AsUTF8(ptr %file)
  %line32 = trunc i64 %line to i32
  call void @_PyTraceback_Add(ptr %name8, ptr %file8, i32 %line32)
  call void @mj_decref(ptr %outcome)
  br label %failed
}

define linkonce_odr void @mj_deopt_call(ptr %tag, i64 %site, ptr %state, i64 %count) cold noinline optnone {
  %result = load ptr, ptr @mj_deopt_value
  store ptr null, ptr @mj_deopt_value
  %last = sub i64 %count, 1
  %slot = getelementptr i64, ptr %state, i64 %last
  %word = ptrtoint ptr %result to i64
  store i64 %word, ptr %slot
  call void @mj_deopt(ptr %tag, i64 %site, ptr %state, i64 %count)
  call void @mj_decref(ptr %result)
  ret void
}

define linkonce_odr void @mj_raise(ptr %type, ptr %message) cold noinline optnone {
  call void @PyErr_SetString(ptr %type, ptr %message)
  ret void
}

!0 = !{!"branch_weights", i32 1, i32 1000}
!1 = !{!"branch_weights", i32 1000, i32 1}
""").safe_substitute(                  # first the pieces chosen by version, then the offsets they use too
    REFERENCE_COUNTS=IMMORTAL_AWARE_REFERENCE_COUNTS if IMMORTAL_OBJECTS else MORTAL_REFERENCE_COUNTS,
    UNBOX_INT=UNBOX_INT_FROM_TAG if TAGGED_INT_SIZE else UNBOX_INT_FROM_SIGNED_SIZE,
    AT_MOST_TWO_DIGITS=AT_MOST_TWO_DIGITS_FROM_TAG if TAGGED_INT_SIZE else AT_MOST_TWO_DIGITS_FROM_SIGNED_SIZE,
    RECURSION_LIMIT=RECURSION_LIMIT_CHECKED if sys.version_info < (3, 12) else RECURSION_LIMIT_RAISED,
    EVAL_FLAG_DECLARATIONS=EVAL_FLAG_DECLARATIONS,
    SIGNALS_FLAG=_eval_flag_reader("signals"), GIL_FLAG=_eval_flag_reader("gil"),
)
RUNTIME_IR = string.Template(RUNTIME_IR).substitute(
    OB_TYPE=OB_TYPE, OB_SIZE=OB_SIZE, LIST_ITEMS=LIST_ITEMS, LIST_ALLOCATED=LIST_ALLOCATED, TUPLE_ITEMS=TUPLE_ITEMS,
    FLOAT_VALUE=FLOAT_VALUE, LONG_DIGITS=LONG_DIGITS, LONG_SIGN_MASK=LONG_SIGN_MASK,
    LONG_DIGIT_COUNT_SHIFT=LONG_DIGIT_COUNT_SHIFT, TWO_DIGITS_TAG=2 << LONG_DIGIT_COUNT_SHIFT,
    STACK_RESERVE=STACK_RESERVE, STACK_CHECK_MASK=STACK_CHECK_EVERY - 1,
    THREAD_RECURSION_REMAINING=THREAD_RECURSION_REMAINING, TICK_EVERY=TICK_EVERY)
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
    "mj_recursion_count": (PTR, ()),
    "mj_enter_recursion": (I32, (PTR,)),
    "mj_deopt": (ir.VoidType(), (PTR, I64, PTR, I64)),
    "mj_deopt_call": (ir.VoidType(), (PTR, I64, PTR, I64)),
    "mj_leave_recursion": (ir.VoidType(), (PTR,)),
    "mj_retake_recursion": (ir.VoidType(), (PTR,)),
    "mj_signals_flag": (I32, ()),
    "mj_loop_breaker": (I32, ()),
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

    def module_state(self) -> ir.GlobalVariable:
        """This module's state flag, ``@<module>_state`` (exported: the loader finds it by name). Its address
        names the module when its native code deoptimises; 1 means demoted: the entry calls its fallback."""
        name = f"{self.module.name}_state"
        existing = self.module.globals.get(name)
        if existing is not None:
            return existing
        state = ir.GlobalVariable(self.module, I8, name)
        state.initializer = ir.Constant(I8, 0)
        return state

    def deopt_words(self, count: int) -> ir.GlobalVariable:
        """``@mj_deopt_words``: where a deoptimisation site writes ``count`` words of live state (sized for the
        largest site by ``finish``)."""
        self._deopt_words = max(getattr(self, "_deopt_words", 1), count)
        existing = self.module.globals.get("mj_deopt_words")
        if existing is not None:
            return existing
        words = ir.GlobalVariable(self.module, ir.ArrayType(I64, 1), "mj_deopt_words")
        words.linkage = "internal"
        return words

    def finish(self) -> None:
        """Give module-wide buffers their final size (call once, after every function is lowered)."""
        words = self.module.globals.get("mj_deopt_words")
        if words is not None:
            words.value_type = ir.ArrayType(I64, self._deopt_words)
            words.initializer = ir.Constant(words.value_type, None)

    def deopt_value(self) -> ir.GlobalVariable:
        """``@mj_deopt_value``: the boxed result of a native function that deoptimised (see ``mj_deopt``)."""
        existing = self.module.globals.get("mj_deopt_value")
        if existing is not None:
            return existing
        slot = ir.GlobalVariable(self.module, PTR, "mj_deopt_value")
        slot.linkage = "external"
        return slot

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

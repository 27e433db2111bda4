
define internal {i64, i1} @"mj_0_fib"(i64 %"n")
{
entry:
  %".3" = call i32 @"Py_EnterRecursiveCall"([N x i8]* @".str.0")
  %".4" = icmp ne i32 %".3", 0
  br i1 %".4", label %"recursion.error", label %"ok", !prof !0
B0:
  %".9" = icmp slt i64 %"n", 2
  br i1 %".9", label %"B2", label %"B1"
B1:
  %".11" = sub nsw i64 %"n", 1
  %".12" = call {i64, i1} @"mj_0_fib"(i64 %".11")
  %".13" = extractvalue {i64, i1} %".12", 1
  br i1 %".13", label %"fail.L439", label %"ok.1", !prof !0
B2:
  call void @"Py_LeaveRecursiveCall"()
  %".38" = insertvalue {i64, i1} undef, i64 %"n", 0
  %".39" = insertvalue {i64, i1} %".38", i1 0, 1
  ret {i64, i1} %".39"
recursion.error:
  %".6" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".6"
ok:
  br label %"B0"
fail.L439:
  call void @"_PyTraceback_Add"([N x i8]* @".str.1", [N x i8]* @".str.2", i32 439)
  br label %"failed"
failed:
  call void @"Py_LeaveRecursiveCall"()
  %".16" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".16"
ok.1:
  %".20" = extractvalue {i64, i1} %".12", 0
  %".21" = sub nsw i64 %"n", 2
  %".22" = call {i64, i1} @"mj_0_fib"(i64 %".21")
  %".23" = extractvalue {i64, i1} %".22", 1
  br i1 %".23", label %"fail.L439", label %"ok.2", !prof !0
ok.2:
  %".25" = extractvalue {i64, i1} %".22", 0
  %".26" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".20", i64 %".25")
  %".27" = extractvalue {i64, i1} %".26", 1
  br i1 %".27", label %"raise.OverflowError", label %"ok.3", !prof !0
raise.OverflowError:
  %".29" = load ptr, ptr @"PyExc_OverflowError"
  call void @"mj_raise"(ptr %".29", [N x i8]* @".str.3")
  br label %"fail.L439"
ok.3:
  %".32" = extractvalue {i64, i1} %".26", 0
  call void @"Py_LeaveRecursiveCall"()
  %".34" = insertvalue {i64, i1} undef, i64 %".32", 0
  %".35" = insertvalue {i64, i1} %".34", i1 0, 1
  ret {i64, i1} %".35"
}

@".str.0" = private unnamed_addr constant [N x i8] c"\00"
declare i32 @"Py_EnterRecursiveCall"(ptr %".1")

@".str.1" = private unnamed_addr constant [N x i8] c"fib\00"
@".str.2" = private unnamed_addr constant [N x i8] c"<file>\00"
declare void @"_PyTraceback_Add"(ptr %".1", ptr %".2", i32 %".3")

declare void @"Py_LeaveRecursiveCall"()

declare {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".1", i64 %".2")

@"PyExc_OverflowError" = external global ptr
@".str.3" = private unnamed_addr constant [N x i8] c"the result of '+' does not fit in a 64-bit int (<file>:439); the LLVM backend computes with machine ints: use backend='cython' for arbitrary precision\00"
declare void @"mj_raise"(ptr %".1", ptr %".2")

define ptr @"mj_0_fib_entry"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
{
entry:
  %".6" = icmp eq ptr %"kwnames", null
  %".7" = icmp eq i64 %"nargs", 1
  %".8" = and i1 %".6", %".7"
  br i1 %".8", label %"checked", label %"fallback"
fallback:
  %".26" = call ptr @"PyObject_Vectorcall"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
  ret ptr %".26"
checked:
  %".10" = getelementptr ptr, ptr %"args", i64 0
  %".11" = load ptr, ptr %".10"
  %".12" = call i1 @"mj_is_int64"(ptr %".11")
  br i1 %".12", label %"checked.1", label %"fallback"
checked.1:
  %".14" = call i64 @"mj_unbox_int"(ptr %".11")
  %".15" = call {i64, i1} @"mj_0_fib"(i64 %".14")
  %".16" = extractvalue {i64, i1} %".15", 1
  br i1 %".16", label %"raised", label %"returned"
raised:
  ret ptr null
returned:
  %".19" = extractvalue {i64, i1} %".15", 0
  %".20" = call ptr @"mj_box_int"(i64 %".19")
  %".21" = icmp eq ptr %".20", null
  br i1 %".21", label %"box.failed", label %"box.ok"
box.failed:
  br label %"failed"
box.ok:
  ret ptr %".20"
failed:
  ret ptr null
}

declare i1 @"mj_is_int64"(ptr %".1")

declare i64 @"mj_unbox_int"(ptr %".1")

declare ptr @"mj_box_int"(i64 %".1")

declare ptr @"PyObject_Vectorcall"(ptr %".1", ptr %".2", i64 %".3", ptr %".4")

@"mj_0_fib_name" = private constant [N x i8] c"fib\00"
@"mj_0_fib_def" = global {ptr, ptr, i32, ptr} {[N x i8]* @"mj_0_fib_name", ptr (ptr, ptr, i64, ptr)* @"mj_0_fib_entry", i32 130, ptr null}
!0 = !{ !"branch_weights", i32 1, i32 1000 }


define internal {i64, i1} @"mj_0_fib"(i64 %"n")
{
entry:
  %".3" = call i1 @"mj_enter_recursion"()
  br i1 %".3", label %"recursion.error", label %"ok", !prof !0
B0:
  %".8" = icmp slt i64 %"n", 2
  br i1 %".8", label %"B2", label %"B1"
B1:
  %".10" = sub nsw i64 %"n", 1
  %".11" = call {i64, i1} @"mj_0_fib"(i64 %".10")
  %".12" = extractvalue {i64, i1} %".11", 1
  br i1 %".12", label %"fail.L416", label %"ok.1", !prof !0
B2:
  call void @"mj_leave_recursion"()
  %".37" = insertvalue {i64, i1} undef, i64 %"n", 0
  %".38" = insertvalue {i64, i1} %".37", i1 0, 1
  ret {i64, i1} %".38"
recursion.error:
  %".5" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".5"
ok:
  br label %"B0"
fail.L416:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 416)
  br label %"failed"
failed:
  call void @"mj_leave_recursion"()
  %".15" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".15"
ok.1:
  %".19" = extractvalue {i64, i1} %".11", 0
  %".20" = sub nsw i64 %"n", 2
  %".21" = call {i64, i1} @"mj_0_fib"(i64 %".20")
  %".22" = extractvalue {i64, i1} %".21", 1
  br i1 %".22", label %"fail.L416", label %"ok.2", !prof !0
ok.2:
  %".24" = extractvalue {i64, i1} %".21", 0
  %".25" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".19", i64 %".24")
  %".26" = extractvalue {i64, i1} %".25", 1
  br i1 %".26", label %"raise.OverflowError", label %"ok.3", !prof !0
raise.OverflowError:
  %".27" = load ptr, ptr @"PyExc_OverflowError"
  call void @"mj_raise"(ptr %".27", [N x i8]* @".str.2")
  br label %"fail.L416"
ok.3:
  %".31" = extractvalue {i64, i1} %".25", 0
  call void @"mj_leave_recursion"()
  %".33" = insertvalue {i64, i1} undef, i64 %".31", 0
  %".34" = insertvalue {i64, i1} %".33", i1 0, 1
  ret {i64, i1} %".34"
}

declare i1 @"mj_enter_recursion"()

@".str.0" = private unnamed_addr constant [N x i8] c"fib\00"
@".str.1" = private unnamed_addr constant [N x i8] c"<file>\00"
declare void @"_PyTraceback_Add"(ptr %".1", ptr %".2", i32 %".3")

declare void @"mj_leave_recursion"()

declare {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".1", i64 %".2")

@"PyExc_OverflowError" = external global ptr
@".str.2" = private unnamed_addr constant [N x i8] c"the result of '+' does not fit in a 64-bit int (<file>:416); the LLVM backend computes with machine ints: use backend='cython' for arbitrary precision\00"
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

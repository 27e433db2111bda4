
define internal {i64, i1} @"mj_0_i_add"(i64 %"a", i64 %"b")
{
entry:
  br label %"B0"
B0:
  %".5" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %"a", i64 %"b")
  %".6" = extractvalue {i64, i1} %".5", 1
  br i1 %".6", label %"raise.OverflowError", label %"ok", !prof !0
fail.L8:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 8)
  br label %"failed"
failed:
  %".8" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".8"
raise.OverflowError:
  %".11" = load ptr, ptr @"PyExc_OverflowError"
  call void @"mj_raise"(ptr %".11", [N x i8]* @".str.2")
  br label %"fail.L8"
ok:
  %".15" = extractvalue {i64, i1} %".5", 0
  %".16" = insertvalue {i64, i1} undef, i64 %".15", 0
  %".17" = insertvalue {i64, i1} %".16", i1 0, 1
  ret {i64, i1} %".17"
}

declare {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".1", i64 %".2")

@".str.0" = private unnamed_addr constant [N x i8] c"i_add\00"
@".str.1" = private unnamed_addr constant [N x i8] c"<file>\00"
declare void @"_PyTraceback_Add"(ptr %".1", ptr %".2", i32 %".3")

@"PyExc_OverflowError" = external global ptr
@".str.2" = private unnamed_addr constant [N x i8] c"the result of '+' does not fit in a 64-bit int (<file>:8); the LLVM backend computes with machine ints: use backend='cython' for arbitrary precision\00"
declare void @"mj_raise"(ptr %".1", ptr %".2")

define ptr @"mj_0_i_add_entry"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
{
entry:
  %".6" = icmp eq ptr %"kwnames", null
  %".7" = icmp eq i64 %"nargs", 2
  %".8" = and i1 %".6", %".7"
  br i1 %".8", label %"checked", label %"fallback"
fallback:
  %".31" = call ptr @"PyObject_Vectorcall"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
  ret ptr %".31"
checked:
  %".10" = getelementptr ptr, ptr %"args", i64 0
  %".11" = load ptr, ptr %".10"
  %".12" = call i1 @"mj_is_int64"(ptr %".11")
  br i1 %".12", label %"checked.1", label %"fallback"
checked.1:
  %".14" = call i64 @"mj_unbox_int"(ptr %".11")
  %".15" = getelementptr ptr, ptr %"args", i64 1
  %".16" = load ptr, ptr %".15"
  %".17" = call i1 @"mj_is_int64"(ptr %".16")
  br i1 %".17", label %"checked.2", label %"fallback"
checked.2:
  %".19" = call i64 @"mj_unbox_int"(ptr %".16")
  %".20" = call {i64, i1} @"mj_0_i_add"(i64 %".14", i64 %".19")
  %".21" = extractvalue {i64, i1} %".20", 1
  br i1 %".21", label %"raised", label %"returned"
raised:
  ret ptr null
returned:
  %".24" = extractvalue {i64, i1} %".20", 0
  %".25" = call ptr @"mj_box_int"(i64 %".24")
  %".26" = icmp eq ptr %".25", null
  br i1 %".26", label %"box.failed", label %"box.ok"
box.failed:
  br label %"failed"
box.ok:
  ret ptr %".25"
failed:
  ret ptr null
}

declare i1 @"mj_is_int64"(ptr %".1")

declare i64 @"mj_unbox_int"(ptr %".1")

declare ptr @"mj_box_int"(i64 %".1")

declare ptr @"PyObject_Vectorcall"(ptr %".1", ptr %".2", i64 %".3", ptr %".4")

@"mj_0_i_add_name" = private constant [N x i8] c"i_add\00"
@"mj_0_i_add_def" = global {ptr, ptr, i32, ptr} {[N x i8]* @"mj_0_i_add_name", ptr (ptr, ptr, i64, ptr)* @"mj_0_i_add_entry", i32 130, ptr null}
!0 = !{ !"branch_weights", i32 1, i32 1000 }

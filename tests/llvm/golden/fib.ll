
define internal {i64, i1} @"mj_0_fib"(i64 %"n")
{
entry:
  %".3" = call i32 @"mj_enter_recursion"()
  %".4" = icmp ne i32 %".3", 0
  br i1 %".4", label %"recursion.stopped", label %"ok", !prof !0
B0:
  %".23" = icmp slt i64 %"n", 2
  br i1 %".23", label %"B2", label %"B1"
B1:
  %".25" = sub nsw i64 %"n", 1
  %".26" = call {i64, i1} @"mj_0_fib"(i64 %".25")
  %".27" = extractvalue {i64, i1} %".26", 1
  br i1 %".27", label %"call.failed", label %"ok.2", !prof !0
B2:
  call void @"mj_leave_recursion"()
  %".100" = insertvalue {i64, i1} undef, i64 %"n", 0
  %".101" = insertvalue {i64, i1} %".100", i1 0, 1
  ret {i64, i1} %".101"
recursion.stopped:
  %".6" = icmp eq i32 %".3", 1
  br i1 %".6", label %"recursion.error", label %"deopt.B0.0"
ok:
  br label %"B0"
recursion.error:
  %".20" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".20"
deopt.B0.0:
  %".7" = call ptr @"PyBytes_FromStringAndSize"(ptr null, i64 8)
  %".8" = icmp eq ptr %".7", null
  br i1 %".8", label %"deopt.no_memory", label %"deopt.words"
deopt.no_memory:
  %".10" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".10"
deopt.words:
  %".12" = call ptr @"PyBytes_AsString"(ptr %".7")
  %".13" = getelementptr i64, ptr %".12", i64 0
  store i64 %"n", ptr %".13"
  %".15" = call ptr @"mj_deopt"(i8* @"mj_0_fib_state", i64 0, ptr %".7", i32 1, [N x i8]* @".str.0", [N x i8]* @".str.1")
  store ptr %".15", ptr @"mj_deopt_value"
  %".17" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".17"
call.failed:
  %".28" = load ptr, ptr @"mj_deopt_value"
  %".29" = icmp eq ptr %".28", null
  br i1 %".29", label %"fail.L416", label %"call.deoptimised"
call.deoptimised:
  store ptr null, ptr @"mj_deopt_value"
  br label %"deopt.B1.2"
fail.L416:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 416)
  br label %"failed"
failed:
  call void @"mj_leave_recursion"()
  %".32" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".32"
deopt.B1.2:
  %".37" = call ptr @"PyBytes_FromStringAndSize"(ptr null, i64 16)
  %".38" = icmp eq ptr %".37", null
  br i1 %".38", label %"fail.tmp.L416", label %"ok.1", !prof !0
fail.tmp.L416:
  call void @"mj_decref_cold"(ptr %".28")
  br label %"fail.L416"
ok.1:
  %".42" = call ptr @"PyBytes_AsString"(ptr %".37")
  %".43" = getelementptr i64, ptr %".42", i64 0
  store i64 %"n", ptr %".43"
  %".45" = getelementptr i64, ptr %".42", i64 1
  %".46" = ptrtoint ptr %".28" to i64
  store i64 %".46", ptr %".45"
  %".48" = call ptr @"mj_deopt"(i8* @"mj_0_fib_state", i64 1, ptr %".37", i32 0, [N x i8]* @".str.0", [N x i8]* @".str.1")
  call void @"mj_decref_cold"(ptr %".28")
  store ptr %".48", ptr @"mj_deopt_value"
  br label %"failed"
ok.2:
  %".54" = extractvalue {i64, i1} %".26", 0
  %".55" = sub nsw i64 %"n", 2
  %".56" = call {i64, i1} @"mj_0_fib"(i64 %".55")
  %".57" = extractvalue {i64, i1} %".56", 1
  br i1 %".57", label %"call.failed.1", label %"ok.4", !prof !0
call.failed.1:
  %".58" = load ptr, ptr @"mj_deopt_value"
  %".59" = icmp eq ptr %".58", null
  br i1 %".59", label %"fail.L416", label %"call.deoptimised.1"
call.deoptimised.1:
  store ptr null, ptr @"mj_deopt_value"
  br label %"deopt.B1.4"
deopt.B1.4:
  %".62" = call ptr @"PyBytes_FromStringAndSize"(ptr null, i64 16)
  %".63" = icmp eq ptr %".62", null
  br i1 %".63", label %"fail.tmp.L416.1", label %"ok.3", !prof !0
fail.tmp.L416.1:
  call void @"mj_decref_cold"(ptr %".58")
  br label %"fail.L416"
ok.3:
  %".67" = call ptr @"PyBytes_AsString"(ptr %".62")
  %".68" = getelementptr i64, ptr %".67", i64 0
  store i64 %".54", ptr %".68"
  %".70" = getelementptr i64, ptr %".67", i64 1
  %".71" = ptrtoint ptr %".58" to i64
  store i64 %".71", ptr %".70"
  %".73" = call ptr @"mj_deopt"(i8* @"mj_0_fib_state", i64 2, ptr %".62", i32 0, [N x i8]* @".str.0", [N x i8]* @".str.1")
  call void @"mj_decref_cold"(ptr %".58")
  store ptr %".73", ptr @"mj_deopt_value"
  br label %"failed"
ok.4:
  %".79" = extractvalue {i64, i1} %".56", 0
  %".80" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".54", i64 %".79")
  %".81" = extractvalue {i64, i1} %".80", 1
  br i1 %".81", label %"deopt.B1.4.1", label %"ok.6", !prof !0
deopt.B1.4.1:
  %".82" = call ptr @"PyBytes_FromStringAndSize"(ptr null, i64 16)
  %".83" = icmp eq ptr %".82", null
  br i1 %".83", label %"fail.L416", label %"ok.5", !prof !0
ok.5:
  %".85" = call ptr @"PyBytes_AsString"(ptr %".82")
  %".86" = getelementptr i64, ptr %".85", i64 0
  store i64 %".54", ptr %".86"
  %".88" = getelementptr i64, ptr %".85", i64 1
  store i64 %".79", ptr %".88"
  %".90" = call ptr @"mj_deopt"(i8* @"mj_0_fib_state", i64 3, ptr %".82", i32 0, [N x i8]* @".str.0", [N x i8]* @".str.1")
  store ptr %".90", ptr @"mj_deopt_value"
  br label %"failed"
ok.6:
  %".94" = extractvalue {i64, i1} %".80", 0
  call void @"mj_leave_recursion"()
  %".96" = insertvalue {i64, i1} undef, i64 %".94", 0
  %".97" = insertvalue {i64, i1} %".96", i1 0, 1
  ret {i64, i1} %".97"
}

declare i32 @"mj_enter_recursion"()

declare ptr @"PyBytes_FromStringAndSize"(ptr %".1", i64 %".2")

declare ptr @"PyBytes_AsString"(ptr %".1")

@"mj_0_fib_state" = global i8 0
@".str.0" = private unnamed_addr constant [N x i8] c"fib\00"
@".str.1" = private unnamed_addr constant [N x i8] c"<file>\00"
declare ptr @"mj_deopt"(ptr %".1", i64 %".2", ptr %".3", i32 %".4", ptr %".5", ptr %".6")

@"mj_deopt_value" = external global ptr
declare void @"_PyTraceback_Add"(ptr %".1", ptr %".2", i32 %".3")

declare void @"mj_leave_recursion"()

declare void @"mj_decref_cold"(ptr %".1")

declare {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".1", i64 %".2")

define ptr @"mj_0_fib_entry"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
{
entry:
  %".6" = icmp eq ptr %"kwnames", null
  %".7" = icmp eq i64 %"nargs", 1
  %".8" = and i1 %".6", %".7"
  %".9" = load i8, i8* @"mj_0_fib_state"
  %".10" = icmp eq i8 %".9", 0
  %".11" = and i1 %".8", %".10"
  br i1 %".11", label %"checked", label %"fallback"
fallback:
  %".31" = call ptr @"PyObject_Vectorcall"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
  ret ptr %".31"
checked:
  %".13" = getelementptr ptr, ptr %"args", i64 0
  %".14" = load ptr, ptr %".13"
  %".15" = call i1 @"mj_is_int64"(ptr %".14")
  br i1 %".15", label %"checked.1", label %"fallback"
checked.1:
  %".17" = call i64 @"mj_unbox_int"(ptr %".14")
  %".18" = call {i64, i1} @"mj_0_fib"(i64 %".17")
  %".19" = extractvalue {i64, i1} %".18", 1
  br i1 %".19", label %"failed", label %"returned"
failed:
  %".21" = load ptr, ptr @"mj_deopt_value"
  store ptr null, ptr @"mj_deopt_value"
  ret ptr %".21"
returned:
  %".24" = extractvalue {i64, i1} %".18", 0
  %".25" = call ptr @"mj_box_int"(i64 %".24")
  %".26" = icmp eq ptr %".25", null
  br i1 %".26", label %"box.failed", label %"box.ok"
box.failed:
  br label %"failed.1"
box.ok:
  ret ptr %".25"
failed.1:
  ret ptr null
}

declare i1 @"mj_is_int64"(ptr %".1")

declare i64 @"mj_unbox_int"(ptr %".1")

declare ptr @"mj_box_int"(i64 %".1")

declare ptr @"PyObject_Vectorcall"(ptr %".1", ptr %".2", i64 %".3", ptr %".4")

@"mj_0_fib_name" = private constant [N x i8] c"fib\00"
@"mj_0_fib_def" = global {ptr, ptr, i32, ptr} {[N x i8]* @"mj_0_fib_name", ptr (ptr, ptr, i64, ptr)* @"mj_0_fib_entry", i32 130, ptr null}
!0 = !{ !"branch_weights", i32 1, i32 1000 }

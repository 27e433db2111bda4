
define internal {i64, i1, i32} @"mj_0_fib"(i64 %"n", ptr %"recursion_count")
{
entry:
  %".4" = call i32 @"mj_enter_recursion"(ptr %"recursion_count")
  %".5" = icmp ne i32 %".4", 0
  br i1 %".5", label %"recursion.stopped", label %"ok", !prof !0
B0:
  %".37" = icmp slt i64 %"n", 2
  br i1 %".37", label %"B2", label %"B1"
B1:
  %".39" = sub nsw i64 %"n", 1
  %".40" = call {i64, i1, i32} @"mj_0_fib"(i64 %".39", ptr %"recursion_count")
  %".41" = extractvalue {i64, i1, i32} %".40", 1
  br i1 %".41", label %"call.failed", label %"ok.2", !prof !0
B2:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".90" = insertvalue {i64, i1, i32} undef, i64 %"n", 0
  %".91" = insertvalue {i64, i1, i32} %".90", i32 0, 2
  %".92" = insertvalue {i64, i1, i32} %".91", i1 0, 1
  ret {i64, i1, i32} %".92"
recursion.stopped:
  %".7" = icmp eq i32 %".4", 1
  br i1 %".7", label %"recursion.error", label %"deopt.B0.0"
ok:
  %".24" = load i32, i32* @"mj_call_ticks"
  %".25" = sub i32 %".24", 1
  store i32 %".25", i32* @"mj_call_ticks"
  %".27" = icmp sle i32 %".25", 0
  br i1 %".27", label %"tick", label %"tick.after", !prof !0
recursion.error:
  %".22" = insertvalue {i64, i1, i32} undef, i1 1, 1
  ret {i64, i1, i32} %".22"
deopt.B0.0:
  %".8" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %"n", i64* %".8"
  call void @"mj_deopt"(i8* @"mj_0_fib_state", i64 0, [1 x i64]* @"mj_deopt_words", i64 1)
  %".11" = call {i64, i1} @"mj_take_back_IntR"()
  %".12" = extractvalue {i64, i1} %".11", 1
  br i1 %".12", label %"takeback", label %"takeback.no"
takeback:
  %".14" = insertvalue {i64, i1, i32} undef, i32 -1, 2
  %".15" = extractvalue {i64, i1} %".11", 0
  %".16" = insertvalue {i64, i1, i32} %".14", i64 %".15", 0
  %".17" = insertvalue {i64, i1, i32} %".16", i1 0, 1
  ret {i64, i1, i32} %".17"
takeback.no:
  %".19" = insertvalue {i64, i1, i32} undef, i1 1, 1
  ret {i64, i1, i32} %".19"
tick:
  store i32 1024, i32* @"mj_call_ticks"
  %".30" = call i32 @"mj_loop_breaker"()
  %".31" = icmp slt i32 %".30", 0
  br i1 %".31", label %"fail.L413", label %"ok.1", !prof !0
tick.after:
  br label %"B0"
fail.L413:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 413)
  br label %"failed"
failed:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".95" = call {i64, i1} @"mj_take_back_IntR"()
  %".96" = extractvalue {i64, i1} %".95", 1
  br i1 %".96", label %"takeback.1", label %"takeback.no.1"
ok.1:
  br label %"tick.after"
call.failed:
  %".42" = load ptr, ptr @"mj_deopt_value"
  %".43" = icmp eq ptr %".42", null
  br i1 %".43", label %"fail.L416", label %"deopt.B1.2"
fail.L416:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 416)
  br label %"failed"
deopt.B1.2:
  %".46" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %"n", i64* %".46"
  call void @"mj_deopt_call"(i8* @"mj_0_fib_state", i64 1, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.2:
  %".52" = extractvalue {i64, i1, i32} %".40", 2
  %".53" = extractvalue {i64, i1, i32} %".40", 0
  %".54" = sub nsw i64 %"n", 2
  %".55" = call {i64, i1, i32} @"mj_0_fib"(i64 %".54", ptr %"recursion_count")
  %".56" = extractvalue {i64, i1, i32} %".55", 1
  br i1 %".56", label %"call.failed.1", label %"ok.3", !prof !0
call.failed.1:
  %".57" = load ptr, ptr @"mj_deopt_value"
  %".58" = icmp eq ptr %".57", null
  br i1 %".58", label %"fail.L416", label %"deopt.B1.4"
deopt.B1.4:
  %".59" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".53", i64* %".59"
  call void @"mj_deopt_call"(i8* @"mj_0_fib_state", i64 2, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.3:
  %".65" = extractvalue {i64, i1, i32} %".55", 2
  %".66" = extractvalue {i64, i1, i32} %".55", 0
  %".67" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".53", i64 %".66")
  %".68" = extractvalue {i64, i1} %".67", 1
  %".69" = extractvalue {i64, i1} %".67", 0
  br i1 %".68", label %"deopt.B1.5", label %"ok.4", !prof !0
deopt.B1.5:
  %".70" = icmp slt i64 %".69", 0
  %".71" = select  i1 %".70", i128 18446744073709551616, i128 -18446744073709551616
  %".72" = sext i64 %".69" to i128
  %".73" = add i128 %".72", %".71"
  %".74" = ashr i128 %".73", 64
  %".75" = trunc i128 %".74" to i64
  %".76" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".75", i64* %".76"
  %".78" = trunc i128 %".73" to i64
  %".79" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %".78", i64* %".79"
  call void @"mj_deopt"(i8* @"mj_0_fib_state", i64 3, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.4:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".85" = insertvalue {i64, i1, i32} undef, i64 %".69", 0
  %".86" = insertvalue {i64, i1, i32} %".85", i32 -1, 2
  %".87" = insertvalue {i64, i1, i32} %".86", i1 0, 1
  ret {i64, i1, i32} %".87"
takeback.1:
  %".98" = insertvalue {i64, i1, i32} undef, i32 -1, 2
  %".99" = extractvalue {i64, i1} %".95", 0
  %".100" = insertvalue {i64, i1, i32} %".98", i64 %".99", 0
  %".101" = insertvalue {i64, i1, i32} %".100", i1 0, 1
  ret {i64, i1, i32} %".101"
takeback.no.1:
  %".103" = insertvalue {i64, i1, i32} undef, i1 1, 1
  ret {i64, i1, i32} %".103"
}

declare i32 @"mj_enter_recursion"(ptr %".1")

@"mj_deopt_words" = internal global [2 x i64] zeroinitializer
@"mj_0_fib_state" = global i8 0
declare void @"mj_deopt"(ptr %".1", i64 %".2", ptr %".3", i64 %".4")

define internal {i64, i1} @"mj_take_back_IntR"() cold noinline optnone
{
entry:
  %".2" = load ptr, ptr @"mj_deopt_value"
  %".3" = icmp eq ptr %".2", null
  br i1 %".3", label %"refused", label %"check"
check:
  %".5" = call i1 @"mj_is_int64"(ptr %".2")
  br i1 %".5", label %"convert", label %"refused"
convert:
  store ptr null, ptr @"mj_deopt_value"
  %".8" = call i64 @"mj_unbox_int"(ptr %".2")
  call void @"mj_decref"(ptr %".2")
  %".10" = insertvalue {i64, i1} undef, i64 %".8", 0
  %".11" = insertvalue {i64, i1} %".10", i1 1, 1
  ret {i64, i1} %".11"
refused:
  %".13" = insertvalue {i64, i1} undef, i1 0, 1
  ret {i64, i1} %".13"
}

@"mj_deopt_value" = external global ptr
declare i1 @"mj_is_int64"(ptr %".1")

declare i64 @"mj_unbox_int"(ptr %".1")

declare void @"mj_decref"(ptr %".1")

@"mj_call_ticks" = external global i32
declare i32 @"mj_loop_breaker"()

@".str.0" = private unnamed_addr constant [N x i8] c"fib\00"
@".str.1" = private unnamed_addr constant [N x i8] c"<file>\00"
declare void @"_PyTraceback_Add"(ptr %".1", ptr %".2", i32 %".3")

declare void @"mj_deopt_call"(ptr %".1", i64 %".2", ptr %".3", i64 %".4")

declare {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".1", i64 %".2")

declare void @"mj_leave_recursion"(ptr %".1")

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
  %".42" = call ptr @"PyObject_Vectorcall"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
  ret ptr %".42"
checked:
  %".13" = getelementptr ptr, ptr %"args", i64 0
  %".14" = load ptr, ptr %".13"
  %".15" = call i1 @"mj_is_int64"(ptr %".14")
  br i1 %".15", label %"checked.1", label %"fallback"
checked.1:
  %".17" = call i64 @"mj_unbox_int"(ptr %".14")
  %".18" = call ptr @"mj_recursion_count"()
  call void @"mj_leave_recursion"(ptr %".18")
  %".20" = call {i64, i1, i32} @"mj_0_fib"(i64 %".17", ptr %".18")
  call void @"mj_retake_recursion"(ptr %".18")
  %".22" = extractvalue {i64, i1, i32} %".20", 1
  br i1 %".22", label %"failed", label %"returned"
failed:
  %".24" = load ptr, ptr @"mj_deopt_value"
  store ptr null, ptr @"mj_deopt_value"
  ret ptr %".24"
returned:
  %".27" = extractvalue {i64, i1, i32} %".20", 0
  %".28" = extractvalue {i64, i1, i32} %".20", 2
  %".29" = icmp sge i32 %".28", 0
  br i1 %".29", label %"argument", label %"computed"
argument:
  %".31" = sext i32 %".28" to i64
  %".32" = getelementptr ptr, ptr %"args", i64 %".31"
  %".33" = load ptr, ptr %".32"
  call void @"mj_incref"(ptr %".33")
  ret ptr %".33"
computed:
  %".36" = call ptr @"mj_box_int"(i64 %".27")
  %".37" = icmp eq ptr %".36", null
  br i1 %".37", label %"box.failed", label %"box.ok"
box.failed:
  br label %"failed.1"
box.ok:
  ret ptr %".36"
failed.1:
  ret ptr null
}

declare ptr @"mj_recursion_count"()

declare void @"mj_retake_recursion"(ptr %".1")

declare void @"mj_incref"(ptr %".1")

declare ptr @"mj_box_int"(i64 %".1")

declare ptr @"PyObject_Vectorcall"(ptr %".1", ptr %".2", i64 %".3", ptr %".4")

@"mj_0_fib_name" = private constant [N x i8] c"fib\00"
@"mj_0_fib_def" = global {ptr, ptr, i32, ptr} {[N x i8]* @"mj_0_fib_name", ptr (ptr, ptr, i64, ptr)* @"mj_0_fib_entry", i32 130, ptr null}
!0 = !{ !"branch_weights", i32 1, i32 1000 }

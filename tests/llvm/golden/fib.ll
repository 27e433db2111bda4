
define internal {i64, i1} @"mj_0_fib"(i64 %"n", ptr %"recursion_count")
{
entry:
  %".4" = call i32 @"mj_enter_recursion"(ptr %"recursion_count")
  %".5" = icmp ne i32 %".4", 0
  br i1 %".5", label %"recursion.stopped", label %"ok", !prof !0
B0:
  %".36" = icmp slt i64 %"n", 2
  br i1 %".36", label %"B2", label %"B1"
B1:
  %".38" = sub nsw i64 %"n", 1
  %".39" = call {i64, i1} @"mj_0_fib"(i64 %".38", ptr %"recursion_count")
  %".40" = extractvalue {i64, i1} %".39", 1
  br i1 %".40", label %"call.failed", label %"ok.2", !prof !0
B2:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".86" = insertvalue {i64, i1} undef, i64 %"n", 0
  %".87" = insertvalue {i64, i1} %".86", i1 0, 1
  ret {i64, i1} %".87"
recursion.stopped:
  %".7" = icmp eq i32 %".4", 1
  br i1 %".7", label %"recursion.error", label %"deopt.B0.0"
ok:
  %".23" = load i32, i32* @"mj_call_ticks"
  %".24" = sub i32 %".23", 1
  store i32 %".24", i32* @"mj_call_ticks"
  %".26" = icmp sle i32 %".24", 0
  br i1 %".26", label %"tick", label %"tick.after", !prof !0
recursion.error:
  %".21" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".21"
deopt.B0.0:
  %".8" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %"n", i64* %".8"
  call void @"mj_deopt"(i8* @"mj_0_fib_state", i64 0, [1 x i64]* @"mj_deopt_words", i64 1)
  %".11" = call {i64, i1} @"mj_take_back_IntR"()
  %".12" = extractvalue {i64, i1} %".11", 1
  br i1 %".12", label %"takeback", label %"takeback.no"
takeback:
  %".14" = extractvalue {i64, i1} %".11", 0
  %".15" = insertvalue {i64, i1} undef, i64 %".14", 0
  %".16" = insertvalue {i64, i1} %".15", i1 0, 1
  ret {i64, i1} %".16"
takeback.no:
  %".18" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".18"
tick:
  store i32 1024, i32* @"mj_call_ticks"
  %".29" = call i32 @"mj_loop_breaker"()
  %".30" = icmp slt i32 %".29", 0
  br i1 %".30", label %"fail.L413", label %"ok.1", !prof !0
tick.after:
  br label %"B0"
fail.L413:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 413)
  br label %"failed"
failed:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".90" = call {i64, i1} @"mj_take_back_IntR"()
  %".91" = extractvalue {i64, i1} %".90", 1
  br i1 %".91", label %"takeback.1", label %"takeback.no.1"
ok.1:
  br label %"tick.after"
call.failed:
  %".41" = load ptr, ptr @"mj_deopt_value"
  %".42" = icmp eq ptr %".41", null
  br i1 %".42", label %"fail.L416", label %"deopt.B1.2"
fail.L416:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 416)
  br label %"failed"
deopt.B1.2:
  %".45" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %"n", i64* %".45"
  call void @"mj_deopt_call"(i8* @"mj_0_fib_state", i64 1, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.2:
  %".51" = extractvalue {i64, i1} %".39", 0
  %".52" = sub nsw i64 %"n", 2
  %".53" = call {i64, i1} @"mj_0_fib"(i64 %".52", ptr %"recursion_count")
  %".54" = extractvalue {i64, i1} %".53", 1
  br i1 %".54", label %"call.failed.1", label %"ok.3", !prof !0
call.failed.1:
  %".55" = load ptr, ptr @"mj_deopt_value"
  %".56" = icmp eq ptr %".55", null
  br i1 %".56", label %"fail.L416", label %"deopt.B1.4"
deopt.B1.4:
  %".57" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".51", i64* %".57"
  call void @"mj_deopt_call"(i8* @"mj_0_fib_state", i64 2, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.3:
  %".63" = extractvalue {i64, i1} %".53", 0
  %".64" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".51", i64 %".63")
  %".65" = extractvalue {i64, i1} %".64", 1
  %".66" = extractvalue {i64, i1} %".64", 0
  br i1 %".65", label %"deopt.B1.5", label %"ok.4", !prof !0
deopt.B1.5:
  %".67" = icmp slt i64 %".66", 0
  %".68" = select  i1 %".67", i128 18446744073709551616, i128 -18446744073709551616
  %".69" = sext i64 %".66" to i128
  %".70" = add i128 %".69", %".68"
  %".71" = ashr i128 %".70", 64
  %".72" = trunc i128 %".71" to i64
  %".73" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".72", i64* %".73"
  %".75" = trunc i128 %".70" to i64
  %".76" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %".75", i64* %".76"
  call void @"mj_deopt"(i8* @"mj_0_fib_state", i64 3, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.4:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".82" = insertvalue {i64, i1} undef, i64 %".66", 0
  %".83" = insertvalue {i64, i1} %".82", i1 0, 1
  ret {i64, i1} %".83"
takeback.1:
  %".93" = extractvalue {i64, i1} %".90", 0
  %".94" = insertvalue {i64, i1} undef, i64 %".93", 0
  %".95" = insertvalue {i64, i1} %".94", i1 0, 1
  ret {i64, i1} %".95"
takeback.no.1:
  %".97" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".97"
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
  %".34" = call ptr @"PyObject_Vectorcall"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
  ret ptr %".34"
checked:
  %".13" = getelementptr ptr, ptr %"args", i64 0
  %".14" = load ptr, ptr %".13"
  %".15" = call i1 @"mj_is_int64"(ptr %".14")
  br i1 %".15", label %"checked.1", label %"fallback"
checked.1:
  %".17" = call i64 @"mj_unbox_int"(ptr %".14")
  %".18" = call ptr @"mj_recursion_count"()
  call void @"mj_leave_recursion"(ptr %".18")
  %".20" = call {i64, i1} @"mj_0_fib"(i64 %".17", ptr %".18")
  call void @"mj_retake_recursion"(ptr %".18")
  %".22" = extractvalue {i64, i1} %".20", 1
  br i1 %".22", label %"failed", label %"returned"
failed:
  %".24" = load ptr, ptr @"mj_deopt_value"
  store ptr null, ptr @"mj_deopt_value"
  ret ptr %".24"
returned:
  %".27" = extractvalue {i64, i1} %".20", 0
  %".28" = call ptr @"mj_box_int"(i64 %".27")
  %".29" = icmp eq ptr %".28", null
  br i1 %".29", label %"box.failed", label %"box.ok"
box.failed:
  br label %"failed.1"
box.ok:
  ret ptr %".28"
failed.1:
  ret ptr null
}

declare ptr @"mj_recursion_count"()

declare void @"mj_retake_recursion"(ptr %".1")

declare ptr @"mj_box_int"(i64 %".1")

declare ptr @"PyObject_Vectorcall"(ptr %".1", ptr %".2", i64 %".3", ptr %".4")

@"mj_0_fib_name" = private constant [N x i8] c"fib\00"
@"mj_0_fib_def" = global {ptr, ptr, i32, ptr} {[N x i8]* @"mj_0_fib_name", ptr (ptr, ptr, i64, ptr)* @"mj_0_fib_entry", i32 130, ptr null}
!0 = !{ !"branch_weights", i32 1, i32 1000 }

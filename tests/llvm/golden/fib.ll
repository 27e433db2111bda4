
define internal {i64, i1} @"mj_0_fib"(i64 %"n", ptr %"recursion_count")
{
entry:
  %".4" = call i32 @"mj_enter_recursion"(ptr %"recursion_count")
  %".5" = icmp ne i32 %".4", 0
  br i1 %".5", label %"recursion.stopped", label %"ok", !prof !0
B0:
  %".24" = icmp slt i64 %"n", 2
  br i1 %".24", label %"B2", label %"B1"
B1:
  %".26" = sub nsw i64 %"n", 1
  %".27" = call {i64, i1} @"mj_0_fib"(i64 %".26", ptr %"recursion_count")
  %".28" = extractvalue {i64, i1} %".27", 1
  br i1 %".28", label %"call.failed", label %"ok.1", !prof !0
B2:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".74" = insertvalue {i64, i1} undef, i64 %"n", 0
  %".75" = insertvalue {i64, i1} %".74", i1 0, 1
  ret {i64, i1} %".75"
recursion.stopped:
  %".7" = icmp eq i32 %".4", 1
  br i1 %".7", label %"recursion.error", label %"deopt.B0.0"
ok:
  br label %"B0"
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
call.failed:
  %".29" = load ptr, ptr @"mj_deopt_value"
  %".30" = icmp eq ptr %".29", null
  br i1 %".30", label %"fail.L416", label %"deopt.B1.2"
fail.L416:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 416)
  br label %"failed"
failed:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".78" = call {i64, i1} @"mj_take_back_IntR"()
  %".79" = extractvalue {i64, i1} %".78", 1
  br i1 %".79", label %"takeback.1", label %"takeback.no.1"
deopt.B1.2:
  %".33" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %"n", i64* %".33"
  call void @"mj_deopt_call"(i8* @"mj_0_fib_state", i64 1, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.1:
  %".39" = extractvalue {i64, i1} %".27", 0
  %".40" = sub nsw i64 %"n", 2
  %".41" = call {i64, i1} @"mj_0_fib"(i64 %".40", ptr %"recursion_count")
  %".42" = extractvalue {i64, i1} %".41", 1
  br i1 %".42", label %"call.failed.1", label %"ok.2", !prof !0
call.failed.1:
  %".43" = load ptr, ptr @"mj_deopt_value"
  %".44" = icmp eq ptr %".43", null
  br i1 %".44", label %"fail.L416", label %"deopt.B1.4"
deopt.B1.4:
  %".45" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".39", i64* %".45"
  call void @"mj_deopt_call"(i8* @"mj_0_fib_state", i64 2, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.2:
  %".51" = extractvalue {i64, i1} %".41", 0
  %".52" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".39", i64 %".51")
  %".53" = extractvalue {i64, i1} %".52", 1
  %".54" = extractvalue {i64, i1} %".52", 0
  br i1 %".53", label %"deopt.B1.5", label %"ok.3", !prof !0
deopt.B1.5:
  %".55" = icmp slt i64 %".54", 0
  %".56" = select  i1 %".55", i128 18446744073709551616, i128 -18446744073709551616
  %".57" = sext i64 %".54" to i128
  %".58" = add i128 %".57", %".56"
  %".59" = ashr i128 %".58", 64
  %".60" = trunc i128 %".59" to i64
  %".61" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".60", i64* %".61"
  %".63" = trunc i128 %".58" to i64
  %".64" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %".63", i64* %".64"
  call void @"mj_deopt"(i8* @"mj_0_fib_state", i64 3, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.3:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".70" = insertvalue {i64, i1} undef, i64 %".54", 0
  %".71" = insertvalue {i64, i1} %".70", i1 0, 1
  ret {i64, i1} %".71"
takeback.1:
  %".81" = extractvalue {i64, i1} %".78", 0
  %".82" = insertvalue {i64, i1} undef, i64 %".81", 0
  %".83" = insertvalue {i64, i1} %".82", i1 0, 1
  ret {i64, i1} %".83"
takeback.no.1:
  %".85" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".85"
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

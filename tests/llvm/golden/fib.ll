
define internal {i64, i1, i32} @"mj_0_fib"(i64 %"n", ptr %"n.object", ptr %"recursion_count")
{
entry:
  %".5" = call i32 @"mj_enter_recursion"(ptr %"recursion_count")
  %".6" = icmp ne i32 %".5", 0
  br i1 %".6", label %"recursion.stopped", label %"ok", !prof !0
B0:
  %".38" = icmp slt i64 %"n", 2
  br i1 %".38", label %"B2", label %"B1"
B1:
  %".40" = sub nsw i64 %"n", 1
  %".41" = call {i64, i1, i32} @"mj_0_fib"(i64 %".40", ptr null, ptr %"recursion_count")
  %".42" = extractvalue {i64, i1, i32} %".41", 1
  br i1 %".42", label %"call.failed", label %"ok.2", !prof !0
B2:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".91" = insertvalue {i64, i1, i32} undef, i64 %"n", 0
  %".92" = insertvalue {i64, i1, i32} %".91", i32 0, 2
  %".93" = insertvalue {i64, i1, i32} %".92", i1 0, 1
  ret {i64, i1, i32} %".93"
recursion.stopped:
  %".8" = icmp eq i32 %".5", 1
  br i1 %".8", label %"recursion.error", label %"deopt.B0.0"
ok:
  %".25" = load i32, i32* @"mj_call_ticks"
  %".26" = sub i32 %".25", 1
  store i32 %".26", i32* @"mj_call_ticks"
  %".28" = icmp sle i32 %".26", 0
  br i1 %".28", label %"tick", label %"tick.after", !prof !0
recursion.error:
  %".23" = insertvalue {i64, i1, i32} undef, i1 1, 1
  ret {i64, i1, i32} %".23"
deopt.B0.0:
  %".9" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %"n", i64* %".9"
  call void @"mj_deopt"(i8* @"mj_0_fib_state", i64 0, [1 x i64]* @"mj_deopt_words", i64 1)
  %".12" = call {i64, i1} @"mj_take_back_IntR"()
  %".13" = extractvalue {i64, i1} %".12", 1
  br i1 %".13", label %"takeback", label %"takeback.no"
takeback:
  %".15" = insertvalue {i64, i1, i32} undef, i32 -1, 2
  %".16" = extractvalue {i64, i1} %".12", 0
  %".17" = insertvalue {i64, i1, i32} %".15", i64 %".16", 0
  %".18" = insertvalue {i64, i1, i32} %".17", i1 0, 1
  ret {i64, i1, i32} %".18"
takeback.no:
  %".20" = insertvalue {i64, i1, i32} undef, i1 1, 1
  ret {i64, i1, i32} %".20"
tick:
  store i32 1024, i32* @"mj_call_ticks"
  %".31" = call i32 @"mj_loop_breaker"()
  %".32" = icmp slt i32 %".31", 0
  br i1 %".32", label %"fail.L413", label %"ok.1", !prof !0
tick.after:
  br label %"B0"
fail.L413:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 413)
  br label %"failed"
failed:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".96" = call {i64, i1} @"mj_take_back_IntR"()
  %".97" = extractvalue {i64, i1} %".96", 1
  br i1 %".97", label %"takeback.1", label %"takeback.no.1"
ok.1:
  br label %"tick.after"
call.failed:
  %".43" = load ptr, ptr @"mj_deopt_value"
  %".44" = icmp eq ptr %".43", null
  br i1 %".44", label %"fail.L416", label %"deopt.B1.2"
fail.L416:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 416)
  br label %"failed"
deopt.B1.2:
  %".47" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %"n", i64* %".47"
  call void @"mj_deopt_call"(i8* @"mj_0_fib_state", i64 1, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.2:
  %".53" = extractvalue {i64, i1, i32} %".41", 2
  %".54" = extractvalue {i64, i1, i32} %".41", 0
  %".55" = sub nsw i64 %"n", 2
  %".56" = call {i64, i1, i32} @"mj_0_fib"(i64 %".55", ptr null, ptr %"recursion_count")
  %".57" = extractvalue {i64, i1, i32} %".56", 1
  br i1 %".57", label %"call.failed.1", label %"ok.3", !prof !0
call.failed.1:
  %".58" = load ptr, ptr @"mj_deopt_value"
  %".59" = icmp eq ptr %".58", null
  br i1 %".59", label %"fail.L416", label %"deopt.B1.4"
deopt.B1.4:
  %".60" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".54", i64* %".60"
  call void @"mj_deopt_call"(i8* @"mj_0_fib_state", i64 2, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.3:
  %".66" = extractvalue {i64, i1, i32} %".56", 2
  %".67" = extractvalue {i64, i1, i32} %".56", 0
  %".68" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".54", i64 %".67")
  %".69" = extractvalue {i64, i1} %".68", 1
  %".70" = extractvalue {i64, i1} %".68", 0
  br i1 %".69", label %"deopt.B1.5", label %"ok.4", !prof !0
deopt.B1.5:
  %".71" = icmp slt i64 %".70", 0
  %".72" = select  i1 %".71", i128 18446744073709551616, i128 -18446744073709551616
  %".73" = sext i64 %".70" to i128
  %".74" = add i128 %".73", %".72"
  %".75" = ashr i128 %".74", 64
  %".76" = trunc i128 %".75" to i64
  %".77" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".76", i64* %".77"
  %".79" = trunc i128 %".74" to i64
  %".80" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %".79", i64* %".80"
  call void @"mj_deopt"(i8* @"mj_0_fib_state", i64 3, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.4:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".86" = insertvalue {i64, i1, i32} undef, i64 %".70", 0
  %".87" = insertvalue {i64, i1, i32} %".86", i32 -1, 2
  %".88" = insertvalue {i64, i1, i32} %".87", i1 0, 1
  ret {i64, i1, i32} %".88"
takeback.1:
  %".99" = insertvalue {i64, i1, i32} undef, i32 -1, 2
  %".100" = extractvalue {i64, i1} %".96", 0
  %".101" = insertvalue {i64, i1, i32} %".99", i64 %".100", 0
  %".102" = insertvalue {i64, i1, i32} %".101", i1 0, 1
  ret {i64, i1, i32} %".102"
takeback.no.1:
  %".104" = insertvalue {i64, i1, i32} undef, i1 1, 1
  ret {i64, i1, i32} %".104"
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
  %".20" = call {i64, i1, i32} @"mj_0_fib"(i64 %".17", ptr %".14", ptr %".18")
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


define internal {i64, i1, i32} @"mj_0_fib"(i64 %"n", ptr %"n.object", ptr %"recursion_count")
{
entry:
  %".5" = call i32 @"mj_enter_recursion"(ptr %"recursion_count")
  %".6" = icmp ne i32 %".5", 0
  br i1 %".6", label %"recursion.stopped", label %"ok", !prof !0
B0:
  %".44" = icmp slt i64 %"n", 2
  br i1 %".44", label %"B2", label %"B1"
B1:
  %".46" = sub nsw i64 %"n", 1
  %".47" = call {i64, i1, i32} @"mj_0_fib"(i64 %".46", ptr null, ptr %"recursion_count")
  %".48" = extractvalue {i64, i1, i32} %".47", 1
  br i1 %".48", label %"call.failed", label %"ok.2", !prof !0
B2:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".100" = insertvalue {i64, i1, i32} undef, i64 %"n", 0
  %".101" = insertvalue {i64, i1, i32} %".100", i32 0, 2
  %".102" = insertvalue {i64, i1, i32} %".101", i1 0, 1
  ret {i64, i1, i32} %".102"
recursion.stopped:
  %".8" = icmp eq i32 %".5", 1
  br i1 %".8", label %"recursion.error", label %"deopt.B0.0"
ok:
  %".31" = load i32, i32* @"mj_call_ticks"
  %".32" = sub i32 %".31", 1
  store i32 %".32", i32* @"mj_call_ticks"
  %".34" = icmp sle i32 %".32", 0
  br i1 %".34", label %"tick", label %"tick.after", !prof !0
recursion.error:
  %".29" = insertvalue {i64, i1, i32} undef, i1 1, 1
  ret {i64, i1, i32} %".29"
deopt.B0.0:
  %".9" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %"n", i64* %".9"
  %".11" = ptrtoint ptr %"n.object" to i64
  %".12" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %".11", i64* %".12"
  call void @"mj_deopt"(i8* @"mj_0_fib_state", i64 0, [1 x i64]* @"mj_deopt_words", i64 2)
  %".15" = load ptr, ptr @"mj_deopt_value"
  %".16" = icmp eq ptr %".15", %"n.object"
  %".17" = select  i1 %".16", i32 0, i32 -1
  %".18" = call {i64, i1} @"mj_take_back_IntR"()
  %".19" = extractvalue {i64, i1} %".18", 1
  br i1 %".19", label %"takeback", label %"takeback.no"
takeback:
  %".21" = insertvalue {i64, i1, i32} undef, i32 %".17", 2
  %".22" = extractvalue {i64, i1} %".18", 0
  %".23" = insertvalue {i64, i1, i32} %".21", i64 %".22", 0
  %".24" = insertvalue {i64, i1, i32} %".23", i1 0, 1
  ret {i64, i1, i32} %".24"
takeback.no:
  %".26" = insertvalue {i64, i1, i32} undef, i1 1, 1
  ret {i64, i1, i32} %".26"
tick:
  store i32 1024, i32* @"mj_call_ticks"
  %".37" = call i32 @"mj_loop_breaker"()
  %".38" = icmp slt i32 %".37", 0
  br i1 %".38", label %"fail.L413", label %"ok.1", !prof !0
tick.after:
  br label %"B0"
fail.L413:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 413)
  br label %"failed"
failed:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".105" = load ptr, ptr @"mj_deopt_value"
  %".106" = icmp eq ptr %".105", %"n.object"
  %".107" = select  i1 %".106", i32 0, i32 -1
  %".108" = call {i64, i1} @"mj_take_back_IntR"()
  %".109" = extractvalue {i64, i1} %".108", 1
  br i1 %".109", label %"takeback.1", label %"takeback.no.1"
ok.1:
  br label %"tick.after"
call.failed:
  %".49" = load ptr, ptr @"mj_deopt_value"
  %".50" = icmp eq ptr %".49", null
  br i1 %".50", label %"fail.L416", label %"deopt.B1.2"
fail.L416:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 416)
  br label %"failed"
deopt.B1.2:
  %".53" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %"n", i64* %".53"
  %".55" = ptrtoint ptr %"n.object" to i64
  %".56" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %".55", i64* %".56"
  call void @"mj_deopt_call"(i8* @"mj_0_fib_state", i64 1, [1 x i64]* @"mj_deopt_words", i64 3)
  br label %"failed"
ok.2:
  %".62" = extractvalue {i64, i1, i32} %".47", 2
  %".63" = extractvalue {i64, i1, i32} %".47", 0
  %".64" = sub nsw i64 %"n", 2
  %".65" = call {i64, i1, i32} @"mj_0_fib"(i64 %".64", ptr null, ptr %"recursion_count")
  %".66" = extractvalue {i64, i1, i32} %".65", 1
  br i1 %".66", label %"call.failed.1", label %"ok.3", !prof !0
call.failed.1:
  %".67" = load ptr, ptr @"mj_deopt_value"
  %".68" = icmp eq ptr %".67", null
  br i1 %".68", label %"fail.L416", label %"deopt.B1.4"
deopt.B1.4:
  %".69" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".63", i64* %".69"
  call void @"mj_deopt_call"(i8* @"mj_0_fib_state", i64 2, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.3:
  %".75" = extractvalue {i64, i1, i32} %".65", 2
  %".76" = extractvalue {i64, i1, i32} %".65", 0
  %".77" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".63", i64 %".76")
  %".78" = extractvalue {i64, i1} %".77", 1
  %".79" = extractvalue {i64, i1} %".77", 0
  br i1 %".78", label %"deopt.B1.5", label %"ok.4", !prof !0
deopt.B1.5:
  %".80" = icmp slt i64 %".79", 0
  %".81" = select  i1 %".80", i128 18446744073709551616, i128 -18446744073709551616
  %".82" = sext i64 %".79" to i128
  %".83" = add i128 %".82", %".81"
  %".84" = ashr i128 %".83", 64
  %".85" = trunc i128 %".84" to i64
  %".86" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".85", i64* %".86"
  %".88" = trunc i128 %".83" to i64
  %".89" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %".88", i64* %".89"
  call void @"mj_deopt"(i8* @"mj_0_fib_state", i64 3, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.4:
  call void @"mj_leave_recursion"(ptr %"recursion_count")
  %".95" = insertvalue {i64, i1, i32} undef, i64 %".79", 0
  %".96" = insertvalue {i64, i1, i32} %".95", i32 -1, 2
  %".97" = insertvalue {i64, i1, i32} %".96", i1 0, 1
  ret {i64, i1, i32} %".97"
takeback.1:
  %".111" = insertvalue {i64, i1, i32} undef, i32 %".107", 2
  %".112" = extractvalue {i64, i1} %".108", 0
  %".113" = insertvalue {i64, i1, i32} %".111", i64 %".112", 0
  %".114" = insertvalue {i64, i1, i32} %".113", i1 0, 1
  ret {i64, i1, i32} %".114"
takeback.no.1:
  %".116" = insertvalue {i64, i1, i32} undef, i1 1, 1
  ret {i64, i1, i32} %".116"
}

declare i32 @"mj_enter_recursion"(ptr %".1")

@"mj_deopt_words" = internal global [3 x i64] zeroinitializer
@"mj_0_fib_state" = global i8 0
declare void @"mj_deopt"(ptr %".1", i64 %".2", ptr %".3", i64 %".4")

@"mj_deopt_value" = external global ptr
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


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
  br i1 %".27", label %"call.failed", label %"ok.1", !prof !0
B2:
  call void @"mj_leave_recursion"()
  %".73" = insertvalue {i64, i1} undef, i64 %"n", 0
  %".74" = insertvalue {i64, i1} %".73", i1 0, 1
  ret {i64, i1} %".74"
recursion.stopped:
  %".6" = icmp eq i32 %".3", 1
  br i1 %".6", label %"recursion.error", label %"deopt.B0.0"
ok:
  br label %"B0"
recursion.error:
  %".20" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".20"
deopt.B0.0:
  %".7" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %"n", i64* %".7"
  call void @"mj_deopt"(i8* @"mj_0_fib_state", i64 0, [1 x i64]* @"mj_deopt_words", i64 1)
  %".10" = call {i64, i1} @"mj_take_back_IntR"()
  %".11" = extractvalue {i64, i1} %".10", 1
  br i1 %".11", label %"takeback", label %"takeback.no"
takeback:
  %".13" = extractvalue {i64, i1} %".10", 0
  %".14" = insertvalue {i64, i1} undef, i64 %".13", 0
  %".15" = insertvalue {i64, i1} %".14", i1 0, 1
  ret {i64, i1} %".15"
takeback.no:
  %".17" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".17"
call.failed:
  %".28" = load ptr, ptr @"mj_deopt_value"
  %".29" = icmp eq ptr %".28", null
  br i1 %".29", label %"fail.L416", label %"deopt.B1.2"
fail.L416:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 416)
  br label %"failed"
failed:
  call void @"mj_leave_recursion"()
  %".77" = call {i64, i1} @"mj_take_back_IntR"()
  %".78" = extractvalue {i64, i1} %".77", 1
  br i1 %".78", label %"takeback.1", label %"takeback.no.1"
deopt.B1.2:
  %".32" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %"n", i64* %".32"
  call void @"mj_deopt_call"(i8* @"mj_0_fib_state", i64 1, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.1:
  %".38" = extractvalue {i64, i1} %".26", 0
  %".39" = sub nsw i64 %"n", 2
  %".40" = call {i64, i1} @"mj_0_fib"(i64 %".39")
  %".41" = extractvalue {i64, i1} %".40", 1
  br i1 %".41", label %"call.failed.1", label %"ok.2", !prof !0
call.failed.1:
  %".42" = load ptr, ptr @"mj_deopt_value"
  %".43" = icmp eq ptr %".42", null
  br i1 %".43", label %"fail.L416", label %"deopt.B1.4"
deopt.B1.4:
  %".44" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".38", i64* %".44"
  call void @"mj_deopt_call"(i8* @"mj_0_fib_state", i64 2, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.2:
  %".50" = extractvalue {i64, i1} %".40", 0
  %".51" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".38", i64 %".50")
  %".52" = extractvalue {i64, i1} %".51", 1
  %".53" = extractvalue {i64, i1} %".51", 0
  br i1 %".52", label %"deopt.B1.5", label %"ok.3", !prof !0
deopt.B1.5:
  %".54" = icmp slt i64 %".53", 0
  %".55" = select  i1 %".54", i128 18446744073709551616, i128 -18446744073709551616
  %".56" = sext i64 %".53" to i128
  %".57" = add i128 %".56", %".55"
  %".58" = ashr i128 %".57", 64
  %".59" = trunc i128 %".58" to i64
  %".60" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".59", i64* %".60"
  %".62" = trunc i128 %".57" to i64
  %".63" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %".62", i64* %".63"
  call void @"mj_deopt"(i8* @"mj_0_fib_state", i64 3, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
ok.3:
  call void @"mj_leave_recursion"()
  %".69" = insertvalue {i64, i1} undef, i64 %".53", 0
  %".70" = insertvalue {i64, i1} %".69", i1 0, 1
  ret {i64, i1} %".70"
takeback.1:
  %".80" = extractvalue {i64, i1} %".77", 0
  %".81" = insertvalue {i64, i1} undef, i64 %".80", 0
  %".82" = insertvalue {i64, i1} %".81", i1 0, 1
  ret {i64, i1} %".82"
takeback.no.1:
  %".84" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".84"
}

declare i32 @"mj_enter_recursion"()

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

declare void @"mj_leave_recursion"()

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

declare ptr @"mj_box_int"(i64 %".1")

declare ptr @"PyObject_Vectorcall"(ptr %".1", ptr %".2", i64 %".3", ptr %".4")

@"mj_0_fib_name" = private constant [N x i8] c"fib\00"
@"mj_0_fib_def" = global {ptr, ptr, i32, ptr} {[N x i8]* @"mj_0_fib_name", ptr (ptr, ptr, i64, ptr)* @"mj_0_fib_entry", i32 130, ptr null}
!0 = !{ !"branch_weights", i32 1, i32 1000 }


define internal {i64, i1} @"mj_0_fib"(i64 %"n")
{
entry:
  %".3" = call i32 @"mj_enter_recursion"()
  %".4" = icmp ne i32 %".3", 0
  br i1 %".4", label %"recursion.stopped", label %"ok", !prof !0
B0:
  %".28" = icmp slt i64 %"n", 2
  br i1 %".28", label %"B2", label %"B1"
B1:
  %".30" = sub nsw i64 %"n", 1
  %".31" = call {i64, i1} @"mj_0_fib"(i64 %".30")
  %".32" = extractvalue {i64, i1} %".31", 1
  br i1 %".32", label %"call.failed", label %"ok.1", !prof !0
B2:
  call void @"mj_leave_recursion"()
  %".93" = insertvalue {i64, i1} undef, i64 %"n", 0
  %".94" = insertvalue {i64, i1} %".93", i1 0, 1
  ret {i64, i1} %".94"
recursion.stopped:
  %".6" = icmp eq i32 %".3", 1
  br i1 %".6", label %"recursion.error", label %"deopt.B0.0"
ok:
  br label %"B0"
recursion.error:
  %".25" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".25"
deopt.B0.0:
  %".7" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %"n", i64* %".7"
  %".9" = call ptr @"mj_deopt"(i8* @"mj_0_fib_state", i64 0, [1 x i64]* @"mj_deopt_words", i64 1, i32 1, [N x i8]* @".str.0", [N x i8]* @".str.1")
  store ptr %".9", ptr @"mj_deopt_value"
  %".11" = load ptr, ptr @"mj_deopt_value"
  %".12" = icmp eq ptr %".11", null
  br i1 %".12", label %"takeback.no", label %"takeback.check"
takeback.check:
  %".14" = call i1 @"mj_is_int64"(ptr %".11")
  br i1 %".14", label %"takeback", label %"takeback.no"
takeback:
  store ptr null, ptr @"mj_deopt_value"
  %".17" = call i64 @"mj_unbox_int"(ptr %".11")
  call void @"mj_decref_cold"(ptr %".11")
  %".19" = insertvalue {i64, i1} undef, i64 %".17", 0
  %".20" = insertvalue {i64, i1} %".19", i1 0, 1
  ret {i64, i1} %".20"
takeback.no:
  %".22" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".22"
call.failed:
  %".33" = load ptr, ptr @"mj_deopt_value"
  %".34" = icmp eq ptr %".33", null
  br i1 %".34", label %"fail.L416", label %"call.deoptimised"
call.deoptimised:
  store ptr null, ptr @"mj_deopt_value"
  br label %"deopt.B1.2"
fail.L416:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 416)
  br label %"failed"
failed:
  call void @"mj_leave_recursion"()
  %".97" = load ptr, ptr @"mj_deopt_value"
  %".98" = icmp eq ptr %".97", null
  br i1 %".98", label %"takeback.no.1", label %"takeback.check.1"
deopt.B1.2:
  %".39" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %"n", i64* %".39"
  %".41" = ptrtoint ptr %".33" to i64
  %".42" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %".41", i64* %".42"
  %".44" = call ptr @"mj_deopt"(i8* @"mj_0_fib_state", i64 1, [1 x i64]* @"mj_deopt_words", i64 2, i32 0, [N x i8]* @".str.0", [N x i8]* @".str.1")
  call void @"mj_decref_cold"(ptr %".33")
  store ptr %".44", ptr @"mj_deopt_value"
  br label %"failed"
ok.1:
  %".50" = extractvalue {i64, i1} %".31", 0
  %".51" = sub nsw i64 %"n", 2
  %".52" = call {i64, i1} @"mj_0_fib"(i64 %".51")
  %".53" = extractvalue {i64, i1} %".52", 1
  br i1 %".53", label %"call.failed.1", label %"ok.2", !prof !0
call.failed.1:
  %".54" = load ptr, ptr @"mj_deopt_value"
  %".55" = icmp eq ptr %".54", null
  br i1 %".55", label %"fail.L416", label %"call.deoptimised.1"
call.deoptimised.1:
  store ptr null, ptr @"mj_deopt_value"
  br label %"deopt.B1.4"
deopt.B1.4:
  %".58" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".50", i64* %".58"
  %".60" = ptrtoint ptr %".54" to i64
  %".61" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %".60", i64* %".61"
  %".63" = call ptr @"mj_deopt"(i8* @"mj_0_fib_state", i64 2, [1 x i64]* @"mj_deopt_words", i64 2, i32 0, [N x i8]* @".str.0", [N x i8]* @".str.1")
  call void @"mj_decref_cold"(ptr %".54")
  store ptr %".63", ptr @"mj_deopt_value"
  br label %"failed"
ok.2:
  %".69" = extractvalue {i64, i1} %".52", 0
  %".70" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".50", i64 %".69")
  %".71" = extractvalue {i64, i1} %".70", 1
  %".72" = extractvalue {i64, i1} %".70", 0
  br i1 %".71", label %"deopt.B1.5", label %"ok.3", !prof !0
deopt.B1.5:
  %".73" = icmp slt i64 %".72", 0
  %".74" = select  i1 %".73", i128 18446744073709551616, i128 -18446744073709551616
  %".75" = sext i64 %".72" to i128
  %".76" = add i128 %".75", %".74"
  %".77" = ashr i128 %".76", 64
  %".78" = trunc i128 %".77" to i64
  %".79" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".78", i64* %".79"
  %".81" = trunc i128 %".76" to i64
  %".82" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %".81", i64* %".82"
  %".84" = call ptr @"mj_deopt"(i8* @"mj_0_fib_state", i64 3, [1 x i64]* @"mj_deopt_words", i64 2, i32 0, [N x i8]* @".str.0", [N x i8]* @".str.1")
  store ptr %".84", ptr @"mj_deopt_value"
  br label %"failed"
ok.3:
  call void @"mj_leave_recursion"()
  %".89" = insertvalue {i64, i1} undef, i64 %".72", 0
  %".90" = insertvalue {i64, i1} %".89", i1 0, 1
  ret {i64, i1} %".90"
takeback.check.1:
  %".100" = call i1 @"mj_is_int64"(ptr %".97")
  br i1 %".100", label %"takeback.1", label %"takeback.no.1"
takeback.1:
  store ptr null, ptr @"mj_deopt_value"
  %".103" = call i64 @"mj_unbox_int"(ptr %".97")
  call void @"mj_decref_cold"(ptr %".97")
  %".105" = insertvalue {i64, i1} undef, i64 %".103", 0
  %".106" = insertvalue {i64, i1} %".105", i1 0, 1
  ret {i64, i1} %".106"
takeback.no.1:
  %".108" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".108"
}

declare i32 @"mj_enter_recursion"()

@"mj_deopt_words" = internal global [2 x i64] zeroinitializer
@"mj_0_fib_state" = global i8 0
@".str.0" = private unnamed_addr constant [N x i8] c"fib\00"
@".str.1" = private unnamed_addr constant [N x i8] c"<file>\00"
declare ptr @"mj_deopt"(ptr %".1", i64 %".2", ptr %".3", i64 %".4", i32 %".5", ptr %".6", ptr %".7")

@"mj_deopt_value" = external global ptr
declare i1 @"mj_is_int64"(ptr %".1")

declare i64 @"mj_unbox_int"(ptr %".1")

declare void @"mj_decref_cold"(ptr %".1")

declare void @"_PyTraceback_Add"(ptr %".1", ptr %".2", i32 %".3")

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


define internal {i64, i1} @"mj_0_fib"(i64 %"n")
{
entry:
  %".3" = call i32 @"mj_enter_recursion"()
  %".4" = icmp ne i32 %".3", 0
  br i1 %".4", label %"recursion.stopped", label %"ok", !prof !0
B0:
  %".34" = icmp slt i64 %"n", 2
  br i1 %".34", label %"B2", label %"B1"
B1:
  %".36" = sub nsw i64 %"n", 1
  %".37" = call {i64, i1} @"mj_0_fib"(i64 %".36")
  %".38" = extractvalue {i64, i1} %".37", 1
  br i1 %".38", label %"call.failed", label %"ok.2", !prof !0
B2:
  call void @"mj_leave_recursion"()
  %".115" = insertvalue {i64, i1} undef, i64 %"n", 0
  %".116" = insertvalue {i64, i1} %".115", i1 0, 1
  ret {i64, i1} %".116"
recursion.stopped:
  %".6" = icmp eq i32 %".3", 1
  br i1 %".6", label %"recursion.error", label %"deopt.B0.0"
ok:
  br label %"B0"
recursion.error:
  %".31" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".31"
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
  %".17" = load ptr, ptr @"mj_deopt_value"
  %".18" = icmp eq ptr %".17", null
  br i1 %".18", label %"takeback.no", label %"takeback.check"
takeback.check:
  %".20" = call i1 @"mj_is_int64"(ptr %".17")
  br i1 %".20", label %"takeback", label %"takeback.no"
takeback:
  store ptr null, ptr @"mj_deopt_value"
  %".23" = call i64 @"mj_unbox_int"(ptr %".17")
  call void @"mj_decref_cold"(ptr %".17")
  %".25" = insertvalue {i64, i1} undef, i64 %".23", 0
  %".26" = insertvalue {i64, i1} %".25", i1 0, 1
  ret {i64, i1} %".26"
takeback.no:
  %".28" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".28"
call.failed:
  %".39" = load ptr, ptr @"mj_deopt_value"
  %".40" = icmp eq ptr %".39", null
  br i1 %".40", label %"fail.L416", label %"call.deoptimised"
call.deoptimised:
  store ptr null, ptr @"mj_deopt_value"
  br label %"deopt.B1.2"
fail.L416:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 416)
  br label %"failed"
failed:
  call void @"mj_leave_recursion"()
  %".119" = load ptr, ptr @"mj_deopt_value"
  %".120" = icmp eq ptr %".119", null
  br i1 %".120", label %"takeback.no.1", label %"takeback.check.1"
deopt.B1.2:
  %".45" = call ptr @"PyBytes_FromStringAndSize"(ptr null, i64 16)
  %".46" = icmp eq ptr %".45", null
  br i1 %".46", label %"fail.tmp.L416", label %"ok.1", !prof !0
fail.tmp.L416:
  call void @"mj_decref_cold"(ptr %".39")
  br label %"fail.L416"
ok.1:
  %".50" = call ptr @"PyBytes_AsString"(ptr %".45")
  %".51" = getelementptr i64, ptr %".50", i64 0
  store i64 %"n", ptr %".51"
  %".53" = getelementptr i64, ptr %".50", i64 1
  %".54" = ptrtoint ptr %".39" to i64
  store i64 %".54", ptr %".53"
  %".56" = call ptr @"mj_deopt"(i8* @"mj_0_fib_state", i64 1, ptr %".45", i32 0, [N x i8]* @".str.0", [N x i8]* @".str.1")
  call void @"mj_decref_cold"(ptr %".39")
  store ptr %".56", ptr @"mj_deopt_value"
  br label %"failed"
ok.2:
  %".62" = extractvalue {i64, i1} %".37", 0
  %".63" = sub nsw i64 %"n", 2
  %".64" = call {i64, i1} @"mj_0_fib"(i64 %".63")
  %".65" = extractvalue {i64, i1} %".64", 1
  br i1 %".65", label %"call.failed.1", label %"ok.4", !prof !0
call.failed.1:
  %".66" = load ptr, ptr @"mj_deopt_value"
  %".67" = icmp eq ptr %".66", null
  br i1 %".67", label %"fail.L416", label %"call.deoptimised.1"
call.deoptimised.1:
  store ptr null, ptr @"mj_deopt_value"
  br label %"deopt.B1.4"
deopt.B1.4:
  %".70" = call ptr @"PyBytes_FromStringAndSize"(ptr null, i64 16)
  %".71" = icmp eq ptr %".70", null
  br i1 %".71", label %"fail.tmp.L416.1", label %"ok.3", !prof !0
fail.tmp.L416.1:
  call void @"mj_decref_cold"(ptr %".66")
  br label %"fail.L416"
ok.3:
  %".75" = call ptr @"PyBytes_AsString"(ptr %".70")
  %".76" = getelementptr i64, ptr %".75", i64 0
  store i64 %".62", ptr %".76"
  %".78" = getelementptr i64, ptr %".75", i64 1
  %".79" = ptrtoint ptr %".66" to i64
  store i64 %".79", ptr %".78"
  %".81" = call ptr @"mj_deopt"(i8* @"mj_0_fib_state", i64 2, ptr %".70", i32 0, [N x i8]* @".str.0", [N x i8]* @".str.1")
  call void @"mj_decref_cold"(ptr %".66")
  store ptr %".81", ptr @"mj_deopt_value"
  br label %"failed"
ok.4:
  %".87" = extractvalue {i64, i1} %".64", 0
  %".88" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".62", i64 %".87")
  %".89" = extractvalue {i64, i1} %".88", 1
  %".90" = extractvalue {i64, i1} %".88", 0
  br i1 %".89", label %"deopt.B1.5", label %"ok.6", !prof !0
deopt.B1.5:
  %".91" = icmp slt i64 %".90", 0
  %".92" = select  i1 %".91", i128 18446744073709551616, i128 -18446744073709551616
  %".93" = sext i64 %".90" to i128
  %".94" = add i128 %".93", %".92"
  %".95" = call ptr @"PyBytes_FromStringAndSize"(ptr null, i64 16)
  %".96" = icmp eq ptr %".95", null
  br i1 %".96", label %"fail.L416", label %"ok.5", !prof !0
ok.5:
  %".98" = call ptr @"PyBytes_AsString"(ptr %".95")
  %".99" = getelementptr i64, ptr %".98", i64 0
  %".100" = ashr i128 %".94", 64
  %".101" = trunc i128 %".100" to i64
  store i64 %".101", ptr %".99"
  %".103" = trunc i128 %".94" to i64
  %".104" = getelementptr i64, ptr %".98", i64 1
  store i64 %".103", ptr %".104"
  %".106" = call ptr @"mj_deopt"(i8* @"mj_0_fib_state", i64 3, ptr %".95", i32 0, [N x i8]* @".str.0", [N x i8]* @".str.1")
  store ptr %".106", ptr @"mj_deopt_value"
  br label %"failed"
ok.6:
  call void @"mj_leave_recursion"()
  %".111" = insertvalue {i64, i1} undef, i64 %".90", 0
  %".112" = insertvalue {i64, i1} %".111", i1 0, 1
  ret {i64, i1} %".112"
takeback.check.1:
  %".122" = call i1 @"mj_is_int64"(ptr %".119")
  br i1 %".122", label %"takeback.1", label %"takeback.no.1"
takeback.1:
  store ptr null, ptr @"mj_deopt_value"
  %".125" = call i64 @"mj_unbox_int"(ptr %".119")
  call void @"mj_decref_cold"(ptr %".119")
  %".127" = insertvalue {i64, i1} undef, i64 %".125", 0
  %".128" = insertvalue {i64, i1} %".127", i1 0, 1
  ret {i64, i1} %".128"
takeback.no.1:
  %".130" = insertvalue {i64, i1} undef, i1 1, 1
  ret {i64, i1} %".130"
}

declare i32 @"mj_enter_recursion"()

declare ptr @"PyBytes_FromStringAndSize"(ptr %".1", i64 %".2")

declare ptr @"PyBytes_AsString"(ptr %".1")

@"mj_0_fib_state" = global i8 0
@".str.0" = private unnamed_addr constant [N x i8] c"fib\00"
@".str.1" = private unnamed_addr constant [N x i8] c"<file>\00"
declare ptr @"mj_deopt"(ptr %".1", i64 %".2", ptr %".3", i32 %".4", ptr %".5", ptr %".6")

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

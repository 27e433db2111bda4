
define internal {double, i1, i32} @"mj_0_mean"(ptr %"xs")
{
entry:
  %"ticks_left" = alloca i32
  store i32 1024, i32* %"ticks_left"
  %"seq.i" = alloca i64
  call void @"mj_incref"(ptr %"xs")
  br label %"B0"
B0:
  call void @"mj_incref"(ptr %"xs")
  store i64 0, i64* %"seq.i"
  br label %"B1"
B1:
  %"phi3" = phi  double [             0x0, %"B0"], [%".37", %"tick.after"]
  %"origin3" = phi  i32 [-1, %"B0"], [-1, %"tick.after"]
  %".8" = load i64, i64* %"seq.i"
  %".9" = getelementptr i8, ptr %"xs", i64 16
  %".10" = load i64, ptr %".9"
  %".11" = icmp uge i64 %".8", %".10"
  br i1 %".11", label %"B1.exhausted", label %"seq.item"
B2:
  %".21" = getelementptr i8, ptr %"xs", i64 16
  %".22" = load i64, ptr %".21"
  call void @"mj_decref"(ptr %"xs")
  %".24" = sitofp i64 %".22" to double
  %".25" = fcmp oeq double %".24",              0x0
  br i1 %".25", label %"raise.ZeroDivisionError", label %"ok", !prof !0
B3:
  %".37" = fadd double %"phi3", %".16"
  %".39" = load i32, i32* %"ticks_left"
  %".40" = sub i32 %".39", 1
  store i32 %".40", i32* %"ticks_left"
  %".42" = icmp sle i32 %".40", 0
  br i1 %".42", label %"tick", label %"tick.after", !prof !0
B1.exhausted:
  br label %"edge.B1.B2"
seq.item:
  %".13" = add i64 %".8", 1
  store i64 %".13", i64* %"seq.i"
  %".15" = call ptr @"mj_list_item"(ptr %"xs", i64 %".8")
  %".16" = call double @"mj_unbox_float"(ptr %".15")
  br label %"B3"
edge.B1.B2:
  call void @"mj_decref"(ptr %"xs")
  br label %"B2"
fail.L28:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 28)
  br label %"failed"
failed:
  %".67" = insertvalue {double, i1, i32} undef, i1 1, 1
  ret {double, i1, i32} %".67"
raise.ZeroDivisionError:
  %".28" = load ptr, ptr @"PyExc_ZeroDivisionError"
  call void @"mj_raise"(ptr %".28", [N x i8]* @".str.2")
  br label %"fail.L28"
ok:
  %".32" = fdiv double %"phi3", %".24"
  %".33" = insertvalue {double, i1, i32} undef, double %".32", 0
  %".34" = insertvalue {double, i1, i32} %".33", i32 -1, 2
  %".35" = insertvalue {double, i1, i32} %".34", i1 0, 1
  ret {double, i1, i32} %".35"
tick:
  store i32 1024, i32* %"ticks_left"
  %".45" = call i32 @"mj_signals_flag"()
  %".46" = icmp ne i32 %".45", 0
  br i1 %".46", label %"deopt.B3.1", label %"ok.1", !prof !0
tick.after:
  br label %"B1"
deopt.B3.1:
  %".47" = ptrtoint ptr %"xs" to i64
  %".48" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".47", i64* %".48"
  %".50" = ptrtoint ptr %"xs" to i64
  %".51" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %".50", i64* %".51"
  %".53" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 2
  store i64 %".8", i64* %".53"
  %".55" = bitcast double %".37" to i64
  %".56" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 3
  store i64 %".55", i64* %".56"
  call void @"mj_deopt"(i8* @"mj_0_mean_state", i64 0, [1 x i64]* @"mj_deopt_words", i64 4)
  br label %"release"
release:
  call void @"mj_decref_cold"(ptr %"xs")
  br label %"release.1"
release.1:
  call void @"mj_decref_cold"(ptr %"xs")
  br label %"failed"
ok.1:
  br label %"tick.after"
}

declare void @"mj_incref"(ptr %".1")

declare ptr @"mj_list_item"(ptr %".1", i64 %".2")

declare double @"mj_unbox_float"(ptr %".1")

declare void @"mj_decref"(ptr %".1")

@".str.0" = private unnamed_addr constant [N x i8] c"mean\00"
@".str.1" = private unnamed_addr constant [N x i8] c"<file>\00"
declare void @"_PyTraceback_Add"(ptr %".1", ptr %".2", i32 %".3")

@"PyExc_ZeroDivisionError" = external global ptr
@".str.2" = private unnamed_addr constant [N x i8] c"float division by zero\00"
declare void @"mj_raise"(ptr %".1", ptr %".2")

declare i32 @"mj_signals_flag"()

@"mj_deopt_words" = internal global [4 x i64] zeroinitializer
@"mj_0_mean_state" = global i8 0
declare void @"mj_deopt"(ptr %".1", i64 %".2", ptr %".3", i64 %".4")

declare void @"mj_decref_cold"(ptr %".1")

define ptr @"mj_0_mean_entry"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
{
entry:
  %".6" = icmp eq ptr %"kwnames", null
  %".7" = icmp eq i64 %"nargs", 1
  %".8" = and i1 %".6", %".7"
  %".9" = load i8, i8* @"mj_0_mean_state"
  %".10" = icmp eq i8 %".9", 0
  %".11" = and i1 %".8", %".10"
  br i1 %".11", label %"checked", label %"fallback"
fallback:
  %".38" = call ptr @"PyObject_Vectorcall"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
  ret ptr %".38"
checked:
  %".13" = getelementptr ptr, ptr %"args", i64 0
  %".14" = load ptr, ptr %".13"
  %".15" = call i1 @"mj_check_ListR_item_FloatR___"(ptr %".14")
  br i1 %".15", label %"checked.1", label %"fallback"
checked.1:
  %".17" = call {double, i1, i32} @"mj_0_mean"(ptr %".14")
  %".18" = extractvalue {double, i1, i32} %".17", 1
  br i1 %".18", label %"failed", label %"returned"
failed:
  %".20" = load ptr, ptr @"mj_deopt_value"
  store ptr null, ptr @"mj_deopt_value"
  ret ptr %".20"
returned:
  %".23" = extractvalue {double, i1, i32} %".17", 0
  %".24" = extractvalue {double, i1, i32} %".17", 2
  %".25" = icmp sge i32 %".24", 0
  br i1 %".25", label %"argument", label %"computed"
argument:
  %".27" = sext i32 %".24" to i64
  %".28" = getelementptr ptr, ptr %"args", i64 %".27"
  %".29" = load ptr, ptr %".28"
  call void @"mj_incref"(ptr %".29")
  ret ptr %".29"
computed:
  %".32" = call ptr @"PyFloat_FromDouble"(double %".23")
  %".33" = icmp eq ptr %".32", null
  br i1 %".33", label %"box.failed", label %"box.ok"
box.failed:
  br label %"failed.1"
box.ok:
  ret ptr %".32"
failed.1:
  ret ptr null
}

define internal i1 @"mj_check_ListR_item_FloatR___"(ptr %".1")
{
entry:
  %".3" = getelementptr i8, ptr %".1", i64 8
  %".4" = load ptr, ptr %".3"
  %".5" = icmp eq ptr %".4", @"PyList_Type"
  br i1 %".5", label %"type", label %"no"
type:
  %".7" = getelementptr i8, ptr %".1", i64 16
  %".8" = load i64, ptr %".7"
  br label %"loop"
yes:
  ret i1 1
no:
  ret i1 0
loop:
  %".10" = phi  i64 [0, %"type"], [%".15", %"body"]
  %".11" = icmp slt i64 %".10", %".8"
  br i1 %".11", label %"body", label %"yes"
body:
  %".13" = call ptr @"mj_list_item"(ptr %".1", i64 %".10")
  %".14" = call i1 @"mj_is_float"(ptr %".13")
  %".15" = add i64 %".10", 1
  br i1 %".14", label %"loop", label %"no"
}

@"PyList_Type" = external global i8
declare i1 @"mj_is_float"(ptr %".1")

@"mj_deopt_value" = external global ptr
declare ptr @"PyFloat_FromDouble"(double %".1")

declare ptr @"PyObject_Vectorcall"(ptr %".1", ptr %".2", i64 %".3", ptr %".4")

@"mj_0_mean_name" = private constant [N x i8] c"mean\00"
@"mj_0_mean_def" = global {ptr, ptr, i32, ptr} {[N x i8]* @"mj_0_mean_name", ptr (ptr, ptr, i64, ptr)* @"mj_0_mean_entry", i32 130, ptr null}
!0 = !{ !"branch_weights", i32 1, i32 1000 }

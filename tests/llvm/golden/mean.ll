
define internal {double, i1} @"mj_0_mean"(ptr %"xs")
{
entry:
  %"seq.i" = alloca i64
  call void @"mj_incref"(ptr %"xs")
  br label %"B0"
B0:
  call void @"mj_incref"(ptr %"xs")
  store i64 0, i64* %"seq.i"
  br label %"B1"
B1:
  %"phi3" = phi  double [             0x0, %"B0"], [%".36", %"B3"]
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
  %".36" = fadd double %"phi3", %".16"
  br label %"B1"
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
  %".38" = insertvalue {double, i1} undef, i1 1, 1
  ret {double, i1} %".38"
raise.ZeroDivisionError:
  %".28" = load ptr, ptr @"PyExc_ZeroDivisionError"
  call void @"mj_raise"(ptr %".28", [N x i8]* @".str.2")
  br label %"fail.L28"
ok:
  %".32" = fdiv double %"phi3", %".24"
  %".33" = insertvalue {double, i1} undef, double %".32", 0
  %".34" = insertvalue {double, i1} %".33", i1 0, 1
  ret {double, i1} %".34"
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

define ptr @"mj_0_mean_entry"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
{
entry:
  %".6" = icmp eq ptr %"kwnames", null
  %".7" = icmp eq i64 %"nargs", 1
  %".8" = and i1 %".6", %".7"
  br i1 %".8", label %"checked", label %"fallback"
fallback:
  %".25" = call ptr @"PyObject_Vectorcall"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
  ret ptr %".25"
checked:
  %".10" = getelementptr ptr, ptr %"args", i64 0
  %".11" = load ptr, ptr %".10"
  %".12" = call i1 @"mj_check_ListR_item_FloatR___"(ptr %".11")
  br i1 %".12", label %"checked.1", label %"fallback"
checked.1:
  %".14" = call {double, i1} @"mj_0_mean"(ptr %".11")
  %".15" = extractvalue {double, i1} %".14", 1
  br i1 %".15", label %"failed", label %"returned"
failed:
  ret ptr null
returned:
  %".18" = extractvalue {double, i1} %".14", 0
  %".19" = call ptr @"PyFloat_FromDouble"(double %".18")
  %".20" = icmp eq ptr %".19", null
  br i1 %".20", label %"box.failed", label %"box.ok"
box.failed:
  br label %"failed.1"
box.ok:
  ret ptr %".19"
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

declare ptr @"PyFloat_FromDouble"(double %".1")

declare ptr @"PyObject_Vectorcall"(ptr %".1", ptr %".2", i64 %".3", ptr %".4")

@"mj_0_mean_name" = private constant [N x i8] c"mean\00"
@"mj_0_mean_def" = global {ptr, ptr, i32, ptr} {[N x i8]* @"mj_0_mean_name", ptr (ptr, ptr, i64, ptr)* @"mj_0_mean_entry", i32 130, ptr null}
!0 = !{ !"branch_weights", i32 1, i32 1000 }

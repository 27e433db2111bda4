
define internal {ptr, i1} @"mj_0_pad"(ptr %"ids", i64 %"length", i64 %"pad_id")
{
entry:
  call void @"mj_incref"(ptr %"ids")
  br label %"B0"
B0:
  %".7" = getelementptr i8, ptr %"ids", i64 16
  %".8" = load i64, ptr %".7"
  %".9" = call {i64, i1} @"llvm.ssub.with.overflow.i64"(i64 %"length", i64 %".8")
  %".10" = extractvalue {i64, i1} %".9", 1
  %".11" = extractvalue {i64, i1} %".9", 0
  br i1 %".10", label %"deopt.B0.3", label %"ok.1", !prof !0
deopt.B0.3:
  %".12" = icmp slt i64 %".11", 0
  %".13" = select  i1 %".12", i128 18446744073709551616, i128 -18446744073709551616
  %".14" = sext i64 %".11" to i128
  %".15" = add i128 %".14", %".13"
  %".16" = call ptr @"PyBytes_FromStringAndSize"(ptr null, i64 32)
  %".17" = icmp eq ptr %".16", null
  br i1 %".17", label %"fail.L257", label %"ok", !prof !0
fail.L257:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 257)
  br label %"release"
release:
  call void @"mj_decref_cold"(ptr %"ids")
  br label %"failed"
failed:
  %".97" = insertvalue {ptr, i1} undef, i1 1, 1
  ret {ptr, i1} %".97"
ok:
  %".23" = call ptr @"PyBytes_AsString"(ptr %".16")
  %".24" = getelementptr i64, ptr %".23", i64 0
  %".25" = ptrtoint ptr %"ids" to i64
  store i64 %".25", ptr %".24"
  %".27" = getelementptr i64, ptr %".23", i64 1
  store i64 %"pad_id", ptr %".27"
  %".29" = getelementptr i64, ptr %".23", i64 2
  %".30" = ashr i128 %".15", 64
  %".31" = trunc i128 %".30" to i64
  store i64 %".31", ptr %".29"
  %".33" = trunc i128 %".15" to i64
  %".34" = getelementptr i64, ptr %".23", i64 3
  store i64 %".33", ptr %".34"
  %".36" = call ptr @"mj_deopt"(i8* @"mj_0_pad_state", i64 0, ptr %".16", i32 0, [N x i8]* @".str.0", [N x i8]* @".str.1")
  store ptr %".36", ptr @"mj_deopt_value"
  br label %"release"
ok.1:
  %".40" = getelementptr i8, ptr %"ids", i64 16
  %".41" = load i64, ptr %".40"
  %".42" = icmp slt i64 %".11", 0
  %".43" = select  i1 %".42", i64 0, i64 %".11"
  %".44" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 0, i64 %".41")
  %".45" = extractvalue {i64, i1} %".44", 0
  %".46" = extractvalue {i64, i1} %".44", 1
  %".47" = or i1 0, %".46"
  %".48" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".45", i64 %".43")
  %".49" = extractvalue {i64, i1} %".48", 0
  %".50" = extractvalue {i64, i1} %".48", 1
  %".51" = or i1 %".47", %".50"
  br i1 %".51", label %"fused.too_big", label %"ok.2", !prof !0
fused.too_big:
  %".53" = call ptr @"PyErr_NoMemory"()
  br label %"fail.L257"
ok.2:
  %".55" = call ptr @"PyList_New"(i64 %".49")
  %".56" = icmp eq ptr %".55", null
  br i1 %".56", label %"fail.L257", label %"ok.3", !prof !0
ok.3:
  %".58" = getelementptr i8, ptr %".55", i64 24
  %".59" = load ptr, ptr %".58"
  %".60" = getelementptr ptr, ptr %".59", i64 0
  %".61" = getelementptr i8, ptr %"ids", i64 24
  %".62" = load ptr, ptr %".61"
  br label %"loop"
loop:
  %".64" = phi  i64 [0, %"ok.3"], [%".73", %"loop.body"]
  %".65" = icmp slt i64 %".64", %".41"
  br i1 %".65", label %"loop.body", label %"loop.end"
loop.body:
  %".67" = add i64 0, %".64"
  %".68" = getelementptr ptr, ptr %".62", i64 %".67"
  %".69" = load ptr, ptr %".68"
  call void @"mj_incref"(ptr %".69")
  %".71" = getelementptr ptr, ptr %".60", i64 %".64"
  store ptr %".69", ptr %".71"
  %".73" = add i64 %".64", 1
  br label %"loop"
loop.end:
  %".75" = add i64 0, %".41"
  %".76" = getelementptr ptr, ptr %".59", i64 %".75"
  %".77" = call ptr @"mj_box_int"(i64 %"pad_id")
  %".78" = icmp eq ptr %".77", null
  br i1 %".78", label %"fail.tmp.L257", label %"ok.4", !prof !0
fail.tmp.L257:
  call void @"mj_decref_cold"(ptr %".55")
  br label %"fail.L257"
ok.4:
  br label %"loop.1"
loop.1:
  %".83" = phi  i64 [0, %"ok.4"], [%".88", %"loop.body.1"]
  %".84" = icmp slt i64 %".83", %".43"
  br i1 %".84", label %"loop.body.1", label %"loop.end.1"
loop.body.1:
  %".86" = getelementptr ptr, ptr %".76", i64 %".83"
  store ptr %".77", ptr %".86"
  %".88" = add i64 %".83", 1
  br label %"loop.1"
loop.end.1:
  %".90" = sub i64 %".43", 1
  call void @"mj_add_references"(ptr %".77", i64 %".90")
  %".92" = add i64 %".75", %".43"
  call void @"mj_decref"(ptr %"ids")
  %".94" = insertvalue {ptr, i1} undef, ptr %".55", 0
  %".95" = insertvalue {ptr, i1} %".94", i1 0, 1
  ret {ptr, i1} %".95"
}

declare void @"mj_incref"(ptr %".1")

declare {i64, i1} @"llvm.ssub.with.overflow.i64"(i64 %".1", i64 %".2")

declare ptr @"PyBytes_FromStringAndSize"(ptr %".1", i64 %".2")

@".str.0" = private unnamed_addr constant [N x i8] c"pad\00"
@".str.1" = private unnamed_addr constant [N x i8] c"<file>\00"
declare void @"_PyTraceback_Add"(ptr %".1", ptr %".2", i32 %".3")

declare void @"mj_decref_cold"(ptr %".1")

declare ptr @"PyBytes_AsString"(ptr %".1")

@"mj_0_pad_state" = global i8 0
declare ptr @"mj_deopt"(ptr %".1", i64 %".2", ptr %".3", i32 %".4", ptr %".5", ptr %".6")

@"mj_deopt_value" = external global ptr
declare {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".1", i64 %".2")

declare ptr @"PyErr_NoMemory"()

declare ptr @"PyList_New"(i64 %".1")

declare ptr @"mj_box_int"(i64 %".1")

declare void @"mj_add_references"(ptr %".1", i64 %".2")

declare void @"mj_decref"(ptr %".1")

define ptr @"mj_0_pad_entry"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
{
entry:
  %".6" = icmp eq ptr %"kwnames", null
  %".7" = icmp eq i64 %"nargs", 3
  %".8" = and i1 %".6", %".7"
  %".9" = load i8, i8* @"mj_0_pad_state"
  %".10" = icmp eq i8 %".9", 0
  %".11" = and i1 %".8", %".10"
  br i1 %".11", label %"checked", label %"fallback"
fallback:
  %".35" = call ptr @"PyObject_Vectorcall"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
  ret ptr %".35"
checked:
  %".13" = getelementptr ptr, ptr %"args", i64 0
  %".14" = load ptr, ptr %".13"
  %".15" = call i1 @"mj_check_ListR_item_IntR___"(ptr %".14")
  br i1 %".15", label %"checked.1", label %"fallback"
checked.1:
  %".17" = getelementptr ptr, ptr %"args", i64 1
  %".18" = load ptr, ptr %".17"
  %".19" = call i1 @"mj_is_int64"(ptr %".18")
  br i1 %".19", label %"checked.2", label %"fallback"
checked.2:
  %".21" = call i64 @"mj_unbox_int"(ptr %".18")
  %".22" = getelementptr ptr, ptr %"args", i64 2
  %".23" = load ptr, ptr %".22"
  %".24" = call i1 @"mj_is_int64"(ptr %".23")
  br i1 %".24", label %"checked.3", label %"fallback"
checked.3:
  %".26" = call i64 @"mj_unbox_int"(ptr %".23")
  %".27" = call {ptr, i1} @"mj_0_pad"(ptr %".14", i64 %".21", i64 %".26")
  %".28" = extractvalue {ptr, i1} %".27", 1
  br i1 %".28", label %"failed", label %"returned"
failed:
  %".30" = load ptr, ptr @"mj_deopt_value"
  store ptr null, ptr @"mj_deopt_value"
  ret ptr %".30"
returned:
  %".33" = extractvalue {ptr, i1} %".27", 0
  ret ptr %".33"
}

define internal i1 @"mj_check_ListR_item_IntR___"(ptr %".1")
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
  %".14" = call i1 @"mj_is_int64"(ptr %".13")
  %".15" = add i64 %".10", 1
  br i1 %".14", label %"loop", label %"no"
}

@"PyList_Type" = external global i8
declare ptr @"mj_list_item"(ptr %".1", i64 %".2")

declare i1 @"mj_is_int64"(ptr %".1")

declare i64 @"mj_unbox_int"(ptr %".1")

declare ptr @"PyObject_Vectorcall"(ptr %".1", ptr %".2", i64 %".3", ptr %".4")

@"mj_0_pad_name" = private constant [N x i8] c"pad\00"
@"mj_0_pad_def" = global {ptr, ptr, i32, ptr} {[N x i8]* @"mj_0_pad_name", ptr (ptr, ptr, i64, ptr)* @"mj_0_pad_entry", i32 130, ptr null}
!0 = !{ !"branch_weights", i32 1, i32 1000 }


define internal {ptr, i1, i32} @"mj_0_pad"(ptr %"ids", i64 %"length", i64 %"pad_id")
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
  br i1 %".10", label %"deopt.B0.3", label %"ok", !prof !0
deopt.B0.3:
  %".12" = icmp slt i64 %".11", 0
  %".13" = select  i1 %".12", i128 18446744073709551616, i128 -18446744073709551616
  %".14" = sext i64 %".11" to i128
  %".15" = add i128 %".14", %".13"
  %".16" = ptrtoint ptr %"ids" to i64
  %".17" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".16", i64* %".17"
  %".19" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %"pad_id", i64* %".19"
  %".21" = ashr i128 %".15", 64
  %".22" = trunc i128 %".21" to i64
  %".23" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 2
  store i64 %".22", i64* %".23"
  %".25" = trunc i128 %".15" to i64
  %".26" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 3
  store i64 %".25", i64* %".26"
  call void @"mj_deopt"(i8* @"mj_0_pad_state", i64 0, [1 x i64]* @"mj_deopt_words", i64 4)
  br label %"release"
release:
  call void @"mj_decref_cold"(ptr %"ids")
  br label %"failed"
failed:
  %".93" = insertvalue {ptr, i1, i32} undef, i1 1, 1
  ret {ptr, i1, i32} %".93"
ok:
  %".33" = getelementptr i8, ptr %"ids", i64 16
  %".34" = load i64, ptr %".33"
  %".35" = icmp slt i64 %".11", 0
  %".36" = select  i1 %".35", i64 0, i64 %".11"
  %".37" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 0, i64 %".34")
  %".38" = extractvalue {i64, i1} %".37", 0
  %".39" = extractvalue {i64, i1} %".37", 1
  %".40" = or i1 0, %".39"
  %".41" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".38", i64 %".36")
  %".42" = extractvalue {i64, i1} %".41", 0
  %".43" = extractvalue {i64, i1} %".41", 1
  %".44" = or i1 %".40", %".43"
  br i1 %".44", label %"fused.too_big", label %"ok.1", !prof !0
fused.too_big:
  %".46" = call ptr @"PyErr_NoMemory"()
  br label %"fail.L257"
ok.1:
  %".50" = call ptr @"PyList_New"(i64 %".42")
  %".51" = icmp eq ptr %".50", null
  br i1 %".51", label %"fail.L257", label %"ok.2", !prof !0
fail.L257:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 257)
  br label %"release"
ok.2:
  %".53" = getelementptr i8, ptr %".50", i64 24
  %".54" = load ptr, ptr %".53"
  %".55" = getelementptr ptr, ptr %".54", i64 0
  %".56" = getelementptr i8, ptr %"ids", i64 24
  %".57" = load ptr, ptr %".56"
  br label %"loop"
loop:
  %".59" = phi  i64 [0, %"ok.2"], [%".68", %"loop.body"]
  %".60" = icmp slt i64 %".59", %".34"
  br i1 %".60", label %"loop.body", label %"loop.end"
loop.body:
  %".62" = add i64 0, %".59"
  %".63" = getelementptr ptr, ptr %".57", i64 %".62"
  %".64" = load ptr, ptr %".63"
  call void @"mj_incref"(ptr %".64")
  %".66" = getelementptr ptr, ptr %".55", i64 %".59"
  store ptr %".64", ptr %".66"
  %".68" = add i64 %".59", 1
  br label %"loop"
loop.end:
  %".70" = add i64 0, %".34"
  %".71" = getelementptr ptr, ptr %".54", i64 %".70"
  %".72" = call ptr @"mj_box_int"(i64 %"pad_id")
  %".73" = icmp eq ptr %".72", null
  br i1 %".73", label %"fail.tmp.L257", label %"ok.3", !prof !0
fail.tmp.L257:
  call void @"mj_decref_cold"(ptr %".50")
  br label %"fail.L257"
ok.3:
  br label %"loop.1"
loop.1:
  %".78" = phi  i64 [0, %"ok.3"], [%".83", %"loop.body.1"]
  %".79" = icmp slt i64 %".78", %".36"
  br i1 %".79", label %"loop.body.1", label %"loop.end.1"
loop.body.1:
  %".81" = getelementptr ptr, ptr %".71", i64 %".78"
  store ptr %".72", ptr %".81"
  %".83" = add i64 %".78", 1
  br label %"loop.1"
loop.end.1:
  %".85" = sub i64 %".36", 1
  call void @"mj_add_references"(ptr %".72", i64 %".85")
  %".87" = add i64 %".70", %".36"
  call void @"mj_decref"(ptr %"ids")
  %".89" = insertvalue {ptr, i1, i32} undef, ptr %".50", 0
  %".90" = insertvalue {ptr, i1, i32} %".89", i32 -1, 2
  %".91" = insertvalue {ptr, i1, i32} %".90", i1 0, 1
  ret {ptr, i1, i32} %".91"
}

declare void @"mj_incref"(ptr %".1")

declare {i64, i1} @"llvm.ssub.with.overflow.i64"(i64 %".1", i64 %".2")

@"mj_deopt_words" = internal global [4 x i64] zeroinitializer
@"mj_0_pad_state" = global i8 0
declare void @"mj_deopt"(ptr %".1", i64 %".2", ptr %".3", i64 %".4")

declare void @"mj_decref_cold"(ptr %".1")

declare {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".1", i64 %".2")

declare ptr @"PyErr_NoMemory"()

@".str.0" = private unnamed_addr constant [N x i8] c"pad\00"
@".str.1" = private unnamed_addr constant [N x i8] c"<file>\00"
declare void @"_PyTraceback_Add"(ptr %".1", ptr %".2", i32 %".3")

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
  %".27" = call {ptr, i1, i32} @"mj_0_pad"(ptr %".14", i64 %".21", i64 %".26")
  %".28" = extractvalue {ptr, i1, i32} %".27", 1
  br i1 %".28", label %"failed", label %"returned"
failed:
  %".30" = load ptr, ptr @"mj_deopt_value"
  store ptr null, ptr @"mj_deopt_value"
  ret ptr %".30"
returned:
  %".33" = extractvalue {ptr, i1, i32} %".27", 0
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

@"mj_deopt_value" = external global ptr
declare ptr @"PyObject_Vectorcall"(ptr %".1", ptr %".2", i64 %".3", ptr %".4")

@"mj_0_pad_name" = private constant [N x i8] c"pad\00"
@"mj_0_pad_def" = global {ptr, ptr, i32, ptr} {[N x i8]* @"mj_0_pad_name", ptr (ptr, ptr, i64, ptr)* @"mj_0_pad_entry", i32 130, ptr null}
!0 = !{ !"branch_weights", i32 1, i32 1000 }

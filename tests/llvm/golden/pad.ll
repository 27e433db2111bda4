
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
  br i1 %".10", label %"raise.OverflowError", label %"ok", !prof !0
fail.L257:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 257)
  br label %"release"
release:
  call void @"mj_decref_cold"(ptr %"ids")
  br label %"failed"
failed:
  %".13" = insertvalue {ptr, i1} undef, i1 1, 1
  ret {ptr, i1} %".13"
raise.OverflowError:
  %".17" = load ptr, ptr @"PyExc_OverflowError"
  call void @"mj_raise"(ptr %".17", [N x i8]* @".str.2")
  br label %"fail.L257"
ok:
  %".21" = extractvalue {i64, i1} %".9", 0
  %".22" = getelementptr i8, ptr %"ids", i64 16
  %".23" = load i64, ptr %".22"
  %".24" = icmp slt i64 %".21", 0
  %".25" = select  i1 %".24", i64 0, i64 %".21"
  %".26" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 0, i64 %".23")
  %".27" = extractvalue {i64, i1} %".26", 0
  %".28" = extractvalue {i64, i1} %".26", 1
  %".29" = or i1 0, %".28"
  %".30" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".27", i64 %".25")
  %".31" = extractvalue {i64, i1} %".30", 0
  %".32" = extractvalue {i64, i1} %".30", 1
  %".33" = or i1 %".29", %".32"
  br i1 %".33", label %"fused.too_big", label %"ok.1", !prof !0
fused.too_big:
  %".35" = call ptr @"PyErr_NoMemory"()
  br label %"fail.L257"
ok.1:
  %".37" = call ptr @"PyList_New"(i64 %".31")
  %".38" = icmp eq ptr %".37", null
  br i1 %".38", label %"fail.L257", label %"ok.2", !prof !0
ok.2:
  %".40" = getelementptr i8, ptr %".37", i64 24
  %".41" = load ptr, ptr %".40"
  %".42" = getelementptr ptr, ptr %".41", i64 0
  %".43" = getelementptr i8, ptr %"ids", i64 24
  %".44" = load ptr, ptr %".43"
  br label %"loop"
loop:
  %".46" = phi  i64 [0, %"ok.2"], [%".55", %"loop.body"]
  %".47" = icmp slt i64 %".46", %".23"
  br i1 %".47", label %"loop.body", label %"loop.end"
loop.body:
  %".49" = add i64 0, %".46"
  %".50" = getelementptr ptr, ptr %".44", i64 %".49"
  %".51" = load ptr, ptr %".50"
  call void @"mj_incref"(ptr %".51")
  %".53" = getelementptr ptr, ptr %".42", i64 %".46"
  store ptr %".51", ptr %".53"
  %".55" = add i64 %".46", 1
  br label %"loop"
loop.end:
  %".57" = add i64 0, %".23"
  %".58" = getelementptr ptr, ptr %".41", i64 %".57"
  %".59" = call ptr @"mj_box_int"(i64 %"pad_id")
  %".60" = icmp eq ptr %".59", null
  br i1 %".60", label %"fail.tmp.L257", label %"ok.3", !prof !0
fail.tmp.L257:
  call void @"mj_decref_cold"(ptr %".37")
  br label %"fail.L257"
ok.3:
  br label %"loop.1"
loop.1:
  %".65" = phi  i64 [0, %"ok.3"], [%".70", %"loop.body.1"]
  %".66" = icmp slt i64 %".65", %".25"
  br i1 %".66", label %"loop.body.1", label %"loop.end.1"
loop.body.1:
  %".68" = getelementptr ptr, ptr %".58", i64 %".65"
  store ptr %".59", ptr %".68"
  %".70" = add i64 %".65", 1
  br label %"loop.1"
loop.end.1:
  %".72" = sub i64 %".25", 1
  call void @"mj_add_references"(ptr %".59", i64 %".72")
  %".74" = add i64 %".57", %".25"
  call void @"mj_decref"(ptr %"ids")
  %".76" = insertvalue {ptr, i1} undef, ptr %".37", 0
  %".77" = insertvalue {ptr, i1} %".76", i1 0, 1
  ret {ptr, i1} %".77"
}

declare void @"mj_incref"(ptr %".1")

declare {i64, i1} @"llvm.ssub.with.overflow.i64"(i64 %".1", i64 %".2")

@".str.0" = private unnamed_addr constant [N x i8] c"pad\00"
@".str.1" = private unnamed_addr constant [N x i8] c"<file>\00"
declare void @"_PyTraceback_Add"(ptr %".1", ptr %".2", i32 %".3")

declare void @"mj_decref_cold"(ptr %".1")

@"PyExc_OverflowError" = external global ptr
@".str.2" = private unnamed_addr constant [N x i8] c"the result of '-' does not fit in a 64-bit int (<file>:257); the LLVM backend computes with machine ints: use backend='cython' for arbitrary precision\00"
declare void @"mj_raise"(ptr %".1", ptr %".2")

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
  br i1 %".8", label %"checked", label %"fallback"
fallback:
  %".30" = call ptr @"PyObject_Vectorcall"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
  ret ptr %".30"
checked:
  %".10" = getelementptr ptr, ptr %"args", i64 0
  %".11" = load ptr, ptr %".10"
  %".12" = call i1 @"mj_check_ListR_item_IntR___"(ptr %".11")
  br i1 %".12", label %"checked.1", label %"fallback"
checked.1:
  %".14" = getelementptr ptr, ptr %"args", i64 1
  %".15" = load ptr, ptr %".14"
  %".16" = call i1 @"mj_is_int64"(ptr %".15")
  br i1 %".16", label %"checked.2", label %"fallback"
checked.2:
  %".18" = call i64 @"mj_unbox_int"(ptr %".15")
  %".19" = getelementptr ptr, ptr %"args", i64 2
  %".20" = load ptr, ptr %".19"
  %".21" = call i1 @"mj_is_int64"(ptr %".20")
  br i1 %".21", label %"checked.3", label %"fallback"
checked.3:
  %".23" = call i64 @"mj_unbox_int"(ptr %".20")
  %".24" = call {ptr, i1} @"mj_0_pad"(ptr %".11", i64 %".18", i64 %".23")
  %".25" = extractvalue {ptr, i1} %".24", 1
  br i1 %".25", label %"raised", label %"returned"
raised:
  ret ptr null
returned:
  %".28" = extractvalue {ptr, i1} %".24", 0
  ret ptr %".28"
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


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
raise.OverflowError:
  %".12" = load ptr, ptr @"PyExc_OverflowError"
  call void @"mj_raise"(ptr %".12", [N x i8]* @".str.0")
  br label %"fail.L398"
ok:
  %".20" = extractvalue {i64, i1} %".9", 0
  %".21" = getelementptr i8, ptr %"ids", i64 16
  %".22" = load i64, ptr %".21"
  %".23" = icmp slt i64 %".20", 0
  %".24" = select  i1 %".23", i64 0, i64 %".20"
  %".25" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 0, i64 %".22")
  %".26" = extractvalue {i64, i1} %".25", 0
  %".27" = extractvalue {i64, i1} %".25", 1
  %".28" = or i1 0, %".27"
  %".29" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".26", i64 %".24")
  %".30" = extractvalue {i64, i1} %".29", 0
  %".31" = extractvalue {i64, i1} %".29", 1
  %".32" = or i1 %".28", %".31"
  br i1 %".32", label %"fused.too_big", label %"ok.1", !prof !0
fail.L398:
  call void @"mj_decref"(ptr %"ids")
  call void @"_PyTraceback_Add"([N x i8]* @".str.1", [N x i8]* @".str.2", i32 398)
  br label %"failed"
failed:
  %".16" = insertvalue {ptr, i1} undef, i1 1, 1
  ret {ptr, i1} %".16"
fused.too_big:
  %".34" = call ptr @"PyErr_NoMemory"()
  br label %"fail.L398"
ok.1:
  %".36" = call ptr @"PyList_New"(i64 %".30")
  %".37" = icmp eq ptr %".36", null
  br i1 %".37", label %"fail.L398", label %"ok.2", !prof !0
ok.2:
  %".39" = getelementptr i8, ptr %".36", i64 24
  %".40" = load ptr, ptr %".39"
  %".41" = getelementptr ptr, ptr %".40", i64 0
  %".42" = getelementptr i8, ptr %"ids", i64 24
  %".43" = load ptr, ptr %".42"
  br label %"loop"
loop:
  %".45" = phi  i64 [0, %"ok.2"], [%".54", %"loop.body"]
  %".46" = icmp slt i64 %".45", %".22"
  br i1 %".46", label %"loop.body", label %"loop.end"
loop.body:
  %".48" = add i64 0, %".45"
  %".49" = getelementptr ptr, ptr %".43", i64 %".48"
  %".50" = load ptr, ptr %".49"
  call void @"mj_incref"(ptr %".50")
  %".52" = getelementptr ptr, ptr %".41", i64 %".45"
  store ptr %".50", ptr %".52"
  %".54" = add i64 %".45", 1
  br label %"loop"
loop.end:
  %".56" = add i64 0, %".22"
  %".57" = getelementptr ptr, ptr %".40", i64 %".56"
  %".58" = call ptr @"mj_box_int"(i64 %"pad_id")
  %".59" = icmp eq ptr %".58", null
  br i1 %".59", label %"fail.tmp.L398", label %"ok.3", !prof !0
fail.tmp.L398:
  call void @"mj_decref"(ptr %".36")
  br label %"fail.L398"
ok.3:
  br label %"loop.1"
loop.1:
  %".64" = phi  i64 [0, %"ok.3"], [%".69", %"loop.body.1"]
  %".65" = icmp slt i64 %".64", %".24"
  br i1 %".65", label %"loop.body.1", label %"loop.end.1"
loop.body.1:
  %".67" = getelementptr ptr, ptr %".57", i64 %".64"
  store ptr %".58", ptr %".67"
  %".69" = add i64 %".64", 1
  br label %"loop.1"
loop.end.1:
  %".71" = sub i64 %".24", 1
  call void @"mj_add_references"(ptr %".58", i64 %".71")
  %".73" = add i64 %".56", %".24"
  call void @"mj_decref"(ptr %"ids")
  %".75" = insertvalue {ptr, i1} undef, ptr %".36", 0
  %".76" = insertvalue {ptr, i1} %".75", i1 0, 1
  ret {ptr, i1} %".76"
}

declare void @"mj_incref"(ptr %".1")

declare {i64, i1} @"llvm.ssub.with.overflow.i64"(i64 %".1", i64 %".2")

@"PyExc_OverflowError" = external global ptr
@".str.0" = private unnamed_addr constant [N x i8] c"the result of '-' does not fit in a 64-bit int (<file>:398); the LLVM backend computes with machine ints: use backend='cython' for arbitrary precision\00"
declare void @"mj_raise"(ptr %".1", ptr %".2")

declare void @"mj_decref"(ptr %".1")

@".str.1" = private unnamed_addr constant [N x i8] c"pad\00"
@".str.2" = private unnamed_addr constant [N x i8] c"<file>\00"
declare void @"_PyTraceback_Add"(ptr %".1", ptr %".2", i32 %".3")

declare {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".1", i64 %".2")

declare ptr @"PyErr_NoMemory"()

declare ptr @"PyList_New"(i64 %".1")

declare ptr @"mj_box_int"(i64 %".1")

declare void @"mj_add_references"(ptr %".1", i64 %".2")

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

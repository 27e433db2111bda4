
define internal {ptr, i1, i32} @"mj_0_pad"(ptr %"ids", i64 %"length", i64 %"pad_id", ptr %"length.object", ptr %"pad_id.object")
{
entry:
  call void @"mj_incref"(ptr %"ids")
  br label %"B0"
B0:
  %".9" = getelementptr i8, ptr %"ids", i64 16
  %".10" = load i64, ptr %".9"
  %".11" = call {i64, i1} @"llvm.ssub.with.overflow.i64"(i64 %"length", i64 %".10")
  %".12" = extractvalue {i64, i1} %".11", 1
  %".13" = extractvalue {i64, i1} %".11", 0
  br i1 %".12", label %"deopt.B0.3", label %"ok", !prof !0
deopt.B0.3:
  %".14" = icmp slt i64 %".13", 0
  %".15" = select  i1 %".14", i128 18446744073709551616, i128 -18446744073709551616
  %".16" = sext i64 %".13" to i128
  %".17" = add i128 %".16", %".15"
  %".18" = ptrtoint ptr %"ids" to i64
  %".19" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".18", i64* %".19"
  %".21" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %"pad_id", i64* %".21"
  %".23" = ptrtoint ptr %"pad_id.object" to i64
  %".24" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 2
  store i64 %".23", i64* %".24"
  %".26" = ashr i128 %".17", 64
  %".27" = trunc i128 %".26" to i64
  %".28" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 3
  store i64 %".27", i64* %".28"
  %".30" = trunc i128 %".17" to i64
  %".31" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 4
  store i64 %".30", i64* %".31"
  call void @"mj_deopt"(i8* @"mj_0_pad_state", i64 0, [1 x i64]* @"mj_deopt_words", i64 5)
  br label %"release"
release:
  call void @"mj_decref_cold"(ptr %"ids")
  br label %"failed"
failed:
  %".104" = insertvalue {ptr, i1, i32} undef, i1 1, 1
  ret {ptr, i1, i32} %".104"
ok:
  %".38" = getelementptr i8, ptr %"ids", i64 16
  %".39" = load i64, ptr %".38"
  %".40" = icmp slt i64 %".13", 0
  %".41" = select  i1 %".40", i64 0, i64 %".13"
  %".42" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 0, i64 %".39")
  %".43" = extractvalue {i64, i1} %".42", 0
  %".44" = extractvalue {i64, i1} %".42", 1
  %".45" = or i1 0, %".44"
  %".46" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".43", i64 %".41")
  %".47" = extractvalue {i64, i1} %".46", 0
  %".48" = extractvalue {i64, i1} %".46", 1
  %".49" = or i1 %".45", %".48"
  br i1 %".49", label %"fused.too_big", label %"ok.1", !prof !0
fused.too_big:
  %".51" = call ptr @"PyErr_NoMemory"()
  br label %"fail.L257"
ok.1:
  %".55" = call ptr @"PyList_New"(i64 %".47")
  %".56" = icmp eq ptr %".55", null
  br i1 %".56", label %"fail.L257", label %"ok.2", !prof !0
fail.L257:
  call void @"_PyTraceback_Add"([N x i8]* @".str.0", [N x i8]* @".str.1", i32 257)
  br label %"release"
ok.2:
  %".58" = getelementptr i8, ptr %".55", i64 24
  %".59" = load ptr, ptr %".58"
  %".60" = getelementptr ptr, ptr %".59", i64 0
  %".61" = getelementptr i8, ptr %"ids", i64 24
  %".62" = load ptr, ptr %".61"
  br label %"loop"
loop:
  %".64" = phi  i64 [0, %"ok.2"], [%".73", %"loop.body"]
  %".65" = icmp slt i64 %".64", %".39"
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
  %".75" = add i64 0, %".39"
  %".76" = getelementptr ptr, ptr %".59", i64 %".75"
  %".77" = icmp ne ptr %"pad_id.object", null
  br i1 %".77", label %"loop.end.if", label %"loop.end.else"
loop.end.if:
  call void @"mj_incref"(ptr %"pad_id.object")
  br label %"loop.end.endif"
loop.end.else:
  %".81" = call ptr @"mj_box_int"(i64 %"pad_id")
  %".82" = icmp eq ptr %".81", null
  br i1 %".82", label %"fail.tmp.L257", label %"ok.3", !prof !0
loop.end.endif:
  %".87" = phi  ptr [%"pad_id.object", %"loop.end.if"], [%".81", %"ok.3"]
  br label %"loop.1"
fail.tmp.L257:
  call void @"mj_decref_cold"(ptr %".55")
  br label %"fail.L257"
ok.3:
  br label %"loop.end.endif"
loop.1:
  %".89" = phi  i64 [0, %"loop.end.endif"], [%".94", %"loop.body.1"]
  %".90" = icmp slt i64 %".89", %".41"
  br i1 %".90", label %"loop.body.1", label %"loop.end.1"
loop.body.1:
  %".92" = getelementptr ptr, ptr %".76", i64 %".89"
  store ptr %".87", ptr %".92"
  %".94" = add i64 %".89", 1
  br label %"loop.1"
loop.end.1:
  %".96" = sub i64 %".41", 1
  call void @"mj_add_references"(ptr %".87", i64 %".96")
  %".98" = add i64 %".75", %".41"
  call void @"mj_decref"(ptr %"ids")
  %".100" = insertvalue {ptr, i1, i32} undef, ptr %".55", 0
  %".101" = insertvalue {ptr, i1, i32} %".100", i32 -1, 2
  %".102" = insertvalue {ptr, i1, i32} %".101", i1 0, 1
  ret {ptr, i1, i32} %".102"
}

declare void @"mj_incref"(ptr %".1")

declare {i64, i1} @"llvm.ssub.with.overflow.i64"(i64 %".1", i64 %".2")

@"mj_deopt_words" = internal global [5 x i64] zeroinitializer
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
  %".27" = call {ptr, i1, i32} @"mj_0_pad"(ptr %".14", i64 %".21", i64 %".26", ptr %".18", ptr %".23")
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

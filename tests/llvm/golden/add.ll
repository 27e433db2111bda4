
define internal {i64, i1, i32} @"mj_0_i_add"(i64 %"a", i64 %"b", ptr %"a.object", ptr %"b.object")
{
entry:
  br label %"B0"
B0:
  %".7" = call {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %"a", i64 %"b")
  %".8" = extractvalue {i64, i1} %".7", 1
  %".9" = extractvalue {i64, i1} %".7", 0
  br i1 %".8", label %"deopt.B0.1", label %"ok", !prof !0
deopt.B0.1:
  %".10" = icmp slt i64 %".9", 0
  %".11" = select  i1 %".10", i128 18446744073709551616, i128 -18446744073709551616
  %".12" = sext i64 %".9" to i128
  %".13" = add i128 %".12", %".11"
  %".14" = ashr i128 %".13", 64
  %".15" = trunc i128 %".14" to i64
  %".16" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 0
  store i64 %".15", i64* %".16"
  %".18" = trunc i128 %".13" to i64
  %".19" = getelementptr [1 x i64], [1 x i64]* @"mj_deopt_words", i64 0, i64 1
  store i64 %".18", i64* %".19"
  call void @"mj_deopt"(i8* @"mj_0_i_add_state", i64 0, [1 x i64]* @"mj_deopt_words", i64 2)
  br label %"failed"
failed:
  %".28" = load ptr, ptr @"mj_deopt_value"
  %".29" = icmp eq ptr %".28", %"a.object"
  %".30" = select  i1 %".29", i32 0, i32 -1
  %".31" = icmp eq ptr %".28", %"b.object"
  %".32" = select  i1 %".31", i32 1, i32 %".30"
  %".33" = call {i64, i1} @"mj_take_back_IntR"()
  %".34" = extractvalue {i64, i1} %".33", 1
  br i1 %".34", label %"takeback", label %"takeback.no"
ok:
  %".24" = insertvalue {i64, i1, i32} undef, i64 %".9", 0
  %".25" = insertvalue {i64, i1, i32} %".24", i32 -1, 2
  %".26" = insertvalue {i64, i1, i32} %".25", i1 0, 1
  ret {i64, i1, i32} %".26"
takeback:
  %".36" = insertvalue {i64, i1, i32} undef, i32 %".32", 2
  %".37" = extractvalue {i64, i1} %".33", 0
  %".38" = insertvalue {i64, i1, i32} %".36", i64 %".37", 0
  %".39" = insertvalue {i64, i1, i32} %".38", i1 0, 1
  ret {i64, i1, i32} %".39"
takeback.no:
  %".41" = insertvalue {i64, i1, i32} undef, i1 1, 1
  ret {i64, i1, i32} %".41"
}

declare {i64, i1} @"llvm.sadd.with.overflow.i64"(i64 %".1", i64 %".2")

@"mj_deopt_words" = internal global [2 x i64] zeroinitializer
@"mj_0_i_add_state" = global i8 0
declare void @"mj_deopt"(ptr %".1", i64 %".2", ptr %".3", i64 %".4")

@"mj_deopt_value" = external global ptr
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

declare i1 @"mj_is_int64"(ptr %".1")

declare i64 @"mj_unbox_int"(ptr %".1")

declare void @"mj_decref"(ptr %".1")

define ptr @"mj_0_i_add_entry"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
{
entry:
  %".6" = icmp eq ptr %"kwnames", null
  %".7" = icmp eq i64 %"nargs", 2
  %".8" = and i1 %".6", %".7"
  %".9" = load i8, i8* @"mj_0_i_add_state"
  %".10" = icmp eq i8 %".9", 0
  %".11" = and i1 %".8", %".10"
  br i1 %".11", label %"checked", label %"fallback"
fallback:
  %".44" = call ptr @"PyObject_Vectorcall"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
  ret ptr %".44"
checked:
  %".13" = getelementptr ptr, ptr %"args", i64 0
  %".14" = load ptr, ptr %".13"
  %".15" = call i1 @"mj_is_int64"(ptr %".14")
  br i1 %".15", label %"checked.1", label %"fallback"
checked.1:
  %".17" = call i64 @"mj_unbox_int"(ptr %".14")
  %".18" = getelementptr ptr, ptr %"args", i64 1
  %".19" = load ptr, ptr %".18"
  %".20" = call i1 @"mj_is_int64"(ptr %".19")
  br i1 %".20", label %"checked.2", label %"fallback"
checked.2:
  %".22" = call i64 @"mj_unbox_int"(ptr %".19")
  %".23" = call {i64, i1, i32} @"mj_0_i_add"(i64 %".17", i64 %".22", ptr %".14", ptr %".19")
  %".24" = extractvalue {i64, i1, i32} %".23", 1
  br i1 %".24", label %"failed", label %"returned"
failed:
  %".26" = load ptr, ptr @"mj_deopt_value"
  store ptr null, ptr @"mj_deopt_value"
  ret ptr %".26"
returned:
  %".29" = extractvalue {i64, i1, i32} %".23", 0
  %".30" = extractvalue {i64, i1, i32} %".23", 2
  %".31" = icmp sge i32 %".30", 0
  br i1 %".31", label %"argument", label %"computed"
argument:
  %".33" = sext i32 %".30" to i64
  %".34" = getelementptr ptr, ptr %"args", i64 %".33"
  %".35" = load ptr, ptr %".34"
  call void @"mj_incref"(ptr %".35")
  ret ptr %".35"
computed:
  %".38" = call ptr @"mj_box_int"(i64 %".29")
  %".39" = icmp eq ptr %".38", null
  br i1 %".39", label %"box.failed", label %"box.ok"
box.failed:
  br label %"failed.1"
box.ok:
  ret ptr %".38"
failed.1:
  ret ptr null
}

declare void @"mj_incref"(ptr %".1")

declare ptr @"mj_box_int"(i64 %".1")

declare ptr @"PyObject_Vectorcall"(ptr %".1", ptr %".2", i64 %".3", ptr %".4")

@"mj_0_i_add_name" = private constant [N x i8] c"i_add\00"
@"mj_0_i_add_def" = global {ptr, ptr, i32, ptr} {[N x i8]* @"mj_0_i_add_name", ptr (ptr, ptr, i64, ptr)* @"mj_0_i_add_entry", i32 130, ptr null}
!0 = !{ !"branch_weights", i32 1, i32 1000 }

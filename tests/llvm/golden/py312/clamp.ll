
define internal {i64, i1, i32} @"mj_0_clamp"(i64 %"x", i64 %"lo", i64 %"hi", ptr %"x.object", ptr %"lo.object", ptr %"hi.object")
{
entry:
  br label %"B0"
B0:
  %".9" = icmp slt i64 %"x", %"lo"
  br i1 %".9", label %"B4", label %"B1"
B1:
  %".11" = icmp sgt i64 %"x", %"hi"
  br i1 %".11", label %"B3", label %"B2"
B2:
  %".13" = insertvalue {i64, i1, i32} undef, i64 %"x", 0
  %".14" = insertvalue {i64, i1, i32} %".13", i32 0, 2
  %".15" = insertvalue {i64, i1, i32} %".14", i1 0, 1
  ret {i64, i1, i32} %".15"
B3:
  %".17" = insertvalue {i64, i1, i32} undef, i64 %"hi", 0
  %".18" = insertvalue {i64, i1, i32} %".17", i32 2, 2
  %".19" = insertvalue {i64, i1, i32} %".18", i1 0, 1
  ret {i64, i1, i32} %".19"
B4:
  %".21" = insertvalue {i64, i1, i32} undef, i64 %"lo", 0
  %".22" = insertvalue {i64, i1, i32} %".21", i32 1, 2
  %".23" = insertvalue {i64, i1, i32} %".22", i1 0, 1
  ret {i64, i1, i32} %".23"
}

define ptr @"mj_0_clamp_entry"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
{
entry:
  %".6" = icmp eq ptr %"kwnames", null
  %".7" = icmp eq i64 %"nargs", 3
  %".8" = and i1 %".6", %".7"
  br i1 %".8", label %"checked", label %"fallback"
fallback:
  %".44" = call ptr @"PyObject_Vectorcall"(ptr %"self", ptr %"args", i64 %"nargs", ptr %"kwnames")
  ret ptr %".44"
checked:
  %".10" = getelementptr ptr, ptr %"args", i64 0
  %".11" = load ptr, ptr %".10"
  %".12" = call i1 @"mj_is_int64"(ptr %".11")
  br i1 %".12", label %"checked.1", label %"fallback"
checked.1:
  %".14" = call i64 @"mj_unbox_int"(ptr %".11")
  %".15" = getelementptr ptr, ptr %"args", i64 1
  %".16" = load ptr, ptr %".15"
  %".17" = call i1 @"mj_is_int64"(ptr %".16")
  br i1 %".17", label %"checked.2", label %"fallback"
checked.2:
  %".19" = call i64 @"mj_unbox_int"(ptr %".16")
  %".20" = getelementptr ptr, ptr %"args", i64 2
  %".21" = load ptr, ptr %".20"
  %".22" = call i1 @"mj_is_int64"(ptr %".21")
  br i1 %".22", label %"checked.3", label %"fallback"
checked.3:
  %".24" = call i64 @"mj_unbox_int"(ptr %".21")
  %".25" = call {i64, i1, i32} @"mj_0_clamp"(i64 %".14", i64 %".19", i64 %".24", ptr %".11", ptr %".16", ptr %".21")
  %".26" = extractvalue {i64, i1, i32} %".25", 1
  br i1 %".26", label %"failed", label %"returned"
failed:
  ret ptr null
returned:
  %".29" = extractvalue {i64, i1, i32} %".25", 0
  %".30" = extractvalue {i64, i1, i32} %".25", 2
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

declare i1 @"mj_is_int64"(ptr %".1")

declare i64 @"mj_unbox_int"(ptr %".1")

declare void @"mj_incref"(ptr %".1")

declare ptr @"mj_box_int"(i64 %".1")

declare ptr @"PyObject_Vectorcall"(ptr %".1", ptr %".2", i64 %".3", ptr %".4")

@"mj_0_clamp_name" = private constant [N x i8] c"clamp\00"
@"mj_0_clamp_def" = global {ptr, ptr, i32, ptr} {[N x i8]* @"mj_0_clamp_name", ptr (ptr, ptr, i64, ptr)* @"mj_0_clamp_entry", i32 130, ptr null}

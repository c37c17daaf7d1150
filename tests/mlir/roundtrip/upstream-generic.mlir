// RUN: gpu-translate --emit=mlir %s | FileCheck %s

// The generic form that mlir-opt-22 writes for llvm.func and llvm.call reads back as the same ops.

"builtin.module"() ({
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i64 (i64, ptr)>, linkage = #llvm.linkage<internal>, sym_name = "helper", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg0: i64, %arg1: !llvm.ptr):
    "llvm.return"(%arg0) : (i64) -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (struct<(i32, ptr)>)>, linkage = #llvm.linkage<external>, sym_name = "ext", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i64 (i64)>, linkage = #llvm.linkage<external>, sym_name = "f", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg0: i64):
    %0 = "llvm.mlir.zero"() : () -> !llvm.ptr
    %1 = "llvm.call"(%arg0, %0) <{CConv = #llvm.cconv<ccc>, callee = @helper, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 2, 0>}> : (i64, !llvm.ptr) -> i64
    "llvm.return"(%1) : (i64) -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: llvm.func internal @helper(%arg0: i64, %arg1: !llvm.ptr) -> i64 {
// CHECK: llvm.func @ext(!llvm.struct<(i32, !llvm.ptr)>){{$}}
// CHECK: %{{.*}} = llvm.call @helper(%arg0, %{{.*}}) : (i64, !llvm.ptr) -> i64

// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// RUN: gpu-translate --emit=mlir --mlir-print-op-generic %s | gpu-translate --emit=mlir - | FileCheck %s

// llvm.func as upstream writes it: a declaration may name its arguments, unnamed_addr comes before the
// name, and the generic form states the type as !llvm.func<...> and the linkage as #llvm.linkage<...>.

module {
  // CHECK: llvm.func @decl(i32, !llvm.ptr) -> i32
  // GENERIC: "llvm.func"() <{function_type = !llvm.func<i32 (i32, !llvm.ptr)>, sym_name = "decl"}> ({
  llvm.func @decl(%a: i32, %b: !llvm.ptr) -> i32
  // CHECK: llvm.func internal unnamed_addr @ua() {
  // GENERIC: "llvm.func"() <{function_type = !llvm.func<void ()>, linkage = #llvm.linkage<internal>, sym_name = "ua", unnamed_addr = 2 : i64}> ({
  llvm.func internal unnamed_addr @ua() {
    llvm.return
  }
  // CHECK: llvm.func @call(%arg0: i32) -> i32 {
  llvm.func @call(%x: i32) -> i32 {
    // CHECK: llvm.call @decl(%arg0, %{{.*}}) : (i32, !llvm.ptr) -> i32
    // GENERIC: "llvm.call"(%arg0, %{{.*}}) <{callee = @decl, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 2, 0>}> : (i32, !llvm.ptr) -> i32
    %p = llvm.mlir.zero : !llvm.ptr
    %r = llvm.call @decl(%x, %p) : (i32, !llvm.ptr) -> i32
    llvm.return %r : i32
  }
}

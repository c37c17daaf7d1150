// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate %s | FileCheck %s --check-prefix=IR

// llvm.mlir.constant keeps the type its value was written with; the result type rules in LLVM IR.

llvm.func @f() -> i64 {
  // CHECK: llvm.mlir.constant(8 : index) : i64
  %c = llvm.mlir.constant(8 : index) : i64
  // CHECK: llvm.mlir.constant(8 : i32) : i64
  %w = llvm.mlir.constant(8 : i32) : i64
  // IR: ret i64 8
  llvm.return %c : i64
}

// RUN: gpu-translate --emit=mlir %s | FileCheck %s

// Printed names follow upstream MLIR: entry-block arguments are %argN; every other value is %N, numbered
// block by block (a block's arguments, then its results), so mlir-opt and gpu-translate print alike.

module {
  // CHECK-LABEL: llvm.func @loop(%arg0: i64)
  llvm.func @loop(%n: i64) {
    // CHECK-NEXT: %0 = llvm.mlir.constant(0 : i64) : i64
    %zero = llvm.mlir.constant(0 : i64) : i64
    // CHECK-NEXT: %1 = llvm.mlir.constant(1 : i64) : i64
    %one = llvm.mlir.constant(1 : i64) : i64
    // CHECK-NEXT: llvm.br ^bb1(%0 : i64)
    llvm.br ^head(%zero : i64)
  // CHECK-NEXT: ^bb1(%2: i64):
  ^head(%i: i64):
    // CHECK-NEXT: %3 = llvm.icmp "sge" %2, %arg0 : i64
    %done = llvm.icmp "sge" %i, %n : i64
    // CHECK-NEXT: llvm.cond_br %3, ^bb3, ^bb2
    llvm.cond_br %done, ^exit, ^body
  // CHECK-NEXT: ^bb2:
  ^body:
    // CHECK-NEXT: %4 = llvm.add %2, %1 : i64
    %next = llvm.add %i, %one : i64
    // CHECK-NEXT: llvm.br ^bb1(%4 : i64)
    llvm.br ^head(%next : i64)
  // CHECK-NEXT: ^bb3:
  ^exit:
    // CHECK-NEXT: llvm.return
    llvm.return
  }
}

// REQUIRES: mlir-opt-22
// RUN: gpu-translate --emit=mlir --split-input-file %s | FileCheck %s
// RUN: gpu-translate --emit=mlir --split-input-file %s | mlir-opt-22 --split-input-file > /dev/null

// Input that mlir-opt-22 takes and that mgpu refused: each reads, verifies and prints back as upstream
// prints it.

// A constant global without elements, declared or uninitialized.
// CHECK: memref.global "private" constant @table : memref<4xf32>
// CHECK: memref.global "private" constant @blank : memref<2xi32> = uninitialized
memref.global "private" constant @table : memref<4xf32>
memref.global "private" constant @blank : memref<2xi32> = uninitialized

// -----

// memref.dim of a memref of unknown rank.
// CHECK-LABEL: func.func @unranked_dim(%arg0: memref<*xf32>, %arg1: index) -> index {
// CHECK-NEXT:    %dim = memref.dim %arg0, %arg1 : memref<*xf32>
func.func @unranked_dim(%m: memref<*xf32>, %i: index) -> index {
  %d = memref.dim %m, %i : memref<*xf32>
  return %d : index
}

// -----

// scf.while without operands leaves out its empty list.
// CHECK-LABEL: func.func @while_without_operands() -> i32 {
// CHECK:         %0 = scf.while : () -> i32 {
// CHECK:           scf.condition(%false) %c7_i32 : i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%arg0: i32):
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
func.func @while_without_operands() -> i32 {
  %r = scf.while : () -> i32 {
    %stop = arith.constant false
    %seven = arith.constant 7 : i32
    scf.condition(%stop) %seven : i32
  } do {
  ^bb0(%x: i32):
    scf.yield
  }
  return %r : i32
}

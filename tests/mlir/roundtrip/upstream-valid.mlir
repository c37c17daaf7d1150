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

// The widest integer type MLIR has.
// CHECK-LABEL: func.func @widest(%arg0: i16777215) -> i16777215 {
// CHECK-NEXT:    return %arg0 : i16777215
func.func @widest(%w: i16777215) -> i16777215 {
  return %w : i16777215
}

// -----

// memref.dim of a memref of unknown rank.
// CHECK-LABEL: func.func @unranked_dim(%arg0: memref<*xf32>, %arg1: index) -> index {
// CHECK-NEXT:    %dim = memref.dim %arg0, %arg1 : memref<*xf32>
func.func @unranked_dim(%m: memref<*xf32>, %i: index) -> index {
  %d = memref.dim %m, %i : memref<*xf32>
  return %d : index
}

// -----

// llvm.return ends a func.func as func.return does.
// CHECK-LABEL: func.func @llvm_return(%arg0: i32) -> i32 {
// CHECK-NEXT:    llvm.return %arg0 : i32
func.func @llvm_return(%v: i32) -> i32 {
  llvm.return %v : i32
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

// -----

gpu.module @views {
  // A subview whose strides are values; an expansion of a memref whose layout is the identity map
  // (strided<[1]>) has the identity layout, written without one.
  // CHECK-LABEL: gpu.func @value_strides(
  // CHECK:         %subview = memref.subview %arg0[%arg1, 1] [2, 3] [%arg2, %arg2] : memref<8x8xf32> to memref<2x3xf32, strided<[?, ?], offset: ?>>
  // CHECK:         %expand_shape = memref.expand_shape %arg3 {{\[}}[0, 1]] output_shape [2, 4] : memref<8xf32, strided<[1]>> into memref<2x4xf32>
  gpu.func @value_strides(%m: memref<8x8xf32>, %at: index, %step: index, %flat: memref<8xf32, strided<[1]>>) kernel {
    %v = memref.subview %m[%at, 1] [2, 3] [%step, %step] : memref<8x8xf32> to memref<2x3xf32, strided<[?, ?], offset: ?>>
    %e = memref.expand_shape %flat [[0, 1]] output_shape [2, 4] : memref<8xf32, strided<[1]>> into memref<2x4xf32>
    gpu.return
  }
}

// -----

gpu.module @memory {
  // Attributions whose memory spaces are a target's numbers, or none.
  // CHECK-LABEL: gpu.func @numbered_spaces() workgroup(%arg0 : memref<4xf32, 3>, %arg1 : memref<4xf32>) private(%arg2 : memref<4xf32, 5>) kernel {
  gpu.func @numbered_spaces() workgroup(%w : memref<4xf32, 3>, %g : memref<4xf32>) private(%p : memref<4xf32, 5>) kernel {
    gpu.return
  }
}

// REQUIRES: mlir-opt-22
// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | mlir-opt-22 > /dev/null

// What upstream's rules still take at their edges, next to what tests/mlir/verify/memref-rules.mlir and
// gpu-attributes.mlir refuse: an alignment is any power of 2, and the launch sizes a function promises
// need only be three i32.

// CHECK-LABEL: gpu.func @aligned(%arg0: memref<16xi32>, %arg1: index) kernel {
// CHECK-NEXT:    %0 = memref.load %arg0[%arg1] {alignment = 1 : i64} : memref<16xi32>
// CHECK-NEXT:    memref.store %0, %arg0[%arg1] {alignment = 1073741824 : i64} : memref<16xi32>
// CHECK-NEXT:    %alloca = memref.alloca() {alignment = 64 : i64} : memref<3xf64>
// CHECK-LABEL: gpu.func @promised() kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>, gpu.known_grid_size = array<i32: 0, -1, 1>} {
// CHECK-LABEL: func.func @host_promise() attributes {gpu.known_block_size = array<i32: 8, 8, 1>} {
gpu.module @edges {
  gpu.func @aligned(%buf: memref<16xi32>, %at: index) kernel {
    %v = memref.load %buf[%at] {alignment = 1} : memref<16xi32>
    memref.store %v, %buf[%at] {alignment = 1073741824} : memref<16xi32>
    %tmp = memref.alloca() {alignment = 64} : memref<3xf64>
    gpu.return
  }
  gpu.func @promised() kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>, gpu.known_grid_size = array<i32: 0, -1, 1>} {
    gpu.return
  }
}
func.func @host_promise() attributes {gpu.known_block_size = array<i32: 8, 8, 1>} {
  return
}

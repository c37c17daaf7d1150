// RUN: not gpu-translate --split-input-file --emit=obj %s -o %t.o 2>&1 | FileCheck %s
// RUN: not ls %t.o

// Programs mgpu reads and verifies, as upstream does, that translation cannot take: located errors, and no
// output (LLVM's integer types stop at 8388608 bits, half of MLIR's widest).

// CHECK: beyond-llvm.mlir:[[# @LINE + 1]]:1: error: Invalid type for translation (must be an integer of at most 8388608 bits, LLVM's widest): i16777215
func.func @widest(%w: i16777215) -> i16777215 {
  return %w : i16777215
}

// -----

// In a kernel (the host reads an unranked memref's sizes from the descriptor it points to).
// CHECK: beyond-llvm.mlir:[[# @LINE + 4]]:10: error: Invalid memref.dim (must ask a ranked memref: one of unknown rank is not translated): memref<*xf32>
gpu.module @k [#nvvm.target<chip = "sm_90">] {
  func.func @unranked_dim(%m: memref<*xf32>) -> index {
    %c0 = arith.constant 0 : index
    %d = memref.dim %m, %c0 : memref<*xf32>
    return %d : index
  }
}

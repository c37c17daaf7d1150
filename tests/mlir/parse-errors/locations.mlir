// RUN: not gpu-translate --split-input-file %s 2>&1 | FileCheck %s

// An op at loc(unknown) is reported at the nearest enclosing op with a location, never as "unknown".

func.func @f() {
  %c = arith.constant 1 : i32
  %r = "arith.addi"(%c) : (i32) -> i32 loc(unknown)
  return
}
// CHECK: locations.mlir:[[@LINE-5]]:1: error: Invalid arith.addi (must have 2 operands and 1 result): 1 and 1
// CHECK-NOT: unknown: error

// -----

// A user function named like a runtime function must have the runtime's signature.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, bin = "k">]
  llvm.func @mgpuStreamCreate(%x: i32) -> i32
  func.func @f() {
    %t = gpu.wait async
    gpu.wait [%t]
    return
  }
}
// CHECK: locations.mlir:[[@LINE-7]]:3: error: Invalid function @mgpuStreamCreate (must have the signature mgpu.h gives it, ptr ()): i32 (i32)

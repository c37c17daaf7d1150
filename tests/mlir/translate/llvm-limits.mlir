// What the model takes and LLVM cannot: located errors before LLVM is asked, no output.
// RUN: not gpu-translate --split-input-file --emit=llvm %s 2>&1 | FileCheck %s

// An alignment past 2^30 would wrap in the int that LLVM's C API takes (2^32 became 0).
// CHECK: llvm-limits.mlir:[[# @LINE + 6]]:12: error: Invalid alignment of memref.alloca for translation (must be at most 2^30 bytes): 4294967296
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    gpu.func @f(%out: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      %a = memref.alloca() {alignment = 4294967296 : i64} : memref<4xf32>
      memref.store %v, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// CHECK: llvm-limits.mlir:[[# @LINE + 2]]:8: error: Invalid alignment of memref.alloca for translation (must be at most 2^30 bytes): 2147483648
func.func @host() {
  %a = memref.alloca() {alignment = 2147483648 : i64} : memref<4xf32>
  return
}

// -----

// A vector is one value of the translated code, each element an instruction to read or print it.
// CHECK: llvm-limits.mlir:[[# @LINE + 4]]:8: error: Invalid vector type for translation (must have one dimension of at most 65536 elements): vector<65537xf32>
func.func @wide(%m: memref<70000xf32>) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%c0], %p : memref<70000xf32>, vector<65537xf32>
  vector.print %v : vector<65537xf32>
  return
}

// -----

// An atomic on a part of a byte: LLVM's verifier would refuse the kernel module, located at the gpu.module.
// CHECK: llvm-limits.mlir:[[# @LINE + 5]]:14: error: Invalid memref.atomic_rmw for translation (must be on an integer of whole bytes, as LLVM's atomics are): i1
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">, #cpu.target] {
    gpu.func @f(%m: memref<4xi1>, %v: i1) kernel {
      %c0 = arith.constant 0 : index
      %old = memref.atomic_rmw ori %v, %m[%c0] : (i1, memref<4xi1>) -> i1
      gpu.return
    }
  }
}

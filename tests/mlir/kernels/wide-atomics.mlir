// An atomic on an i128 is refused at the op for every target: LLVM's NVPTX back end made calls of
// __atomic_fetch_add_16, which ptxas then refused at the gpu.module; its AMDGPU back end aborted ("Do not know
// how to expand the result of this operator!", found by the kernel fuzzer); the CPU's object needed
// __atomic_fetch_add_16 from a library the runtime does not load. An i128 of a thread's own memory is no
// atomic, and compiles.
// RUN: not gpu-translate --split-input-file %s -o %t.o 2>&1 | FileCheck %s
// CHECK: {{.*}}wide-atomics.mlir:[[# @LINE + 6]]:12: error: Invalid memref.atomic_rmw for #nvvm.target<chip = "sm_90"> (must be on at most 64 bits: LLVM's back ends have no wider atomics for kernels): i128
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    gpu.func @k(%a: memref<4xi128>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1 : i128
      %r = memref.atomic_rmw addi %v, %a[%c0] : (i128, memref<4xi128>) -> i128
      gpu.return
    }
  }
}
// -----
// CHECK: {{.*}}wide-atomics.mlir:[[# @LINE + 6]]:12: error: Invalid memref.atomic_rmw for #rocdl.target<chip = "gfx90a"> (must be on at most 64 bits: LLVM's back ends have no wider atomics for kernels): i128
module attributes {gpu.container_module} {
  gpu.module @m [#rocdl.target<chip = "gfx90a">] {
    gpu.func @k(%a: memref<4xi128>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant -1 : i128
      %r = memref.atomic_rmw maxs %v, %a[%c0] : (i128, memref<4xi128>) -> i128
      gpu.return
    }
  }
}
// -----
// CHECK: {{.*}}wide-atomics.mlir:[[# @LINE + 6]]:12: error: Invalid memref.atomic_rmw for #cpu.target (must be on at most 64 bits: LLVM's back ends have no wider atomics for kernels): i128
module attributes {gpu.container_module} {
  gpu.module @m [#cpu.target] {
    gpu.func @k(%a: memref<4xi128>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 2 : i128
      %r = memref.atomic_rmw muli %v, %a[%c0] : (i128, memref<4xi128>) -> i128
      gpu.return
    }
  }
}
// -----
// CHECK-NOT: error
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">, #cpu.target] {
    gpu.func @k(%a: memref<4xi128>) kernel {
      %c0 = arith.constant 0 : index
      %p = memref.alloca() : memref<1xi128, #gpu.address_space<private>>
      %v = arith.constant 1 : i128
      %r = memref.atomic_rmw addi %v, %p[%c0] : (i128, memref<1xi128, #gpu.address_space<private>>) -> i128
      memref.store %r, %a[%c0] : memref<4xi128>
      gpu.return
    }
  }
}

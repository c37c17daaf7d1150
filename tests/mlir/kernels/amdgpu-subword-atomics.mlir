// Atomics on i8 and i16 for AMD chips are compare-and-swap loops on the element. LLVM's AMDGPU back end
// aborted on an atomicrmw of fewer than 32 bits whose value leaves memory as it was (an add or or of 0, an
// and of -1, a max of the least value: the optimiser makes them all an add of 0: "Cannot select: i16,ch =
// AtomicLoadAdd"), and on an add of 3 to an i8 ("Do not know how to promote this operator!"); the kernel
// fuzzer found both, which the back end's own process had turned into located errors.
// RUN: gpu-translate --save-temps=%t.temps %s -o %t.o
// RUN: FileCheck %s --input-file %t.temps/amdgpu-subword-atomics.m.gfx90a.s
// RUN: FileCheck %s --input-file %t.temps/amdgpu-subword-atomics.m.gfx700.s --check-prefix=GFX7
// CHECK-LABEL: k:
// CHECK-COUNT-6: global_atomic_cmpswap
// CHECK-NOT: global_atomic_add
// CHECK: s_endpgm
// GFX7-LABEL: k:
// GFX7-COUNT-6: flat_atomic_cmpswap
// GFX7: s_endpgm
module attributes {gpu.container_module} {
  gpu.module @m [#rocdl.target<chip = "gfx90a">, #rocdl.target<chip = "gfx700">] {
    gpu.func @k(%a: memref<4xi8>, %b: memref<4xi16>, %o: memref<8xi16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z8 = arith.constant 0 : i8
      %three = arith.constant 3 : i8
      %z16 = arith.constant 0 : i16
      %ones = arith.constant -1 : i16
      %least = arith.constant -32768 : i16
      %r0 = memref.atomic_rmw addi %z8, %a[%c0] : (i8, memref<4xi8>) -> i8
      %r1 = memref.atomic_rmw addi %three, %a[%c1] : (i8, memref<4xi8>) -> i8
      %r2 = memref.atomic_rmw ori %z16, %b[%c0] : (i16, memref<4xi16>) -> i16
      %r3 = memref.atomic_rmw andi %ones, %b[%c1] : (i16, memref<4xi16>) -> i16
      %r4 = memref.atomic_rmw maxs %least, %b[%c0] : (i16, memref<4xi16>) -> i16
      %r5 = memref.atomic_rmw xori %z16, %b[%c1] : (i16, memref<4xi16>) -> i16
      %e0 = arith.extsi %r0 : i8 to i16
      %e1 = arith.extsi %r1 : i8 to i16
      %s0 = arith.addi %e0, %e1 : i16
      %s1 = arith.addi %s0, %r2 : i16
      %s2 = arith.addi %s1, %r3 : i16
      %s3 = arith.addi %s2, %r4 : i16
      %s4 = arith.addi %s3, %r5 : i16
      memref.store %s4, %o[%c0] : memref<8xi16>
      gpu.return
    }
  }
}

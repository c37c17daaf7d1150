// REQUIRES: ptxas
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %s > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: gpu-object sm_90 < %t.mlir > %t.ptx && ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: gpu-object gfx90a < %t.mlir | FileCheck %s --check-prefix=GCN
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=offload %s | gpu-object cpu | llvm-dis-22 | FileCheck %s --check-prefix=CPU

// A memref.global of a kernel module is an array of its elements. Without a memory space it lives in global
// memory on a GPU (constant memory on AMD when constant), and memref.get_global is a generic pointer to
// its first element, as every memref a kernel gets; private ones are internal to the object.

// PTX: .global .align 16 .b8 table[16] = {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64};
// PTX: .visible .global .align 4 .b8 counts[12];
// PTX: .visible .entry f(
// PTX: mov.u64 %rd{{[0-9]+}}, table;
// PTX: ld.global.nc.f32
// PTX: mov.u64 %rd{{[0-9]+}}, counts;
// PTX: atom.global.add.u32

// GCN: f:
// GCN: table@rel32@lo
// GCN: global_load_dword
// GCN: .section .rodata
// GCN: table:
// GCN: .long 0x3f800000
// GCN: .long 0x40000000

// CPU: @table = internal unnamed_addr constant [4 x float] [float 1.000000e+00, float 2.000000e+00, float 3.000000e+00, float 4.000000e+00], align 16
// CPU: @counts = global [3 x i32] undef

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">, #cpu.target] {
    memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]> {alignment = 16 : i64}
    memref.global @counts : memref<3xi32> = uninitialized
    gpu.func @f(%out: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %g = memref.get_global @table : memref<4xf32>
      %v = memref.load %g[%t] : memref<4xf32>
      memref.store %v, %out[%t] : memref<4xf32>
      %c = memref.get_global @counts : memref<3xi32>
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %one, %c[%c0] : (i32, memref<3xi32>) -> i32
      gpu.return
    }
  }
}

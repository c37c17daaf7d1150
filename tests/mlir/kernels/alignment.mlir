// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=offload %s > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | llvm-dis-22 | FileCheck %s --check-prefix=NVVM
// RUN: gpu-object gfx90a < %t.mlir | llvm-dis-22 | FileCheck %s --check-prefix=ROCDL
// RUN: gpu-object cpu < %t.mlir | llvm-dis-22 | FileCheck %s --check-prefix=CPU

// An attribution's memory is aligned as its llvm.align says, else as its element type is (as upstream's
// lowering leaves it; a float array of more than 16 bytes is not taken as aligned to 16). On the CPU,
// workgroup memory is on the stack of the call that runs the block, aligned to 64 bytes or more.

// NVVM-DAG: @__mgpu_wg_k_0 = internal unnamed_addr addrspace(3) global [64 x float] undef, align 4
// NVVM-DAG: @__mgpu_wg_k_1 = internal unnamed_addr addrspace(3) global [64 x float] undef, align 128
// NVVM: alloca [8 x float], align 32
// ROCDL-DAG: @__mgpu_wg_k_0 = internal unnamed_addr addrspace(3) global [64 x float] undef, align 4
// ROCDL-DAG: @__mgpu_wg_k_1 = internal unnamed_addr addrspace(3) global [64 x float] undef, align 128
// CPU-DAG: alloca [64 x float], align 64
// CPU-DAG: alloca [64 x float], align 128
// CPU-DAG: alloca [{{[0-9]+}} x i8], i64 %{{.*}}, align 64

gpu.module @m [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">, #cpu.target] {
  gpu.func @k(%out: memref<64xf32>, %i: index)
      workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>,
                %b : memref<64xf32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
      private(%p : memref<8xf32, #gpu.address_space<private>> {llvm.align = 32 : i64}) kernel {
    %t = gpu.thread_id x
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    memref.store %one, %a[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %two, %b[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    %j = arith.remui %i, %c8 : index
    memref.store %one, %p[%j] : memref<8xf32, #gpu.address_space<private>>
    gpu.barrier
    %x = memref.load %a[%i] : memref<64xf32, #gpu.address_space<workgroup>>
    %y = memref.load %b[%i] : memref<64xf32, #gpu.address_space<workgroup>>
    %k = arith.remui %t, %c8 : index
    %z = memref.load %p[%k] : memref<8xf32, #gpu.address_space<private>>
    %s = arith.addf %x, %y : f32
    %r = arith.addf %s, %z : f32
    memref.store %r, %out[%t] : memref<64xf32>
    gpu.return
  }
}

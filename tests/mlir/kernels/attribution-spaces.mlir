// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=offload %s > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | llvm-dis-22 | FileCheck %s --check-prefixes=GPU,NVVM
// RUN: gpu-object gfx90a < %t.mlir | llvm-dis-22 | FileCheck %s --check-prefixes=GPU,ROCDL
// RUN: gpu-object cpu < %t.mlir | llvm-dis-22 | FileCheck %s --check-prefix=CPU
// RUN: sed 's/memref<2xf32, 3>/memref<2xf32, 5>/g' %s > %t.five.mlir
// RUN: not gpu-translate --emit=mlir --compile-kernels %t.five.mlir 2>&1 | FileCheck %s --check-prefix=FIVE

// Attributions whose types name a target's memory space by number, or none, as upstream takes them: the
// memory is still the kind's own, workgroup memory shared by the block (both workgroup arrays are globals
// of address space 3, the one typed without a space seen through a generic pointer, which LLVM then
// narrows), private memory in the frame. A workgroup array typed as in space 5 would be a cast from
// workgroup memory to private memory, which no back end makes: a located error.

// GPU-DAG: @__mgpu_wg_swap_0{{.*}} = internal unnamed_addr addrspace(3) global float undef, align 4
// GPU-DAG: @__mgpu_wg_swap_1{{.*}} = internal unnamed_addr addrspace(3) global float undef, align 4
// NVVM-LABEL: define ptx_kernel void @swap(
// ROCDL-LABEL: define amdgpu_kernel void @swap(
// GPU:         store float %[[X:.*]], ptr addrspace(3) @__mgpu_wg_swap_0{{.*}}, align 4
// GPU-NEXT:    store float %[[X]], ptr addrspace(3) @__mgpu_wg_swap_1{{.*}}, align 4
// GPU:         load float, ptr addrspace(3) @__mgpu_wg_swap_0{{.*}}, align 4
// GPU-NEXT:    load float, ptr addrspace(3) @__mgpu_wg_swap_1{{.*}}, align 4
// CPU-LABEL: define void @swap(
// CPU:         alloca [16 x i8], i64 %{{.*}}, align 64

// FIVE: five.mlir:[[@LINE+2]]:3: error: Invalid workgroup attribution for #nvvm.target<chip = "sm_90"> (must be in address space 3 or the generic one, 0): memref<2xf32, 5>
gpu.module @spaces [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">, #cpu.target] {
  gpu.func @swap(%io: memref<2xf32>) workgroup(%shared : memref<2xf32, 3>, %plain : memref<2xf32>) private(%own : memref<2xf32, 5>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %x = memref.load %io[%c0] : memref<2xf32>
    memref.store %x, %shared[%c0] : memref<2xf32, 3>
    memref.store %x, %plain[%c0] : memref<2xf32>
    memref.store %x, %own[%c1] : memref<2xf32, 5>
    gpu.barrier
    %a = memref.load %shared[%c0] : memref<2xf32, 3>
    %b = memref.load %plain[%c0] : memref<2xf32>
    %c = memref.load %own[%c1] : memref<2xf32, 5>
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %c : f32
    memref.store %t, %io[%c1] : memref<2xf32>
    gpu.return
  }
}

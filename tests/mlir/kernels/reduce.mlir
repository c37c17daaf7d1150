// REQUIRES: ptxas, llvm-readobj-22
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %S/../../../examples/kernels/reduce.mlir > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: gpu-object sm_90 < %t.mlir > %t.sm90.ptx && ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin
// RUN: gpu-object sm_80 < %t.mlir > %t.sm80.ptx && ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: gpu-object gfx90a < %t.mlir | FileCheck %s --check-prefix=GCN
// RUN: gpu-translate --emit=mlir --compile-kernels %S/../../../examples/kernels/reduce.mlir | gpu-object gfx90a > %t.hsaco
// RUN: llvm-readobj-22 --notes %t.hsaco | FileCheck %s --check-prefix=NOTES

// The reduction: five xor shuffles over 32 lanes (shfl.sync.bfly with the full mask and clamp 31 on
// NVIDIA; ds_bpermute on AMD, whose wavefronts have 64 lanes), the lane index, and one atomic float add
// per subgroup (atom.add.f32 on NVIDIA; on AMD a compare-and-swap loop, since the memory may be
// fine-grained).

// PTX: %laneid
// PTX: shfl.sync.bfly.b32 {{%f[0-9]+}}|{{%p[0-9]+}}, {{%f[0-9]+}}, 16, 31, -1;
// PTX: shfl.sync.bfly.b32 {{%f[0-9]+}}|{{%p[0-9]+}}, {{%f[0-9]+}}, 8, 31, -1;
// PTX: shfl.sync.bfly.b32 {{%f[0-9]+}}|{{%p[0-9]+}}, {{%f[0-9]+}}, 4, 31, -1;
// PTX: shfl.sync.bfly.b32 {{%f[0-9]+}}|{{%p[0-9]+}}, {{%f[0-9]+}}, 2, 31, -1;
// PTX: shfl.sync.bfly.b32 {{%f[0-9]+}}|{{%p[0-9]+}}, {{%f[0-9]+}}, 1, 31, -1;
// PTX: atom.global.add.f32

// GCN: v_mbcnt_lo_u32_b32
// GCN: v_mbcnt_hi_u32_b32
// GCN-COUNT-5: ds_bpermute_b32
// GCN: global_atomic_cmpswap

// NOTES: .name: reduce

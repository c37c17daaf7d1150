// REQUIRES: ptxas, llvm-readobj-22
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %S/../../../examples/kernels/matmul.mlir > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: gpu-object sm_90 < %t.mlir | FileCheck %s --check-prefix=SCALAR
// RUN: gpu-object sm_90 < %t.mlir > %t.sm90.ptx && ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin
// RUN: sass-count %t.sm90.cubin | FileCheck %s --check-prefix=SASS
// RUN: gpu-object sm_80 < %t.mlir > %t.sm80.ptx && ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: gpu-object gfx90a < %t.mlir | FileCheck %s --check-prefix=GCN
// RUN: gpu-translate --emit=mlir --compile-kernels %S/../../../examples/kernels/matmul.mlir | gpu-object gfx90a > %t.hsaco
// RUN: llvm-readobj-22 --notes %t.hsaco | FileCheck %s --check-prefix=NOTES

// The tiled matmul: its two workgroup attributions become shared (LDS) arrays of 16x16 floats, one per
// kernel; gpu.barrier is bar.sync on NVIDIA and a workgroup fence pair around s_barrier on AMD; the inner
// loop's math.fma is a fused multiply-add; known_block_size bounds the AMD work-group size, and is the
// NVIDIA kernel's .maxntid, as upstream's lowering makes it. The attributions have no llvm.align, so their
// arrays are aligned as floats are, as upstream's and nvcc's are: their loads stay scalar.

// PTX: .visible .entry matmul(
// PTX: .maxntid 16, 16, 1
// PTX-DAG: .shared .align 4 .b8 __mgpu_wg_matmul_0[1024];
// PTX-DAG: .shared .align 4 .b8 __mgpu_wg_matmul_1[1024];
// PTX: st.shared.f32
// PTX: st.shared.f32
// Between the barriers the 16-step inner loop is unrolled in full, its loads scalar.
// PTX: bar.sync 0;
// PTX-COUNT-16: fma.rn.f32
// PTX-NOT: {{fma|bra}}
// PTX: bar.sync 0;
// PTX: st.global.f32
// SCALAR: .entry matmul(
// SCALAR-NOT: ld.shared.v
// SCALAR: ret;

// With 4-float loads of As, ptxas unrolled the tile loop four times: 217 SASS instructions, against 126 for
// nvcc -O3's build of the same kernel (tests/gpu/kernels/kernels.cu). At most 1.1 times nvcc's is the goal.
// SASS: matmul {{([1-9][0-9]?|1[0-2][0-9]|13[0-8])$}}

// GCN: matmul:
// GCN: ds_write
// GCN: s_barrier
// GCN: ds_read
// GCN: v_fma{{c?}}_f32
// GCN: .amdhsa_group_segment_fixed_size 2048

// NOTES: .group_segment_fixed_size: 2048
// NOTES: .max_flat_workgroup_size: 256
// NOTES: .name: matmul

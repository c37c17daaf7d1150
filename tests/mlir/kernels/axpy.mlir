// REQUIRES: ptxas, llvm-readobj-22
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly --kernel-bare-ptr-calling-convention %S/../../../examples/kernels/axpy.mlir > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: gpu-object sm_90 < %t.mlir > %t.sm90.ptx && ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin
// RUN: gpu-object sm_80 < %t.mlir > %t.sm80.ptx && ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: gpu-object gfx90a < %t.mlir | FileCheck %s --check-prefix=GCN
// RUN: gpu-translate --emit=mlir --compile-kernels --kernel-bare-ptr-calling-convention %S/../../../examples/kernels/axpy.mlir | gpu-object gfx90a > %t.hsaco
// RUN: llvm-readobj-22 --notes %t.hsaco | FileCheck %s --check-prefix=NOTES

// The axpy kernel of examples/kernels, built as the examples build it, with bare pointers: a kernel entry whose
// memref arguments are one pointer each, as the host passes them, the thread's index from the special registers, and the guarded
// load, multiply-add and store.

// PTX: .target sm_90
// PTX: .visible .entry axpy(
// PTX-NEXT: .param .f32 axpy_param_0,
// PTX-NEXT: .param .u64 .ptr .align 1 axpy_param_1,
// PTX-NEXT: .param .u64 .ptr .align 1 axpy_param_2,
// PTX-NEXT: .param .u32 axpy_param_3
// PTX-DAG: mov.u32 {{%r[0-9]+}}, %tid.x;
// PTX-DAG: mov.u32 {{%r[0-9]+}}, %ctaid.x;
// PTX-DAG: mov.u32 {{%r[0-9]+}}, %ntid.x;
// PTX: setp.ge.s64
// PTX: ld.global.f32
// PTX: ld.global.f32
// PTX: mul.rn.f32
// PTX: add.rn.f32
// PTX: st.global.f32
// PTX: ret;

// GCN: .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
// GCN: .globl axpy
// GCN: axpy:
// GCN: global_load_dword
// GCN: s_endpgm
// GCN: .amdhsa_kernel axpy

// NOTES: amdhsa.kernels:
// NOTES: .name: axpy
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx90a

// REQUIRES: ptxas, llvm-readobj-22
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %S/../../../examples/kernels/stencil2d.mlir > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: gpu-object sm_90 < %t.mlir > %t.sm90.ptx && ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin
// RUN: gpu-object sm_80 < %t.mlir > %t.sm80.ptx && ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: gpu-translate --emit=mlir --compile-kernels %S/../../../examples/kernels/stencil2d.mlir | gpu-object gfx90a > %t.hsaco
// RUN: llvm-readobj-22 --notes %t.hsaco | FileCheck %s --check-prefix=NOTES

// The 2-D stencil: x and y thread and block indices, the nested scf.if with a result (a phi of the
// interior value and the copied border value), and row-major addressing of a 64x64 memref.

// PTX: .visible .entry stencil2d(
// PTX-DAG: %tid.x
// PTX-DAG: %tid.y
// PTX-DAG: %ctaid.x
// PTX-DAG: %ctaid.y
// The rows above and below are 64 floats (256 bytes) away, the neighbours in the row 4 bytes: all four
// from the address of the centre, in one register (a row offset that LLVM cannot fold into the address
// costs 8 more SASS instructions after ptxas).
// PTX: ld.global.f32 {{%f[0-9]+}}, [[[CENTRE:%rd[0-9]+]]+-256];
// PTX: ld.global.f32 {{%f[0-9]+}}, [[[CENTRE]]+256];
// PTX: ld.global.f32 {{%f[0-9]+}}, [[[CENTRE]]+-4];
// PTX: ld.global.f32 {{%f[0-9]+}}, [[[CENTRE]]+4];
// PTX: mul.rn.f32 {{%f[0-9]+}}, {{%f[0-9]+}}, 0f3E800000;
// PTX: st.global.f32

// NOTES: .value_kind: global_buffer
// NOTES: .value_kind: global_buffer
// NOTES: .name: stencil2d

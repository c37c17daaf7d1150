// REQUIRES: llc-22, llvm-dis-22, llvm-as-22, cc
// Downstream tools accept what gpu-translate emits.
// RUN: gpu-translate --emit=bc %s -o %t.bc
// RUN: llvm-dis-22 %t.bc -o - | FileCheck %s
// RUN: llc-22 %t.bc -o - | FileCheck %s --check-prefix=LLC
// RUN: gpu-translate --emit=llvm %s -o %t.ll
// RUN: llvm-as-22 %t.ll -o %t.as.bc
// RUN: llvm-dis-22 %t.as.bc -o %t.as.dis && llvm-dis-22 %t.bc -o %t.bc.dis
// RUN: diff <(tail -n +2 %t.as.dis) <(tail -n +2 %t.bc.dis)
// Objects and assembly for the host link with the system C compiler and libmgpu.
// RUN: gpu-translate --emit=obj %s -o %t.o
// RUN: cc %S/Inputs/call_f.c %t.o -L%mgpu_root/runtime-c/build -lmgpu -o %t.exe
// RUN: gpu-translate --emit=asm %s -o - | FileCheck %s --check-prefix=ASM
// The same input gives the same bytes.
// RUN: gpu-translate --emit=bc %s -o %t.2.bc && cmp %t.bc %t.2.bc
// RUN: gpu-translate --emit=obj %s -o %t.2.o && cmp %t.o %t.2.o
// RUN: gpu-translate --module-load=ctor --emit=obj %s -o %t.ctor.o && cc %S/Inputs/call_f.c %t.ctor.o -L%mgpu_root/runtime-c/build -lmgpu -o %t.ctor.exe

// CHECK: @k_bin_cst = internal constant [4 x i8] c"\7FELF", align 8
// CHECK: call void @mgpuLaunchKernel(
// LLC: f:
// LLC: callq mgpuLaunchKernel@PLT
// ASM: f:
// ASM: callq mgpuLaunchKernel@PLT

module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\7FELF">]
  llvm.func @f() {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @k::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    llvm.return
  }
}

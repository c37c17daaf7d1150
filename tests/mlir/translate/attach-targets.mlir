// RUN: gpu-translate --targets=nvvm:sm_90 --gpu-format=assembly --emit=mlir --compile-kernels %s | FileCheck %s
// RUN: gpu-translate --targets=cpu %s | FileCheck %s --check-prefix=LLVM
// RUN: not gpu-translate %s 2>&1 | FileCheck %s --check-prefix=NONE

// --targets gives its targets to every gpu.module that has none, as upstream's nvvm-attach-target and
// rocdl-attach-target do, so a program written for upstream's pipelines compiles unmodified; a module with
// targets of its own keeps them. Without --targets, a launch into a module without targets stays an error.

// CHECK: gpu.binary @m [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {O = 2 : i32}, assembly = "{{.*}}.entry k(
// CHECK: gpu.binary @own [#gpu.object<#cpu.target, properties = {O = 2 : i32}, assembly =
// LLVM: @m_bin_cst = internal constant
// LLVM: call {{.*}}@mgpuLaunchKernel(
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %c = arith.constant 1.0 : f32
      memref.store %c, %out[%i] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @own [#cpu.target] {
    gpu.func @k2() kernel {
      gpu.return
    }
  }
  func.func @main(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // NONE: attach-targets.mlir:[[# @LINE + 1]]:5: error: Invalid kernel module for translation (must be a gpu.binary): @m
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xf32>)
    return
  }
}

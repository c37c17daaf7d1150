// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir - | FileCheck %s

// The gpu.binary forms of the select_object review, and its launch forms.

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target] {
    gpu.func @kernel_1(%arg0 : f32, %arg1 : memref<?xf32, 1>) kernel {
      gpu.return
    }
    gpu.func @kernel_2() kernel {
      gpu.return
    }
  }

  // The default handler is left out when printed.
  // CHECK: gpu.binary @binary_1 [#gpu.object<#nvvm.target, "">]
  gpu.binary @binary_1 [#gpu.object<#nvvm.target, "">]
  // CHECK: gpu.binary @binary_default [#gpu.object<#nvvm.target, "">]
  gpu.binary @binary_default <#gpu.select_object> [#gpu.object<#nvvm.target, "">]
  // CHECK: gpu.binary @binary_2 <#gpu.select_object<#rocdl.target>> [#gpu.object<#nvvm.target, "">, #gpu.object<#rocdl.target, "">]
  gpu.binary @binary_2 <#gpu.select_object<#rocdl.target>> [#gpu.object<#nvvm.target, "">, #gpu.object<#rocdl.target, "">]
  // CHECK: gpu.binary @binary_3 <#gpu.select_object<1 : i64>> [#gpu.object<#nvvm.target, "">, #gpu.object<#rocdl.target, "">]
  gpu.binary @binary_3 <#gpu.select_object<1>> [#gpu.object<#nvvm.target, "">, #gpu.object<#rocdl.target, "">]
  // Defaults are filled in, so equal targets print the same way.
  // CHECK: gpu.binary @binary_4 <#gpu.select_object<#nvvm.target>> [#gpu.object<#nvvm.target, "">]
  gpu.binary @binary_4 <#gpu.select_object<#nvvm.target<chip = "sm_50">>> [#gpu.object<#nvvm.target<O = 2, triple = "nvptx64-nvidia-cuda">, "">]
  // CHECK: gpu.binary @rt <#gpu.runtime_select> [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "A">, #gpu.object<#cpu.target, "B">]
  gpu.binary @rt <#gpu.runtime_select> [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "A">, #gpu.object<#cpu.target, "B">]

  func.func private @two_value_generator() -> (f32, memref<?xf32, 1>)

  // CHECK-LABEL: func.func @foo(
  func.func @foo(%0 : f32, %1 : memref<?xf32, 1>, %lowStream : !llvm.ptr) {
    %cst = arith.constant 8 : index
    %cstI64 = arith.constant 8 : i64
    %c0 = arith.constant 0 : i32
    %t0 = gpu.wait async
    // CHECK: %[[T1:.*]] = gpu.launch_func async [%{{.*}}] @kernels::@kernel_2 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}){{$}}
    %t1 = gpu.launch_func async [%t0] @kernels::@kernel_2  blocks in (%cst, %cst, %cst) threads in (%cst, %cst, %cst)
    // CHECK: gpu.launch_func <%{{.*}} : !llvm.ptr> @kernels::@kernel_1 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i64 args(%{{.*}} : f32, %{{.*}} : memref<?xf32, 1>)
    gpu.launch_func <%lowStream : !llvm.ptr> @kernels::@kernel_1 blocks in (%cstI64, %cstI64, %cstI64) threads in (%cstI64, %cstI64, %cstI64) : i64 args(%0 : f32, %1 : memref<?xf32, 1>)
    // CHECK: gpu.launch_func @kernels::@kernel_1 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i32 args(%{{.*}} : f32, %{{.*}} : memref<?xf32, 1>)
    gpu.launch_func @kernels::@kernel_1 blocks in (%c0, %c0, %c0) threads in (%c0, %c0, %c0) : i32 args(%0 : f32, %1 : memref<?xf32, 1>)
    // CHECK: gpu.launch_func @binary_1::@kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i32 args(%{{.*}} : f32, %{{.*}} : memref<?xf32, 1>)
    gpu.launch_func @binary_1::@kernel blocks in (%c0, %c0, %c0) threads in (%c0, %c0, %c0) : i32 args(%0 : f32, %1 : memref<?xf32, 1>)
    // CHECK: %[[VALUES:.*]]:2 = call
    %values:2 = func.call @two_value_generator() : () -> (f32, memref<?xf32, 1>)
    // CHECK: gpu.launch_func @kernels::@kernel_1 {{.*}} args(%[[VALUES]]#0 : f32, %[[VALUES]]#1 : memref<?xf32, 1>)
    gpu.launch_func @kernels::@kernel_1 blocks in (%cst, %cst, %cst) threads in (%cst, %cst, %cst) args(%values#0 : f32, %values#1 : memref<?xf32, 1>)
    // CHECK: gpu.wait [%[[T1]]]
    gpu.wait [%t1]
    return
  }
}

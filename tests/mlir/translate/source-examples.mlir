// RUN: not gpu-translate --split-input-file %s 2>/dev/null | FileCheck %s
// RUN: not gpu-translate --split-input-file --module-load=per-launch %s 2>&1 | FileCheck %s --check-prefix=ERR

// The examples of the source documents, translated.

// The alloc review's program: a stream, an async alloc and dealloc on it, and a wait.
module attributes {gpu.container_module} {
  // CHECK-LABEL: define void @main()
  func.func @main() {
    // CHECK: %[[S:.*]] = call ptr @mgpuStreamCreate()
    %0 = gpu.wait async
    // CHECK: call ptr @mgpuMemAlloc(i64 52, ptr %[[S]], i8 0)
    %1, %2 = gpu.alloc async [%0] () : memref<13xf32>
    // CHECK: call void @mgpuMemFree(ptr %{{.*}}, ptr %[[S]])
    %3 = gpu.dealloc async [%2] %1 : memref<13xf32>
    // CHECK: call void @mgpuStreamSynchronize(ptr %[[S]])
    // CHECK: call void @mgpuStreamDestroy(ptr %[[S]])
    gpu.wait [%3]
    return
  }
}

// -----

// The select_object review's binaries and its launch into @binary_1.
module attributes {gpu.container_module} {
  // CHECK-DAG: @binary_1_bin_cst = internal constant [0 x i8] zeroinitializer, align 8
  gpu.binary @binary_1 [#gpu.object<#nvvm.target, "">]
  // CHECK-DAG: @binary_2_bin_cst = internal constant [3 x i8] c"AMD", align 8
  gpu.binary @binary_2 <#gpu.select_object<#rocdl.target>> [#gpu.object<#nvvm.target, "NV">, #gpu.object<#rocdl.target, "AMD">]
  // CHECK-DAG: @binary_3_bin_cst = internal constant [3 x i8] c"AMD", align 8
  gpu.binary @binary_3 <#gpu.select_object<1>> [#gpu.object<#nvvm.target, "NV">, #gpu.object<#rocdl.target, "AMD">]
  // CHECK-LABEL: define void @foo(float %0, ptr addrspace(1) %1, ptr addrspace(1) %2, i64 %3, i64 %4, i64 %5)
  func.func @foo(%0 : f32, %1 : memref<?xf32, 1>) {
    %c0 = arith.constant 0 : i32
    // The memref as upstream's default passes it: its five fields, six parameters in all.
    // CHECK: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i32 0, ptr {{.*}}, ptr %{{.*}}, ptr null, i64 6)
    gpu.launch_func @binary_1::@kernel blocks in (%c0, %c0, %c0) threads in (%c0, %c0, %c0) : i32 args(%0 : f32, %1 : memref<?xf32, 1>)
    return
  }
}

// -----

// A launch into a gpu.module has no device binary to embed: it is reported, located, not crashed on.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel_1(%arg0 : f32) kernel {
      gpu.return
    }
  }
  func.func @bar(%x : f32) {
    %c1 = arith.constant 1 : index
    // ERR: source-examples.mlir:[[@LINE+1]]:5: error: Invalid kernel module for translation (must be a gpu.binary): @kernels
    gpu.launch_func @kernels::@kernel_1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : f32)
    return
  }
}

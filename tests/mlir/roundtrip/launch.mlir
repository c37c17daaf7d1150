// RUN: gpu-translate --emit=mlir %s | FileCheck %s

module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\7FELF">]
  gpu.module @m {
    gpu.func @kern(%a: i8, %b: i16, %c: i32, %d: i64, %e: f32, %f: f64, %g: !llvm.ptr) kernel {
      gpu.return
    }
  }
  // CHECK-LABEL: llvm.func @launches(
  llvm.func @launches(%p: !llvm.ptr, %s: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : index) : i64
    %c2 = llvm.mlir.constant(2 : i64) : i64
    %sm = llvm.mlir.constant(256 : i32) : i32
    %a = llvm.mlir.constant(1 : i8) : i8
    %b = llvm.mlir.constant(2 : i16) : i16
    %c = llvm.mlir.constant(3 : i32) : i32
    %e = llvm.mlir.constant(1.5 : f32) : f32
    %f = llvm.mlir.constant(2.5 : f64) : f64
    // CHECK: gpu.launch_func @k::@kernel clusters in (%{{.*}}, %{{.*}}, %{{.*}}) blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i64 dynamic_shared_memory_size %{{.*}} args(%{{.*}} : !llvm.ptr)
    gpu.launch_func @k::@kernel clusters in (%c2, %c1, %c1) blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) : i64 dynamic_shared_memory_size %sm args(%p : !llvm.ptr)
    // CHECK: gpu.launch_func @m::@kern blocks in {{.*}} : i64 args(%{{.*}} : i8, %{{.*}} : i16, %{{.*}} : i32, %{{.*}} : i64, %{{.*}} : f32, %{{.*}} : f64, %{{.*}} : !llvm.ptr)
    gpu.launch_func @m::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%a : i8, %b : i16, %c : i32, %c2 : i64, %e : f32, %f : f64, %p : !llvm.ptr)
    // CHECK: gpu.launch_func <%{{.*}} : !llvm.ptr> @k::@kernel
    gpu.launch_func <%s : !llvm.ptr> @k::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    // CHECK: %[[T:.*]] = gpu.launch_func async @k::@kernel
    %t = gpu.launch_func async @k::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%p : !llvm.ptr)
    %t2 = gpu.wait async
    // CHECK: gpu.launch_func async [%[[T]], %{{.*}}] @k::@kernel
    %t3 = gpu.launch_func async [%t, %t2] @k::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    gpu.wait [%t3]
    llvm.return
  }
}

// RUN: gpu-translate --emit=mlir %s | FileCheck %s

module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @copies(
  func.func @copies(%h : memref<16xf32>, %u : memref<*xf32>, %v : f32, %i : i16) {
    // CHECK: gpu.host_register %{{.*}} : memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    %d = gpu.alloc () : memref<16xf32>
    %s = gpu.alloc () : memref<16xi16>
    // CHECK: gpu.memcpy %{{.*}}, %{{.*}} : memref<16xf32>, memref<16xf32>
    gpu.memcpy %d, %h : memref<16xf32>, memref<16xf32>
    %t0 = gpu.wait async
    // CHECK: %{{.*}} = gpu.memcpy async [%{{.*}}] %{{.*}}, %{{.*}} : memref<16xf32>, memref<16xf32>
    %t1 = gpu.memcpy async [%t0] %h, %d : memref<16xf32>, memref<16xf32>
    // CHECK: gpu.memset async [%{{.*}}] %{{.*}}, %{{.*}} : memref<16xf32>, f32
    %t2 = gpu.memset async [%t1] %d, %v : memref<16xf32>, f32
    // CHECK: gpu.memset %{{.*}}, %{{.*}} : memref<16xi16>, i16
    gpu.memset %s, %i : memref<16xi16>, i16
    gpu.wait [%t2]
    gpu.dealloc %d : memref<16xf32>
    gpu.dealloc %s : memref<16xi16>
    return
  }
}

// RUN: gpu-translate --emit=mlir %s | FileCheck %s

// The forms of gpu.alloc, gpu.dealloc and gpu.wait; results are named as upstream names them.

module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @alloc()
  func.func @alloc() {
    // CHECK: %[[m0:.*]] = gpu.alloc () : memref<13xf32, 1>
    %m0 = gpu.alloc () : memref<13xf32, 1>
    // CHECK: gpu.dealloc %[[m0]] : memref<13xf32, 1>
    gpu.dealloc %m0 : memref<13xf32, 1>

    // CHECK: %[[t0:.*]] = gpu.wait async
    %t0 = gpu.wait async
    // CHECK: %[[m1:memref_[0-9]+]], %[[t1:asyncToken]] = gpu.alloc async [%[[t0]]] () : memref<13xf32, 1>
    %m1, %t1 = gpu.alloc async [%t0] () : memref<13xf32, 1>
    // CHECK: gpu.dealloc async [%[[t1]]] %[[m1]] : memref<13xf32, 1>
    %t2 = gpu.dealloc async [%t1] %m1 : memref<13xf32, 1>
    // CHECK: gpu.wait [%{{.*}}]
    gpu.wait [%t2]
    return
  }

  // CHECK-LABEL: func.func @main()
  func.func @main() {
    %0 = gpu.wait async
    // CHECK: gpu.alloc async [%{{.*}}] () : memref<13xf32>
    %1, %2 = gpu.alloc async [%0] () : memref<13xf32>
    %3 = gpu.dealloc async [%2] %1 : memref<13xf32>
    gpu.wait [%3]
    return
  }

  // CHECK-LABEL: func.func @dynamic(
  func.func @dynamic(%n : index, %m : index) {
    // CHECK: gpu.alloc host_shared (%{{.*}}, %{{.*}}) : memref<?x4x?xi32>
    %a = gpu.alloc host_shared (%n, %m) : memref<?x4x?xi32>
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    // CHECK: gpu.alloc async [%{{.*}}, %{{.*}}] (%{{.*}}) : memref<?xf64, #gpu.address_space<global>>
    %b, %t2 = gpu.alloc async [%t0, %t1] (%n) : memref<?xf64, #gpu.address_space<global>>
    // CHECK: gpu.dealloc async [%asyncToken] %memref_0 : memref<?xf64, #gpu.address_space<global>>
    %t3 = gpu.dealloc async [%t2] %b : memref<?xf64, #gpu.address_space<global>>
    gpu.wait [%t3]
    gpu.dealloc %a : memref<?x4x?xi32>
    return
  }

  // CHECK-LABEL: func.func @async_token(
  // CHECK: return {{.*}} : !gpu.async.token
  func.func @async_token(%arg0 : !gpu.async.token) -> !gpu.async.token {
    return %arg0 : !gpu.async.token
  }

  // CHECK-LABEL: func.func @async_wait()
  func.func @async_wait() {
    // CHECK: %[[a:.*]] = gpu.wait async
    %0 = gpu.wait async
    // CHECK: %[[b:.*]] = gpu.wait async
    %1 = gpu.wait async
    // CHECK: gpu.wait [%[[a]]]
    gpu.wait [%0]
    // CHECK: %{{.*}} = gpu.wait async [%[[b]]]
    %2 = gpu.wait async [%1]
    // CHECK: gpu.wait{{$}}
    gpu.wait
    gpu.wait [%2]
    return
  }
}

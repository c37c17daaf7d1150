// RUN: gpu-translate %s | FileCheck %s

// Host signatures as upstream's calling convention has them: an unranked memref is (i64 rank, ptr
// descriptor); a memref in memory space N has ptr addrspace(N) pointers, cast to generic pointers where
// the runtime takes a void *.

module attributes {gpu.container_module} {
  // CHECK-LABEL: define void @unranked(i64 %0, ptr %1)
  func.func @unranked(%u: memref<*xf32>) {
    // CHECK: call void @mgpuMemHostRegisterMemRef(i64 %{{.*}}, ptr %{{.*}}, i64 4)
    gpu.host_register %u : memref<*xf32>
    return
  }

  // CHECK-LABEL: define void @calls_unranked(i64 %0, ptr %1)
  func.func @calls_unranked(%u: memref<*xf32>) {
    // CHECK: call void @unranked(i64 %{{.*}}, ptr %{{.*}})
    call @unranked(%u) : (memref<*xf32>) -> ()
    return
  }

  // CHECK-LABEL: define void @spaces(ptr addrspace(1) %0, ptr addrspace(1) %1, i64 %2, i64 %3, i64 %4, float %5)
  func.func @spaces(%m: memref<4xf32, 1>, %v: f32) {
    // CHECK: %[[P:.*]] = getelementptr float, ptr addrspace(1) %{{.*}}, i64 %{{.*}}
    // CHECK-NEXT: %[[G:.*]] = addrspacecast ptr addrspace(1) %[[P]] to ptr
    // CHECK-NEXT: call void @mgpuMemset32(ptr %[[G]], i32 %{{.*}}, i64 4, ptr null)
    gpu.memset %m, %v : memref<4xf32, 1>, f32
    // CHECK: %[[A:.*]] = call ptr @mgpuMemAlloc(i64 16, ptr null, i8 0)
    // CHECK-NEXT: addrspacecast ptr %[[A]] to ptr addrspace(1)
    %n = gpu.alloc () : memref<4xf32, 1>
    // CHECK: %[[F:.*]] = addrspacecast ptr addrspace(1) %{{.*}} to ptr
    // CHECK-NEXT: call void @mgpuMemFree(ptr %[[F]], ptr null)
    gpu.dealloc %n : memref<4xf32, 1>
    return
  }
}

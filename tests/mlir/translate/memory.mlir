// RUN: gpu-translate %s | FileCheck %s
// RUN: gpu-translate --module-load=ctor %s | FileCheck %s
// RUN: gpu-translate --module-load=per-launch %s | FileCheck %s

// Memory and synchronisation ops lower to the mgpu runtime ABI; tokens are streams.

module attributes {gpu.container_module} {
  // CHECK-LABEL: define void @async_chain()
  func.func @async_chain() {
    // CHECK: %[[S:.*]] = call ptr @mgpuStreamCreate()
    %t0 = gpu.wait async
    // CHECK: %[[P:.*]] = call ptr @mgpuMemAlloc(i64 52, ptr %[[S]], i8 0)
    %m, %t1 = gpu.alloc async [%t0] () : memref<13xf32>
    // CHECK: %[[A:.*]] = extractvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %{{.*}}, 0
    // CHECK: call void @mgpuMemFree(ptr %[[A]], ptr %[[S]])
    %t2 = gpu.dealloc async [%t1] %m : memref<13xf32>
    // CHECK: call void @mgpuStreamSynchronize(ptr %[[S]])
    // CHECK: call void @mgpuStreamDestroy(ptr %[[S]])
    gpu.wait [%t2]
    // CHECK: ret void
    return
  }

  // CHECK-LABEL: define void @sync_forms(
  func.func @sync_forms(%n: index, %h: memref<?x4xf32>) {
    // The size is computed from the dynamic dimension, checked for overflow (all ones when it wraps, which
    // the runtime refuses by name); a synchronous op uses the default stream.
    // CHECK: %[[M1:.*]] = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %0, i64 4)
    // CHECK: %[[M2:.*]] = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %{{.*}}, i64 4)
    // CHECK: %[[P:.*]] = extractvalue { i64, i1 } %[[M2]], 0
    // CHECK: %[[W:.*]] = or i1
    // CHECK: %[[B:.*]] = select i1 %[[W]], i64 -1, i64 %[[P]]
    // CHECK: call ptr @mgpuMemAlloc(i64 %[[B]], ptr null, i8 1)
    // CHECK: call void @mgpuStreamSynchronize(ptr null)
    %m = gpu.alloc host_shared (%n) : memref<?x4xf32>
    // CHECK: call void @mgpuMemcpy(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, ptr null)
    // CHECK-NEXT: call void @mgpuStreamSynchronize(ptr null)
    gpu.memcpy %m, %h : memref<?x4xf32>, memref<?x4xf32>
    // CHECK: call void @mgpuMemFree(ptr %{{.*}}, ptr null)
    // CHECK-NEXT: call void @mgpuStreamSynchronize(ptr null)
    gpu.dealloc %m : memref<?x4xf32>
    // CHECK: call void @mgpuStreamSynchronize(ptr null)
    gpu.wait
    return
  }

  // CHECK-LABEL: define void @join(
  func.func @join(%v: f32, %h: i16) {
    // CHECK: %[[S1:.*]] = call ptr @mgpuStreamCreate()
    %t0 = gpu.wait async
    // %t1 is waited for from another stream: its event is recorded where it is produced.
    // CHECK: %[[S2:.*]] = call ptr @mgpuStreamCreate()
    // CHECK-NEXT: %[[E:.*]] = call ptr @mgpuEventCreate()
    // CHECK-NEXT: call void @mgpuEventRecord(ptr %[[E]], ptr %[[S2]])
    %t1 = gpu.wait async
    // Several dependencies: the op runs on the first stream, which waits for the others through events;
    // %t1 has no use left, so its stream goes.
    // CHECK-NEXT: call void @mgpuStreamWaitEvent(ptr %[[S1]], ptr %[[E]])
    // CHECK-NEXT: call void @mgpuEventDestroy(ptr %[[E]])
    // CHECK-NEXT: call ptr @mgpuMemAlloc(i64 64, ptr %[[S1]], i8 0)
    // CHECK: call void @mgpuStreamDestroy(ptr %[[S2]])
    %m, %t2 = gpu.alloc async [%t0, %t1] () : memref<16xf32>
    // CHECK: %[[BITS:.*]] = bitcast float %0 to i32
    // CHECK: call void @mgpuMemset32(ptr %{{.*}}, i32 %[[BITS]], i64 16, ptr %[[S1]])
    %t3 = gpu.memset async [%t2] %m, %v : memref<16xf32>, f32
    %m16, %t4 = gpu.alloc async [%t3] () : memref<8xi16>
    // The value goes as the runtime's unsigned short: i16, not widened.
    // CHECK-NOT: zext i16
    // CHECK: call void @mgpuMemset16(ptr %{{.*}}, i16 %1, i64 8, ptr %[[S1]])
    %t5 = gpu.memset async [%t4] %m16, %h : memref<8xi16>, i16
    // A new stream that waits for an existing one, at the event recorded after the memset.
    // CHECK: %[[E2:.*]] = call ptr @mgpuEventCreate()
    // CHECK-NEXT: call void @mgpuEventRecord(ptr %[[E2]], ptr %[[S1]])
    // CHECK-NEXT: %[[S3:.*]] = call ptr @mgpuStreamCreate()
    // CHECK-NEXT: call void @mgpuStreamWaitEvent(ptr %[[S3]], ptr %[[E2]])
    // CHECK-NEXT: call void @mgpuEventDestroy(ptr %[[E2]])
    %t6 = gpu.wait async [%t5]
    // CHECK: call void @mgpuStreamSynchronize(ptr %[[S3]])
    // CHECK-NEXT: call void @mgpuStreamDestroy(ptr %[[S3]])
    // CHECK-NEXT: call void @mgpuStreamSynchronize(ptr %[[S1]])
    // CHECK-NEXT: call void @mgpuStreamDestroy(ptr %[[S1]])
    gpu.wait [%t6, %t5]
    return
  }

  // Tokens that hand one stream on are that one stream: it neither waits for its own event nor is destroyed
  // twice.
  // CHECK-LABEL: define void @same_stream()
  func.func @same_stream() {
    // CHECK: %[[S:.*]] = call ptr @mgpuStreamCreate()
    %t0 = gpu.wait async
    // CHECK: call ptr @mgpuMemAlloc(i64 16, ptr %[[S]], i8 0)
    %a, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
    // CHECK: call ptr @mgpuMemAlloc(i64 16, ptr %[[S]], i8 0)
    %b, %t2 = gpu.alloc async [%t0] () : memref<4xf32>
    // CHECK-NOT: @mgpuEvent
    // CHECK: call void @mgpuMemcpy(ptr %{{.*}}, ptr %{{.*}}, i64 16, ptr %[[S]])
    %t3 = gpu.memcpy async [%t1, %t2] %b, %a : memref<4xf32>, memref<4xf32>
    // CHECK-NOT: @mgpuEvent
    // CHECK: call void @mgpuStreamSynchronize(ptr %[[S]])
    // CHECK-NEXT: call void @mgpuStreamDestroy(ptr %[[S]])
    // CHECK-NEXT: ret void
    gpu.wait [%t1, %t3]
    return
  }

  // CHECK-LABEL: define void @register(
  func.func @register(%u: memref<*xf32>) {
    // The unranked memref arrives as (i64 rank, ptr descriptor), as upstream's convention has it.
    // CHECK-SAME: i64 %0, ptr %1)
    // CHECK: %[[RANK:.*]] = extractvalue { i64, ptr } %{{.*}}, 0
    // CHECK: %[[DESC:.*]] = extractvalue { i64, ptr } %{{.*}}, 1
    // CHECK: call void @mgpuMemHostRegisterMemRef(i64 %[[RANK]], ptr %[[DESC]], i64 4)
    gpu.host_register %u : memref<*xf32>
    return
  }
}

// CHECK-DAG: declare ptr @mgpuMemAlloc(i64, ptr, i8)
// CHECK-DAG: declare void @mgpuMemFree(ptr, ptr)
// CHECK-DAG: declare void @mgpuMemcpy(ptr, ptr, i64, ptr)

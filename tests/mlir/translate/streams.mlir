// RUN: gpu-translate %s | FileCheck %s

// The life of streams behind tokens: a caller's stream is never destroyed; a stream of mgpu's ends with
// the synchronous wait for it or right after its last token's use; an event is recorded where a token is
// produced, so a waiter does not wait for work queued after it; a token nobody uses makes no stream.

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, bin = "k">]

  // CHECK-LABEL: define void @caller(ptr %0)
  func.func @caller(%s: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    // CHECK: %[[T:.*]] = call ptr @mgpuStreamCreate()
    // CHECK-NEXT: %[[E:.*]] = call ptr @mgpuEventCreate()
    // CHECK-NEXT: call void @mgpuEventRecord(ptr %[[E]], ptr %[[T]])
    %t = gpu.wait async
    // The launch runs on the caller's stream, which waits for %t; %t's stream has no use left and goes.
    // CHECK-NEXT: call void @mgpuStreamWaitEvent(ptr %0, ptr %[[E]])
    // CHECK-NEXT: call void @mgpuEventDestroy(ptr %[[E]])
    // CHECK: call void @mgpuLaunchKernel({{.*}}, i32 0, ptr %0, ptr %{{.*}}, ptr null, i64 0)
    // CHECK-NEXT: call void @mgpuStreamDestroy(ptr %[[T]])
    %t2 = gpu.launch_func async [%t] <%s : !llvm.ptr> @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    // Waiting for a token of the caller's stream synchronises it and leaves it to the caller.
    // CHECK-NEXT: call void @mgpuStreamSynchronize(ptr %0)
    // CHECK-NOT: @mgpuStreamDestroy
    // CHECK: ret void
    gpu.wait [%t2]
    return
  }

  // CHECK-LABEL: define void @producer(float %0)
  func.func @producer(%v: f32) {
    // CHECK: %[[S0:.*]] = call ptr @mgpuStreamCreate()
    %t0 = gpu.wait async
    // CHECK-NEXT: %[[S1:.*]] = call ptr @mgpuStreamCreate()
    %t1 = gpu.wait async
    // %ta is waited for from another stream later: its event is recorded here, before the memset.
    // CHECK-NEXT: call ptr @mgpuMemAlloc(i64 16, ptr %[[S1]], i8 0)
    // CHECK: %[[E:.*]] = call ptr @mgpuEventCreate()
    // CHECK-NEXT: call void @mgpuEventRecord(ptr %[[E]], ptr %[[S1]])
    %a, %ta = gpu.alloc async [%t1] () : memref<4xf32>
    // CHECK: call void @mgpuMemset32(ptr %{{.*}}, i32 %{{.*}}, i64 4, ptr %[[S1]])
    %t2 = gpu.memset async [%ta] %a, %v : memref<4xf32>, f32
    // CHECK-NEXT: call void @mgpuStreamWaitEvent(ptr %[[S0]], ptr %[[E]])
    // CHECK-NEXT: call void @mgpuEventDestroy(ptr %[[E]])
    // CHECK-NEXT: call ptr @mgpuMemAlloc(i64 16, ptr %[[S0]], i8 0)
    %b, %tb = gpu.alloc async [%t0, %ta] () : memref<4xf32>
    // CHECK: call void @mgpuStreamSynchronize(ptr %[[S1]])
    // CHECK-NEXT: call void @mgpuStreamDestroy(ptr %[[S1]])
    // CHECK-NEXT: call void @mgpuStreamSynchronize(ptr %[[S0]])
    // CHECK-NEXT: call void @mgpuStreamDestroy(ptr %[[S0]])
    gpu.wait [%t2, %tb]
    return
  }

  // CHECK-LABEL: define void @unused()
  func.func @unused() {
    // A token nobody uses: gpu.wait async makes no stream; an op's own stream goes right after it.
    // CHECK-NEXT: %[[S:.*]] = call ptr @mgpuStreamCreate()
    // CHECK-NEXT: call ptr @mgpuMemAlloc(i64 16, ptr %[[S]], i8 0)
    // CHECK: call void @mgpuStreamDestroy(ptr %[[S]])
    // CHECK-NEXT: ret void
    %u = gpu.wait async
    %x, %tx = gpu.alloc async () : memref<4xf32>
    return
  }

  // A stream whose tokens are used in a loop lives until the synchronous wait: its last use in the IR is
  // not its last use at run time.
  // CHECK-LABEL: define void @loop(i1 %0)
  func.func @loop(%c: i1) {
    // CHECK: %[[S:.*]] = call ptr @mgpuStreamCreate()
    %t = gpu.wait async
    cf.br ^body
  ^body:
    // CHECK-NOT: @mgpuStreamDestroy
    // CHECK: br i1 %0
    %m, %tm = gpu.alloc async [%t] () : memref<4xf32>
    %td = gpu.dealloc async [%tm] %m : memref<4xf32>
    cf.cond_br %c, ^body, ^exit
  ^exit:
    // CHECK: call void @mgpuStreamSynchronize(ptr %[[S]])
    // CHECK-NEXT: call void @mgpuStreamDestroy(ptr %[[S]])
    gpu.wait [%t]
    return
  }
}

// RUN: gpu-translate --module-load=per-launch %s | FileCheck %s --check-prefixes=CHECK,PER
// RUN: gpu-translate --module-load=lazy %s | FileCheck %s --check-prefixes=CHECK,LAZY
// RUN: gpu-translate %s | FileCheck %s --check-prefixes=CHECK,LAZY
// RUN: gpu-translate --module-load=ctor %s | FileCheck %s --check-prefixes=CHECK,CTOR
// RUN: gpu-translate %s | FileCheck %s --check-prefix=DECL

// gpu.launch_func under each load strategy, with #gpu.select_object's embedding.

module attributes {gpu.container_module} {
  // The selected object (here by target) is embedded exactly, 8-aligned, internal, constant.
  // CHECK: @kernels_bin_cst = internal constant [6 x i8] c"\00\01NV\FF\0A", align 8
  gpu.binary @kernels <#gpu.select_object<#nvvm.target<chip = "sm_90">>> [#gpu.object<#rocdl.target, "AMD">, #gpu.object<#nvvm.target<chip = "sm_90">, bin = "\00\01NV\ff\n">]
  // CHECK-DAG: @kernels_scale_kernel_name = private unnamed_addr constant [6 x i8] c"scale\00", align 1
  // LAZY-DAG: @kernels_module_cache = internal global ptr null, align 8
  // LAZY-DAG: @kernels_scale_function = internal global ptr null, align 8
  // CTOR-DAG: @kernels_module = internal global ptr null, align 8
  // CTOR-DAG: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 123, ptr @kernels_load, ptr null }]
  // CTOR-DAG: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 123, ptr @kernels_unload, ptr null }]

  // CHECK-LABEL: define void @sync(ptr %0, float %1, i32 %2)
  llvm.func @sync(%p: !llvm.ptr, %f: f32, %g: i32) {
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %n = llvm.mlir.constant(1000 : i16) : i16
    // A launch is one call of its kernel's stub, which takes the kernel arguments; the constant sizes
    // are built into the stub.
    // CHECK-NEXT: call void @kernels_scale_launch(ptr %0, float %1, i16 1000)
    gpu.launch_func @kernels::@scale blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) : i64 args(%p : !llvm.ptr, %f : f32, %n : i16)
    // A launch of the same shape calls the same stub.
    // CHECK-NEXT: call void @kernels_scale_launch(ptr %0, float 2.000000e+00, i16 1000)
    %two = llvm.mlir.constant(2.0 : f32) : f32
    gpu.launch_func @kernels::@scale blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) : i64 args(%p : !llvm.ptr, %two : f32, %n : i16)
    // CHECK-NEXT: ret void
    llvm.return
  }

  // CHECK-LABEL: define void @async(ptr %0, i32 %1, i32 %2)
  llvm.func @async(%s: !llvm.ptr, %g: i32, %smem: i32) {
    // i32 sizes widen to intptr_t, once per value; sizes known only at run time are parameters of the
    // stub, each value passed once, and so are the shared-memory size and an explicit stream.
    // CHECK-NEXT: %[[GX:.*]] = zext i32 %1 to i64
    // CHECK-NEXT: call void @kernels_scale_launch.1(i64 %[[GX]], i32 %2, ptr %0)
    gpu.launch_func <%s : !llvm.ptr> @kernels::@scale blocks in (%g, %g, %g) threads in (%g, %g, %g) : i32 dynamic_shared_memory_size %smem
    // An async launch with no dependency runs on a new stream, which becomes its token.
    // CHECK-NEXT: %[[S:.*]] = call ptr @mgpuStreamCreate()
    // CHECK-NEXT: %[[GY:.*]] = zext i32 %1 to i64
    // CHECK-NEXT: call void @kernels_scale_launch.2(i64 %[[GY]], ptr %[[S]])
    %t = gpu.launch_func async @kernels::@scale blocks in (%g, %g, %g) threads in (%g, %g, %g) : i32
    // CHECK-NEXT: call void @mgpuStreamSynchronize(ptr %[[S]])
    // CHECK-NEXT: call void @mgpuStreamDestroy(ptr %[[S]])
    gpu.wait [%t]
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    // CHECK-NEXT: %[[GZ:.*]] = zext i32 %1 to i64
    // CHECK-NEXT: call void @kernels_scale_launch.3(i64 %[[GZ]])
    gpu.launch_func @kernels::@scale clusters in (%c2, %c1, %c1) blocks in (%g, %g, %g) threads in (%g, %g, %g) : i32
    llvm.return
  }

  // The constructor strategy loads the module in a constructor and unloads it in a destructor.
  // CTOR-LABEL: define internal void @kernels_load() section ".text.startup"
  // CTOR: %[[M:.*]] = call ptr @mgpuModuleLoad(ptr @kernels_bin_cst, i64 6)
  // CTOR-NEXT: store ptr %[[M]], ptr @kernels_module, align 8
  // CTOR-LABEL: define internal void @kernels_unload()
  // CTOR: call void @mgpuModuleUnload(ptr %{{.*}})

  // The stub of @sync's launches. The argument struct and the pointer array live in its entry block;
  // the struct is a named type, so a field's address does not spell out every field.
  // CHECK-LABEL: define internal void @kernels_scale_launch(ptr %0, float %1, i16 %2) {
  // CHECK-NEXT: entry:
  // CHECK-NEXT: %[[ST:.*]] = alloca %[[T:mgpu.args[.0-9]*]], align 8
  // CHECK-NEXT: %[[ARR:.*]] = alloca ptr, i64 3, align 8
  // CHECK-NEXT: %[[F0:.*]] = getelementptr inbounds nuw %[[T]], ptr %[[ST]], i32 0, i32 0
  // CHECK-NEXT: %[[A0:.*]] = getelementptr ptr, ptr %[[ARR]], i32 0
  // CHECK-NEXT: store ptr %[[F0]], ptr %[[A0]], align 8
  // CHECK-NEXT: %[[F1:.*]] = getelementptr inbounds nuw %[[T]], ptr %[[ST]], i32 0, i32 1
  // CHECK-NEXT: %[[A1:.*]] = getelementptr ptr, ptr %[[ARR]], i32 1
  // CHECK-NEXT: store ptr %[[F1]], ptr %[[A1]], align 8
  // CHECK-NEXT: %[[F2:.*]] = getelementptr inbounds nuw %[[T]], ptr %[[ST]], i32 0, i32 2
  // CHECK-NEXT: %[[A2:.*]] = getelementptr ptr, ptr %[[ARR]], i32 2
  // CHECK-NEXT: store ptr %[[F2]], ptr %[[A2]], align 8
  // CHECK-NEXT: store ptr %0, ptr %[[F0]], align 8
  // CHECK-NEXT: store float %1, ptr %[[F1]], align 4
  // CHECK-NEXT: store i16 %2, ptr %[[F2]], align 2

  // PER-NEXT: %[[M:.*]] = call ptr @mgpuModuleLoad(ptr @kernels_bin_cst, i64 6)
  // PER-NEXT: %[[FN:.*]] = call ptr @mgpuModuleGetFunction(ptr %[[M]], ptr @kernels_scale_kernel_name)
  // PER-NEXT: %[[S:.*]] = call ptr @mgpuStreamCreate()
  // PER-NEXT: call void @mgpuLaunchKernel(ptr %[[FN]], i64 64, i64 1, i64 1, i64 64, i64 1, i64 1, i32 0, ptr %[[S]], ptr %[[ARR]], ptr null, i64 3)
  // PER-NEXT: call void @mgpuStreamSynchronize(ptr %[[S]])
  // PER-NEXT: call void @mgpuStreamDestroy(ptr %[[S]])
  // PER-NEXT: call void @mgpuModuleUnload(ptr %[[M]])

  // LAZY-NEXT: %[[FN:.*]] = call ptr @kernels_scale_get()
  // A synchronous launch uses the default stream: no stream is created or destroyed per launch.
  // LAZY-NEXT: call void @mgpuLaunchKernel(ptr %[[FN]], i64 64, i64 1, i64 1, i64 64, i64 1, i64 1, i32 0, ptr null, ptr %[[ARR]], ptr null, i64 3)
  // LAZY-NEXT: call void @mgpuStreamSynchronize(ptr null)

  // CTOR-NEXT: %[[M:.*]] = load ptr, ptr @kernels_module, align 8
  // CTOR-NEXT: %[[FN:.*]] = call ptr @mgpuModuleGetFunction(ptr %[[M]], ptr @kernels_scale_kernel_name)
  // CTOR-NEXT: call void @mgpuLaunchKernel(ptr %[[FN]], i64 64, i64 1, i64 1, i64 64, i64 1, i64 1, i32 0, ptr null, ptr %[[ARR]], ptr null, i64 3)
  // CTOR-NEXT: call void @mgpuStreamSynchronize(ptr null)
  // CHECK-NEXT: ret void

  // The handle getter: an acquire load of the slot, and the runtime only while the slot is null.
  // LAZY-LABEL: define internal ptr @kernels_scale_get() #0 {
  // LAZY: %[[C:.*]] = load atomic ptr, ptr @kernels_scale_function acquire, align 8
  // LAZY-NEXT: %[[Z:.*]] = icmp eq ptr %[[C]], null
  // LAZY-NEXT: br i1 %[[Z]], label %load, label %cached, !prof ![[PROF:[0-9]+]]
  // LAZY: load:
  // LAZY-NEXT: %[[L:.*]] = call ptr @mgpuModuleGetFunctionLazy(ptr @kernels_module_cache, ptr @kernels_bin_cst, i64 6, i32 -1, ptr @kernels_scale_kernel_name, ptr @kernels_scale_function)
  // LAZY-NEXT: ret ptr %[[L]]
  // LAZY: cached:
  // LAZY-NEXT: ret ptr %[[C]]

  // The stubs of @async: an explicit stream is used as is.
  // CHECK-LABEL: define internal void @kernels_scale_launch.1(i64 %0, i32 %1, ptr %2)
  // CHECK: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 %0, i64 %0, i64 %0, i64 %0, i64 %0, i64 %0, i32 %1, ptr %2, ptr %{{.*}}, ptr null, i64 0)
  // CHECK-NOT: call void @mgpuStreamSynchronize
  // CHECK: ret void
  // CHECK-LABEL: define internal void @kernels_scale_launch.2(i64 %0, ptr %1)
  // CHECK: call void @mgpuLaunchKernel({{.*}}, i32 0, ptr %1, ptr %{{.*}}, ptr null, i64 0)
  // CHECK-NOT: call void @mgpuStreamSynchronize
  // CHECK: ret void
  // Clusters lower to mgpuLaunchClusterKernel, cluster sizes first.
  // CHECK-LABEL: define internal void @kernels_scale_launch.3(i64 %0)
  // CHECK: call void @mgpuLaunchClusterKernel(ptr %{{.*}}, i64 2, i64 1, i64 1, i64 %0, i64 %0, i64 %0, i64 %0, i64 %0, i64 %0, i32 0, ptr {{null|%.*}}, ptr %{{.*}}, ptr null, i64 0)

  // LAZY: attributes #0 = { alwaysinline nounwind }
  // LAZY: ![[PROF]] = !{!"branch_weights", i32 1, i32 2000}

  // DECL: declare void @mgpuLaunchKernel(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)
}

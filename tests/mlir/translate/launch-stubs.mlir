// RUN: gpu-translate %s | FileCheck %s
// RUN: gpu-translate --module-load=ctor %s | FileCheck %s --check-prefix=CTOR
// RUN: gpu-translate --emit=obj %s -o %t.o && llvm-nm-22 %t.o | FileCheck %s --check-prefix=NM

// Launch stubs at scale: every launch of a kernel and shape calls one stub, under #gpu.runtime_select
// as under #gpu.select_object, and a host function continues in a new basic block after every 64
// launches, so that LLVM's instruction selection works on blocks of bounded size. A kernel with one
// launch site is launched in place.

module attributes {gpu.container_module} {
  gpu.binary @any <#gpu.runtime_select> [#gpu.object<#nvvm.target<chip = "sm_90">, "N">, #gpu.object<#cpu.target, "C">]
  gpu.binary @one [#gpu.object<#nvvm.target, "K">]

  // CHECK-LABEL: define void @many(ptr %0)
  llvm.func @many(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(8 : i64) : i64
    %d = llvm.mlir.constant(16 : i64) : i64
    // CHECK-NEXT: call void @any_k_launch(ptr %0)
    // CHECK-NEXT: call void @one_k_launch(ptr %0)
    // The 64th launch ends the first block.
    // CHECK-COUNT-62: call void @{{any|one}}_k_launch(ptr %0)
    // CHECK-NEXT: br label %[[NEXT:[0-9]+]]
    // CHECK-EMPTY:
    // CHECK-NEXT: [[NEXT]]:
    // Other constant sizes are another shape.
    // CHECK-NEXT: call void @any_k_launch.1(ptr %0)
    // CHECK-NEXT: ret void
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @one::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    gpu.launch_func @any::@k blocks in (%d, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    llvm.return
  }
  // A kernel launched from one site has nothing to share: it is launched in place, without a stub.
  // CHECK-LABEL: define void @single(ptr %0)
  llvm.func @single(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(8 : i64) : i64
    // CHECK-NOT: call void @one_solo_launch
    // CHECK: %[[F:.*]] = call ptr @one_solo_get()
    // CHECK-NEXT: call void @mgpuLaunchKernel(ptr %[[F]], i64 8, i64 8, i64 8, i64 8, i64 8, i64 8, i32 0, ptr null,
    // CHECK-NEXT: call void @mgpuStreamSynchronize(ptr null)
    // CHECK-NEXT: ret void
    gpu.launch_func @one::@solo blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    llvm.return
  }
  // CHECK-NOT: @one_solo_launch
  // CHECK-LABEL: define internal void @any_k_launch(ptr %0)
  // CHECK: %[[F:.*]] = call ptr @any_k_get()
  // CHECK-NEXT: call void @mgpuLaunchKernel(ptr %[[F]], i64 8, i64 8, i64 8, i64 8, i64 8, i64 8, i32 0, ptr null,
  // CHECK-LABEL: define internal ptr @any_k_get()
  // CHECK: call ptr @mgpuModuleGetFunctionSelect(ptr @any_module_cache, ptr @any_objects, ptr @any_k_kernel_name, ptr @any_k_function)
  // CHECK-LABEL: define internal void @one_k_launch(ptr %0)
  // CHECK-LABEL: define internal void @any_k_launch.1(ptr %0)
  // CHECK: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 16, i64 8, i64 8, i64 8, i64 8, i64 8, i32 0, ptr null,
  // Under the constructor strategy, #gpu.runtime_select still loads lazily, in its stubs.
  // CTOR-LABEL: define internal void @any_k_launch(ptr %0)
  // CTOR: call ptr @any_k_get()
  // CTOR-LABEL: define internal void @one_k_launch(ptr %0)
  // CTOR: load ptr, ptr @one_module
  // CTOR: call ptr @mgpuModuleGetFunction(
  // In the object, the handle getters are inlined into the stubs, and the stubs stay local symbols.
  // NM-NOT: _get
  // NM: t any_k_launch
  // NM-NOT: _get
  // NM: t one_k_launch
  // NM-NOT: _get
}

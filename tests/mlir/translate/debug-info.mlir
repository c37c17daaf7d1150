// RUN: gpu-translate -g %s | FileCheck %s
// RUN: gpu-translate %s | FileCheck %s --check-prefix=NONE

// -g: a compile unit for the input file, a subprogram per function with a body, and every instruction
// at the line and column of the op it came from; an op at loc(unknown) takes its function's line.
// NONE-NOT: !dbg
// NONE-NOT: DICompileUnit
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "K">]
  // CHECK: define void @host(ptr %0) !dbg ![[SP:[0-9]+]] {
  llvm.func @host(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(1 : i64) : i64
    // CHECK: %[[F:.*]] = call ptr @kernels_k_get(), !dbg ![[L16:[0-9]+]]
    // CHECK-NEXT: call void @mgpuLaunchKernel({{.*}}), !dbg ![[L16]]
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr)
    // CHECK: ret void, !dbg ![[L18:[0-9]+]]
    llvm.return
  }
  // CHECK: !llvm.dbg.cu = !{![[CU:[0-9]+]]}
  // CHECK-DAG: !{i32 2, !"Debug Info Version", i32 3}
  // CHECK-DAG: !{i32 2, !"Dwarf Version", i32 5}
  // CHECK-DAG: ![[CU]] = distinct !DICompileUnit(language: DW_LANG_C, file: ![[FILE:[0-9]+]], producer: "mgpu gpu-translate", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug
  // CHECK-DAG: ![[FILE]] = !DIFile(filename: "debug-info.mlir", directory: "{{.*}}translate")
  // CHECK-DAG: ![[SP]] = distinct !DISubprogram(name: "host", linkageName: "host", scope: ![[FILE]], file: ![[FILE]], line: 11, type: !{{[0-9]+}}, scopeLine: 11, spFlags: DISPFlagDefinition, unit: ![[CU]])
  // CHECK-DAG: ![[L16]] = !DILocation(line: 15, column: 5, scope: ![[SP]])
  // CHECK-DAG: ![[L18]] = !DILocation(line: 17, column: 5, scope: ![[SP]])
}

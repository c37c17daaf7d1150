// RUN: gpu-translate -g %s | FileCheck %s

// -g: an op in a loop's body has its own line, as every op has; the loop's own instructions, built before
// and after its body, keep the loop's line.
// CHECK: define void @host(i64 %0) !dbg ![[SP:[0-9]+]]
// CHECK: icmp slt i64 {{.*}}, !dbg ![[LOOP:[0-9]+]]
// CHECK: call void @mgpuLaunchKernel({{.*}}), !dbg ![[LAUNCH:[0-9]+]]
// CHECK: add i64 {{.*}}, 1, !dbg ![[LOOP]]
// CHECK-NEXT: br label {{.*}}, !dbg ![[LOOP]]
// CHECK-DAG: ![[LOOP]] = !DILocation(line: 17, column: 5, scope: ![[SP]])
// CHECK-DAG: ![[LAUNCH]] = !DILocation(line: 18, column: 7, scope: ![[SP]])
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "K">]
  func.func @host(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    }
    return
  }
}

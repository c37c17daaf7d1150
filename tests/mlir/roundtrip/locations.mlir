// RUN: gpu-translate --emit=mlir --mlir-print-debuginfo %s | FileCheck %s

// loc(...) sets an op's location, directly or through an alias defined after its use.

module {
  // CHECK: gpu.binary @a [#gpu.object<#cpu.target, "">] loc("kernels.mlir":10:3)
  gpu.binary @a [#gpu.object<#cpu.target, "">] loc("kernels.mlir":10:3)
  // CHECK: gpu.binary @b [#gpu.object<#cpu.target, "">] loc("gen.py":42:1)
  gpu.binary @b [#gpu.object<#cpu.target, "">] loc(#loc1)
  // CHECK: gpu.binary @c [#gpu.object<#cpu.target, "">] loc("{{.*}}locations.mlir":{{[0-9]+}}:3)
  gpu.binary @c [#gpu.object<#cpu.target, "">]
  // CHECK: gpu.binary @d [#gpu.object<#cpu.target, "">] loc("step"("x.c":1:2))
  gpu.binary @d [#gpu.object<#cpu.target, "">] loc("step"("x.c":1:2))
}
#loc1 = loc("gen.py":42:1)

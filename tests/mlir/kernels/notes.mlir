// RUN: env -u CUDA_HOME PATH=/usr/bin:/bin %S/../../../tools/gpu-translate --emit=mlir --compile-kernels %s 2>&1 >%t.mlir | FileCheck %s
// RUN: gpu-object sm_80 < %t.mlir | FileCheck %s --check-prefix=PTX

// Without ptxas, an NVIDIA object is PTX, which the driver compiles when it loads it, and a note says so,
// once for each module and target, in program order, whichever finishes first (they compile side by side).

// CHECK: notes.mlir:[[# @LINE + 5]]:3: note: ptxas not found {{.*}} PTX for #nvvm.target<chip = "sm_90">,
// CHECK-NEXT: notes.mlir:[[# @LINE + 4]]:3: note: ptxas not found {{.*}} PTX for #nvvm.target<chip = "sm_80">,
// CHECK-NEXT: notes.mlir:[[# @LINE + 8]]:3: note: ptxas not found {{.*}} PTX for #nvvm.target<chip = "sm_90">,
// CHECK-NOT: note:
module attributes {gpu.container_module} {
  gpu.module @first [#nvvm.target<chip = "sm_90">, #cpu.target, #nvvm.target<chip = "sm_80">] {
    gpu.func @f() kernel {
      gpu.return
    }
  }
  gpu.module @second [#nvvm.target<chip = "sm_90">] {
    gpu.func @g() kernel {
      gpu.return
    }
  }
}

// PTX: .target sm_80
// PTX: .visible .entry f()

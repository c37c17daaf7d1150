// RUN: gpu-translate %s | FileCheck %s

// Selection: the first object by default, by index, or by target (the last equal one, as upstream).

module attributes {gpu.container_module} {
  // CHECK-DAG: @first_bin_cst = internal constant [1 x i8] c"A", align 8
  gpu.binary @first [#gpu.object<#nvvm.target, "A">, #gpu.object<#rocdl.target, "B">]
  // CHECK-DAG: @second_bin_cst = internal constant [1 x i8] c"B", align 8
  gpu.binary @second <#gpu.select_object<1>> [#gpu.object<#nvvm.target, "A">, #gpu.object<#rocdl.target, "B">]
  // CHECK-DAG: @amd_bin_cst = internal constant [3 x i8] c"AMD", align 8
  gpu.binary @amd <#gpu.select_object<#rocdl.target<chip = "gfx900">>> [#gpu.object<#nvvm.target, "NV">, #gpu.object<#rocdl.target, "AMD">]
  // CHECK-DAG: @empty_bin_cst = internal constant [0 x i8] zeroinitializer, align 8
  gpu.binary @empty [#gpu.object<#cpu.target, "">]
  // A binary nobody launches still embeds its object; a gpu.module emits nothing.
  gpu.module @signatures {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  // CHECK-NOT: signatures
}

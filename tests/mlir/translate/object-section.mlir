// RUN: gpu-translate %s | FileCheck %s

// An object's section property places its embedded global in that section, as upstream does.

module attributes {gpu.container_module} {
  // CHECK-DAG: @kernels_bin_cst = internal constant [3 x i8] c"abc", section "__nv_rel_fatbin", align 8
  gpu.binary @kernels [#gpu.object<#nvvm.target, properties = {section = "__nv_rel_fatbin"}, bin = "abc">]
  // CHECK-DAG: @fat_obj_0 = internal constant [3 x i8] c"xyz", section ".nv_fatbin", align 8
  gpu.binary @fat <#gpu.runtime_select> [#gpu.object<#nvvm.target, properties = {section = ".nv_fatbin"}, bin = "xyz">]
}

// RUN: gpu-translate --module-load=per-launch %s | FileCheck %s --check-prefixes=CHECK,PER
// RUN: gpu-translate --module-load=lazy %s | FileCheck %s --check-prefixes=CHECK,LAZY
// RUN: gpu-translate --module-load=ctor %s | FileCheck %s --check-prefixes=CHECK,CTOR

// PTX gets a NUL appended and loads through the JIT at the object's O level.

module attributes {gpu.container_module} {
  // CHECK: @ptx_bin_cst = internal constant [13 x i8] c".version 8.0\00", align 8
  gpu.binary @ptx [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {O = 3 : i32}, assembly = ".version 8.0">]
  // With no O property, the target's O level is used.
  // CHECK: @ptx2_bin_cst = internal constant [4 x i8] c"PTX\00", align 8
  gpu.binary @ptx2 [#gpu.object<#nvvm.target<O = 1>, assembly = "PTX">]
  llvm.func @f() {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    // PER: call ptr @mgpuModuleLoadJIT(ptr @ptx_bin_cst, i32 3, i64 13)
    // LAZY: call ptr @mgpuModuleGetFunctionLazy(ptr @ptx_module_cache, ptr @ptx_bin_cst, i64 13, i32 3, ptr @ptx_k_kernel_name, ptr @ptx_k_function)
    gpu.launch_func @ptx::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    // PER: call ptr @mgpuModuleLoadJIT(ptr @ptx2_bin_cst, i32 1, i64 4)
    // LAZY: call ptr @mgpuModuleGetFunctionLazy(ptr @ptx2_module_cache, ptr @ptx2_bin_cst, i64 4, i32 1,
    gpu.launch_func @ptx2::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    llvm.return
  }
  // CTOR: call ptr @mgpuModuleLoadJIT(ptr @ptx_bin_cst, i32 3, i64 13)
}

// REQUIRES: ptxas
// RUN: gpu-translate --emit=mlir %s | FileCheck %s --check-prefix=ROUND
// RUN: gpu-translate --emit=mlir %s | sed "s/, #cpu.target//" | mlir-opt-22 --mlir-print-op-generic | gpu-translate --emit=mlir - | FileCheck %s --check-prefix=ROUND
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %s > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: gpu-object sm_90 < %t.mlir > %t.ptx && ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=offload %s | gpu-object cpu | llvm-dis-22 | FileCheck %s --check-prefix=CPU
// RUN: not gpu-translate --emit=obj %S/Inputs/printf-amd.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=AMD
// RUN: not ls %t.o

// gpu.printf prints from each thread. On NVIDIA it calls the CUDA driver's vprintf with the format (in
// constant memory) and a buffer that holds the arguments as a C struct; on the CPU it calls the C
// library's printf. The arguments get C's promotions for a variadic call: f32 becomes f64, i16 becomes
// i32. tests/e2e/outline/printf.mlir checks what the CPU prints.

// ROUND: gpu.printf "thread %d: %f %hd %ld\0A", %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, f32, i16, index
// ROUND: gpu.printf "done\0A"

// PTX: .extern .func (.param .b32 func_retval0) vprintf
// PTX: .const .align 1 .b8 __mgpu_printf_format[23] = {116, 104, 114, 101, 97, 100, 32, 37, 100, 58, 32, 37, 102, 32, 37, 104, 100, 32, 37, 108, 100, 10};
// PTX: .visible .entry k(
// PTX: cvt.f64.f32
// PTX: st.local.u32 [%rd[[#B:]]],
// PTX: st.local.f64 [%rd[[#B]]+8],
// PTX: st.local.u32 [%rd[[#B]]+16],
// PTX: st.local.u64 [%rd[[#B]]+24],
// PTX: call.uni (retval0),
// PTX-NEXT: vprintf,
// PTX: st.param.b64 [param1], 0;
// PTX: call.uni (retval0),
// PTX-NEXT: vprintf,

// LLVM's own passes may make a printf without arguments a puts.
// CPU: @__mgpu_printf_format = private unnamed_addr constant [23 x i8] c"thread %d: %f %hd %ld\0A\00", align 1
// CPU: call i32 (ptr, ...) @printf(ptr {{.*}}@__mgpu_printf_format, i32 %{{.*}}, double %{{.*}}, i32 %{{.*}}, i64 %{{.*}})
// CPU: call i32 @puts(

// AMD: printf-amd.mlir:4:5: error: Invalid gpu.printf for #rocdl.target<chip = "gfx90a"> (must have ROCm's device libraries (ockl), through which AMD GPUs print)

module attributes {gpu.container_module} {
  gpu.module @p [#nvvm.target<chip = "sm_90">, #cpu.target] {
    gpu.func @k(%x: f32, %h: i16) kernel {
      %t = gpu.thread_id x
      %i = arith.index_cast %t : index to i32
      gpu.printf "thread %d: %f %hd %ld\n", %i, %x, %h, %t : i32, f32, i16, index
      gpu.printf "done\n"
      gpu.return
    }
  }
}

// A store at index 2^63-1: LLVM's optimiser states that the kernel initialises bytes [2^63-1, 2^63) of its
// argument, a range that wraps, which LLVM's bitcode reader then refused when the module went to the back end
// ("Invalid (unordered or overlapping) range list", at the gpu.module). The attribute is dropped after the
// optimiser; every target compiles the kernel, and what it stores where is unchanged.
// RUN: gpu-translate --save-temps=%t.temps %s -o %t.o
// RUN: FileCheck %s --check-prefix=PTX --input-file %t.temps/wrapping-range.m.sm_90.ptx
// PTX: add.s64 [[P:%rd[0-9]+]], %rd{{[0-9]+}}, 9223372036854775807;
// PTX: mov.b16 [[V:%rs[0-9]+]], 7;
// PTX: st.global.u8 {{\[}}[[P]]], [[V]];
// RUN: FileCheck %s --check-prefix=IR --input-file %t.temps/wrapping-range.m.sm_90.ll
// IR: define ptx_kernel void @k(
// IR-NOT: initializes
// IR-NEXT: [[P:%[0-9]+]] = getelementptr inbounds nuw i8, ptr %1, i64 9223372036854775807
// IR-NEXT: store i8 7, ptr [[P]], align 1
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">, #cpu.target] {
    gpu.func @k(%a: memref<18xi8>) kernel {
      %i = arith.constant 9223372036854775807 : index
      %v = arith.constant 7 : i8
      memref.store %v, %a[%i] : memref<18xi8>
      gpu.return
    }
  }
}

// A bitcast between bf16 and f16 goes through an i16: LLVM folds neither a bf16 constant bitcast to f16 nor
// back, and its NVPTX back end then aborted on the constant expression that was left ("Cannot select: f16 =
// bitcast ConstantFP:bf16<APFloat(16464)>", found by the kernel fuzzer). 3.25 in bf16 is 0x4050, which as an
// f16 is 2.15625; through the i16 the constant folds to that.
// RUN: gpu-translate --save-temps=%t.temps %s -o %t.o
// RUN: FileCheck %s --input-file %t.temps/bf16-f16-bitcast.m.sm_90.ll
// CHECK-LABEL: define ptx_kernel void @k(
// CHECK-NOT: bitcast (bfloat
// CHECK: fmul half %{{[0-9]+}}, 0xH4050
// CHECK: ret void
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">, #cpu.target] {
    gpu.func @k(%a: memref<4xf16>, %b: memref<4xbf16>) kernel {
      %c0 = arith.constant 0 : index
      %h = arith.constant 3.25 : bf16
      %f = arith.bitcast %h : bf16 to f16
      %r = gpu.subgroup_reduce mul %f uniform : (f16) -> f16
      memref.store %r, %a[%c0] : memref<4xf16>
      %back = arith.bitcast %r : f16 to bf16
      memref.store %back, %b[%c0] : memref<4xbf16>
      gpu.return
    }
  }
}

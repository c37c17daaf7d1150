// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir - | FileCheck %s
// RUN: gpu-translate --emit=mlir --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

// gpu.func's workgroup and private attributions are entry-block arguments after the function's own.

gpu.module @m {
  // CHECK: gpu.func @k(%arg0: f32) workgroup(%arg1 : memref<32xf32, #gpu.address_space<workgroup>>) private(%arg2 : memref<1xf32, #gpu.address_space<private>>) kernel {
  // The generic form numbers on through the file, the last region first, as upstream's does.
  // GENERIC: ^bb0(%arg3: f32, %arg4: memref<32xf32, #gpu.address_space<workgroup>>, %arg5: memref<1xf32, #gpu.address_space<private>>):
  // GENERIC: {gpu.kernel, sym_name = "k", workgroup_attributions = 1 : i64}
  gpu.func @k(%a: f32) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) kernel {
    gpu.return
  }
}

// An attribution may carry attributes after its type, kept in workgroup_attrib_attrs and private_attrib_attrs
// (one dictionary per attribution, empty for those without), as upstream keeps them.

gpu.module @attrs {
  // CHECK: gpu.func @k() workgroup(%arg0 : memref<4xf32, #gpu.address_space<workgroup>>, %arg1 : memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}) private(%arg2 : memref<2xf32, #gpu.address_space<private>> {llvm.align = 8 : i64}) kernel {
  // GENERIC: private_attrib_attrs = [{llvm.align = 8 : i64}]
  // GENERIC-SAME: workgroup_attrib_attrs = [{}, {llvm.align = 32 : i64}]
  gpu.func @k() workgroup(%a : memref<4xf32, #gpu.address_space<workgroup>>, %b : memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}) private(%c : memref<2xf32, #gpu.address_space<private>> {llvm.align = 8 : i64}) kernel {
    gpu.return
  }
}

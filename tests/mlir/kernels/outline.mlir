// RUN: gpu-translate --emit=mlir --outline-kernels %s | FileCheck %s
// RUN: gpu-translate --emit=mlir --outline-kernels --targets=nvvm:sm_90,rocdl:gfx90a,cpu %s | FileCheck %s --check-prefix=TARGETS
// RUN: gpu-translate --emit=mlir --outline-kernels --targets=nvvm:sm_90 %s | mlir-opt-22 > /dev/null
// REQUIRES: mlir-opt-22

// gpu.launch outlined as upstream's gpu-kernel-outlining does: the body becomes a kernel of its own
// gpu.module named after the function (then _0, _1, ... for the next launches); the values it uses from
// above become its arguments in order of first use, constants are copied in; the block and thread indices
// and sizes come from gpu.block_id, gpu.thread_id, gpu.grid_dim and gpu.block_dim; the launch becomes a
// gpu.launch_func with the same sizes. The kernels are for the CPU unless --targets names others (then
// the module picks its object at run time).

// CHECK-LABEL: func.func @two(
// CHECK-SAME: %[[A:[^:]*]]: f32, %[[X:[^:]*]]: memref<16xf32>, %[[N:[^:]*]]: index)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: gpu.launch_func @two_kernel::@two_kernel blocks in (%[[N]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]) args(%[[X]] : memref<16xf32>, %[[A]] : f32)
// CHECK-NEXT: gpu.launch_func @two_kernel_0::@two_kernel_0 blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[N]], %[[C1]], %[[C1]]) args(%[[X]] : memref<16xf32>)
// CHECK: gpu.module @two_kernel [#cpu.target] {
// CHECK-NEXT: gpu.func @two_kernel(%[[KX:.*]]: memref<16xf32>, %[[KA:.*]]: f32) kernel {
// CHECK-NEXT: %[[BX:.*]] = gpu.block_id x
// CHECK: gpu.block_dim z
// CHECK-NEXT: cf.br ^bb1(%[[BX]],
// CHECK: %[[V:.*]] = memref.load %[[KX]]
// CHECK-NEXT: arith.mulf %[[V]], %[[KA]] : f32
// CHECK: gpu.return
// CHECK: gpu.module @two_kernel_0 [#cpu.target] {
// CHECK-NEXT: gpu.func @two_kernel_0(%{{.*}}: memref<16xf32>) kernel {
// The constant used inside the second body is copied in, not passed.
// CHECK-NEXT: arith.constant 2.000000e+00 : f32
// CHECK: gpu.thread_id x

// TARGETS: gpu.module @two_kernel <#gpu.runtime_select> [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">, #cpu.target]
module attributes {gpu.container_module} {
  func.func @two(%a: f32, %x: memref<16xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %two = arith.constant 2.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %v = memref.load %x[%bx] : memref<16xf32>
      %r = arith.mulf %v, %a : f32
      memref.store %r, %x[%bx] : memref<16xf32>
      gpu.terminator
    }
    gpu.launch blocks(%bx2, %by2, %bz2) in (%gx2 = %c1, %gy2 = %c1, %gz2 = %c1) threads(%tx2, %ty2, %tz2) in (%sx2 = %n, %sy2 = %c1, %sz2 = %c1) {
      %v2 = memref.load %x[%tx2] : memref<16xf32>
      %r2 = arith.mulf %v2, %two : f32
      memref.store %r2, %x[%tx2] : memref<16xf32>
      gpu.terminator
    }
    return
  }
}
